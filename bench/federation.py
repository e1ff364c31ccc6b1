"""Benchmark: many clubs on one server (rules.md §20; docs/clubs.md).

Run (PostgreSQL, the hosted setup; the full size takes minutes):
``bash scripts/with-postgres.sh .venv/bin/python bench/federation.py``;
a small run: ``… bench/federation.py --clubs 20``. Without ``DATABASE_URL`` it runs on a
temporary SQLite database (the smoke test's way, not the figure that counts).

Builds, with bulk inserts (``bulk_create``), ``--clubs`` clubs (300) × ``--evenings``
evenings (20, spread over the last year) × ``--tables`` tables (15, so 2 × tables pairs) × 4
rounds, every round closed and every table's sheet validated (VP and MP stored as the
standings read them); each club has one arbiter directing its evenings and a registry of
``--members`` members (200). Then prints:

- the arbiter's home page and the member search while typing (``/soci/cerca/?q=``, from the
  second character on) in one club among all — p50/p99 (target p99 ≤ 100 ms);
- the federation's download of a year (``/federazione/risultati.xlsx`` and ``.csv``), run in
  a child process: seconds, the child's CPU seconds (and on PostgreSQL its server backend's,
  from ``/proc``: on a loaded machine the seconds are mostly waiting) and peak resident
  memory (≤ 30 s, ≤ 500 MB); ``--only download`` builds and times only these two downloads;
- a circuit of ``--circuit-clubs`` (50) clubs × ``--circuit-evenings`` (10) evenings ranked
  (``championships`` standings: the first read computes and stores each evening's placings,
  the next ones read them) and a simultaneous evening of ``--simultaneous-clubs`` (100) clubs'
  first evenings combined (``simultaneous`` combined standings) — target ≤ 1 s each, with the
  date and load;
- the database's size;
- which indexes carry the club scoping: EXPLAIN of the home page's and the search's queries.

Prints figures and asserts nothing; the last line is exactly
``federation[VENDOR]: C clubs, T tournaments, N tables; home p99 X ms; search p99 Y ms;
year xlsx S s R MB; year csv S s R MB; circuit C×E S s; simultaneous C×T S s``.
"""
from __future__ import annotations

import argparse
import datetime
import gc
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from decimal import Decimal
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT / "bench"]
sys.path.insert(0, str(ROOT))

SURNAMES = ["Rossi", "Russo", "Ferrari", "Esposito", "Bianchi", "Romano", "Colombo", "Ricci", "Marino", "Greco",
            "Bruno", "Gallo", "Conti", "De Luca", "Mancini", "Costa", "Giordano", "Rizzo", "Lombardi", "Moretti"]
FIRST = ["Anna", "Marco", "Giulia", "Luca", "Francesca", "Andrea", "Chiara", "Matteo", "Sara", "Alessandro"]
TYPED = ["rossi anna", "de luca", "moretti sara", "luca", "1000"]
ROUNDS = 4
#: Tournaments built (and inserted) at a time.
BATCH = 50


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    rank = max(1, min(len(ordered), round(q / 100 * len(ordered) + 0.5)))
    return ordered[rank - 1]


def setup_django() -> None:
    import warnings

    warnings.filterwarnings("ignore", message="No directory at")
    if not os.environ.get("DATABASE_URL"):
        os.environ.setdefault("ARBITRO_VAR_DIR", tempfile.mkdtemp(prefix="arbitro-bench-federation-"))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()


