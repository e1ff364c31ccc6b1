"""The arbiter's steps of the busiest minute one by one, without the phones: CPU and statements.

Run: ``.venv/bin/python bench/arbiter_steps.py [--tables 250] [--profile publish,close]``.

``bench/busiest_minute.py`` times the arbiter's pages while 1000 phones poll, on a machine
whose load decides most of the figure. This bench seeds the same tournament (``--tables``
tables, round 1's sheets validated at the desk but the last ``--last`` (50), which it then
enters one by one, reading the round page and the live board after each of the first three
as their polls do when the round changed) in a temporary SQLite database and walks the
same pages through Django's test client, in one process with nothing else of Arbitro
running: the round page, the live board, **Valida tutti** (the last sheets at once), **Chiudi il turno**, **Genera**,
the draft's page, **Pubblica**, round 2's page, the **Pacchetto di stampa** click, its
progress page and status. For each request it prints the wall time, the CPU time of the
thread that served it (``time.thread_time``: the request itself, not the background threads
it started, e.g. the pack's job, whose own CPU is printed at the end; the close's automatic
backup is also shown apart: the test client closes the answer inside the request, a server
after sending it) and the SQL statements. The CPU column is what the request costs the server's two cores in the busiest
minute; the wall column depends on the machine's load. ``--profile STEP,…`` prints
cProfile's top functions of those steps (names as printed). Prints figures, asserts nothing.
"""
from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT / "bench"]
sys.path.insert(0, str(ROOT))

SLUG = "bench"


class Steps:
    """The test client of the seeded arbiter and the requests' figures."""

    def __init__(self, profile: set[str]):
        from django.contrib.auth import get_user_model
        from django.test import Client

        self.client = Client(HTTP_HOST="127.0.0.1")
        self.client.force_login(get_user_model().objects.get(username="bench"))
        self.profile = profile

    def request(self, name: str, method: str, path: str, data: dict | None = None):
        """One request, its figures printed; the response (closed, as a WSGI server closes it)."""
        from django.db import connection
        from django.test.utils import CaptureQueriesContext

        profiler = cProfile.Profile() if name in self.profile else None
        self.backup_cpu = 0.0
        with CaptureQueriesContext(connection) as queries:
            wall, cpu = time.perf_counter(), time.thread_time()
            if profiler:
                profiler.enable()
            response = self.client.get(path) if method == "GET" else self.client.post(path, data or {})
            if profiler:
                profiler.disable()
            wall, cpu = (time.perf_counter() - wall) * 1000, (time.thread_time() - cpu) * 1000
        backup = f"  (of which the round's backup {self.backup_cpu * 1000:.0f} ms CPU)" if self.backup_cpu else ""
        print(f"  {name:30s} {response.status_code} {wall:7.0f} ms wall {cpu:7.0f} ms CPU "
              f"{len(queries.captured_queries):5d} statements{backup}", flush=True)
        if profiler:
            pstats.Stats(profiler).sort_stats("cumulative").print_stats(30)
        return response

    def time_backups(self) -> None:
        """Count the automatic backup's CPU apart: Django's test client closes the answer
        inside the request, so a backup run after the answer (the close) is in its figures."""
        from tournaments.transfer import backups

        run = backups.run_backup

        def timed(*args, **kwargs):
            start = time.thread_time()
            try:
                return run(*args, **kwargs)
            finally:
                self.backup_cpu += time.thread_time() - start

        backups.run_backup = timed

    def step(self, name: str, page: str, action: str):
        """GET the form, POST its hidden fields, GET where it redirects (as a browser)."""
        from bench.busiest_minute import hidden_fields

        form = self.request(f"{name} (form)", "GET", page)
        answer = self.request(name, "POST", action, hidden_fields(form.content, action))
        if answer.status_code == 302:
            self.request(f"{name} (next page)", "GET", answer["Location"])
        return answer


def enter_last_sheets(steps: Steps, numbers: list[int]) -> None:
    """The minute's last sheets, entered by the arbiter through the services (so **Valida
    tutti** has them to validate, as the captains' confirmed sheets in the minute); after
    each of the first three, the round page and the live board as their polls see a new
    version of the round (the per-version cache missed, the rows built again)."""
    from django.contrib.auth import get_user_model

    from bench.captains import random_sheet
    from tournaments import services
    from tournaments.models import Table

    user = get_user_model().objects.get(username="bench")
    base = f"/tornei/{SLUG}/turni/1"
    for i, table in enumerate(Table.objects.filter(round__tournament__slug=SLUG, round__number=1,
                                                   number__in=numbers).order_by("number")):
        hands = [services.HandInput(ns=ns, ew=ew) for ns, ew in random_sheet(table.number, 4)]
        services.save_score_sheet(table=table, hands=hands, by=user)
        if i < 3:
            steps.request("round page (new version)", "GET", f"{base}/")
            steps.request("live board (new version)", "GET", f"{base}/tabellone-live/righe/?stamp=")


