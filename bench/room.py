"""Load test: a 250-table room, 500 phones with the captain page open.

Run: ``.venv/bin/python bench/room.py`` (full room, three runs, about 5 minutes) or
``.venv/bin/python bench/room.py --tables 20 --seconds 10 --runs many`` (a quick check).

Each run:

1. Makes a temporary ``ARBITRO_VAR_DIR`` (SQLite), sets its database up (``make setup``'s steps)
   and seeds, through the services, a tournament of ``2 × --tables`` pairs with round 1
   (Mitchell) published (``bench/captains.py``'s seeding).
2. Starts the server exactly as ``make run`` does (``manage.py serve`` with its settings:
   on Linux two processes sharing the port, ``--workers``) on a free loopback port;
   ``--workers N`` passes another number.
3. Opens two phones per table (N/S and E/O, each its own cookies): both load the page
   within ``--open-seconds`` and then poll ``stato/`` every 4–6 s as ``captain.js`` does
   (``If-None-Match`` with the last ETag; 304 = nothing new). The N/S phone saves the
   sheet at a random moment of the first ``--seconds`` − 10 s (``burst``: all at once);
   the E/O phone confirms it as soon as its poll shows it; the N/S phone then sees the
   confirmation on its own poll. Meanwhile the arbiter loads the login page and the
   round page once a second, polls the live board every 3 s and the bar of calls of his
   pages (``chiamate/``, ``If-None-Match``) every 5 s, as ``static/js/desk_calls.js`` does.
4. Phones connect from one address (``one``: 127.0.0.1, a whole room behind one router)
   or from ``--sources`` addresses 127.0.0.2… (``many``), by binding the client sockets.
   Only loopback.
5. Checks in the database that every sheet was stored exactly once and confirmed once
   (one ``sheet_saved`` and one ``sheet_confirmed`` audit entry, no correction, state
   confirmed, version 2).

Players' pages (``--players N``): N more phones open the player's own page of pairs 1…N
(``/p/bench/coppia/<n>/``, the public pages switched on) within ``--open-seconds`` and poll it
every 4–6 s as ``static/js/player.js`` does (``If-None-Match``; 304 = nothing new), on the
process of their pair's table. They are counted in *phones* and *refused*, their requests
as ``player`` (first load) and ``player poll``.

Hosted setup (PostgreSQL, several server processes): ``--setups sqlite,postgres`` runs
each run twice, first as above
(SQLite, ``manage.py serve`` as ``make run``), then on PostgreSQL with ``--processes`` server
processes on consecutive ports sharing one database, the phones of table ``k`` on process
``k mod P`` (as a reverse proxy spreads them; the proxy itself is not measured), the arbiter on
the first. Each PostgreSQL run gets a fresh database ``arbitro_room_…`` made on the server of
``--postgres-url`` (default: ``$DATABASE_URL`` when it is a PostgreSQL URL) and dropped after.
At the end the figures of both setups are printed side by side. A throw-away server:
``scripts/with-postgres.sh .venv/bin/python bench/room.py --setups sqlite,postgres --processes 2``.

Prints figures, asserts nothing. Per run, the LAST line is exactly
``room[<run>]: T tables, P phones, S saved, C confirmed, N stored once, L lost, R refused``
(followed by ``, the arbiter's pages failed`` when they did; ``<run>`` is e.g.
``one`` on SQLite, ``one@postgres×2`` on PostgreSQL with 2 processes) where *lost* counts tables
not saved, confirmed and stored exactly once, and *refused* counts phones that ever got a
connection error, a timeout (30 s) or an unexpected status.
Targets (a 250-table room on one laptop): save p99 ≤ 150 ms, arbiter pages p99 ≤ 300 ms,
a change reaches the
other phone within 10 s, 0 refused, 0 lost. The load client runs on the same cores
as the server, and its own work is part of what is measured.
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

#: Longest wait for one answer before the phone counts as refused (a phone's browser waits as long).
REQUEST_TIMEOUT = 30.0
RUNS = {"one": ("spread", 1), "many": ("spread", None), "burst": ("burst", None)}


# --------------------------------------------------------------------------- HTTP client


class Client:
    """One browser: a kept-alive HTTP/1.1 connection from ``source``, its cookies."""

    def __init__(self, port: int, source: str):
        self.port, self.source = port, source
        self.cookies: dict[str, str] = {}
        self.reader = self.writer = None

    async def _connect(self):
        self.reader, self.writer = await asyncio.open_connection(HOST, self.port, local_addr=(self.source, 0))

    def close(self):
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None

    async def request(self, method: str, path: str, *, headers: dict | None = None, body: bytes = b""):
        """Send one request; return ``(status, headers, body, milliseconds)``.

        A kept-alive connection the server closed meanwhile (idle timeout) is opened again
        and the request re-sent once, as browsers do.
        """
        t0 = time.perf_counter()
        for attempt in (0, 1):
            reused = self.writer is not None
            try:
                if self.writer is None:
                    await self._connect()
                status, head, data = await asyncio.wait_for(self._exchange(method, path, headers or {}, body),
                                                            REQUEST_TIMEOUT)
                break
            except (ConnectionError, asyncio.IncompleteReadError) as exc:
                self.close()
                if not reused or attempt:
                    raise exc
            except BaseException:
                self.close()
                raise
        for value in head.get("set-cookie", []):
            key, _, rest = value.partition("=")
            self.cookies[key.strip()] = rest.split(";", 1)[0]
        if head.get("connection", [""])[0].lower() == "close":
            self.close()
        return status, head, data, (time.perf_counter() - t0) * 1000

    async def _exchange(self, method, path, headers, body):
        lines = [f"{method} {path} HTTP/1.1", f"Host: {HOST}:{self.port}", "User-Agent: bench-room"]
        if self.cookies:
            lines.append("Cookie: " + "; ".join(f"{k}={v}" for k, v in self.cookies.items()))
        for key, value in headers.items():
            lines.append(f"{key}: {value}")
        if body or method == "POST":
            lines.append(f"Content-Length: {len(body)}")
        self.writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + body)
        await self.writer.drain()
        head_raw = await self.reader.readuntil(b"\r\n\r\n")
        status_line, *header_lines = head_raw.decode("latin-1").split("\r\n")
        status = int(status_line.split()[1])
        head: dict[str, list[str]] = {}
        for line in header_lines:
            if ":" in line:
                key, _, value = line.partition(":")
                head.setdefault(key.strip().lower(), []).append(value.strip())
        if status in (204, 304) or method == "HEAD":
            return status, head, b""
        if "chunked" in head.get("transfer-encoding", [""])[0].lower():
            data = b""
            while True:
                size = int((await self.reader.readuntil(b"\r\n")).split(b";")[0], 16)
                chunk = await self.reader.readexactly(size + 2)
                if not size:
                    break
                data += chunk[:-2]
            return status, head, data
        if "content-length" in head:
            return status, head, await self.reader.readexactly(int(head["content-length"][0]))
        data = await self.reader.read()
        self.close()
        return status, head, data


# --------------------------------------------------------------------------- the room


class Tally:
    """Timings per request kind, answers by status, the phones refused and the first failures
    of one run (what :class:`Room` and ``bench/busiest_minute.py``'s ``Minute`` both count)."""

    def __init__(self):
        self.ms: dict[str, list[float]] = {}
        self.statuses: dict[str, dict[int, int]] = {}
        self.refused: set[str] = set()
        self.failures: list[str] = []
        self.t0 = 0.0

    def note(self, kind: str, status: int, ms: float, ok=(200,)) -> bool:
        """Count one answer of ``kind`` (``ms`` milliseconds); True when ``status`` is in ``ok``."""
        self.ms.setdefault(kind, []).append(ms)
        by = self.statuses.setdefault(kind, {})
        by[status] = by.get(status, 0) + 1
        return status in ok

    def fail(self, who: str, why: str):
        self.refused.add(who)
        if len(self.failures) < 5:
            self.failures.append(f"{who}: {why}")

    def now(self) -> float:
        return time.perf_counter() - self.t0


class Room(Tally):
    """Shared state of one run: timings per request kind, failures, the tables' progress."""

    def __init__(self, tables, *, ports, sources, hands, spread, seconds, open_seconds, seed, players=0,
                 poll=(4.0, 6.0)):
        super().__init__()
        self.players = players
        self.tables, self.ports, self.hands = tables, ports, hands
        self.port = ports[0]
        self.sources = sources
        self.spread, self.seconds, self.open_seconds = spread, seconds, open_seconds
        self.poll = poll  # seconds between two polls of a phone: (shortest, longest)
        self.rng = random.Random(seed)
        self.saved_at: dict[int, float] = {}
        self.confirmed_at: dict[int, float] = {}
        self.seen_entered: dict[int, float] = {}
        self.seen_confirmed: dict[int, float] = {}
        self.done = asyncio.Event()

    def source(self, k: int) -> str:
        if self.sources <= 1:
            return "127.0.0.1"
        return f"127.0.0.{2 + k % self.sources}"

    async def phone(self, k: int, number: int, token: str, line: str):
        who = f"table {number} {line}"
        client = Client(self.ports[k % len(self.ports)], self.source(2 * k + (line == "ew")))
        rng = random.Random(f"{number}-{line}")
        base = f"/c/{token}/"
        try:
            await asyncio.sleep(rng.uniform(0, self.open_seconds))
            status, _, html, ms = await client.request("GET", base, headers={"Accept": "text/html"})
            if not self.note("page", status, ms):
                return self.fail(who, f"page {status}")
            data = json.loads(re.search(rb'<script id="captain-data" type="application/json">(.*?)</script>',
                                        html, re.S).group(1))
            sheet, tag = data["sheet"], data.get("tag", "")  # the page's poll tag (captain.js), if any
            csrf = client.cookies.get("csrftoken", "")
            post_headers = {"Content-Type": "application/json", "Accept": "application/json", "X-CSRFToken": csrf}
            start = self.open_seconds
            save_at = None
            if line == "ns":
                save_at = start + (0 if self.spread == "burst" else rng.uniform(0, max(0.0, self.seconds - 10)))
            next_poll = self.now() + rng.uniform(0, self.poll[1])
            from_page = True  # the page's own sheet is read as a poll's answer (captain.js renders it)
            while not self.done.is_set():
                if from_page:
                    from_page = False
                else:
                    due = min(next_poll, save_at if save_at is not None else next_poll)
                    wait = due - self.now()
                    if wait > 0:
                        try:
                            await asyncio.wait_for(self.done.wait(), wait)
                            break
                        except asyncio.TimeoutError:
                            pass
                    if save_at is not None and self.now() >= save_at:
                        save_at = None
                        body = json.dumps({"line": "ns", "hands": random_sheet(number, self.hands),
                                           "declared": None, "version": sheet["version"]}).encode()
                        status, head, answer, ms = await client.request("POST", base + "salva/",
                                                                        headers=post_headers, body=body)
                        if not self.note("save", status, ms):
                            self.fail(who, f"save {status} {answer[:200]!r}")
                            continue
                        sheet = json.loads(answer)["sheet"]
                        tag = head.get("etag", [tag])[0]  # a write's answer carries the poll's tag (captain.js)
                        self.saved_at[number] = self.now()
                        continue
                    next_poll = self.now() + rng.uniform(*self.poll)
                    headers = {"Accept": "application/json"}
                    if tag:
                        headers["If-None-Match"] = tag
                    status, head, answer, ms = await client.request("GET", base + "stato/", headers=headers)
                    if not self.note("poll", status, ms, ok=(200, 304)):
                        self.fail(who, f"poll {status}")
                        continue
                    if status == 304:
                        continue
                    tag = head.get("etag", [""])[0]
                    sheet = json.loads(answer)["sheet"]
                if line == "ew" and sheet["state"] == "entered" and number not in self.confirmed_at:
                    self.seen_entered[number] = self.now()
                    body = json.dumps({"line": "ew", "version": sheet["version"]}).encode()
                    status, head, answer, ms = await client.request("POST", base + "conferma/",
                                                                    headers=post_headers, body=body)
                    if not self.note("confirm", status, ms):
                        self.fail(who, f"confirm {status} {answer[:200]!r}")
                        continue
                    sheet = json.loads(answer)["sheet"]
                    tag = head.get("etag", [tag])[0]
                    self.confirmed_at[number] = self.now()
                if line == "ns" and sheet["state"] == "confirmed" and number not in self.seen_confirmed:
                    self.seen_confirmed[number] = self.now()
                    if len(self.seen_confirmed) == len(self.tables):
                        self.done.set()
        except (OSError, asyncio.TimeoutError, asyncio.IncompleteReadError, ValueError, AttributeError) as exc:
            self.fail(who, repr(exc))
        finally:
            client.close()

    async def player(self, k: int, pair: int):
        """A player's phone on his own page: load it, then poll it every 4–6 s with its ETag."""
        who = f"player {pair}"
        client = Client(self.ports[k % len(self.ports)], self.source(2 * len(self.tables) + k))
        rng = random.Random(f"player-{pair}")
        path = f"/p/bench/coppia/{pair}/"
        try:
            await asyncio.sleep(rng.uniform(0, self.open_seconds))
            status, head, _html, ms = await client.request("GET", path, headers={"Accept": "text/html"})
            if not self.note("player", status, ms):
                return self.fail(who, f"player page {status}")
            tag = head.get("etag", [""])[0]
            while not self.done.is_set():
                try:
                    await asyncio.wait_for(self.done.wait(), rng.uniform(*self.poll))
                    break
                except asyncio.TimeoutError:
                    pass
                headers = {"Accept": "text/html", **({"If-None-Match": tag} if tag else {})}
                status, head, _html, ms = await client.request("GET", path, headers=headers)
                if not self.note("player poll", status, ms, ok=(200, 304)):
                    self.fail(who, f"player poll {status}")
                    continue
                if status == 200:
                    tag = head.get("etag", [""])[0]
        except (OSError, asyncio.TimeoutError, asyncio.IncompleteReadError, ValueError) as exc:
            self.fail(who, repr(exc))
        finally:
            client.close()

    async def arbiter(self, slug: str, session: tuple[str, str]):
        """The arbiter's browser: login page and round page every second, the live board every 3 s,
        the bar of calls every 5 s (its ETag back in If-None-Match; 304 = nothing new)."""
        client = Client(self.port, "127.0.0.1")
        client.cookies[session[0]] = session[1]
        anonymous = Client(self.port, "127.0.0.1")
        stamp, calls_tag, tick = "", "", 0
        try:
            while not self.done.is_set():
                status, *_, ms = await anonymous.request("GET", "/accounts/login/")
                if not self.note("arbiter login", status, ms):
                    self.fail("arbiter", f"login page {status}")
                status, *_, ms = await client.request("GET", f"/tornei/{slug}/turni/1/")
                if not self.note("arbiter round", status, ms):
                    self.fail("arbiter", f"round page {status}")
                if tick % 3 == 0:
                    status, head, html, ms = await client.request(
                        "GET", f"/tornei/{slug}/turni/1/tabellone-live/righe/?stamp={stamp}")
                    if self.note("arbiter board", status, ms, ok=(200, 204)) and status == 200:
                        found = re.search(rb'data-stamp="([^"]*)"', html)
                        stamp = found.group(1).decode() if found else ""
                    elif status not in (200, 204):
                        self.fail("arbiter", f"board {status}")
                if tick % 5 == 0:
                    status, head, _body, ms = await client.request(
                        "GET", f"/tornei/{slug}/chiamate/",
                        headers={"Accept": "application/json", **({"If-None-Match": calls_tag} if calls_tag else {})})
                    if not self.note("arbiter calls", status, ms, ok=(200, 304)):
                        self.fail("arbiter", f"calls {status}")
                    elif status == 200:
                        calls_tag = head.get("etag", [""])[0]
                tick += 1
                try:
                    await asyncio.wait_for(self.done.wait(), 1.0)
                except asyncio.TimeoutError:
                    pass
        except (OSError, asyncio.TimeoutError, asyncio.IncompleteReadError) as exc:
            self.fail("arbiter", repr(exc))
        finally:
            client.close()
            anonymous.close()

    async def run(self, slug: str, session: tuple[str, str]) -> float:
        self.t0 = time.perf_counter()
        limit = self.open_seconds + self.seconds + 30

        async def deadline():
            try:
                await asyncio.wait_for(self.done.wait(), limit)
            except asyncio.TimeoutError:
                self.done.set()

        tasks = [self.phone(k, number, token, line)
                 for k, (number, token) in enumerate(self.tables) for line in ("ns", "ew")]
        tasks += [self.player(k, pair) for k, pair in enumerate(range(1, self.players + 1))]
        await asyncio.gather(deadline(), self.arbiter(slug, session), *tasks)
        return self.now()


def arbiter_session() -> tuple[str, str]:
    """A logged-in session of the seeded arbiter ``bench`` (cookie name, value)."""
    from importlib import import_module

    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model

    user = get_user_model().objects.get(username="bench")
    backends = settings.AUTHENTICATION_BACKENDS
    backend = "django.contrib.auth.backends.ModelBackend"
    if backend not in backends:
        backend = backends[-1]
    store = import_module(settings.SESSION_ENGINE).SessionStore()
    store[SESSION_KEY] = str(user.pk)
    store[BACKEND_SESSION_KEY] = backend
    store[HASH_SESSION_KEY] = user.get_session_auth_hash()
    store.save()
    return settings.SESSION_COOKIE_NAME, store.session_key


def stored_once(numbers: list[int]) -> tuple[int, dict]:
    """Tables whose sheet was saved once and confirmed once: one ``sheet_saved`` and one
    ``sheet_confirmed`` audit entry, no correction, state confirmed, version 2 (the save,
    then the confirmation); also the histogram of the sheets' versions."""
    from django.db.models import Count

    from tournaments.models import AuditEntry, ScoreSheet

    entries: dict[tuple[int, str], int] = {}
    for number, action, n in (AuditEntry.objects.filter(table_number__in=numbers, round_number=1)
                              .values_list("table_number", "action").annotate(n=Count("id"))):
        entries[number, action] = n
    sheets = dict(ScoreSheet.objects.filter(table__number__in=numbers, table__round__number=1)
                  .values_list("table__number", "version"))
    states = dict(ScoreSheet.objects.filter(table__number__in=numbers, table__round__number=1)
                  .values_list("table__number", "state"))
    histogram: dict[int, int] = {}
    for v in sheets.values():
        histogram[v] = histogram.get(v, 0) + 1
    once = sum(1 for n in numbers
               if entries.get((n, "sheet_saved")) == 1 and entries.get((n, "sheet_confirmed")) == 1
               and not entries.get((n, "sheet_corrected")) and states.get(n) == "confirmed" and sheets.get(n) == 2)
    return once, histogram


def process_cpu(pid: int) -> float:
    """CPU seconds (user + system) used so far by process ``pid`` (Linux ``/proc``; 0 elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError, AttributeError):
        return 0.0


def tree_cpu(pid: int) -> float:
    """CPU seconds used so far by process ``pid`` and its descendants still running (``serve
    --workers``: the supervisor and its worker processes; Linux ``/proc``, 0 elsewhere)."""
    total, todo = 0.0, [pid]
    while todo:
        current = todo.pop()
        total += process_cpu(current)
        try:
            for task in Path(f"/proc/{current}/task").iterdir():
                todo += [int(c) for c in (task / "children").read_text().split()]
        except (OSError, ValueError):
            continue
    return total


def figures(values: list[float]) -> str:
    if not values:
        return "–"
    return f"p50 {statistics.median(values):.0f} ms, p99 {percentile(values, 99):.0f} ms, max {max(values):.0f} ms"


def postgres_database(server_url: str, name: str, *, drop: bool = False) -> str:
    """Create (or, with ``drop``, drop) database ``name`` on the PostgreSQL server of
    ``server_url`` (a ``postgres://`` URL of any database there whose role may create
    databases); returns the URL of database ``name``."""
    import psycopg

    with psycopg.connect(server_url, autocommit=True) as conn:
        if drop:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        else:
            conn.execute(f'CREATE DATABASE "{name}"')
    return urllib.parse.urlsplit(server_url)._replace(path="/" + name).geturl()


def one_run(name: str, args) -> dict:
    """One run in a fresh database and server(s); prints its figures, returns the counts."""
    spread, sources = RUNS[name]
    sources = sources or args.sources
    setup = args.setups  # one setup per process (see main)
    processes = args.processes if setup == "postgres" else 1
    label = name if setup == "sqlite" else f"{name}@postgres×{processes}"
    var = tempfile.mkdtemp(prefix="arbitro-room-")
    env = dict(os.environ, ARBITRO_VAR_DIR=var, ARBITRO_SECRET_KEY="bench-" + "x" * 40,
               DJANGO_SETTINGS_MODULE="config.settings", ARBITRO_DEBUG="0")
    env.pop("DATABASE_URL", None)  # SQLite: always the temporary database
    database = None
    if setup == "postgres":
        database = f"arbitro_room_{os.getpid()}_{name}"
        env["DATABASE_URL"] = postgres_database(args.postgres_url, database)
    os.environ.clear()
    os.environ.update(env)
    python = sys.executable
    prepare_database(python, env)  # as ``make setup``, or the test suite's migrated template
    from django.db import connections

    connections.close_all()
    t0 = time.perf_counter()
    tables = setup_tournament(2 * args.tables, args.hands)
    if args.players:
        from tournaments.models import Tournament

        Tournament.objects.filter(slug="bench").update(public_enabled=True)
    session = arbiter_session()
    connections.close_all()
    workers = args.workers if setup == "sqlite" else 1
    if setup == "sqlite":
        from tournaments.management.commands.serve import default_workers

        shown = workers or default_workers()
        where = f"SQLite, {shown} process{'es' if shown > 1 else ''} on one port"
    else:
        where = f"PostgreSQL, {processes} server processes"
    print(f"\n== run {label}: {len(tables)} tables, {2 * len(tables)} phones from "
          f"{'127.0.0.1' if sources <= 1 else f'{sources} addresses 127.0.0.2…127.0.0.{1 + sources}'}, "
          f"saves {'all at once' if spread == 'burst' else f'over {max(0, args.seconds - 10)} s'}; {where}"
          + (f"; {args.players} player pages polling" if args.players else "") +
          f" (setup {time.perf_counter() - t0:.0f} s, var dir {var})")

    ports = [free_port() for _ in range(processes)]
    servers = []
    for port in ports:
        serve = [python, "manage.py", "serve", "--host", HOST, "--port", str(port)]
        if workers is not None:
            serve += ["--workers", str(workers)]
        if args.connection_limit:
            serve += ["--connection-limit", str(args.connection_limit)]
        if args.threads:
            serve += ["--threads", str(args.threads)]
        servers.append(start_server(serve, cwd=ROOT, env=env))
    room = Room(tables, ports=ports, sources=sources, hands=args.hands, spread=spread, seconds=args.seconds,
                open_seconds=args.open_seconds, seed=args.seed, players=min(args.players, 2 * len(tables)),
                poll=args.poll)
    wall = 0.0
    cpu = {"server": 0.0, "client": 0.0}
    try:
        down = [s for port, s in zip(ports, servers, strict=True) if not wait_until_up(port, s)]
        if down:
            server = down[0]
            print("server did not start:", server_log(server) if server.poll() is not None else "timeout")
            room.failures.append("server did not start")
        else:
            for port in ports:
                warm_up(port, tables[0][1])
            server_cpu, client_cpu = sum(tree_cpu(s.pid) for s in servers), time.process_time()
            wall = asyncio.run(room.run("bench", session))
            cpu = {"server": sum(tree_cpu(s.pid) for s in servers) - server_cpu,
                   "client": time.process_time() - client_cpu}
    finally:
        for server in servers:
            stop_server(server)

    numbers = [n for n, _ in tables]
    once, histogram = stored_once(numbers)
    connections.close_all()
    ok = [n for n in numbers if n in room.saved_at and n in room.confirmed_at]
    phones_refused = room.refused - {"arbiter"}
    lost = len(numbers) - min(len(ok), once)
    print(f"wall time {wall:.1f} s (pages opened over {args.open_seconds:g} s); the load client shares the "
          f"server's {os.cpu_count()} cores: CPU time server{'s' if processes > 1 else ''} {cpu['server']:.1f} s, "
          f"load client {cpu['client']:.1f} s")
    for kind in KINDS:
        if kind in room.ms:
            print(f"  {kind:14s} {len(room.ms[kind]):6d} requests {dict(sorted(room.statuses[kind].items()))}: "
                  f"{figures(room.ms[kind])}")
    to_other = [room.seen_entered[n] - room.saved_at[n] for n in numbers
                if n in room.seen_entered and n in room.saved_at]
    back = [room.seen_confirmed[n] - room.confirmed_at[n] for n in numbers
            if n in room.seen_confirmed and n in room.confirmed_at]
    if to_other:
        print(f"  save → other phone sees it: p50 {statistics.median(to_other):.1f} s, max {max(to_other):.1f} s; "
              f"confirm → first phone sees it: "
              + (f"p50 {statistics.median(back):.1f} s, max {max(back):.1f} s" if back else "–"))
    if room.confirmed_at:
        print(f"  last confirmation {max(room.confirmed_at.values()) - args.open_seconds:.1f} s after the saves began")
    print(f"  sheet versions after the run: {dict(sorted(histogram.items()))}")
    if room.failures:
        print("  failures, e.g.: " + "; ".join(room.failures))
    summary = {"run": name, "setup": where, "lost": lost, "refused": len(phones_refused),
               "seen max": max(to_other) if to_other else None,
               **{kind: [statistics.median(v), percentile(v, 99)] for kind, v in room.ms.items()}}
    print(SUMMARY + json.dumps(summary))
    print(f"room[{label}]: {len(tables)} tables, {2 * len(tables) + room.players} phones, {len(room.saved_at)} saved, "
          f"{len(room.confirmed_at)} confirmed, {once} stored once, {lost} lost, {len(phones_refused)} refused"
          + (", the arbiter's pages failed" if "arbiter" in room.refused else ""))
    if not args.keep:
        shutil.rmtree(var, ignore_errors=True)
        if database:
            postgres_database(args.postgres_url, database, drop=True)
    return {"lost": lost, "refused": len(phones_refused)}


KINDS = ("page", "poll", "save", "confirm", "player", "player poll", "arbiter login", "arbiter round",
         "arbiter board", "arbiter calls")
#: Prefix of the line that carries a run's figures to the parent process (for the side-by-side table).
SUMMARY = "summary-json: "


def side_by_side(summaries: list[dict]) -> None:
    """The figures of every run and setup, one row each (p50 / p99 in ms)."""
    if not summaries:
        return
    print("\n== side by side (p50 / p99 ms)")
    columns = ("save", "confirm", "poll", "page", "player poll", "arbiter round", "arbiter board", "arbiter calls",
               "arbiter login")
    print(f"{'run':6s} {'setup':36s} " + " ".join(f"{c:>14s}" for c in columns)
          + f" {'seen max':>9s} {'lost':>5s} {'refused':>8s}")
    for s in summaries:
        cells = [f"{s[c][0]:.0f} / {s[c][1]:.0f}" if c in s else "–" for c in columns]
        seen = f"{s['seen max']:.1f} s" if s.get("seen max") is not None else "–"
        print(f"{s['run']:6s} {s['setup']:36s} " + " ".join(f"{c:>14s}" for c in cells)
              + f" {seen:>9s} {s['lost']:>5d} {s['refused']:>8d}")


def poll_range(text: str) -> tuple[float, float]:
    """``"4-6"`` → (4.0, 6.0): the seconds between two polls of a phone (``--poll``)."""
    try:
        low, high = (float(part) for part in text.split("-"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: two numbers of seconds, as 4-6") from None
    if not 0 < low <= high:
        raise argparse.ArgumentTypeError(f"{text!r}: 0 < LOW <= HIGH")
    return low, high


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=250)
    parser.add_argument("--hands", type=int, default=4, choices=[3, 4])
    parser.add_argument("--seconds", type=float, default=60.0,
                        help="window of the saves and confirmations (saves over the first SECONDS − 10)")
    parser.add_argument("--open-seconds", type=float, default=10.0, help="the phones open their pages over this")
    parser.add_argument("--sources", type=int, default=50, help="loopback source addresses of the 'many' runs")
    parser.add_argument("--runs", default="one,many,burst",
                        help="comma-separated: one (one address), many (--sources addresses), burst (all at once)")
    parser.add_argument("--seed", type=int, default=10)
    parser.add_argument("--poll", type=poll_range, default=(4.0, 6.0), metavar="LOW-HIGH",
                        help="seconds between two polls of a phone (default 4-6, as captain.js and player.js; "
                             "the smoke tests poll faster to finish sooner)")
    parser.add_argument("--players", type=int, default=0,
                        help="player pages polling besides the captains' phones (pairs 1…N; at most 2 × tables)")
    parser.add_argument("--connection-limit", type=int, default=None,
                        help="passed to manage.py serve (e.g. 100, waitress's default, to see the fault)")
    parser.add_argument("--threads", type=int, default=None, help="passed to manage.py serve")
    parser.add_argument("--workers", type=int, default=None,
                        help="processes sharing the port in the sqlite setup (passed to manage.py serve; "
                             "default: serve's, as make run)")
    parser.add_argument("--setups", default="sqlite",
                        help="comma-separated: sqlite (manage.py serve as make run), postgres (--processes processes "
                             "on one PostgreSQL database, as make serve-prod); each run on each setup")
    parser.add_argument("--processes", type=int, default=2, help="server processes of the postgres setup")
    default_pg = os.environ.get("DATABASE_URL", "")
    parser.add_argument("--postgres-url", default=default_pg if default_pg.startswith(("postgres:", "postgresql:"))
                        else None, help="a PostgreSQL server (postgres://user@host:port/db) whose role may create "
                                        "databases; default $DATABASE_URL when it is PostgreSQL")
    parser.add_argument("--keep", action="store_true", help="keep the temporary var dir (database) of each run")
    args = parser.parse_args()
    if not 1 <= args.sources <= 250:
        parser.error("--sources: 1 to 250 (127.0.0.2–127.0.0.251)")
    names = [n.strip() for n in args.runs.split(",") if n.strip()]
    unknown = [n for n in names if n not in RUNS]
    if unknown:
        parser.error(f"--runs: unknown {unknown}; choose among {sorted(RUNS)}")
    setups = [n.strip() for n in args.setups.split(",") if n.strip()]
    if not setups or set(setups) - {"sqlite", "postgres"}:
        parser.error("--setups: sqlite, postgres or both")
    if "postgres" in setups and not args.postgres_url:
        parser.error("--setups postgres needs --postgres-url (or DATABASE_URL=postgres://…), e.g. "
                     "scripts/with-postgres.sh .venv/bin/python bench/room.py --setups sqlite,postgres")
    if args.processes < 1:
        parser.error("--processes: at least 1")
    if len(names) == 1 and len(setups) == 1:
        args.setups = setups[0]
        one_run(names[0], args)
        return
    # Django reads its settings (the database of the run) once per process: one process a run.
    argv = list(sys.argv[1:])
    for option in ("--runs", "--setups"):
        if option in argv:
            i = argv.index(option)
            del argv[i:i + 2]
        argv = [a for a in argv if not a.startswith(option + "=")]
    summaries = []
    for name in names:
        for setup in setups:
            child = subprocess.Popen([sys.executable, str(Path(__file__).resolve()), *argv, "--runs", name,
                                      "--setups", setup], stdout=subprocess.PIPE, text=True)
            for line in child.stdout:
                if line.startswith(SUMMARY):
                    summaries.append(json.loads(line[len(SUMMARY):]))
                else:
                    print(line, end="", flush=True)
            child.wait()
    side_by_side(summaries)


if __name__ == "__main__":
    main()
