"""Benchmark: captains keep saving while the arbiter imports a 2000-pair file (the import's
write transaction must not keep the room waiting).

Run: ``.venv/bin/python bench/import_saves.py [--pairs 2000] [--tables 20]``.

1. Makes a temporary ``ARBITRO_VAR_DIR`` (SQLite, WAL, the settings' IMMEDIATE
   transactions), migrates it and sets up through the services tournament "sala" with
   round 1 published (``--tables`` tables) and an empty tournament "nuovo".
2. One thread (the arbiter, Django's test client: the real views, no network) uploads a
   CSV of ``--pairs`` pairs to "nuovo" (preview), then confirms the import; its phases
   are timed.
3. Meanwhile another thread (the captains, test client) POSTs sheets as JSON to
   ``/c/<token>/salva/`` in turn over the tables of "sala", one every 10 ms, from just
   before the upload until just after the import; every save's latency is kept.

Prints figures and asserts nothing; the LAST line is exactly
``import_saves: N pairs imported in X ms (write Y ms), S captain saves, max Z ms, p99 W ms``.
Target (a 250-table room): Z < 1000 ms for N = 2000.
"""
from __future__ import annotations

import argparse
import io
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

HANDS = [[600, 200], [400, 150], [250, 300], [300, 195]]
OTHER = [[600, 200], [400, 150], [250, 300], [300, 200]]


def percentile(values: list[float], q: float) -> float:
    """The q-th percentile (0–100) by the nearest-rank method."""
    ordered = sorted(values)
    rank = max(1, min(len(ordered), round(q / 100 * len(ordered) + 0.5)))
    return ordered[rank - 1]


def registration_csv(n: int) -> bytes:
    lines = ["coppia,cognome_1,nome_1,tessera_1,cognome_2,nome_2,tessera_2,circolo\n"]
    lines += [f"{k},Rossi{k},Anna,A{k},Verdi{k},Bruno,B{k},Circolo\n" for k in range(1, n + 1)]
    return "".join(lines).encode()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=2000)
    parser.add_argument("--tables", type=int, default=20)
    args = parser.parse_args()

    import warnings

    warnings.filterwarnings("ignore", message="No directory at")   # no collectstatic: no pages served
    var = tempfile.mkdtemp(prefix="arbitro-bench-import-")
    os.environ["ARBITRO_VAR_DIR"] = var
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import datetime

    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client

    from tournaments import services
    from tournaments.models import Pair

    call_command("migrate", verbosity=0)
    arbiter = get_user_model().objects.create_user(username="arbitro", password="segreta-123")
    room = services.create_tournament(by=arbiter, name="Sala", slug="sala", date=datetime.date(2026, 5, 1))
    for k in range(1, 2 * args.tables + 1):
        services.add_pair(tournament=room, by=arbiter, players=[
            services.PlayerData(first_name="Anna", last_name=f"Sala{k}"),
            services.PlayerData(first_name="Bruno", last_name=f"Sala{k}b"),
        ])
    rnd = services.publish_round(round=services.generate_round(tournament=room, by=arbiter), by=arbiter,
                                 acknowledge_warnings=True)
    tokens = [t.token for t in rnd.tables.filter(bye="").order_by("number")]
    target = services.create_tournament(by=arbiter, name="Nuovo", slug="nuovo", date=datetime.date(2026, 5, 2))
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
            hands = HANDS if versions[token] % 2 == 0 else OTHER
            body = {"line": "ns", "hands": hands, "version": versions[token], "declared": None}
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
    data = registration_csv(args.pairs)
    thread = threading.Thread(target=captains)
    thread.start()
    time.sleep(0.3)
    upload = io.BytesIO(data)
    upload.name = "iscritti.csv"
    t0 = time.perf_counter()
    preview = desk.post("/tornei/nuovo/importa/", {"file": upload})
    t1 = time.perf_counter()
    confirm = desk.post("/tornei/nuovo/importa/", {"confirm": "1"})
    t2 = time.perf_counter()
    time.sleep(0.3)
    done.set()
    thread.join()

    from tournaments.services import entrants as pair_services

    imported = Pair.objects.filter(tournament=target).count()
    rows = __import__("tournaments.registrations.reading", fromlist=["parse"]).parse("x.csv", data).rows
    # the write transaction alone, measured again on a fresh tournament
    again = services.create_tournament(by=arbiter, name="Ancora", slug="ancora", date=datetime.date(2026, 5, 3))
    w0 = time.perf_counter()
    pair_services.import_pairs(tournament=again, rows=rows, by=arbiter)
    write_ms = (time.perf_counter() - w0) * 1000

    connection.close()
    import shutil

    shutil.rmtree(var, ignore_errors=True)
    print(f"preview (upload + parse + store on disk): {(t1 - t0) * 1000:.0f} ms, status {preview.status_code}")
    print(f"confirm (parse again + import): {(t2 - t1) * 1000:.0f} ms, status {confirm.status_code}")
    print(f"captain saves: {len(latencies)}, refused: {len(failures)} {sorted(set(failures))}")
    if latencies:
        print(f"captain save latency: p50 {percentile(latencies, 50):.0f} ms, p99 {percentile(latencies, 99):.0f} ms, "
              f"max {max(latencies):.0f} ms")
    print(f"import_saves: {imported} pairs imported in {(t2 - t1) * 1000:.0f} ms (write {write_ms:.0f} ms), "
          f"{len(latencies)} captain saves, max {max(latencies or [0]):.0f} ms, p99 {percentile(latencies or [0], 99):.0f} ms")


if __name__ == "__main__":
    main()
