"""The prize page, the standings page's prizes, the ceremony PDF and the projector (rules.md §18)."""
import datetime

import pytest

from tests.championships.helpers import pairs_evening, people
from tests.i18n.conftest import english_catalogue  # noqa: F401 (the compiled English catalogue)
from tournaments.models import Tournament


@pytest.fixture
def evening(arbiter):
    # 4 pairs, one round: VP 20, 10, 10, 0 → 1, 2=, 2=, 4
    return pairs_evening(arbiter, "sera", datetime.date(2026, 11, 5), people("P", 4), {1: 20, 2: 10, 3: 10, 4: 0})


def test_prize_page_saves_lines_and_the_standings_show_the_winners(arbiter_client, evening):
    r = arbiter_client.post("/tornei/sera/premi/", {"action": "save", "prizes": "1° assoluto | assoluto\n\n"
                                                     "2° assoluto | overall\n3° assoluto | assoluto"})
    assert r.status_code == 302
    t = Tournament.objects.get(slug="sera")
    assert t.prize_list == [{"prize": "1° assoluto", "scope": "overall"}, {"prize": "2° assoluto", "scope": "overall"},
                            {"prize": "3° assoluto", "scope": "overall"}]
    body = arbiter_client.get("/tornei/sera/classifica/").content.decode()
    assert 'id="standings-prizes"' in body
    # 2° and 3° go to the pairs sharing 2nd, in the standings' order, both ex aequo
    assert body.count("(ex aequo)") == 2 and "P1a Anna – P1b Bruno" in body


def test_a_line_without_scope_is_refused_and_nothing_changes(arbiter_client, evening):
    r = arbiter_client.post("/tornei/sera/premi/", {"action": "save", "prizes": "1° assoluto"}, follow=True)
    assert "Riga 1" in r.content.decode()
    assert Tournament.objects.get(slug="sera").prize_list == []


def test_copy_pdf_and_projector_after_the_last_round(arbiter_client, arbiter, evening):
    arbiter_client.post("/tornei/sera/premi/", {"action": "save", "prizes": "Primo | assoluto"})
    pairs_evening(arbiter, "dopo", datetime.date(2026, 11, 12), people("Q", 2), {1: 0, 2: 20})
    arbiter_client.post("/tornei/dopo/premi/", {"action": "copy", "source": "sera"})
    assert Tournament.objects.get(slug="dopo").prize_list == [{"prize": "Primo", "scope": "overall"}]
    pdf = arbiter_client.get("/tornei/dopo/documenti/premi.pdf")
    assert pdf.content.startswith(b"%PDF")
    t = Tournament.objects.get(slug="dopo")
    t.projector_enabled = True
    t.save()
    # one round, plan "M": the final standings; screens: tables, standings, prizes
    body = arbiter_client.get("/p/dopo/proiettore/?s=2").content.decode()
    assert 'id="projector-prizes"' in body and "Q2a Anna – Q2b Bruno" in body


def textarea(body):
    return body.split('name="prizes"', 1)[1].split(">", 1)[1].split("</textarea>", 1)[0]


def test_a_copied_list_fills_the_box_with_the_words_the_arbiter_types(arbiter_client, arbiter, evening):
    """The help text says «Ambito: assoluto, girone:2, categoria:Dame»: after a copy (or a save)
    the box shows those words, never the stored English ones; in English the English ones."""
    from tournaments.services import prizes as prize_services

    prize_services.set_prize_list(tournament=evening, by=arbiter, prizes=[
        {"prize": "1° assoluto", "scope": "overall"}, {"prize": "1° girone 2", "scope": "group:2"},
        {"prize": "1ª coppia Dame", "scope": "category:Dame"}])
    pairs_evening(arbiter, "dopo", datetime.date(2026, 11, 12), people("Q", 2), {1: 0, 2: 20})
    r = arbiter_client.post("/tornei/dopo/premi/", {"action": "copy", "source": "sera"}, follow=True)
    box = textarea(r.content.decode())
    assert box.splitlines() == ["1° assoluto | assoluto", "1° girone 2 | girone:2", "1ª coppia Dame | categoria:Dame"]
    assert "overall" not in box and "category" not in box and "group" not in box
    # saving the box as it is changes nothing
    arbiter_client.post("/tornei/dopo/premi/", {"action": "save", "prizes": box})
    assert Tournament.objects.get(slug="dopo").prize_list == Tournament.objects.get(slug="sera").prize_list
    arbiter_client.cookies["django_language"] = "en"
    english = textarea(arbiter_client.get("/tornei/dopo/premi/").content.decode())
    assert english.splitlines() == ["1° assoluto | overall", "1° girone 2 | group:2", "1ª coppia Dame | category:Dame"]


def test_a_copy_made_in_english_is_stored_in_italian_and_read_in_each_language(arbiter_client, arbiter, evening,
                                                                               english_catalogue):  # noqa: F811
    """The copy's reason is the software's (services.audit.SOFTWARE_REASONS): stored in Italian
    whatever the arbiter's language, read in the reader's."""
    from django.conf import settings
    from django.utils import translation

    from tournaments.models import AuditEntry
    from tournaments.services import prizes as prize_services

    prize_services.set_prize_list(tournament=evening, by=arbiter, prizes=[{"prize": "Primo", "scope": "overall"}])
    dopo = pairs_evening(arbiter, "dopo", datetime.date(2026, 11, 12), people("Q", 2), {1: 0, 2: 20})
    with translation.override("en"):
        prize_services.copy_prize_list(tournament=dopo, source=Tournament.objects.get(slug="sera"), by=arbiter)
    assert AuditEntry.objects.get(tournament=dopo, action="prize_list").reason == "copiati da sera"
    assert "copiati da sera" in arbiter_client.get("/tornei/dopo/registro/").content.decode()
    arbiter_client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    english = arbiter_client.get("/tornei/dopo/registro/").content.decode()
    assert "copied from sera" in english and "copiati da" not in english


def test_the_registro_shows_each_prize_with_its_money(arbiter_client, evening):
    """The Registro's prize list reads as typed on the prize page, money included (rules.md §21):
    a change of the money alone shows as a change."""
    arbiter_client.post("/tornei/sera/premi/", {"action": "save", "prizes": "1° assoluto | assoluto | 50%"})
    arbiter_client.post("/tornei/sera/premi/", {"action": "save", "prizes": "1° assoluto | assoluto | 40.00"})
    body = arbiter_client.get("/tornei/sera/registro/").content.decode()
    assert "premi: 1° assoluto | assoluto | 50.00%" in body       # the first list, then the old value (stored with 2 decimals)
    assert "premi: 1° assoluto | assoluto | 40.00" in body        # the new value
