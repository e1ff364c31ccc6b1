"""Benchmark: 250+ table captains submit their score sheets at once (rules.md §3: one
captain enters, the other line's captain confirms).

Run: ``.venv/bin/python bench/captains.py [--pairs 500] [--workers 24] [--port 0]``.

1. Makes a temporary ``ARBITRO_VAR_DIR`` (SQLite, WAL), sets its database up as ``make setup``
   does (``prepare_database``: migrated, or copied from the test suite's template) and sets
   up, through the services, a tournament of ``--pairs`` pairs (≥ 500 → ≥ 250 tables)
   with round 1 (Mitchell) published.
2. Starts the server the way ``make run`` does (``manage.py serve`` = waitress, its
   default threads) on a free loopback port.
3. Every captain (a thread of a pool of ``--workers``, plain ``http.client`` with its
   own cookie and CSRF handling) GETs his table's page, POSTs the sheet as JSON with
   ``X-CSRFToken``, then POSTs the very same sheet again (a lost answer on a flaky
   Wi-Fi): the second must store nothing. Captains arrive at random moments of the
   first ``--spread`` seconds (default 30: the whole room finishing its round within
   half a minute); ``--spread 0`` sends them all at once, a stress test where the
   latency is mostly queueing (concurrency ÷ throughput).
4. Checks in the database that every sheet was stored exactly once (version 1, one
   ``sheet_saved`` audit entry, no correction) and stops the server.

Only loopback traffic; every loop is bounded. Prints figures, asserts nothing; the
LAST line is exactly ``captains: N submitted, M stored once, p50 X ms, p99 Y ms``
(latency of the POSTs, first and repeated). Target: N = M ≥ 250, all within 60 s,
p99 ≤ 150 ms.
"""
from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# Run as a script, sys.path[0] is bench/: put the project first instead.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT / "bench"]
sys.path.insert(0, str(ROOT))

HOST = "127.0.0.1"
#: Where the test suite keeps its migrated SQLite template (tests/db_template.py), read before
#: a bench points ``ARBITRO_VAR_DIR`` at its temporary folder.
TEMPLATE_DIR = Path(os.environ.get("ARBITRO_VAR_DIR") or ROOT / "var") / "test-db"


def prepare_database(python: str, env: dict) -> None:
    """``make setup``'s database steps in the bench's temporary var dir (``env``: the server's
    environment): ``bench/setup_database.py`` in one process, copying the test suite's migrated
    SQLite template from :data:`TEMPLATE_DIR` when there is one for today's migrations,
    migrating otherwise."""
    subprocess.run([python, str(ROOT / "bench" / "setup_database.py"), str(TEMPLATE_DIR)],
                   cwd=ROOT, env=env, check=True)


def start_server(command: list[str], **popen) -> subprocess.Popen:
    """Start a server process whose stderr goes to a temporary file, never to a pipe: a pipe
    nobody reads fills after 64 KB of log lines (waitress warns of its task queue's depth
    under load) and the server's event loop then blocks writing the next one, stalling every
    connection. :func:`server_log` reads the file's tail."""
    log = tempfile.TemporaryFile("w+", encoding="utf-8")
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=log, text=True, **popen)
    proc.log = log
    return proc


def server_log(proc: subprocess.Popen, chars: int = 2000) -> str:
    """The last ``chars`` characters the server started by :func:`start_server` wrote on stderr."""
    proc.log.flush()
    proc.log.seek(0)
    return proc.log.read()[-chars:]


#: Ports for the servers a bench or a test starts: below Linux's ephemeral range (32768–60999
#: by default), from which the kernel picks the local port of every outgoing connection.
SERVER_PORTS = range(20000, 32000)


def free_port() -> int:
    """A port no socket holds now, for a server about to start on :data:`HOST`.

    Not a port the kernel hands out for ``bind(0)``: that comes from the ephemeral range,
    where the load clients' own connections (a thousand phones) take their local ports, and
    one of them sometimes took it before the server bound it ("Address already in use").
    Raises OSError when none of 200 random tries is free."""
    for _ in range(200):
        port = random.choice(SERVER_PORTS)
        with socket.socket() as s:
            try:
                s.bind((HOST, port))
            except OSError:
                continue
            return port
    raise OSError("no free port for the server between 20000 and 32000")


def percentile(values: list[float], q: float) -> float:
    """The q-th percentile (0–100) by the nearest-rank method."""
    ordered = sorted(values)
    rank = max(1, min(len(ordered), round(q / 100 * len(ordered) + 0.5)))
    return ordered[rank - 1]