def build(clubs: int, evenings: int, tables: int, members: int) -> tuple[list, list]:
    """The clubs, their arbiters and members, and every club's evenings; returns (clubs,
    arbiters) in club order."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password
    from django.utils import timezone

    from clubs.models import Club, ClubRole
    from members.models import Member
    from members.names import name_key
    from tournaments.models import Pair, Player, Round, ScoreSheet, Seat, Table, Tournament

    User = get_user_model()
    made = Club.objects.bulk_create([Club(name=f"Circolo {c:03d}", slug=f"c{c:03d}", city="Roma",
                                          federation_code=f"FB{c:04d}") for c in range(1, clubs + 1)])
    made = list(Club.objects.filter(slug__in=[c.slug for c in made]).order_by("slug"))
    password = make_password("segreta-123")
    User.objects.bulk_create([User(username=f"arb{c:03d}", password=password) for c in range(1, clubs + 1)])
    arbiters = list(User.objects.filter(username__startswith="arb").order_by("username"))
    ClubRole.objects.bulk_create([ClubRole(user=u, club=c, role=ClubRole.Role.MANAGER if k % 2 else ClubRole.Role.ARBITER)
                                  for k, (u, c) in enumerate(zip(arbiters, made, strict=True))])
    rows = []
    for club in made:
        for k in range(members):
            last, first = SURNAMES[k % len(SURNAMES)], FIRST[(k // len(SURNAMES)) % len(FIRST)]
            last = last if k < len(SURNAMES) * len(FIRST) else f"{last} {k // (len(SURNAMES) * len(FIRST))}"
            rows.append(Member(club=club, membership_number=str(100001 + k), last_name=last, first_name=first,
                               name_key=name_key(last, first), registered_club=club.name, listed=True))
        if len(rows) >= 20_000:
            Member.objects.bulk_create(rows, batch_size=5000)
            rows = []
    Member.objects.bulk_create(rows, batch_size=5000)
    # each player is linked to his club's member of the same number when there is one (a
    # circuit ranks members, rules.md §17, §20)
    member_ids = {(club_id, number): pk for pk, club_id, number in
                  Member.objects.filter(club__in=made).values_list("pk", "club_id", "membership_number")}

    today = timezone.localdate()
    plan = "M" * ROUNDS
    jobs = [(club, arbiter, e) for e in range(evenings) for club, arbiter in zip(made, arbiters, strict=True)]
    Through = Tournament.arbiters.through
    for start in range(0, len(jobs), BATCH):
        chunk = jobs[start:start + BATCH]
        ts = Tournament.objects.bulk_create([
            Tournament(name=f"Serata {e + 1} {club.name}", slug=f"{club.slug}-s{e + 1:02d}", club=club,
                       created_by=arbiter, plan=plan, hands_per_round=4, vp_scale="vp20-4h",
                       date=today - datetime.timedelta(days=(e * 365) // max(evenings, 1) + 1))
            for club, arbiter, e in chunk])
        Through.objects.bulk_create([Through(tournament_id=t.pk, user_id=arbiter.pk)
                                     for t, (_c, arbiter, _e) in zip(ts, chunk, strict=True)])
        pairs = Pair.objects.bulk_create([Pair(tournament=t, number=n) for t in ts for n in range(1, 2 * tables + 1)])
        club_of = {t.pk: t.club_id for t in ts}
        by_t: dict[int, list] = {}
        for p in pairs:
            by_t.setdefault(p.tournament_id, []).append(p)
        Player.objects.bulk_create([
            Player(tournament_id=p.tournament_id, pair=p, seat=s, last_name=SURNAMES[(p.number + s) % len(SURNAMES)],
                   first_name=FIRST[p.number % len(FIRST)], membership_number=str(100001 + 2 * (p.number - 1) + s - 1),
                   member_id=member_ids.get((club_of[p.tournament_id], str(100001 + 2 * (p.number - 1) + s - 1))))
            for p in pairs for s in (1, 2)], batch_size=5000)
        rounds = Round.objects.bulk_create([
            Round(tournament=t, number=r, system=Round.System.MITCHELL, state=Round.State.CLOSED,
                  published_at=timezone.now(), closed_at=timezone.make_aware(
                      datetime.datetime.combine(t.date, datetime.time(21 + r // 3, (r * 20) % 60))))
            for t in ts for r in range(1, ROUNDS + 1)])
        table_rows = Table.objects.bulk_create([Table(round=r, number=k) for r in rounds
                                                for k in range(1, tables + 1)], batch_size=5000)
        seats, sheets = [], []
        rounds_by_id = {r.pk: r for r in rounds}
        for table in table_rows:
            rnd = rounds_by_id[table.round_id]
            ps = by_t[rnd.tournament_id]
            ns = ps[table.number - 1]  # Mitchell: N/S stay, E/W move one table a round
            ew = ps[tables + (table.number - 1 + rnd.number - 1) % tables]
            seats += [Seat(round=rnd, table=table, pair=ns, line=Seat.Line.NS),
                      Seat(round=rnd, table=table, pair=ew, line=Seat.Line.EW)]
            mp = ((table.number * 7 + rnd.number * 3) % 11 - 5) * 40
            vp = Decimal(10 + max(-10, min(10, mp // 20)))
            sheets.append(ScoreSheet(table=table, state=ScoreSheet.State.VALIDATED, mp_ns=mp, mp_ew=-mp,
                                     vp_ns=vp, vp_ew=Decimal(20) - vp, arbitral=True))
        Seat.objects.bulk_create(seats, batch_size=5000)
        ScoreSheet.objects.bulk_create(sheets, batch_size=5000)
    return made, arbiters


def build_circuit(clubs: list, evenings: int):
    """A circuit (rules.md §20) of ``clubs`` (all accepted, owned by the first), counting each
    club's first ``evenings`` evenings (by slug), points rule ``field``; bulk inserts."""
    from django.utils import timezone

    from championships.models import Championship, CircuitClub
    from tournaments.models import Tournament

    circuit = Championship.objects.create(slug="circuito-bench", name="Circuito", club=clubs[0],
                                          points_rule="field")
    CircuitClub.objects.bulk_create([CircuitClub(championship=circuit, club=c, accepted_at=timezone.now())
                                     for c in clubs])
    wanted = [f"{c.slug}-s{e + 1:02d}" for c in clubs for e in range(evenings)]
    Through = Championship.tournaments.through
    Through.objects.bulk_create([Through(championship_id=circuit.pk, tournament_id=pk) for pk in
                                 Tournament.objects.filter(slug__in=wanted).values_list("pk", flat=True)])
    return circuit


