"""Deleting a tournament from the arbiter's pages: owner or superuser
only, the short address typed to confirm, the export written to the backups folder first,
POST only."""
import json
from html import unescape
from pathlib import Path

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse

from tests.i18n.conftest import english_catalogue, italian_to_english  # noqa: F401 (fixtures)
from tournaments import services, transfer
from tournaments.errors import ArbiterError
from tournaments.models import AuditEntry, Pair, Player, Round, ScoreSheet, Tournament


def url(slug="prova"):
    return reverse("tournament_delete", args=[slug])


def backups(settings):
    return sorted(Path(settings.ARBITRO_BACKUP_DIR).glob("*-deleted-*.json"))


def test_confirmation_page_names_the_tournament_and_its_counts_and_get_never_deletes(arbiter_client, published,
                                                                                      settings):
    # published: 5 pairs; round 1 drawn with 1 v 3, 2 v 4 (two played tables, two sheets) and a rest
    resp = arbiter_client.get(url())
    page = unescape(resp.content.decode())
    assert resp.status_code == 200 and "Torneo di prova" in page
    assert "5 coppie" in page and "1 turno" in page and "2 score" in page
    assert 'name="typed_slug"' in page and "csrfmiddlewaretoken" in page
    assert Tournament.objects.filter(slug="prova").exists() and backups(settings) == []
    assert ScoreSheet.objects.filter(table__round__tournament=published.tournament).count() == 2


def test_owner_deletes_after_typing_the_address_and_the_backup_keeps_everything(arbiter_client, published,
                                                                                settings):
    tournament = published.tournament
    expected = transfer.export_tournament(tournament)
    audit_rows = AuditEntry.objects.filter(tournament=tournament).count()
    resp = arbiter_client.post(url(), {"typed_slug": " prova "})
    assert resp.status_code == 302 and resp["Location"] == reverse("home")
    assert not Tournament.objects.filter(slug="prova").exists()
    assert (Pair.objects.count(), Player.objects.count(), Round.objects.count(), AuditEntry.objects.count()) \
        == (0, 0, 0, 0)
    [path] = backups(settings)
    assert path.name.startswith("prova-deleted-") and path.stat().st_mode & 0o077 == 0
    assert path.read_bytes() == expected                      # the export as it was, audit included
    assert len(json.loads(path.read_bytes())["audit"]) == audit_rows
    said = " ".join(str(m) for m in get_messages(resp.wsgi_request))
    assert "Torneo «Torneo di prova» eliminato" in said and str(path) in said
    # the backup imports back
    assert transfer.import_tournament(data=path.read_bytes()).tournament.slug == "prova"


def test_wrong_address_is_refused_and_nothing_is_deleted(arbiter_client, published, settings):
    for typed in ("", "Prova", "prova-2", "Torneo di prova"):
        resp = arbiter_client.post(url(), {"typed_slug": typed})
        assert resp.status_code == 400
        assert "Per confermare scrivi esattamente l'indirizzo breve del torneo, «prova»" in \
            unescape(resp.content.decode())
    assert Tournament.objects.filter(slug="prova").exists() and backups(settings) == []
    assert ScoreSheet.objects.count() == 2


def test_co_director_may_not_delete(client, published, arbiter, django_user_model, settings):
    co = django_user_model.objects.create_user(username="vice", password="segreta-456")
    services.add_arbiter(tournament=published.tournament, username="vice", by=arbiter)
    client.force_login(co)
    assert "delete-link" not in client.get(reverse("tournament", args=["prova"])).content.decode()
    resp = client.get(url())
    assert resp.status_code == 403 and 'name="typed_slug"' not in resp.content.decode()
    assert "Solo chi ha creato il torneo" in unescape(resp.content.decode())
    assert client.post(url(), {"typed_slug": "prova"}).status_code == 403
    assert Tournament.objects.filter(slug="prova").exists() and backups(settings) == []
    with pytest.raises(ArbiterError, match="Solo chi ha creato il torneo"):
        services.delete_tournament(tournament=published.tournament, by=co, typed_slug="prova")


def test_another_arbiter_gets_404(client, published, django_user_model, settings):
    other = django_user_model.objects.create_user(username="altro", password="segreta-456")
    client.force_login(other)
    assert client.get(url()).status_code == 404
    assert client.post(url(), {"typed_slug": "prova"}).status_code == 404
    assert Tournament.objects.filter(slug="prova").exists() and backups(settings) == []


def test_superuser_may_delete_and_owner_sees_the_link(arbiter_client, client, tournament, django_user_model,
                                                       settings):
    assert 'id="delete-link"' in arbiter_client.get(reverse("tournament", args=["prova"])).content.decode()
    admin = django_user_model.objects.create_superuser(username="admin", password="segreta-456")
    client.force_login(admin)
    assert client.post(url(), {"typed_slug": "prova"}).status_code == 302
    assert not Tournament.objects.exists() and len(backups(settings)) == 1


def test_a_played_team_tournament_goes_whole(arbiter_client, arbiter, settings):
    from tests.teams.helpers import players

    t = services.create_tournament(by=arbiter, name="Squadre", slug="squadre", date="2026-12-01", kind="teams",
                                   plan="RRR", hands_per_round=4, vp_scale="vp20-4h")
    for k in range(1, 5):
        services.add_team(tournament=t, name=f"Squadra {k}", players=players(f"T{k}p"), by=arbiter)
    services.publish_round(round=services.generate_round(tournament=t, by=arbiter), by=arbiter)
    page = unescape(arbiter_client.get(url("squadre")).content.decode())
    assert "4 squadre" in page and "1 turno" in page
    assert arbiter_client.post(url("squadre"), {"typed_slug": "squadre"}).status_code == 302
    assert not Tournament.objects.exists() and Player.objects.count() == 0


def test_delete_and_closed_import_pages_in_english(client, arbiter, published, italian_to_english):  # noqa: F811
    from django.conf import settings as django_settings

    from tests.i18n.helpers import leftovers

    client.cookies[django_settings.LANGUAGE_COOKIE_NAME] = "en"
    client.force_login(arbiter)
    html = unescape(client.get(url()).content.decode())
    assert "Delete tournament" in html and "5 pairs" in html and "1 round" in html and "2 score sheets" in html
    assert leftovers(html, italian_to_english) == []
    html = unescape(client.get(reverse("import", args=["prova"])).content.decode())
    assert "add it by hand" in html and leftovers(html, italian_to_english) == []
    html = unescape(client.get(reverse("tournament", args=["prova"])).content.decode())
    assert "Import registrations: closed" in html and leftovers(html, italian_to_english) == []