def setup_tournament(n_pairs: int, hands: int) -> list[tuple[int, str]]:
    """Create the tournament and publish round 1; returns [(table number, token)] of playing tables."""
    import django

    django.setup()
    from datetime import date

    from django.contrib.auth import get_user_model

    from tournaments import services
    from tournaments.registrations import RegistrationRow

    user = get_user_model().objects.create_user(username="bench", password="bench-password")
    tournament = services.create_tournament(by=user, name="Bench capitani", slug="bench", date=date.today(),
                                            hands_per_round=hands, vp_scale=f"vp20-{hands}h", plan="MMMD")
    rows = [
        RegistrationRow(row=k + 1, number=k, players=(
            services.PlayerData(first_name=f"Anna{k}", last_name=f"Rossi{k}", membership_number=f"A{k}"),
            services.PlayerData(first_name=f"Bruno{k}", last_name=f"Verdi{k}", membership_number=f"B{k}"),
        ))
        for k in range(1, n_pairs + 1)
    ]
    services.import_pairs(tournament=tournament, rows=rows, by=user)
    rnd = services.generate_round(tournament=tournament, by=user)
    rnd = services.publish_round(round=rnd, by=user, acknowledge_warnings=True)
    tables = list(rnd.tables.filter(bye="").order_by("number").values_list("number", "token"))
    from django.db import connections

    connections.close_all()
    return tables


def check_stored_once(numbers: list[int]) -> tuple[int, dict]:
    """Count tables whose sheet was stored exactly once; also return the version histogram."""
    from django.db.models import Count, Q

    from tournaments.models import AuditEntry, ScoreSheet

    saved = dict(
        AuditEntry.objects.filter(action__in=["sheet_saved", "sheet_corrected"], table_number__in=numbers)
        .values_list("table_number").annotate(n=Count("id", filter=Q(action="sheet_saved")))
    )
    corrected = set(
        AuditEntry.objects.filter(action="sheet_corrected", table_number__in=numbers).values_list(
            "table_number", flat=True)
    )
    versions = dict(ScoreSheet.objects.filter(table__number__in=numbers).values_list("table__number", "version"))
    histogram: dict[int, int] = {}
    for v in versions.values():
        histogram[v] = histogram.get(v, 0) + 1
    once = sum(1 for n in numbers if versions.get(n) == 1 and saved.get(n) == 1 and n not in corrected)
    return once, histogram


def random_sheet(seed: int, hands: int) -> list[list[int]]:
    rnd = random.Random(seed)
    return [[5 * rnd.randint(-40, 300), 5 * rnd.randint(-40, 300)] for _ in range(hands)]


def captain(port: int, number: int, token: str, hands: int) -> dict:
    """One captain: GET the page, POST the sheet, POST it again. Returns timings (ms) and statuses."""
    conn = http.client.HTTPConnection(HOST, port, timeout=30)
    out = {"table": number, "get_ms": None, "post_ms": [], "status": []}
    try:
        t0 = time.perf_counter()
        conn.request("GET", f"/c/{token}/", headers={"Accept": "text/html"})
        response = conn.getresponse()
        html = response.read().decode()
        out["get_ms"] = (time.perf_counter() - t0) * 1000
        out["status"].append(response.status)
        cookies = {}
        for name, value in response.getheaders():
            if name.lower() == "set-cookie":
                key, _, rest = value.partition("=")
                cookies[key.strip()] = rest.split(";", 1)[0]
        csrf = cookies.get("csrftoken", "")
        data = json.loads(re.search(r'<script id="captain-data" type="application/json">(.*?)</script>',
                                    html, re.S).group(1))
        body = json.dumps({"line": "ns" if number % 2 else "ew", "hands": random_sheet(number, hands),
                           "declared": None, "version": data["sheet"]["version"]})
        headers = {"Content-Type": "application/json", "Accept": "application/json", "X-CSRFToken": csrf,
                   "Cookie": f"csrftoken={csrf}"}
        for _ in range(2):  # the sheet, then the same sheet again
            t0 = time.perf_counter()
            conn.request("POST", f"/c/{token}/salva/", body=body, headers=headers)
            response = conn.getresponse()
            response.read()
            out["post_ms"].append((time.perf_counter() - t0) * 1000)
            out["status"].append(response.status)
    except Exception as exc:  # noqa: BLE001 - reported, never raised: a benchmark prints figures
        out["error"] = repr(exc)
    finally:
        conn.close()
    return out


def warm_up(port: int, token: str) -> None:
    """Two GETs so the server's first-request costs (templates, catalogues) are not timed."""
    for path in ("/c/", f"/c/{token}/"):
        conn = http.client.HTTPConnection(HOST, port, timeout=10)
        conn.request("GET", path)
        conn.getresponse().read()
        conn.close()


def stop_server(proc: subprocess.Popen) -> None:
    """Stop the server process: terminate, then kill if it has not ended within 10 s."""
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=10)


