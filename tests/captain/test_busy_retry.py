"""Captains' writes wait for SQLite's write lock without a Python lock.

``services.retry_when_busy`` retries "database is locked" quickly (busy timeout 0 during the
call) instead of sleeping in SQLite's busy handler, for at most ``RETRY_SECONDS``, then makes
one last call with the settings' busy timeout. A locked ``BEGIN IMMEDIATE`` writes nothing,
so a retried save is stored exactly once. These tests make the database "busy" by refusing
the first ``BEGIN`` attempts (the error SQLite raises while another writer holds the lock);
bench/captains.py checks the real thing under load (every sheet stored once).
"""
import json

import pytest
from django.conf import settings
from django.db import OperationalError, connection, transaction
from django.urls import reverse

from tournaments import services
from tournaments.captains import access, call_views, views, write_views
from tournaments.models import AuditEntry, ScoreSheet
from tournaments.services import guard

HANDS = [[600, 200], [400, 150], [250, 300], [300, 195]]

pytestmark = pytest.mark.skipif(settings.DATABASES["default"]["ENGINE"] != "django.db.backends.sqlite3",
                                reason="SQLite's busy handler only")


def busy_timeout() -> int:
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA busy_timeout")
        return cursor.fetchone()[0]


def settings_timeout_ms() -> int:
    return int(float(settings.DATABASES["default"].get("OPTIONS", {}).get("timeout", 5)) * 1000)


def locked_for(times: int):
    """A function that finds the database locked ``times`` times, then answers "ok";
    ``calls`` records the busy timeout in force at each call."""
    calls = []

    def write():
        calls.append(busy_timeout())
        if len(calls) <= times:
            raise OperationalError("database is locked")
        return "ok"

    return write, calls


def test_locked_database_is_retried_quickly_then_the_timeout_is_restored(transactional_db):
    write, calls = locked_for(3)
    assert services.retry_when_busy(write)() == "ok"
    # 3 refusals + the call that went through, all with SQLite's busy handler off.
    assert calls == [0, 0, 0, 0]
    assert busy_timeout() == settings_timeout_ms()


def test_other_database_errors_are_not_retried(transactional_db):
    calls = []

    def write():
        calls.append(1)
        raise OperationalError("no such table: nowhere")

    with pytest.raises(OperationalError, match="no such table"):
        services.retry_when_busy(write)()
    assert calls == [1]
    assert busy_timeout() == settings_timeout_ms()


def test_inside_a_transaction_the_call_goes_straight_through(transactional_db):
    write, calls = locked_for(1)
    with transaction.atomic():
        with pytest.raises(OperationalError, match="locked"):
            services.retry_when_busy(write)()
    assert len(calls) == 1


def test_retries_are_bounded_then_the_settings_timeout_takes_over(transactional_db, monkeypatch):
    monkeypatch.setattr(guard, "RETRY_SECONDS", 0.02)
    write, calls = locked_for(10_000)
    with pytest.raises(OperationalError, match="locked"):
        services.retry_when_busy(write)()
    # some quick tries (0.5 ms doubling to 4 ms within 20 ms), then one last call with the
    # busy handler back on
    assert 2 <= len(calls) < 40
    assert set(calls[:-1]) == {0} and calls[-1] == settings_timeout_ms()


class Attempts(list):
    """The ``BEGIN`` attempts; ``rearm(n)``: the next ``n`` fail again."""

    fails = 0

    def rearm(self, times: int) -> None:
        self.clear()
        self.fails = times


def lock_first_begins(monkeypatch, times: int) -> Attempts:
    """Make the first ``times`` ``BEGIN IMMEDIATE`` of the connection fail as when another
    writer holds SQLite's write lock; returns the list of attempts."""
    attempts = Attempts()
    attempts.rearm(times)
    original = connection._start_transaction_under_autocommit

    def begin():
        attempts.append(1)
        if len(attempts) <= attempts.fails:
            raise OperationalError("database is locked")
        original()

    monkeypatch.setattr(connection, "_start_transaction_under_autocommit", begin)
    return attempts


def test_a_save_that_found_the_database_busy_is_stored_once(transactional_db, tournament, make_pairs, arbiter,
                                                            monkeypatch):
    """Expected totals by hand: N/S 600+400+250+300 = 1550 MP, E/O 200+150+300+195 = 845 MP."""
    make_pairs(tournament, 8)
    rnd = services.publish_round(round=services.generate_round(tournament=tournament, by=arbiter), by=arbiter,
                                 acknowledge_warnings=True)
    table = rnd.tables.get(number=2)
    attempts = lock_first_begins(monkeypatch, 3)
    sheet = services.save_score_sheet(table=table, hands=[services.HandInput(ns=a, ew=b) for a, b in HANDS],
                                      by=services.Actor(label="capitano N/S tavolo 2"), expected_version=0)
    assert len(attempts) == 4
    sheet = ScoreSheet.objects.get(pk=sheet.pk)
    assert (sheet.version, sheet.mp_ns, sheet.mp_ew, sheet.hands.count()) == (1, 1550, 845, 4)
    assert AuditEntry.objects.filter(action="sheet_saved", table_number=2).count() == 1


def test_captain_save_and_confirm_through_a_busy_database(transactional_db, tournament, make_pairs, arbiter,
                                                         monkeypatch, client):
    from django.core.cache import cache
    from django.test import Client

    cache.clear()
    make_pairs(tournament, 8)
    rnd = services.publish_round(round=services.generate_round(tournament=tournament, by=arbiter), by=arbiter,
                                 acknowledge_warnings=True)
    table = rnd.tables.get(number=3)
    attempts = lock_first_begins(monkeypatch, 2)
    response = client.post(reverse("captain_save", args=[table.token]), content_type="application/json",
                           data=json.dumps({"line": "ns", "hands": HANDS, "version": 0}))
    assert response.status_code == 200, response.content
    assert response.json()["sheet"]["mp"] == [1550, 845] and len(attempts) == 3
    attempts.rearm(2)
    response = Client().post(reverse("captain_confirm", args=[table.token]), content_type="application/json",
                             data=json.dumps({"line": "ew", "version": 1}))
    assert response.status_code == 200, response.content
    assert response.json()["sheet"]["state"] == "confirmed" and len(attempts) == 3
    sheet = ScoreSheet.objects.get(table=table)
    assert (sheet.version, sheet.state) == (2, "confirmed")
    assert AuditEntry.objects.filter(table_number=3, action__in=["sheet_saved", "sheet_confirmed"]).count() == 2
    cache.clear()


def test_no_python_lock_serialises_the_captains_writes():
    """The brief: writes are serialised by the database, never by a Python lock."""
    for module in (access, views, write_views, call_views):
        assert not hasattr(module, "_WRITERS")
        assert "threading" not in module.__dict__
