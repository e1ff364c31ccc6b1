"""An erased member leaves no trace in the SQLite database files (docs/security.md): with
``secure_delete`` on and the write-ahead log checkpointed after the erasure, neither the
database file nor its ``-wal`` holds his membership number or his name.

The suite's SQLite database lives in memory; this test copies it (migrated, empty) into a
file and points the default connection at that file for its duration, so the server's own
settings (``OPTIONS``: WAL, ``secure_delete``) apply as on a club's laptop.
"""
import datetime
import sqlite3

import pytest
from django.db import connection

from members import services as member_services
from members.models import Member
from tournaments import services

from .helpers import pair

NUMBER, LAST, FIRST = "880007", "Zanzottera", "Ermenegilda"


@pytest.fixture
def file_database(transactional_db, tmp_path):
    """The default connection on a file copy of the test database; restored afterwards."""
    if connection.vendor != "sqlite":
        pytest.skip("the SQLite database files only (PostgreSQL: nothing to scrub, docs/security.md)")
    connection.ensure_connection()
    memory, memory_name = connection.connection, connection.settings_dict["NAME"]
    path = tmp_path / "arbitro.sqlite3"
    target = sqlite3.connect(path)
    memory.backup(target)
    target.close()
    connection.connection = None  # kept in `memory`: the in-memory database lives while it is open
    connection.settings_dict["NAME"] = str(path)
    try:
        yield path
    finally:
        connection.close()
        connection.settings_dict["NAME"] = memory_name
        connection.connection = memory


def _held(path, needles) -> dict:
    """How many times each of ``needles`` (str) is in the bytes of ``path`` and its -wal."""
    found = {}
    for part in (path, path.with_name(path.name + "-wal")):
        data = part.read_bytes() if part.exists() else b""
        for needle in needles:
            found[(part.name, needle)] = data.count(needle.encode())
    return found


def test_the_database_files_hold_no_erased_name_nor_number(file_database, arbiter):
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA journal_mode")
        assert cursor.fetchone()[0] == "wal"  # the settings' init_command ran on the file
    t = services.create_tournament(by=arbiter, name="Giovedì", slug="gio", date=datetime.date(2026, 12, 3))
    services.add_pair(tournament=t, by=arbiter, players=pair((LAST, FIRST, NUMBER), ("Neri", "Ada")))
    member = Member.objects.get(membership_number=NUMBER)
    before = _held(file_database, (NUMBER, LAST, FIRST))
    assert before[("arbitro.sqlite3-wal", LAST)] > 0  # written, so the check below can see it

    member_services.erase_member(member=member, by=arbiter)

    after = _held(file_database, (NUMBER, LAST, FIRST))
    assert after == {key: 0 for key in after}, after
    assert Member.objects.get(pk=member.pk).display_name == f"Socio cancellato #{member.pk}"
    assert "Neri" in t.pairs.get().name  # the partner stays