def build_simultaneous(clubs: list):
    """A simultaneous evening (rules.md §20) of ``clubs``: each club's first evening (all on
    the same date, the bench's settings) attached as its participation; bulk inserts."""
    from simultaneous.models import Participation, SimultaneousEvent
    from tournaments.models import Tournament

    firsts = {t.club_id: t for t in Tournament.objects.filter(slug__in=[f"{c.slug}-s01" for c in clubs])}
    sample = next(iter(firsts.values()))
    event = SimultaneousEvent.objects.create(
        slug="simultaneo-bench", name="Simultaneo", date=sample.date, kind=sample.kind, plan=sample.plan,
        hands_per_round=sample.hands_per_round, vp_scale=sample.vp_scale, tiebreaks=",".join(sample.tiebreak_order),
        bye_percent=sample.bye_percent, bye_mp=sample.bye_mp)
    event.clubs.add(*clubs)
    Participation.objects.bulk_create([Participation(event=event, club=c, tournament=firsts[c.pk]) for c in clubs])
    return event


def timed(read, repeat: int) -> list[float]:
    """Seconds of each of ``repeat`` calls of ``read()`` (the first one included)."""
    out = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        read()
        out.append(time.perf_counter() - t0)
    return out


def timed_gets(client, url: str, params_list: list[dict]) -> list[float]:
    out = []
    for params in params_list:
        t0 = time.perf_counter()
        response = client.get(url, params)
        out.append((time.perf_counter() - t0) * 1000)
        assert response.status_code == 200, (url, params, response.status_code)
    return out


def explain(sql: str, params) -> list[str]:
    """The plan's lines of ``sql`` (EXPLAIN on PostgreSQL, EXPLAIN QUERY PLAN on SQLite)."""
    from django.db import connection

    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("EXPLAIN " + sql, params)
            return [r[0] for r in cursor.fetchall()]
        cursor.execute("EXPLAIN QUERY PLAN " + sql, params)
        return [str(r[-1]) for r in cursor.fetchall()]


