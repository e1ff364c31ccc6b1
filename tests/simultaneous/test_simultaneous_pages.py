"""The simultaneous evening's pages (rules.md §20): the public combined standings and the
projector (provisional, then final), the arbiters' page creating a club's tournament from
the event, its settings shown locked, the federation file (arbiters of invited clubs only)."""
import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from tests.forms_data import tournament_settings
from tournaments.models import Tournament

from .helpers import RESULTS, club_tournament, play

pytestmark = pytest.mark.django_db


def test_public_page_and_projector_provisional_then_final(client, arbiter, clubs, event):
    ta, tb = club_tournament(arbiter, event, clubs["a"]), club_tournament(arbiter, event, clubs["b"])
    play(arbiter, ta, RESULTS["a"])
    body = client.get(reverse("simultaneous:public", args=["sim-dic"])).content.decode()
    assert "Classifica provvisoria" in body and "turni ancora aperti: Circolo B" in body
    play(arbiter, tb, RESULTS["b"])
    body = client.get(reverse("simultaneous:public", args=["sim-dic"])).content.decode()
    assert "Classifica definitiva" in body and "A1a Anna – A1b Bruno" in body and "3=" in body
    screen = client.get(reverse("simultaneous:projector", args=["sim-dic"])).content.decode()
    assert "Classifica definitiva" in screen and "B1a Anna – B1b Bruno" in screen
    event.public_enabled = False
    event.save()
    assert client.get(reverse("simultaneous:public", args=["sim-dic"])).status_code == 404


def test_a_clubs_arbiter_creates_its_tournament_from_the_event(client, clubs, event):
    from clubs.services import add_arbiter

    user = get_user_model().objects.create_user(username="arbitro-a", password="x-segreta-1")
    add_arbiter(club=clubs["a"], username="arbitro-a")
    client.force_login(user)
    page = client.get(reverse("simultaneous:list")).content.decode()
    assert "Il torneo di Circolo A" in page and "Il torneo di Circolo B" not in page
    # another club's tournament: refused, nothing created
    client.post(reverse("simultaneous:create_tournament", args=["sim-dic"]),
                {"club": clubs["b"].pk, "name": "B", "tournament_slug": "sim-b"})
    assert not Tournament.objects.filter(slug="sim-b").exists()
    # a bad address or club: a sentence, nothing created
    url = reverse("simultaneous:create_tournament", args=["sim-dic"])
    response = client.post(url, {"club": clubs["a"].pk, "name": "X", "tournament_slug": "Sim A!"}, follow=True)
    assert "Indirizzo breve non valido" in response.content.decode()
    assert client.post(url, {"club": "x", "name": "X", "tournament_slug": "sim-x"}).status_code == 302
    assert not Tournament.objects.filter(club=clubs["a"]).exists()
    response = client.post(url, {"club": clubs["a"].pk, "name": "Simultaneo al Circolo A", "tournament_slug": "sim-a"})
    assert response.status_code == 302
    t = Tournament.objects.get(slug="sim-a")
    assert (t.club, t.date, t.plan, t.hands_per_round, t.vp_scale) == (clubs["a"], event.date, "M", 4, "vp20-4h")
    # the settings page shows the event's settings disabled; a post changing them keeps them
    edit = reverse("tournament_edit", args=["sim-a"])
    assert "fissata dalla serata simultanea" in client.get(edit).content.decode()
    client.post(edit, tournament_settings(t, hands_per_round=3, venue="Sala"))
    t.refresh_from_db()
    assert (t.hands_per_round, t.venue) == (4, "Sala")


def test_federation_file_only_for_the_invited_clubs_arbiters(client, arbiter, clubs, event):
    ta, tb = club_tournament(arbiter, event, clubs["a"]), club_tournament(arbiter, event, clubs["b"])
    play(arbiter, ta, RESULTS["a"])
    play(arbiter, tb, RESULTS["b"])
    client.force_login(arbiter)
    text = client.get(reverse("simultaneous:federation_csv", args=["sim-dic"])).content.decode("utf-8-sig")
    lines = text.splitlines()
    assert lines[0].startswith("Tessera,Cognome,Nome,Circolo,Posizione,Pari merito,Posizione nel circolo")
    assert lines[1] == ",A1a,Anna,Circolo A,1,,1,t-a,1,15,600,8,Simultaneo di dicembre,2026-12-03"
    assert len(lines) == 17
    outsider = get_user_model().objects.create_user(username="altro", password="x-segreta-1")
    client.force_login(outsider)
    assert client.get(reverse("simultaneous:federation_csv", args=["sim-dic"])).status_code == 404


def test_public_page_in_english(client, arbiter, clubs, event):
    from django.conf import settings

    club_tournament(arbiter, event, clubs["a"])
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    body = client.get(reverse("simultaneous:public", args=["sim-dic"])).content.decode()
    assert "Provisional standings" in body and "rounds still open: Circolo A" in body
    assert "Simultaneous evening of" in body and "Invited clubs without a tournament: Circolo B" in body


def test_the_public_pages_are_off_until_published(client, clubs):
    from django.core.management import call_command

    call_command("simultaneous", "create", "sim-2", "--name", "Due", "--date", "2026-12-10", "--plan", "MMD",
                 "--hands", "4", "--clubs", "a,b")
    assert client.get(reverse("simultaneous:public", args=["sim-2"])).status_code == 404
    assert client.get(reverse("simultaneous:projector", args=["sim-2"])).status_code == 404
    call_command("simultaneous", "create", "sim-3", "--name", "Tre", "--date", "2026-12-10", "--plan", "MMD",
                 "--hands", "4", "--clubs", "a,b", "--public")
    assert client.get(reverse("simultaneous:projector", args=["sim-3"])).status_code == 200
