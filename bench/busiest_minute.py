"""Load test: the busiest minute of a 250-table evening on one laptop.

Run: ``.venv/bin/python bench/busiest_minute.py`` (250 tables, SQLite as ``make run``) or
``.venv/bin/python bench/busiest_minute.py --tables 10 --seconds 20`` (a quick check);
both setups: ``scripts/with-postgres.sh .venv/bin/python bench/busiest_minute.py --setups sqlite,postgres``.

Each setup (a fresh database and server, as ``bench/room.py`` makes them):

1. Seeds, through the services, a pair tournament of ``2 × --tables`` pairs (plan MMMD), round 1
   published, the public pages on, and every sheet of round 1 but the last ``--last`` (50)
   entered and validated at the desk.
2. Starts the server: SQLite as ``make run`` (``manage.py serve``, its two processes on one
   port); PostgreSQL as ``serve --processes 2`` (two processes on consecutive ports, the
   phones of table ``k`` on process ``k mod 2``, the arbiter on the first).
3. Opens, within ``--open-seconds``, two captains' phones per table (round 1's ``/c/<token>/``,
   polling ``stato/`` every 4–6 s with the ETag) and one player's phone per pair (the pair's
   own page ``/p/bench/coppia/<n>/``, polling every 4–6 s with the ETag as ``player.js``), the
   client code of ``bench/room.py``. The N/S phones of the last tables save their sheet at a
   random moment of the first third of ``--seconds``; the E/O phone confirms it when its poll
   shows it.
4. The arbiter's browser polls his current round page every second, the live board every 3 s
   and the bar of calls every 5 s; once the last sheet is confirmed he goes through the pages
   as a person does (each form read with GET, then posted): **Valida tutti**, **Chiudi il
   turno**, **Genera** round 2, **Pubblica**, **Pacchetto di stampa** (the pack renders in the
   background; he follows the progress page's ``stato.json`` every second, as
   ``printpack.js``, and downloads the PDF).
5. The run ends when every player's page shows round 2's table, every captain's phone its
   round closed and the PDF is ready, or
   ``--seconds`` + 30 s after the phones opened (a pack still rendering then is waited for, at
   most 180 s after the click).

It prints per setup: the time from the **Pubblica** click until every player's phone shows
its new table (p50, p99, max; the table checked against the database), the time from the
**Chiudi** click until every captain's phone shows its round closed (a captain's link is one
table of one round: the new table reaches the captain on the player's page or the printed
pack, not on the old link), the arbiter's pages' p99 during the run (every arbiter request,
steps and polls), each step's time, the pack's time from the click to the PDF ready, the
server's CPU-seconds (its processes and their children: the pack's workers), the load
client's, and the load average before the run. Prints figures, asserts nothing. Per setup
the LAST line is exactly ``busiest[<setup>]: T tables, P phones, L last sheets, S saved,
C confirmed, N stored once, X lost, R refused, pack ready|pack missing`` where *lost* counts
last sheets not saved, confirmed, validated and stored exactly once with the phone's hands,
and *refused* counts phones that ever got a connection error, a timeout or an unexpected
status. Targets (docs/speed.md): new table ≤ 10 s after publish, arbiter pages p99 ≤ 300 ms, the
250-table pack ≤ 5 s while the round is in play, 0 lost.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT / "bench"]
sys.path.insert(0, str(ROOT))

from bench.captains import (  # noqa: E402 - after the path fix above
    HOST,
    free_port,
    percentile,
    prepare_database,
    random_sheet,
    server_log,
    setup_tournament,
    start_server,
    stop_server,
    wait_until_up,
    warm_up,
)
from bench.room import Client, Tally, arbiter_session, poll_range, postgres_database  # noqa: E402

SLUG = "bench"
#: Longest wait for the print pack after the click, beyond the run's own end (seconds).
PACK_WAIT = 180.0
#: The player's page's next round and seat (templates/public/_player_body.html, Italian: no Accept-Language).
NEXT_SEAT = re.compile(r'<section class="next" id="next">\s*<h2>Turno (\d+)</h2>.*?'
                       r'<span class="table">Tavolo (\d+)</span> <span class="line">(N/S|E/O)</span>', re.S)
CAPTAIN_DATA = re.compile(rb'<script id="captain-data" type="application/json">(.*?)</script>', re.S)


def tree_cpu(pid: int) -> float:
    """CPU seconds of process ``pid`` and every descendant, live or ended: user + system of each
    live process plus what its ended children used (``cutime``/``cstime``: the pack's workers,
    reaped by the forkserver). Linux ``/proc``; 0 elsewhere."""
    total, todo = 0.0, [pid]
    tick = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    while todo:
        current = todo.pop()
        try:
            fields = Path(f"/proc/{current}/stat").read_text().rsplit(")", 1)[1].split()
            total += sum(int(f) for f in fields[11:15]) / tick
            for task in Path(f"/proc/{current}/task").iterdir():
                todo += [int(c) for c in (task / "children").read_text().split()]
        except (OSError, IndexError, ValueError):
            continue
    return total


def hidden_fields(html: bytes, action: str) -> dict[str, str]:
    """The hidden inputs of the page's POST form whose action is ``action`` (or has none:
    the confirmation pages post to themselves), as the browser would send them."""
    text = html.decode("utf-8", "replace")
    for form in re.finditer(r'<form\b([^>]*)>(.*?)</form>', text, re.S):
        attrs, body = form.groups()
        if 'method="post"' not in attrs:
            continue
        target = re.search(r'action="([^"]*)"', attrs)
        if target and target.group(1) not in ("", action):
            continue
        return dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', body))
    return {}


class Minute(Tally):
    """Shared state of one run: timings per request kind, failures, what each phone saw when."""

    def __init__(self, tables, *, last, ports, hands, seconds, open_seconds, poll=(4.0, 6.0)):
        super().__init__()
        self.tables, self.last, self.ports, self.hands = tables, set(last), ports, hands
        self.seconds, self.open_seconds = seconds, open_seconds
        self.poll = poll  # seconds between two polls of a phone: (shortest, longest)
        self.pairs = 2 * len(tables)
        self.saved_at: dict[int, float] = {}
        self.confirmed_at: dict[int, float] = {}
        self.closed_seen: dict[tuple[int, str], float] = {}
        self.new_seen: dict[int, tuple[float, int, str]] = {}
        self.steps: list[tuple[str, int, float]] = []
        self.close_at = self.publish_at = self.pack_click = self.pack_ready = None
        self.pack_bytes = 0
        self.round = 1
        self.done = asyncio.Event()

    def check_done(self):
        if (self.pack_ready is not None and len(self.new_seen) == self.pairs
                and len(self.closed_seen) == 2 * len(self.tables)):
            self.done.set()

    async def pause(self, seconds: float) -> bool:
        """Wait ``seconds`` or until the run ends; True when it ended."""
        if seconds <= 0:
            return self.done.is_set()
        try:
            await asyncio.wait_for(self.done.wait(), seconds)
            return True
        except asyncio.TimeoutError:
            return False

    # ----------------------------------------------------------------------- phones

    async def captain(self, k: int, number: int, token: str, line: str):
        """A captain's phone on round 1's table link: open, poll ``stato/`` every 4–6 s with the
        ETag; on a last table, N/S saves, E/O confirms what its poll shows entered."""
        who = f"table {number} {line}"
        client = Client(self.ports[k % len(self.ports)], "127.0.0.1")
        rng = random.Random(f"{number}-{line}")
        base = f"/c/{token}/"
        try:
            if await self.pause(rng.uniform(0, self.open_seconds)):
                return
            status, _, html, ms = await client.request("GET", base, headers={"Accept": "text/html"})
            if not self.note("captain page", status, ms):
                return self.fail(who, f"page {status}")
            sheet, tag = json.loads(CAPTAIN_DATA.search(html).group(1))["sheet"], ""
            post = {"Content-Type": "application/json", "Accept": "application/json",
                    "X-CSRFToken": client.cookies.get("csrftoken", "")}
            save_at = None
            if line == "ns" and number in self.last:
                save_at = self.open_seconds + rng.uniform(0, self.seconds / 3)
            next_poll = self.now() + rng.uniform(0, self.poll[1])
            while True:
                due = next_poll if save_at is None else min(next_poll, save_at)
                if await self.pause(due - self.now()):
                    break
                if save_at is not None and self.now() >= save_at:
                    save_at = None
                    body = json.dumps({"line": "ns", "hands": random_sheet(number, self.hands), "declared": None,
                                       "version": sheet["version"]}).encode()
                    status, _, answer, ms = await client.request("POST", base + "salva/", headers=post, body=body)
                    if not self.note("save", status, ms):
                        self.fail(who, f"save {status} {answer[:200]!r}")
                        continue
                    sheet = json.loads(answer)["sheet"]
                    self.saved_at[number] = self.now()
                    continue
                next_poll = self.now() + rng.uniform(*self.poll)
                headers = {"Accept": "application/json", **({"If-None-Match": tag} if tag else {})}
                status, head, answer, ms = await client.request("GET", base + "stato/", headers=headers)
                if not self.note("captain poll", status, ms, ok=(200, 304)):
                    self.fail(who, f"poll {status}")
                    continue
                if status == 304:
                    continue
                tag = head.get("etag", [""])[0]
                sheet = json.loads(answer)["sheet"]
                if not sheet["round_open"] and self.close_at is not None:
                    if (number, line) not in self.closed_seen:
                        self.closed_seen[number, line] = self.now()
                        self.check_done()
                if (line == "ew" and number in self.last and sheet["state"] == "entered"
                        and number not in self.confirmed_at):
                    body = json.dumps({"line": "ew", "version": sheet["version"]}).encode()
                    status, _, answer, ms = await client.request("POST", base + "conferma/", headers=post, body=body)
                    if not self.note("confirm", status, ms):
                        self.fail(who, f"confirm {status} {answer[:200]!r}")
                        continue
                    sheet = json.loads(answer)["sheet"]
                    self.confirmed_at[number] = self.now()
        except (OSError, asyncio.TimeoutError, asyncio.IncompleteReadError, ValueError, AttributeError) as exc:
            self.fail(who, repr(exc))
        finally:
            client.close()

    async def player(self, pair: int):
        """A player's phone on his pair's page: open, poll every 4–6 s with the ETag (the HTML,
        as ``player.js``); notes when the page first shows round 2's table and line."""
        who = f"player {pair}"
        k = (pair - 1) // 2  # on the process of a table of the first round's numbering
        client = Client(self.ports[k % len(self.ports)], "127.0.0.1")
        rng = random.Random(f"player-{pair}")
        path = f"/p/{SLUG}/coppia/{pair}/"
        tag = ""
        try:
            if await self.pause(rng.uniform(0, self.open_seconds)):
                return
            first = True
            while True:
                headers = {"Accept": "text/html", **({"If-None-Match": tag} if tag else {})}
                status, head, html, ms = await client.request("GET", path, headers=headers)
                kind = "player page" if first else "player poll"
                first = False
                if not self.note(kind, status, ms, ok=(200, 304)):
                    self.fail(who, f"{kind} {status}")
                elif status == 200:
                    tag = head.get("etag", [""])[0]
                    seat = NEXT_SEAT.search(html.decode("utf-8", "replace"))
                    if seat and int(seat.group(1)) == 2 and pair not in self.new_seen:
                        self.new_seen[pair] = (self.now(), int(seat.group(2)), "ns" if seat.group(3) == "N/S" else "ew")
                        self.check_done()
                if await self.pause(rng.uniform(*self.poll)):
                    break
        except (OSError, asyncio.TimeoutError, asyncio.IncompleteReadError, ValueError) as exc:
            self.fail(who, repr(exc))
        finally:
            client.close()

    # ----------------------------------------------------------------------- the arbiter

    async def arbiter_request(self, client: Client, method: str, path: str, kind: str, *, form=None,
                              ok=(200,), headers=None):
        """One arbiter request, timed under ``kind`` and under *arbiter pages*; a form is posted
        url-encoded with the CSRF cookie. Returns ``(status, headers, body)``."""
        body, headers = b"", dict(headers or {})
        if form is not None:
            form = {**form, "csrfmiddlewaretoken": client.cookies.get("csrftoken", "")}
            body = urllib.parse.urlencode(form).encode()
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        status, head, data, ms = await client.request(method, path, headers=headers, body=body)
        self.note(kind, status, ms, ok=ok)
        self.ms.setdefault("arbiter pages", []).append(ms)
        if status not in ok:
            self.fail("arbiter", f"{kind} {status} {data[:200]!r}")
        return status, head, data

    async def arbiter_browsing(self, session: tuple[str, str]):
        """The arbiter's open tabs: the current round page every second, the live board every
        3 s, the bar of calls every 5 s (If-None-Match), as in ``bench/room.py``."""
        client = Client(self.ports[0], "127.0.0.1")
        client.cookies[session[0]] = session[1]
        stamp, calls_tag, tick = "", "", 0
        base = f"/tornei/{SLUG}"
        try:
            while not self.done.is_set():
                await self.arbiter_request(client, "GET", f"{base}/turni/{self.round}/", "arbiter round")
                if tick % 3 == 0:
                    status, _, html = await self.arbiter_request(
                        client, "GET", f"{base}/turni/{self.round}/tabellone-live/righe/?stamp={stamp}",
                        "arbiter board", ok=(200, 204))
                    found = re.search(rb'data-stamp="([^"]*)"', html) if status == 200 else None
                    stamp = found.group(1).decode() if found else stamp
                if tick % 5 == 0:
                    status, head, _ = await self.arbiter_request(
                        client, "GET", f"{base}/chiamate/", "arbiter calls", ok=(200, 304),
                        headers={"Accept": "application/json", **({"If-None-Match": calls_tag} if calls_tag else {})})
                    if status == 200:
                        calls_tag = head.get("etag", [""])[0]
                tick += 1
                await self.pause(1.0)
        except (OSError, asyncio.TimeoutError, asyncio.IncompleteReadError) as exc:
            self.fail("arbiter", repr(exc))
        finally:
            client.close()

    async def step(self, client: Client, name: str, page: str, action: str) -> bool:
        """One arbiter step: GET ``page`` (the form), POST its hidden fields to ``action``, then
        GET where the answer redirects (as the browser follows it). Returns True when the POST
        was accepted (a redirect)."""
        _status, _, html = await self.arbiter_request(client, "GET", page, f"arbiter {name} (form)")
        t = self.now()
        status, head, _ = await self.arbiter_request(client, "POST", action, f"arbiter {name}",
                                                     form=hidden_fields(html, action), ok=(302,))
        self.steps.append((name, status, (self.now() - t) * 1000))
        if status != 302:
            return False
        target = urllib.parse.urlsplit(head["location"][0])
        await self.arbiter_request(client, "GET", target.path + (f"?{target.query}" if target.query else ""),
                                   f"arbiter {name} (next page)")
        return True

    async def arbiter_steps(self, session: tuple[str, str]):
        """The arbiter's work of the minute, once the last sheet is confirmed: validate all,
        close round 1, generate and publish round 2, the print pack (followed to the PDF)."""
        client = Client(self.ports[0], "127.0.0.1")
        client.cookies[session[0]] = session[1]
        base = f"/tornei/{SLUG}"
        try:
            limit = self.open_seconds + self.seconds / 3 + 20
            while len(self.confirmed_at) < len(self.last) and self.now() < limit:
                if await self.pause(0.5):
                    return
            round_page = f"{base}/turni/1/"
            if not await self.step(client, "validate all", round_page, f"{base}/turni/1/valida-tutti/"):
                return
            self.close_at = self.now()
            if not await self.step(client, "close", f"{base}/turni/1/chiudi/", f"{base}/turni/1/chiudi/"):
                return
            if not await self.step(client, "generate", f"{base}/turni/genera/", f"{base}/turni/genera/"):
                return
            self.round = 2
            self.publish_at = self.now()
            if not await self.step(client, "publish", f"{base}/turni/2/pubblica/", f"{base}/turni/2/pubblica/"):
                return
            self.pack_click = self.now()
            status, head, _ = await self.arbiter_request(client, "POST", f"{base}/documenti/turno-2/pacchetto/",
                                                         "arbiter pack", form={}, ok=(302,))
            if status != 302:
                return
            location = urllib.parse.urlsplit(head["location"][0]).path
            if not location.endswith(".pdf"):
                await self.arbiter_request(client, "GET", location, "arbiter pack (progress page)")
                while True:
                    status, _, data = await self.arbiter_request(client, "GET", location + "stato.json",
                                                                 "arbiter pack (status)")
                    if status != 200 or json.loads(data).get("state") != "running":
                        break
                    if await self.pause(1.0):
                        return
                location = location.rstrip("/") + ".pdf"
            status, _, pdf = await self.arbiter_request(client, "GET", location, "arbiter pack (PDF)")
            if status == 200 and pdf.startswith(b"%PDF"):
                self.pack_ready, self.pack_bytes = self.now(), len(pdf)
                self.check_done()
            else:
                self.fail("arbiter", f"pack PDF {status} {pdf[:100]!r}")
        except (OSError, asyncio.TimeoutError, asyncio.IncompleteReadError, ValueError, KeyError) as exc:
            self.fail("arbiter", repr(exc))
        finally:
            client.close()

    async def run(self, session: tuple[str, str]) -> float:
        self.t0 = time.perf_counter()

        async def deadline():
            if await self.pause(self.open_seconds + self.seconds + 30):
                return
            # A pack still rendering is waited for (at most PACK_WAIT s after the click): its time is a figure.
            while self.pack_click is not None and self.pack_ready is None and self.now() < self.pack_click + PACK_WAIT:
                if await self.pause(1.0):
                    return
            self.done.set()

        tasks = [self.captain(k, number, token, line)
                 for k, (number, token) in enumerate(self.tables) for line in ("ns", "ew")]
        tasks += [self.player(pair) for pair in range(1, self.pairs + 1)]
        await asyncio.gather(deadline(), self.arbiter_browsing(session), self.arbiter_steps(session), *tasks)
        return self.now()


