"""Benchmark: the arbiter's round page of a big round, one request at a time (a
250-table round while 500 phones poll).

Run: ``.venv/bin/python bench/round_page.py [--tables 250] [--requests 20]``.

Makes a temporary ``ARBITRO_VAR_DIR`` (SQLite, WAL, as ``make run``), sets up a tournament of
``2 × --tables`` pairs with round 1 (Mitchell) published through the services (the seeding of
``bench/captains.py``), and puts its sheets in a room's mix of states: a third empty, the
others entered by a captain, about half of those confirmed, some validated, a few disputed.
Then the logged-in arbiter GETs the round page ``--requests`` times in a row with Django's
test client (no server, no network: the view, its queries and the template) and the login
page as many times.

Prints wall and CPU times (the CPU time of the request's thread varies less on a shared
machine), asserts nothing; the LAST line is exactly
``round page: T tables, N requests, p50 X ms, p99 Y ms, Z KB, Q queries``.
The machine may be shared: compare runs made in the same minute.
"""
from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT / "bench"]
sys.path.insert(0, str(ROOT))

from bench.captains import percentile, random_sheet, setup_tournament  # noqa: E402


def fill_sheets(hands: int) -> None:
    """Sheets in a mix of states (deterministic: by table number)."""
    from django.contrib.auth import get_user_model

    from tournaments import services
    from tournaments.models import Table

    user = get_user_model().objects.get(username="bench")
    for table in Table.objects.filter(round__number=1, bye="").select_related("round__tournament").order_by("number"):
        n = table.number
        if n % 3 == 0:
            continue  # empty
        services.save_score_sheet(
            table=table, hands=[services.HandInput(ns=a, ew=b) for a, b in random_sheet(n, hands)],
            by=services.Actor(label=f"capitano N/S tavolo {n}"), expected_version=0)
        if n % 10 == 1:
            services.dispute_sheet(table=table, by=services.Actor(label=f"capitano E/O tavolo {n}"), note="manca 5")
        elif n % 3 == 1:
            services.confirm_sheet(table=table, by=services.Actor(label=f"capitano E/O tavolo {n}"))
            if n % 4 == 1:
                services.validate_sheet(table=table, by=user)


def timed_gets(client, path: str, count: int) -> tuple[list[float], int, int]:
    """``count`` GETs of ``path``: (milliseconds each, bytes of the last, queries of the last)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    times, size, queries = [], 0, 0
    cpu = []
    for _ in range(count):
        with CaptureQueriesContext(connection) as captured:
            t0, c0 = time.perf_counter(), time.thread_time()
            response = client.get(path)
            body = response.content
            times.append((time.perf_counter() - t0) * 1000)
            cpu.append((time.thread_time() - c0) * 1000)
        assert response.status_code == 200, response.status_code
        size, queries = len(body), len(captured)
    timed_gets.cpu = cpu  # CPU milliseconds of this thread, less sensitive to a shared machine
    return times, size, queries


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=250)
    parser.add_argument("--hands", type=int, default=4, choices=[3, 4])
    parser.add_argument("--requests", type=int, default=20)
    parser.add_argument("--profile", action="store_true", help="print a cProfile of one more request")
    parser.add_argument("--html", help="write the round page to this file (to look at its size)")
    parser.add_argument("--queries", action="store_true", help="print the queries of one request with their times")
    args = parser.parse_args()

    var = tempfile.mkdtemp(prefix="arbitro-roundpage-")
    os.environ.pop("DATABASE_URL", None)  # always the temporary SQLite database
    os.environ.update({"ARBITRO_VAR_DIR": var, "ARBITRO_SECRET_KEY": "bench-" + "x" * 40,
                       "DJANGO_SETTINGS_MODULE": "config.settings", "ARBITRO_DEBUG": "0",
                       "ARBITRO_LOGIN_THROTTLE": "0"})
    try:
        import django

        django.setup()
        from django.core.management import call_command

        call_command("migrate", "--noinput", verbosity=0)
        t0 = time.perf_counter()
        setup_tournament(2 * args.tables, args.hands)
        fill_sheets(args.hands)
        print(f"setup: {args.tables} tables, sheets filled in {time.perf_counter() - t0:.1f} s")

        from django.contrib.auth import get_user_model
        from django.test import Client
        from django.urls import reverse

        client = Client()
        client.force_login(get_user_model().objects.get(username="bench"))
        path = reverse("round", args=["bench", 1])
        timed_gets(client, path, 2)  # warm-up: templates, catalogues
        times, size, queries = timed_gets(client, path, args.requests)
        cpu = timed_gets.cpu
        login, login_size, _q = timed_gets(Client(), reverse("login"), args.requests)
        print(f"login page: {args.requests} requests, p50 {statistics.median(login):.1f} ms, "
              f"p99 {percentile(login, 99):.1f} ms, {login_size / 1024:.0f} KB")
        if args.html:
            Path(args.html).write_bytes(client.get(path).content)
        if args.queries:
            from django.db import connection
            from django.test.utils import CaptureQueriesContext

            with CaptureQueriesContext(connection) as captured:
                client.get(path)
            for query in captured:
                print(f"  {float(query['time']) * 1000:6.1f} ms  {query['sql'][:150]}")
        if args.profile:
            import cProfile
            import pstats

            profiler = cProfile.Profile()
            profiler.enable()
            client.get(path)
            profiler.disable()
            pstats.Stats(profiler).sort_stats("cumulative").print_stats(35)
        print(f"round page CPU time: p50 {statistics.median(cpu):.1f} ms, p99 {percentile(cpu, 99):.1f} ms")
        print(f"round page: {args.tables} tables, {args.requests} requests, p50 {statistics.median(times):.1f} ms, "
              f"p99 {percentile(times, 99):.1f} ms, {size / 1024:.0f} KB, {queries} queries")
    finally:
        shutil.rmtree(var, ignore_errors=True)


if __name__ == "__main__":
    main()