def indexes_in(lines: list[str]) -> list[str]:
    found = []
    for line in lines:
        for name in re.findall(r"(?:[Ii]ndex(?: Only)? Scan(?: Backward)? using|Bitmap Index Scan on|USING (?:COVERING )?INDEX) (\w+)", line):
            if name not in found:
                found.append(name)
    return found


def show_plans(client, path: str, params: dict, tables: tuple[str, ...]) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as captured:
        client.get(path, params)
    for query in captured.captured_queries:
        sql = query["sql"]
        if not any(f'"{t}"' in sql.split(" WHERE ")[0] for t in tables) or "SAVEPOINT" in sql:
            continue
        # the captured text has its parameters inlined: explain it as it ran (without the
        # server-side cursor PostgreSQL's iterator() declares around it)
        sql = re.sub(r'^DECLARE "\w+" NO SCROLL CURSOR WITH(?:OUT)? HOLD FOR ', "", sql)
        lines = explain(sql, None)
        short = re.sub(r"\s+", " ", sql)[:160]
        print(f"    {short}…")
        print(f"      indexes: {', '.join(indexes_in(lines)) or 'none (sequential)'}; plan: "
              f"{' | '.join(line.strip() for line in lines[:6])[:400]}")


def measure_download(fmt: str, start: str, end: str) -> None:
    """The child process: the federation's download of ``start``–``end`` by a superuser, the
    body read to the end; prints seconds, bytes and the process's peak RSS."""
    setup_django()
    from django.contrib.auth import get_user_model
    from django.test import Client

    admin = get_user_model().objects.filter(username="federazione").first()
    client = Client()
    client.force_login(admin)
    backend, server0 = server_cpu()
    t0, cpu0 = time.perf_counter(), time.process_time()
    response = client.get(f"/federazione/risultati.{fmt}", {"dal": start, "al": end})
    size = lines = 0
    for piece in response.streaming_content:
        size += len(piece)
        lines += piece.count(b"\r\n")
    elapsed, cpu = time.perf_counter() - t0, time.process_time() - cpu0
    again, server1 = server_cpu()
    server = server1 - server0 if backend is not None and again == backend else -1
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"DOWNLOAD {fmt} {elapsed:.2f} {size} {peak:.0f} {lines} {cpu:.2f} {server:.2f}")


