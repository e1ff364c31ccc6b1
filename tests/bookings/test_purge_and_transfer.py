"""Contacts erased after the retention, from the database and the backups (rules.md §21);
the bookings carried by a tournament's file (export, import)."""
from __future__ import annotations

import datetime
import json
import sqlite3
from io import StringIO

import pytest
from django.core.management import call_command

from bookings import purge, services
from bookings.models import Booking
from tournaments.registrations.player_data import PlayerData
from tournaments.transfer import export_data, export_tournament, import_tournament
from tournaments.transfer.backups import backup_dir


def P(last, first="Anna"):
    return PlayerData(first_name=first, last_name=last)


@pytest.fixture
def booked(tournament):
    # tournament dated 2026-11-30 (conftest); the shell books even for a past date
    services.open_bookings(tournament=tournament, cap=2)
    services.book(tournament=tournament, players=[P("Rossi"), P("Verdi")], contact="333 1234567",
                  check_window=False)
    return tournament


def test_contacts_gone_after_the_retention_only(booked):
    # 30 days after 2026-11-30 is 2026-12-30: kept on the 29th, erased on the 30th
    assert purge.purge_contacts(today=datetime.date(2026, 12, 29))["bookings"] == 0
    assert Booking.objects.get().contact == "333 1234567"
    assert purge.purge_contacts(today=datetime.date(2026, 12, 30))["bookings"] == 1
    b = Booking.objects.get()
    assert (b.contact, b.contact_purged, b.last_name_1) == ("", True, "Rossi")


def test_contacts_gone_from_the_backups_too(booked, settings):
    folder = backup_dir()
    folder.mkdir(parents=True, exist_ok=True)
    export = folder / "prova-round1-20261130T220000Z.json"
    export.write_bytes(export_tournament(booked))
    assert "333 1234567" in export.read_text()
    copy = folder / "arbitro-20261130T220000Z.sqlite3"
    with sqlite3.connect(copy) as db:  # a copy of the database's two tables involved
        db.execute('CREATE TABLE "tournaments_tournament" (id integer, date text)')
        db.execute('CREATE TABLE "bookings_booking" (tournament_id integer, contact text, contact_purged bool)')
        db.execute("INSERT INTO tournaments_tournament VALUES (?, '2026-11-30')", (booked.pk,))
        db.execute("INSERT INTO bookings_booking VALUES (?, 'anna@example.org', 0)", (booked.pk,))
    db.close()
    assert purge.purge_contacts(today=datetime.date(2027, 1, 15)) == {"bookings": 1, "backups": 2}
    assert "333 1234567" not in export.read_text()
    assert json.loads(export.read_text())["bookings"][1]["contact_purged"] is True
    assert b"anna@example.org" not in copy.read_bytes()


def test_the_command_and_the_setting(booked, settings):
    settings.BOOKINGS_CONTACT_DAYS = 0  # erased from the tournament's day on
    out = StringIO()
    call_command("purge_contacts", stdout=out)
    assert json.loads(out.getvalue())["bookings"] == 1


def test_export_carries_bookings_without_purged_contacts_and_import_restores_them(booked, arbiter):
    services.book(tournament=booked, players=[P("Neri")], contact="x@y.it", check_window=False)
    data = export_data(booked)
    assert [r.get("code") for r in data["bookings"][1:]] == list(Booking.objects.values_list("code", flat=True))
    purge.purge_contacts(today=datetime.date(2027, 1, 15))
    rows = export_data(booked)["bookings"]
    assert [r["contact"] for r in rows[1:]] == ["", ""]
    copy = import_tournament(data=export_tournament(booked), slug="copia", owner=arbiter).tournament
    assert [(b.seq, b.names, b.state) for b in copy.bookings.all()] == [
        (1, "Rossi Anna – Verdi Anna", "booked"), (2, "Neri Anna", "booked")]
    assert copy.booking_window.cap == 2 and copy.booking_window.next_seq == 3


def test_a_tournament_without_bookings_exports_as_before(tournament):
    assert "bookings" not in export_data(tournament)


def test_the_command_refuses_negative_days(db):
    from django.core.management import CommandError

    with pytest.raises(CommandError, match="tra 0 e 36500"):
        call_command("purge_contacts", "--days", "-1", stdout=StringIO())


def test_serve_runs_the_purge_as_it_starts(booked, settings):
    """``manage.py serve`` calls ``purge_old_contacts`` before listening (serve.py)."""
    from tournaments.management.commands.serve import purge_old_contacts

    settings.BOOKINGS_CONTACT_DAYS = 0
    warnings = []
    purge_old_contacts(warnings.append)
    assert warnings == [] and Booking.objects.get().contact == ""


def test_a_teams_booking_keeps_its_team_name_through_the_file_and_an_older_file_loads(arbiter):
    from tournaments import services as ts

    t = ts.create_tournament(by=arbiter, name="Squadre", slug="squadre", kind="teams", plan="DDDD",
                             date=datetime.date(2026, 11, 30))
    services.open_bookings(tournament=t, cap=2)
    services.book(tournament=t, players=[P("Rossi")], team_name="I Bucanieri", check_window=False)
    copy = import_tournament(data=export_tournament(t), slug="copia", owner=arbiter).tournament
    assert [b.names for b in copy.bookings.all()] == ["I Bucanieri (Rossi Anna)"]
    # a file written before bookings had a team name
    data = json.loads(export_tournament(t))
    for row in data["bookings"][1:]:
        del row["team_name"]
    older = import_tournament(data=json.dumps(data).encode(), slug="vecchia", owner=arbiter).tournament
    assert [b.names for b in older.bookings.all()] == ["Rossi Anna"]