def print_pack_costs(location: str) -> None:
    """The finished pack's own figures (its status file, ``printing.pack._costs``): the server
    process's CPU beside the requests (HTML and QR codes, joining) and the wall time."""
    from tournaments.printing import pack as printpack

    state = printpack.status(location.rstrip("/").rsplit("/", 1)[-1]) or {}
    if state.get("state") == "done" and "wall" in state:
        print(f"  pack job (background, this process): {state['wall']:.1f} s wall; server CPU: HTML and QR codes "
              f"{state['cpu_html'] * 1000:.0f} ms, joining {(state['cpu_join'] + state['cpu_join_early']) * 1000:.0f} ms; "
              f"workers {sum(state['cpu_parts']):.1f} s CPU")
    else:
        print(f"  pack job: {state.get('state', 'unknown')}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=250)
    parser.add_argument("--profile", default="", help="comma-separated step names to profile, e.g. publish,close")
    parser.add_argument("--last", type=int, default=50,
                        help="round 1's sheets left to enter here (as the minute's last sheets), then validated at once")
    parser.add_argument("--keep", action="store_true", help="keep the temporary var dir")
    args = parser.parse_args()
    if args.tables < 2:
        parser.error("--tables ≥ 2")
    var = tempfile.mkdtemp(prefix="arbitro-steps-")
    env = dict(os.environ, ARBITRO_VAR_DIR=var, ARBITRO_SECRET_KEY="bench-" + "x" * 40,
               DJANGO_SETTINGS_MODULE="config.settings", ARBITRO_DEBUG="0")
    env.pop("DATABASE_URL", None)  # SQLite: always the temporary database
    env.pop("ARBITRO_PRINT_CACHE_DIR", None)
    os.environ.clear()
    os.environ.update(env)
    for command in (["migrate", "--noinput"], ["createcachetable"], ["collectstatic", "--noinput"]):
        subprocess.run([sys.executable, "manage.py", *command, "-v", "0"], cwd=ROOT, env=env, check=True)
    from bench.busiest_minute import seed

    last = min(max(args.last, 0), args.tables)
    _tables, last_numbers = seed(args.tables, last, 4)  # round 1 published, the other sheets validated
    load = os.getloadavg()
    print(f"arbiter steps, {args.tables} tables, SQLite, no phones; load average {load[0]:.2f} {load[1]:.2f} "
          f"{load[2]:.2f} on {os.cpu_count()} cores")
    steps = Steps({n.strip() for n in args.profile.split(",") if n.strip()})
    steps.time_backups()
    base = f"/tornei/{SLUG}"
    for _ in range(2):  # the first read builds the round's cached rows
        steps.request("round page", "GET", f"{base}/turni/1/")
    steps.request("live board", "GET", f"{base}/turni/1/tabellone-live/righe/?stamp=")
    enter_last_sheets(steps, last_numbers)
    steps.step("validate all", f"{base}/turni/1/", f"{base}/turni/1/valida-tutti/")
    steps.step("close", f"{base}/turni/1/chiudi/", f"{base}/turni/1/chiudi/")
    steps.step("generate", f"{base}/turni/genera/", f"{base}/turni/genera/")
    steps.request("draft page", "GET", f"{base}/turni/2/")
    steps.step("publish", f"{base}/turni/2/pubblica/", f"{base}/turni/2/pubblica/")
    steps.request("round page", "GET", f"{base}/turni/2/")
    pack = steps.request("pack", "POST", f"{base}/documenti/turno-2/pacchetto/")
    location = pack["Location"]
    if not location.endswith(".pdf"):
        steps.request("pack (progress page)", "GET", location)
        steps.request("pack (status)", "GET", location + "stato.json")
        for _ in range(600):  # the pack's thread renders in this process: wait for it before leaving
            if b'"running"' not in steps.client.get(location + "stato.json").content:
                break
            time.sleep(0.5)
        print_pack_costs(location)
    if not args.keep:
        shutil.rmtree(var, ignore_errors=True)


if __name__ == "__main__":
    main()
