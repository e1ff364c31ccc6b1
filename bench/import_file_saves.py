"""Benchmark: captains keep saving while the arbiter imports a 2000-pair TOURNAMENT FILE.

Run: ``.venv/bin/python bench/import_file_saves.py [--pairs 2000] [--tables 20]``.

1. A temporary ``ARBITRO_VAR_DIR`` (SQLite, WAL, IMMEDIATE transactions as in production),
   migrated; tournament "sala" with round 1 published (``--tables`` tables); tournament
   "grande" with ``--pairs`` pairs (4000 players), exported to a file.
2. One thread (the arbiter, Django's test client: the real views) uploads that file to
   ``/tornei/importa-file/``: everything is read and checked outside the transaction, then
   written in one short transaction of bulk inserts.
3. Meanwhile another thread (the captains) POSTs sheets as JSON to ``/c/<token>/salva/`` of
   "sala", one every 10 ms, from before the upload until after it; each latency is kept.

Prints figures; the LAST line is exactly
``import_file_saves: N pairs imported in X ms, S captain saves, max Z ms, p99 W ms``.
Target: Z ≤ 1000 ms for N = 2000 (``tests/transfer/test_import_lock.py`` asserts it).
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT / "bench"]
sys.path.insert(0, str(ROOT))

from bench.import_saves import HANDS, OTHER, percentile, registration_csv  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=2000)
    parser.add_argument("--tables", type=int, default=20)
    args = parser.parse_args()

    import warnings

    warnings.filterwarnings("ignore", message="No directory at")
    var = tempfile.mkdtemp(prefix="arbitro-bench-import-file-")
    os.environ["ARBITRO_VAR_DIR"] = var
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import datetime

    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.files.uploadedfile import SimpleUploadedFile
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client

    from tournaments import services, transfer
    from tournaments.models import Pair, Tournament
    from tournaments.registrations import reading

    call_command("migrate", verbosity=0)
    arbiter = get_user_model().objects.create_user(username="arbitro", password="segreta-123")
    room = services.create_tournament(by=arbiter, name="Sala", slug="sala", date=datetime.date(2026, 5, 1))
    for k in range(1, 2 * args.tables + 1):
        services.add_pair(tournament=room, by=arbiter, players=[
            services.PlayerData(first_name="Anna", last_name=f"Sala{k}"),
            services.PlayerData(first_name="Bruno", last_name=f"Sala{k}b")])
    rnd = services.publish_round(round=services.generate_round(tournament=room, by=arbiter), by=arbiter,
                                 acknowledge_warnings=True)
    tokens = [t.token for t in rnd.tables.filter(bye="").order_by("number")]
    big = services.create_tournament(by=arbiter, name="Grande", slug="grande", date=datetime.date(2026, 5, 2))
    services.import_pairs(tournament=big, rows=reading.parse("x.csv", registration_csv(args.pairs)).rows,
                          by=arbiter)
    data = transfer.export_tournament(big)
    connection.close()

    done = threading.Event()
    latencies: list[float] = []
    versions = {token: 0 for token in tokens}
    failures: list[int] = []

    def captains():
        phone = Client()
        k = 0
        while not done.is_set():
            token = tokens[k % len(tokens)]
            body = {"line": "ns", "hands": HANDS if versions[token] % 2 == 0 else OTHER,
                    "version": versions[token], "declared": None}
            start = time.perf_counter()
            response = phone.post(f"/c/{token}/salva/", data=json.dumps(body), content_type="application/json")
            latencies.append((time.perf_counter() - start) * 1000)
            if response.status_code == 200:
                versions[token] = response.json()["sheet"]["version"]
            else:
                failures.append(response.status_code)
            k += 1
            time.sleep(0.01)
        from django.db import connection as conn
        conn.close()

    desk = Client()
    desk.force_login(arbiter)
    thread = threading.Thread(target=captains)
    thread.start()
    time.sleep(0.3)
    t0 = time.perf_counter()
    response = desk.post("/tornei/importa-file/", {"file": SimpleUploadedFile("grande.json", data), "slug": "",
                                                   "name": ""})
    t1 = time.perf_counter()
    time.sleep(0.3)
    done.set()
    thread.join()
    copy = Tournament.objects.exclude(pk__in=[room.pk, big.pk]).first()
    imported = Pair.objects.filter(tournament=copy).count() if copy else 0
    connection.close()
    import shutil

    shutil.rmtree(var, ignore_errors=True)
    print(f"file: {len(data) // 1024} KB; upload answered {response.status_code} in {(t1 - t0) * 1000:.0f} ms")
    print(f"captain saves: {len(latencies)}, refused: {len(failures)} {sorted(set(failures))}")
    print(f"import_file_saves: {imported} pairs imported in {(t1 - t0) * 1000:.0f} ms, {len(latencies)} captain "
          f"saves, max {max(latencies or [0]):.0f} ms, p99 {percentile(latencies or [0], 99):.0f} ms")


if __name__ == "__main__":
    main()
