"""Registration files are capped, because a huge one stalled the room (100k rows accepted in
32 s, the file kept in the session). Now: at most 2000 pairs (4000 players) per file,
refused before the rest is read; the upload waits on disk under var/imports/ with a
random name and only that name is in the session; the import writes in bulk."""
import io
import os
import time

import pytest
from django.urls import reverse

from tournaments import services
from tournaments.models import AuditEntry, Pair, Player
from tournaments.registrations import previews, reading

HEADER = "coppia,cognome_1,nome_1,tessera_1,cognome_2,nome_2,tessera_2,circolo\n"


def csv_file(n: int, name: str = "iscritti.csv") -> io.BytesIO:
    lines = [HEADER] + [f"{k},Rossi{k},Anna,A{k},Verdi{k},Bruno,B{k},Circolo\n" for k in range(1, n + 1)]
    upload = io.BytesIO("".join(lines).encode())
    upload.name = name
    return upload


@pytest.fixture(autouse=True)
def var_dir(settings, tmp_path):
    settings.VAR_DIR = tmp_path
    return tmp_path


def test_2000_pairs_are_accepted():
    parsed = reading.parse("iscritti.csv", csv_file(2000).getvalue())
    assert parsed.ok and len(parsed.rows) == 2000
    assert sum(len(r.players) for r in parsed.rows) == 4000


def test_2001_pairs_are_refused_with_a_clear_message():
    parsed = reading.parse("iscritti.csv", csv_file(2001).getvalue())
    assert not parsed.ok and parsed.rows == []
    assert parsed.errors == [
        "Il file ha più di 2000 coppie (4000 giocatori): è il massimo per un torneo. "
        "Dividi il file o controlla che non contenga righe in più; nulla è stato importato."
    ]


def test_100k_rows_refused_without_reading_them_all(monkeypatch):
    """Counting stops at row 2002 (header + 2000 + one more): the rows after it are never
    turned into records."""
    seen = []
    original = reading._csv_records

    def counting(data):
        for record in original(data):
            seen.append(1)
            yield record

    monkeypatch.setattr(reading, "_csv_records", counting)
    parsed = reading.parse("iscritti.csv", csv_file(100_000).getvalue())
    assert not parsed.ok and "più di 2000 coppie" in parsed.errors[0]
    assert len(seen) == 2002


def test_blank_rows_do_not_count_toward_the_cap():
    data = csv_file(2000).getvalue() + b"\n,,,,,,,\n" * 50
    assert reading.parse("iscritti.csv", data).ok


def test_upload_kept_on_disk_not_in_session(arbiter_client, tournament, var_dir):
    url = reverse("import", args=["prova"])
    resp = arbiter_client.post(url, {"file": csv_file(30)})
    assert "30 coppie pronte" in resp.content.decode()
    stored = arbiter_client.session[registrations_session_key()]
    assert set(stored) == {"tournament", "name", "file"}
    assert len(stored["file"]) == 32 and "Rossi1" not in str(stored)
    on_disk = var_dir / "imports" / stored["file"]
    assert on_disk.exists() and b"\"Rossi1\"" in on_disk.read_bytes()  # the checked rows (parsed once)
    resp = arbiter_client.post(url, {"confirm": "1"})
    assert resp.status_code == 302
    assert Pair.objects.filter(tournament=tournament).count() == 30
    assert Player.objects.filter(tournament=tournament).count() == 60
    assert not on_disk.exists()                                  # removed after the import
    assert registrations_session_key() not in arbiter_client.session


def test_page_refuses_2001_pairs_and_keeps_nothing(arbiter_client, tournament, var_dir):
    url = reverse("import", args=["prova"])
    body = arbiter_client.post(url, {"file": csv_file(2001)}).content.decode()
    assert "più di 2000 coppie (4000 giocatori)" in body
    assert registrations_session_key() not in arbiter_client.session
    assert not any((var_dir / "imports").iterdir()) if (var_dir / "imports").exists() else True
    arbiter_client.post(url, {"confirm": "1"})
    assert Pair.objects.count() == 0


def test_expired_upload_is_removed_and_confirm_asks_for_the_file_again(arbiter_client, tournament, var_dir):
    url = reverse("import", args=["prova"])
    arbiter_client.post(url, {"file": csv_file(3)})
    path = var_dir / "imports" / arbiter_client.session[registrations_session_key()]["file"]
    old = time.time() - previews.UPLOAD_MAX_AGE - 10
    os.utime(path, (old, old))
    resp = arbiter_client.post(url, {"confirm": "1"}, follow=True)
    assert "Carica di nuovo il file." in resp.content.decode()
    assert not path.exists() and Pair.objects.count() == 0


def test_upload_name_from_session_never_leaves_var_imports(var_dir):
    assert previews.load_upload("../../etc/passwd") is None
    assert previews.load_upload("a" * 31) is None


def test_import_of_2000_pairs_writes_in_bulk(tournament, arbiter, django_assert_max_num_queries):
    rows = reading.parse("iscritti.csv", csv_file(2000).getvalue()).rows
    # 4000+ INSERTs one pair at a time before; linking the players to new members (rules.md §16)
    # adds their bulk INSERT, which SQLite's 999-parameter cap splits into about 50 statements
    with django_assert_max_num_queries(200):
        assert services.import_pairs(tournament=tournament, rows=rows, by=arbiter) == 2000
    assert Pair.objects.filter(tournament=tournament).count() == 2000
    pair = Pair.objects.get(tournament=tournament, number=1234)
    assert [p.last_name for p in Player.objects.filter(pair=pair).order_by("seat")] == ["Rossi1234", "Verdi1234"]
    assert AuditEntry.objects.get(action="registrations_imported").new == {"pairs": 2000}


def registrations_session_key():
    from tournaments.views.arbiter import SESSION_IMPORT

    return SESSION_IMPORT
