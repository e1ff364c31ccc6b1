"""The arbiter's steps of the busiest minute one by one, without the phones: CPU and statements.

Run: ``.venv/bin/python bench/arbiter_steps.py [--tables 250] [--profile publish,close]``.

``bench/busiest_minute.py`` times the arbiter's pages while 1000 phones poll, on a machine
whose load decides most of the figure. This bench seeds the same tournament (``--tables``
tables, round 1's sheets validated at the desk) in a temporary SQLite database and walks the
same pages through Django's test client, in one process with nothing else of Arbitro
running: the round page, the live board, **Valida tutti**, **Chiudi il turno**, **Genera**,
the draft's page, **Pubblica**, round 2's page, the **Pacchetto di stampa** click, its
progress page and status. For each request it prints the wall time, the CPU time of this
process (``time.process_time``: the request itself, plus any background thread it started,
e.g. the pack's HTML; the close's automatic backup is also shown apart: the test client
closes the answer inside the request, a server after sending it) and the SQL statements. The CPU column is what the request costs the server's two cores in the busiest
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
            wall, cpu = time.perf_counter(), time.process_time()
            if profiler:
                profiler.enable()
            response = self.client.get(path) if method == "GET" else self.client.post(path, data or {})
            if profiler:
                profiler.disable()
            wall, cpu = (time.perf_counter() - wall) * 1000, (time.process_time() - cpu) * 1000
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
            start = time.process_time()
            try:
                return run(*args, **kwargs)
            finally:
                self.backup_cpu += time.process_time() - start

        backups.run_backup = timed

    def step(self, name: str, page: str, action: str):
        """GET the form, POST its hidden fields, GET where it redirects (as a browser)."""
        from bench.busiest_minute import hidden_fields

        form = self.request(f"{name} (form)", "GET", page)
        answer = self.request(name, "POST", action, hidden_fields(form.content, action))
        if answer.status_code == 302:
            self.request(f"{name} (next page)", "GET", answer["Location"])
        return answer


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=250)
    parser.add_argument("--profile", default="", help="comma-separated step names to profile, e.g. publish,close")
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

    seed(args.tables, 0, 4)  # round 1 published, every sheet validated at the desk
    load = os.getloadavg()
    print(f"arbiter steps, {args.tables} tables, SQLite, no phones; load average {load[0]:.2f} {load[1]:.2f} "
          f"{load[2]:.2f} on {os.cpu_count()} cores")
    steps = Steps({n.strip() for n in args.profile.split(",") if n.strip()})
    steps.time_backups()
    base = f"/tornei/{SLUG}"
    for _ in range(2):  # the first read builds the round's cached rows
        steps.request("round page", "GET", f"{base}/turni/1/")
    steps.request("live board", "GET", f"{base}/turni/1/tabellone-live/righe/?stamp=")
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
    if not args.keep:
        shutil.rmtree(var, ignore_errors=True)


if __name__ == "__main__":
    main()