def wait_until_up(port: int, proc: subprocess.Popen, seconds: float = 30, *, path: str = "/c/",
                  timeout: float = 2) -> bool:
    """True once the server on ``port`` answers a GET of ``path`` (each try waits at most
    ``timeout`` seconds); False when ``proc`` ends or ``seconds`` pass first. Shared with
    tests/multiprocess/test_two_servers.py."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            return False
        try:
            conn = http.client.HTTPConnection(HOST, port, timeout=timeout)
            conn.request("GET", path)
            conn.getresponse().read()
            conn.close()
            return True
        except OSError:
            time.sleep(0.2)
    return False


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pairs", type=int, default=500)
    parser.add_argument("--hands", type=int, default=4, choices=[3, 4])
    parser.add_argument("--workers", type=int, default=24)
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--spread", type=float, default=30.0,
                        help="seconds over which the captains arrive (0: all at once, a stress test)")
    parser.add_argument("--seed", type=int, default=6)
    args = parser.parse_args()

    var = tempfile.mkdtemp(prefix="arbitro-bench-")
    settings_env = {"ARBITRO_VAR_DIR": var, "ARBITRO_SECRET_KEY": "bench-" + "x" * 40,
                    "DJANGO_SETTINGS_MODULE": "config.settings", "ARBITRO_DEBUG": "0"}
    os.environ.pop("DATABASE_URL", None)  # always the temporary SQLite database
    os.environ.update(settings_env)
    env = dict(os.environ)
    python = sys.executable
    prepare_database(python, env)
    t0 = time.perf_counter()
    tables = setup_tournament(args.pairs, args.hands)
    print(f"setup: {args.pairs} pairs, {len(tables)} tables, round 1 published in {time.perf_counter() - t0:.1f} s"
          f" (var dir {var})")

    port = args.port or free_port()
    server = start_server([python, "manage.py", "serve", "--host", HOST, "--port", str(port)], cwd=ROOT, env=env)
    results: list[dict] = []
    wall = 0.0
    try:
        if not wait_until_up(port, server):
            print("server did not start:", server_log(server) if server.poll() is not None else "timeout")
            print("captains: 0 submitted, 0 stored once, p50 0 ms, p99 0 ms")
            return
        warm_up(port, tables[0][1])
        # Arrivals: captain k starts at a random moment of the first --spread seconds.
        rng = random.Random(args.seed)
        starts = sorted((rng.uniform(0, args.spread), number, token) for number, token in tables)
        t0 = time.perf_counter()
        with ThreadPoolExecutor(max_workers=args.workers) as pool:
            futures = []
            for start, number, token in starts:
                delay = start - (time.perf_counter() - t0)
                if delay > 0:
                    time.sleep(delay)
                futures.append(pool.submit(captain, port, number, token, args.hands))
            results = [f.result(timeout=120) for f in futures]
        wall = time.perf_counter() - t0
    finally:
        stop_server(server)

    errors = [r for r in results if "error" in r]
    statuses: dict[int, int] = {}
    for r in results:
        for s in r["status"]:
            statuses[s] = statuses.get(s, 0) + 1
    submitted = [r for r in results if len(r["status"]) == 3 and r["status"][1] == 200]
    posts = [ms for r in results for ms in r["post_ms"]]
    gets = [r["get_ms"] for r in results if r["get_ms"] is not None]
    first = [r["post_ms"][0] for r in results if r["post_ms"]]
    again = [r["post_ms"][1] for r in results if len(r["post_ms"]) > 1]
    once, histogram = check_stored_once([n for n, _ in tables])
    print(f"wall time: {wall:.1f} s for {len(tables)} captains arriving over {args.spread:g} s "
          f"({args.workers} client threads, waitress default threads)")
    print(f"HTTP statuses: {dict(sorted(statuses.items()))}; errors: {len(errors)}"
          + (f" e.g. {errors[0]['error']}" if errors else ""))
    print(f"sheet versions after the run: {dict(sorted(histogram.items()))}")
    if gets:
        print(f"GET page: p50 {statistics.median(gets):.0f} ms, p99 {percentile(gets, 99):.0f} ms")
    if first and again:
        print(f"POST first: p50 {statistics.median(first):.0f} ms, p99 {percentile(first, 99):.0f} ms; "
              f"POST repeated: p50 {statistics.median(again):.0f} ms, p99 {percentile(again, 99):.0f} ms")
    p50 = statistics.median(posts) if posts else 0
    p99 = percentile(posts, 99) if posts else 0
    print(f"captains: {len(submitted)} submitted, {once} stored once, p50 {p50:.0f} ms, p99 {p99:.0f} ms")


if __name__ == "__main__":
    main()