# --------------------------------------------------------------------------- one setup


def seed(tables: int, last: int, hands: int) -> tuple[list[tuple[int, str]], list[int]]:
    """The tournament (``bench/captains.py``'s seeding), the public pages on, and every sheet of
    round 1 but the last ``last`` tables entered and validated at the desk. Returns the tables
    ``[(number, token)]`` and the numbers of the last tables (left to the phones)."""
    playing = setup_tournament(2 * tables, hands)  # sets Django up
    from django.contrib.auth import get_user_model

    from tournaments import services
    from tournaments.models import Table, Tournament

    Tournament.objects.filter(slug=SLUG).update(public_enabled=True)
    user = get_user_model().objects.get(username="bench")
    last_numbers = [n for n, _ in playing[-last:]] if last else []
    for table in Table.objects.filter(round__tournament__slug=SLUG, round__number=1, bye="").exclude(
            number__in=last_numbers).order_by("number"):
        hands_in = [services.HandInput(ns=ns, ew=ew) for ns, ew in random_sheet(table.number, hands)]
        services.save_score_sheet(table=table, hands=hands_in, by=user, validate=True)
    return playing, last_numbers


def stored_once(numbers: list[int], hands: int) -> int:
    """Last tables whose sheet is in the database exactly as the phone sent it: one
    ``sheet_saved`` and one ``sheet_confirmed`` audit entry in round 1, no correction, the
    sheet validated (by **Valida tutti**) with the N/S phone's hands."""
    from django.db.models import Count

    from tournaments.models import AuditEntry, ScoreSheet

    entries: dict[tuple[int, str], int] = {}
    for number, action, n in (AuditEntry.objects.filter(table_number__in=numbers, round_number=1)
                              .values_list("table_number", "action").annotate(n=Count("id"))):
        entries[number, action] = n
    once = 0
    for sheet in ScoreSheet.objects.filter(table__number__in=numbers, table__round__number=1).select_related("table"):
        n = sheet.table.number
        stored = [[h.ns_score, h.ew_score] for h in sheet.hands.order_by("number")]
        if (entries.get((n, "sheet_saved")) == 1 and entries.get((n, "sheet_confirmed")) == 1
                and not entries.get((n, "sheet_corrected")) and sheet.state == ScoreSheet.State.VALIDATED
                and stored == random_sheet(n, hands)):
            once += 1
    return once