def server_cpu() -> tuple[int | None, float]:
    """(PostgreSQL backend's pid, its CPU seconds so far) of this process's connection, read
    from ``/proc`` (the bench's server runs on this machine); (None, 0) on SQLite or without
    ``/proc``."""
    from django.db import connection

    if connection.vendor != "postgresql":
        return None, 0.0
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        pid = cursor.fetchone()[0]
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None, 0.0
    return pid, (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime


def download_in_child(fmt: str, start: str, end: str) -> tuple[float, int, float, int, float, float]:
    """Run :func:`measure_download` in a fresh process (its peak memory is the download's
    alone): (seconds, bytes, peak RSS in MB, CSV lines — headings included — or 0, the
    child's CPU seconds, its PostgreSQL backend's CPU seconds or −1 when not known)."""
    result = subprocess.run([sys.executable, __file__, "--download", fmt, start, end], cwd=ROOT,
                            capture_output=True, text=True, env=os.environ.copy(), timeout=3600)
    line = next((ln for ln in result.stdout.splitlines() if ln.startswith("DOWNLOAD ")), None)
    if line is None:
        raise SystemExit(f"download {fmt} failed: {result.stderr[-2000:]}")
    _w, _f, seconds, size, peak, lines, cpu, server = line.split()
    return float(seconds), int(size), float(peak), int(lines) if fmt == "csv" else 0, float(cpu), float(server)


def year_downloads() -> dict[str, tuple[float, float]]:
    """Time the federation's download of the last year, XLSX then CSV, each in a child
    process; print each one's figures (with the load average before it), the database's size
    and the load after; return format → (seconds, peak RSS in MB)."""
    from django.utils import timezone

    end = timezone.localdate()
    start = end - datetime.timedelta(days=365)
    figures = {}
    for fmt in ("xlsx", "csv"):
        load = os.getloadavg()
        seconds, size, peak, lines, cpu, server = download_in_child(fmt, start.isoformat(), end.isoformat())
        figures[fmt] = (seconds, peak)
        rows = f", {lines - 1} rows" if fmt == "csv" else ""
        database = f" + {server:.1f} CPU-s in the database server" if server >= 0 else ""
        print(f"federation's download of a year ({start} – {end}), {fmt}: {seconds:.1f} s, "
              f"{size / 1024:.0f} KB{rows}, peak resident {peak:.0f} MB, {cpu:.1f} CPU-s in the child{database} "
              f"(child process; load before {load[0]:.2f})")
    print(f"database size: {database_size()}")
    load = os.getloadavg()
    print(f"load average after {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    return figures


def database_size() -> str:
    from django.db import connection

    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SELECT pg_size_pretty(pg_database_size(current_database()))")
            return cursor.fetchone()[0]
    path = Path(connection.settings_dict["NAME"])
    files = [path, Path(f"{path}-wal")]
    return f"{sum(f.stat().st_size for f in files if f.exists()) / 1024 / 1024:.1f} MB"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clubs", type=int, default=300)
    parser.add_argument("--evenings", type=int, default=20)
    parser.add_argument("--tables", type=int, default=15)
    parser.add_argument("--members", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=30, help="home page requests timed")
    parser.add_argument("--circuit-clubs", type=int, default=50, help="clubs of the circuit ranked")
    parser.add_argument("--circuit-evenings", type=int, default=10, help="evenings of each club in the circuit")
    parser.add_argument("--simultaneous-clubs", type=int, default=100, help="clubs of the simultaneous evening")
    parser.add_argument("--only", choices=["download"],
                        help="build, then time only the federation's download of a year (no pages, circuit "
                             "nor simultaneous evening)")
    parser.add_argument("--download", nargs=3, metavar=("FMT", "FROM", "TO"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.download:
        measure_download(*args.download)
        return
    if min(args.clubs, args.evenings, args.tables, args.members, args.circuit_clubs, args.circuit_evenings,
           args.simultaneous_clubs) < 1:
        parser.error("--clubs, --evenings, --tables, --members and the circuit's and simultaneous evening's "
                     "sizes take a number ≥ 1")
    if not os.environ.get("DATABASE_URL"):  # the child processes share the temporary database
        os.environ["ARBITRO_VAR_DIR"] = tempfile.mkdtemp(prefix="arbitro-bench-federation-")
    setup_django()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client

    call_command("migrate", verbosity=0)
    vendor = connection.vendor
    load_before = os.getloadavg()
    print(f"federation bench on {vendor}, {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC, "
          f"load average {load_before[0]:.2f} {load_before[1]:.2f} {load_before[2]:.2f}, {os.cpu_count()} cores")
    t0 = time.perf_counter()
    clubs, arbiters = build(args.clubs, args.evenings, args.tables, args.members)
    from tournaments.models import Table, Tournament

    n_tournaments, n_tables = Tournament.objects.count(), Table.objects.count()
    print(f"built {len(clubs)} clubs × {args.evenings} evenings × {args.tables} tables × {ROUNDS} rounds: "
          f"{n_tournaments} tournaments, {n_tables} tables, {len(clubs) * args.members} members "
          f"in {time.perf_counter() - t0:.1f} s")
    if args.only != "download":
        n_circuit, n_circuit_evenings = min(args.circuit_clubs, len(clubs)), min(args.circuit_evenings, args.evenings)
        circuit = build_circuit(clubs[:n_circuit], n_circuit_evenings)
        n_simultaneous = min(args.simultaneous_clubs, len(clubs))
        event = build_simultaneous(clubs[:n_simultaneous])
    if vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
    get_user_model().objects.create_superuser(username="federazione", password="segreta-123")
    if args.only == "download":
        figures = year_downloads()
        print(f"federation[{vendor}]: {len(clubs)} clubs, {n_tournaments} tournaments, {n_tables} tables; "
              f"year xlsx {figures['xlsx'][0]:.1f} s {figures['xlsx'][1]:.0f} MB; "
              f"year csv {figures['csv'][0]:.1f} s {figures['csv'][1]:.0f} MB")
        return

    middle = len(clubs) // 2
    club, arbiter = clubs[middle], arbiters[middle]
    # the build's leftovers (its model objects, the migrations' state) are out of the
    # garbage collector's reach, as a server process never had them: a full collection over
    # them took its 100 ms in one timed request out of 30 (the p99)
    gc.collect()
    gc.freeze()
    client = Client()
    client.force_login(arbiter)
    client.get("/")  # warm
    home = timed_gets(client, "/", [{}] * args.repeat)
    keys = [{"q": text[:end], "club": club.pk} for text in TYPED for end in range(2, len(text) + 1)]
    timed_gets(client, "/soci/cerca/", keys[:3])  # warm
    search = timed_gets(client, "/soci/cerca/", keys * 2)
    print(f"arbiter's home page in club {club.slug} ({args.evenings} evenings) among {len(clubs)}: "
          f"p50 {statistics.median(home):.1f} ms, p99 {percentile(home, 99):.1f} ms ({len(home)} requests)")
    print(f"member search while typing in club {club.slug} ({args.members} members of {len(clubs) * args.members}): "
          f"p50 {statistics.median(search):.1f} ms, p99 {percentile(search, 99):.1f} ms ({len(search)} keystrokes)")
    print("club scoping, the home page's queries:")
    show_plans(client, "/", {}, ("tournaments_tournament",))
    print("club scoping, the search's queries:")
    show_plans(client, "/soci/cerca/", {"q": "rossi an", "club": club.pk}, ("members_member",))

    from championships import selectors as championship_reads
    from simultaneous import selectors as simultaneous_reads

    load = os.getloadavg()
    circuit_s = timed(lambda: championship_reads.standings(circuit), 3)
    ranked = len(championship_reads.standings(circuit).rows)
    print(f"circuit of {n_circuit} clubs × {n_circuit_evenings} evenings ranked ({ranked} rows): first read "
          f"{circuit_s[0]:.2f} s (placings computed and stored), then {min(circuit_s[1:]):.2f} s "
          f"(target ≤ 1 s; {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC, "
          f"load {load[0]:.2f})")
    load = os.getloadavg()
    combined_s = timed(lambda: simultaneous_reads.combined_standings(event), 3)
    combined = simultaneous_reads.combined_standings(event)
    print(f"simultaneous evening of {n_simultaneous} clubs × {args.tables} tables combined ({len(combined.rows)} "
          f"entrants, final {combined.final}): p50 {statistics.median(combined_s):.2f} s, max {max(combined_s):.2f} s "
          f"(target ≤ 1 s; {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC, load {load[0]:.2f})")

    figures = year_downloads()
    print(f"federation[{vendor}]: {len(clubs)} clubs, {n_tournaments} tournaments, {n_tables} tables; "
          f"home p99 {percentile(home, 99):.1f} ms; search p99 {percentile(search, 99):.1f} ms; "
          f"year xlsx {figures['xlsx'][0]:.1f} s {figures['xlsx'][1]:.0f} MB; "
          f"year csv {figures['csv'][0]:.1f} s {figures['csv'][1]:.0f} MB; "
          f"circuit {n_circuit}×{n_circuit_evenings} {min(circuit_s[1:]):.2f} s; "
          f"simultaneous {n_simultaneous}×{args.tables} {statistics.median(combined_s):.2f} s")


if __name__ == "__main__":
    main()
