"""Automatic backups when a round is closed.

These tests commit for real (``transaction=True``): the backup runs after the close is
committed, and SQLite's online backup waits for ever while a transaction of the same
connection is open (the usual test transaction)."""
import sqlite3

import pytest
from django.db import connection
from django.urls import reverse

from tournaments import services, transfer
from tournaments.models import Round
from tournaments.transfer import backups


def fill(rnd, arbiter):
    for table in rnd.tables.filter(bye=""):
        services.save_score_sheet(table=table, hands=[services.HandInput(ns=200, ew=100)] * 4, by=arbiter,
                                  validate=True)


@pytest.mark.django_db(transaction=True)
def test_closing_a_round_writes_the_export_and_an_sqlite_copy(published, arbiter, settings):
    fill(published, arbiter)
    services.close_round(round=published, by=arbiter)

    folder = settings.ARBITRO_BACKUP_DIR
    exports = sorted(folder.glob("prova-round1-*.json"))
    assert len(exports) == 1
    assert exports[0].read_bytes() == transfer.export_tournament(published.tournament)
    assert exports[0].stat().st_mode & 0o077 == 0
    copies = sorted(folder.glob("arbitro-*.sqlite3"))
    if connection.vendor != "sqlite":
        assert copies == []
        return
    assert len(copies) == 1
    with sqlite3.connect(copies[0]) as db:   # a real database, holding the closed round
        row = db.execute("SELECT r.state FROM tournaments_round r JOIN tournaments_tournament t "
                         "ON r.tournament_id = t.id WHERE t.slug = 'prova' AND r.number = 1").fetchone()
    assert row == ("closed",)


@pytest.mark.django_db(transaction=True)
def test_only_the_last_20_of_each_kind_are_kept(published, arbiter, settings):
    folder = settings.ARBITRO_BACKUP_DIR
    for k in range(25):   # 25 older backups, 2025-01-01 00:00:k
        (folder / f"prova-round1-20250101T0000{k:02d}000000Z.json").write_text("{}")
        (folder / f"arbitro-20250101T0000{k:02d}000000Z.sqlite3").write_text("")
    (folder / "altro-round1-20240101T000000000000Z.json").write_text("{}")   # another tournament
    fill(published, arbiter)
    services.close_round(round=published, by=arbiter)

    exports = sorted(p.name for p in folder.glob("prova-round*.json"))
    assert len(exports) == 20
    assert exports[0] == "prova-round1-20250101T000006000000Z.json"      # 0..5 deleted: 25 + 1 − 20 = 6
    assert (folder / "altro-round1-20240101T000000000000Z.json").exists()
    if connection.vendor == "sqlite":
        copies = sorted(p.name for p in folder.glob("arbitro-*.sqlite3"))
        assert len(copies) == 20 and copies[0] == "arbitro-20250101T000006000000Z.sqlite3"


def test_no_sqlite_copy_inside_a_transaction(db, tmp_path):
    """Inside a transaction the online backup would wait for ever: it refuses instead (the
    on_commit callback never runs inside one)."""
    if connection.vendor == "sqlite":
        with pytest.raises(RuntimeError):
            backups.sqlite_backup(tmp_path / "copia.sqlite3")


@pytest.mark.django_db(transaction=True)
def test_a_failed_backup_never_undoes_the_close_and_is_shown(arbiter_client, published, arbiter, settings, tmp_path):
    fill(published, arbiter)
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    settings.ARBITRO_BACKUP_DIR = blocker / "backups"
    response = arbiter_client.post(reverse("round_close", args=["prova", 1]), follow=True)
    published.refresh_from_db()
    assert published.state == Round.State.CLOSED
    html = response.content.decode()
    assert "Turno 1 chiuso." in html and "il backup automatico non è riuscito" in html


def _close_by_the_view(arbiter, rnd):
    """The close view called as the WSGI server calls it: the answer first, ``close()`` once
    it has been sent. Returns the answer, not closed yet."""
    from django.contrib.messages.storage.fallback import FallbackStorage
    from django.contrib.sessions.middleware import SessionMiddleware
    from django.test import RequestFactory

    from tournaments.views import rounds as round_views

    request = RequestFactory().post(reverse("round_close", args=["prova", rnd.number]))
    request.user = arbiter
    SessionMiddleware(lambda r: None).process_request(request)
    request._messages = FallbackStorage(request)
    return round_views.round_close(request, slug="prova", number=rnd.number)


@pytest.mark.django_db(transaction=True)
def test_the_close_answers_before_the_backup_is_written(published, arbiter, settings):
    """The arbiter's next pages do not wait for the export (a 250-table tournament's is
    hundreds of milliseconds of CPU in the busiest minute): it is written once the answer
    has been sent, when the server closes it."""
    fill(published, arbiter)
    folder = settings.ARBITRO_BACKUP_DIR
    response = _close_by_the_view(arbiter, published)
    assert response.status_code == 302 and response["Location"] == reverse("round", args=["prova", 1])
    published.refresh_from_db()
    assert published.state == Round.State.CLOSED
    assert list(folder.glob("prova-round1-*.json")) == []   # not yet: the answer is on its way
    response.close()
    exports = list(folder.glob("prova-round1-*.json"))
    assert len(exports) == 1
    assert exports[0].read_bytes() == transfer.export_tournament(published.tournament)


@pytest.mark.django_db(transaction=True)
def test_a_failed_backup_is_shown_on_the_closed_rounds_page_once(arbiter_client, published, arbiter, settings,
                                                                 tmp_path):
    """A backup that failed after the browser had already followed the redirect is shown by
    the next visit of the closed round's page, and only by that one."""
    fill(published, arbiter)
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    settings.ARBITRO_BACKUP_DIR = blocker / "backups"
    response = _close_by_the_view(arbiter, published)
    page = arbiter_client.get(reverse("round", args=["prova", 1])).content.decode()
    assert "il backup automatico non è riuscito" not in page   # still running: nothing to say yet
    response.close()
    page = arbiter_client.get(reverse("round", args=["prova", 1])).content.decode()
    assert "il backup automatico non è riuscito" in page
    page = arbiter_client.get(reverse("round", args=["prova", 1])).content.decode()
    assert "il backup automatico non è riuscito" not in page


@pytest.mark.django_db(transaction=True)
def test_a_close_by_the_services_still_writes_the_backup_at_the_commit(published, arbiter, settings):
    """Outside the close view (scripts, imports of the services) nothing is deferred."""
    fill(published, arbiter)
    with backups.deferred_backups() as later:
        pass
    assert later == []
    services.close_round(round=published, by=arbiter)
    assert len(list(settings.ARBITRO_BACKUP_DIR.glob("prova-round1-*.json"))) == 1