def round2_seats() -> dict[int, tuple[int, str]]:
    """Pair number → (table, line) of round 2 in the database."""
    from tournaments.models import Seat

    return {pair: (table, line) for pair, table, line in Seat.objects.filter(
        round__tournament__slug=SLUG, round__number=2).values_list("pair__number", "table__number", "line")}


def spread(values: list[float], unit: str = "s") -> str:
    if not values:
        return "–"
    if unit == "ms":
        return f"p50 {statistics.median(values):.0f} ms, p99 {percentile(values, 99):.0f} ms, max {max(values):.0f} ms"
    return f"p50 {statistics.median(values):.1f} s, p99 {percentile(values, 99):.1f} s, max {max(values):.1f} s"


def one_setup(setup: str, args) -> None:
    """One setup in a fresh database and server(s); prints its figures."""
    load_before = os.getloadavg()
    processes = args.processes if setup == "postgres" else 1
    label = setup if setup == "sqlite" else f"postgres×{processes}"
    var = tempfile.mkdtemp(prefix="arbitro-busiest-")
    env = dict(os.environ, ARBITRO_VAR_DIR=var, ARBITRO_SECRET_KEY="bench-" + "x" * 40,
               DJANGO_SETTINGS_MODULE="config.settings", ARBITRO_DEBUG="0")
    env.pop("DATABASE_URL", None)  # SQLite: always the temporary database
    env.pop("ARBITRO_PRINT_CACHE_DIR", None)  # the pack's cache in the temporary var dir
    database = None
    if setup == "postgres":
        database = f"arbitro_busiest_{os.getpid()}"
        env["DATABASE_URL"] = postgres_database(args.postgres_url, database)
    os.environ.clear()
    os.environ.update(env)
    python = sys.executable
    prepare_database(python, env)  # as ``make setup``, or the test suite's migrated template
    from django.db import connections

    t0 = time.perf_counter()
    last = min(args.last, args.tables)
    tables, last_numbers = seed(args.tables, last, args.hands)
    session = arbiter_session()
    connections.close_all()
    where = ("SQLite, manage.py serve as make run" if setup == "sqlite"
             else f"PostgreSQL, serve --processes {processes}")
    if args.threads is not None:
        where += f", --threads {args.threads}"
    print(f"\n== busiest minute [{label}]: {len(tables)} tables, {2 * len(tables)} captains' and "
          f"{2 * len(tables)} players' phones opening over {args.open_seconds:g} s, the last {last} sheets saved "
          f"over {args.seconds / 3:.0f} s; {where} (setup {time.perf_counter() - t0:.0f} s, var dir {var})")
    ports = [free_port()]
    if processes > 1:
        ports = [ports[0] + i for i in range(processes)]  # serve --processes: PORT, PORT+1, …
    serve = [python, "manage.py", "serve", "--host", HOST, "--port", str(ports[0])]
    if processes > 1:
        serve += ["--processes", str(processes)]
    if args.threads is not None:
        serve += ["--threads", str(args.threads)]
    server = start_server(serve, cwd=ROOT, env=env)
    minute = Minute(tables, last=last_numbers, ports=ports, hands=args.hands, seconds=args.seconds,
                    open_seconds=args.open_seconds, poll=args.poll)
    wall, cpu, load_run = 0.0, {"server": 0.0, "client": 0.0}, os.getloadavg()
    try:
        if not all(wait_until_up(port, server) for port in ports):
            print("server did not start:", server_log(server) if server.poll() is not None else "timeout")
            minute.failures.append("server did not start")
        else:
            for port in ports:
                warm_up(port, tables[0][1])
            load_run = os.getloadavg()
            server_cpu, client_cpu = tree_cpu(server.pid), time.process_time()
            wall = asyncio.run(minute.run(session))
            cpu = {"server": tree_cpu(server.pid) - server_cpu, "client": time.process_time() - client_cpu}
    finally:
        stop_server(server)

    once = stored_once(last_numbers, args.hands)
    seats = round2_seats()
    connections.close_all()
    lost = len(last_numbers) - min(once, len([n for n in last_numbers
                                             if n in minute.saved_at and n in minute.confirmed_at]))
    wrong = [p for p, (_, table, line) in minute.new_seen.items() if seats.get(p) != (table, line)]
    refused = minute.refused - {"arbiter"}
    print(f"load average before the run {load_before[0]:.2f} {load_before[1]:.2f} {load_before[2]:.2f} "
          f"(at the phones' start {load_run[0]:.2f}); {os.cpu_count()} cores shared with the load client")
    print(f"wall time {wall:.1f} s; CPU time: server {cpu['server']:.1f} s (its processes and the pack's "
          f"workers), load client {cpu['client']:.1f} s")
    for name, status, ms in minute.steps:
        print(f"  step {name:14s} {status} {ms:6.0f} ms")
    if minute.publish_at is not None:
        after = [t - minute.publish_at for t, _, _ in minute.new_seen.values()]
        print(f"  publish → player's phone shows its new table: {spread(after)} "
              f"({len(after)} of {minute.pairs} phones, {len(wrong)} showing a wrong table)")
    if minute.close_at is not None:
        closed = [t - minute.close_at for t in minute.closed_seen.values()]
        print(f"  close → captain's phone shows its round closed: {spread(closed)} "
              f"({len(closed)} of {2 * len(tables)} phones)")
    if minute.pack_click is not None:
        ready = f"{minute.pack_ready - minute.pack_click:.1f} s" if minute.pack_ready else "not ready"
        print(f"  print pack, click → PDF ready: {ready} ({minute.pack_bytes // 1024} KiB)")
    print(f"  arbiter pages during the run: {len(minute.ms.get('arbiter pages', []))} requests, "
          f"{spread(minute.ms.get('arbiter pages', []), 'ms')}")
    for kind in sorted(minute.ms):
        if kind != "arbiter pages":
            print(f"    {kind:32s} {len(minute.ms[kind]):6d} {dict(sorted(minute.statuses[kind].items()))}: "
                  f"{spread(minute.ms[kind], 'ms')}")
    if minute.failures:
        print("  failures, e.g.: " + "; ".join(minute.failures))
    print(f"busiest[{label}]: {len(tables)} tables, {4 * len(tables)} phones, {len(last_numbers)} last sheets, "
          f"{len(minute.saved_at)} saved, {len(minute.confirmed_at)} confirmed, {once} stored once, {lost} lost, "
          f"{len(refused)} refused, " + ("pack ready" if minute.pack_ready is not None else "pack missing"))
    if not args.keep:
        shutil.rmtree(var, ignore_errors=True)
        if database:
            postgres_database(args.postgres_url, database, drop=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=250)
    parser.add_argument("--seconds", type=float, default=60.0,
                        help="the minute: the last sheets are saved over its first third; the run stops "
                             "SECONDS + 30 s after the phones opened at the latest")
    parser.add_argument("--last", type=int, default=50, help="round 1's sheets left to the phones")
    parser.add_argument("--hands", type=int, default=4, choices=[3, 4])
    parser.add_argument("--open-seconds", type=float, default=10.0, help="the phones open their pages over this")
    parser.add_argument("--setups", default="sqlite",
                        help="comma-separated: sqlite (manage.py serve as make run), postgres (serve --processes "
                             "PROCESSES on one PostgreSQL database)")
    parser.add_argument("--processes", type=int, default=2, help="server processes of the postgres setup")
    parser.add_argument("--threads", type=int, default=None,
                        help="worker threads of each server process (serve --threads; default serve's)")
    default_pg = os.environ.get("DATABASE_URL", "")
    parser.add_argument("--postgres-url", default=default_pg if default_pg.startswith(("postgres:", "postgresql:"))
                        else None, help="a PostgreSQL server whose role may create databases; default $DATABASE_URL")
    parser.add_argument("--keep", action="store_true", help="keep the temporary var dir of each setup")
    parser.add_argument("--poll", type=poll_range, default=(4.0, 6.0), metavar="LOW-HIGH",
                        help="seconds between two polls of a phone (default 4-6, as the pages poll; "
                             "the smoke test polls faster to finish sooner)")
    args = parser.parse_args()
    if (args.tables < 2 or args.seconds <= 0 or args.open_seconds < 0 or args.last < 0 or args.processes < 1
            or (args.threads is not None and args.threads < 1)):
        parser.error("--tables ≥ 2, --seconds > 0, --open-seconds ≥ 0, --last ≥ 0, --processes ≥ 1, --threads ≥ 1")
    setups = [n.strip() for n in args.setups.split(",") if n.strip()]
    if not setups or set(setups) - {"sqlite", "postgres"}:
        parser.error("--setups: sqlite, postgres or both")
    if "postgres" in setups and not args.postgres_url:
        parser.error("--setups postgres needs --postgres-url (or DATABASE_URL=postgres://…), e.g. "
                     "scripts/with-postgres.sh .venv/bin/python bench/busiest_minute.py --setups sqlite,postgres")
    if len(setups) == 1:
        one_setup(setups[0], args)
        return
    # Django reads its settings (the database of the run) once per process: one process a setup.
    argv = [a for a in sys.argv[1:] if not a.startswith("--setups=")]
    if "--setups" in argv:
        i = argv.index("--setups")
        del argv[i:i + 2]
    for setup in setups:
        subprocess.run([sys.executable, str(Path(__file__).resolve()), *argv, "--setups", setup], check=False)


if __name__ == "__main__":
    main()
