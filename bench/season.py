"""Benchmark of the club's season (rules.md §16–§17).

Run: ``.venv/bin/python bench/season.py [--evenings 40] [--pairs 60] [--members 500] [--rounds 4]
[--repeat 7] [--seed 7]``.

Championship part (:func:`bench_championship`): builds, in a temporary SQLite database
(``ARBITRO_VAR_DIR`` points to a temporary folder and ``DATABASE_URL`` is ignored, so the
real database is never touched), ``--members`` club members and ``--evenings`` pair
tournaments of ``--pairs`` pairs each, every pair two members drawn at random (a member
at most once an evening), ``--rounds`` closed rounds of random pairings with one validated
sheet per table (random MP, converted by the 4-hand scale) and an evening's worth of audit
entries (one registration per pair and three per table: saved, confirmed, validated), all by
``bulk_create``; then a championship of all the evenings (``field``, best 10). It times
``championships.selectors.standings`` from the database:

- first read: no placings stored (their table emptied before each run): every evening's
  standings computed and stored;
- cold: the placings stored, the database connection closed before each run (a new process:
  SQLite's page cache of the connection empty, nothing kept in Python);
- after a correction of one evening (a new audit entry): that one computed again and stored.

Target: ≤ 200 ms (cold and after a correction). It prints the process's peak memory
(``ru_maxrss``) and the Python memory peak of one first read (``tracemalloc``). Prints
figures only, asserts nothing.
"""
from __future__ import annotations

import argparse
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from decimal import Decimal
from pathlib import Path

_ROOT = Path(__file__).resolve().parents[1]
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _ROOT / "bench"]
sys.path.insert(0, str(_ROOT))

CHAMPIONSHIP_TARGET_MS = 200.0


def _setup_django(var_dir: str) -> None:
    os.environ["ARBITRO_VAR_DIR"] = var_dir
    os.environ.pop("DATABASE_URL", None)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0, interactive=False)


def build_season(evenings: int, pairs: int, members: int, rounds: int, seed: int):
    """Insert the members, the evenings and their closed rounds; return the championship."""
    import datetime

    from championships.models import Championship
    from members.models import Member
    from scoring.vp import convert, scale_for_hands
    from tournaments.models import AuditEntry, Pair, Player, Round, ScoreSheet, Seat, Table, Tournament

    rng = random.Random(seed)
    scale = scale_for_hands(4)
    Member.objects.bulk_create([Member(membership_number=f"{400000 + k}", last_name=f"Cognome{k}",
                                       first_name=f"Nome{k}", name_key=f"cognome{k}nome{k}")
                                for k in range(members)], batch_size=2000)
    member_ids = list(Member.objects.values_list("id", flat=True))
    championship = Championship.objects.create(slug="bench", name="Bench", points_rule="field", best=10)
    start_day = datetime.date(2026, 1, 8)
    for e in range(evenings):
        t = Tournament.objects.create(name=f"Serata {e + 1}", slug=f"serata-{e + 1}", hands_per_round=4,
                                      date=start_day + datetime.timedelta(days=7 * e), vp_scale=scale.id,
                                      plan="D" * rounds)
        championship.tournaments.add(t)
        Pair.objects.bulk_create([Pair(tournament=t, number=n) for n in range(1, pairs + 1)])
        pair_ids = dict(Pair.objects.filter(tournament=t).values_list("number", "id"))
        chosen = rng.sample(member_ids, 2 * pairs)
        Player.objects.bulk_create([
            Player(tournament=t, pair_id=pair_ids[n], seat=s, first_name="N", last_name=f"C{n}{s}",
                   member_id=chosen[2 * (n - 1) + s - 1])
            for n in range(1, pairs + 1) for s in (1, 2)])
        Round.objects.bulk_create([Round(tournament=t, number=r, system=Round.System.DANISH,
                                         state=Round.State.CLOSED) for r in range(1, rounds + 1)])
        round_ids = dict(Round.objects.filter(tournament=t).values_list("number", "id"))
        numbers = list(range(1, pairs + 1))
        tables, plan = [], []
        for r in range(1, rounds + 1):
            rng.shuffle(numbers)
            for i in range(0, pairs - 1, 2):
                tables.append(Table(round_id=round_ids[r], number=i // 2 + 1))
                plan.append((r, i // 2 + 1, numbers[i], numbers[i + 1],
                             rng.randrange(0, 400) * 5, rng.randrange(0, 400) * 5))
        Table.objects.bulk_create(tables, batch_size=2000)
        table_ids = {(rn, tn): tid for rn, tn, tid in
                     Table.objects.filter(round__tournament=t).values_list("round__number", "number", "id")}
        seats, sheets = [], []
        for r, tn, ns, ew, mp_ns, mp_ew in plan:
            tid = table_ids[(r, tn)]
            seats += [Seat(round_id=round_ids[r], table_id=tid, pair_id=pair_ids[ns], line=Seat.Line.NS),
                      Seat(round_id=round_ids[r], table_id=tid, pair_id=pair_ids[ew], line=Seat.Line.EW)]
            vp_ns, vp_ew = convert(mp_ns, mp_ew, scale)
            sheets.append(ScoreSheet(table_id=tid, state=ScoreSheet.State.VALIDATED, mp_ns=mp_ns, mp_ew=mp_ew,
                                     vp_ns=Decimal(vp_ns), vp_ew=Decimal(vp_ew), version=1))
        Seat.objects.bulk_create(seats, batch_size=2000)
        ScoreSheet.objects.bulk_create(sheets, batch_size=2000)
        # the audit trail an evening leaves (its latest id is what the stored placings key on)
        AuditEntry.objects.bulk_create(
            [AuditEntry(tournament=t, actor="bench", action="pair_added") for _ in range(pairs)]
            + [AuditEntry(tournament=t, actor="bench", action=action, round_number=r, table_number=tn)
               for r, tn, *_rest in plan for action in ("sheet_saved", "sheet_confirmed", "sheet_validated")],
            batch_size=2000)
    return championship


CPU_MS: dict[int, list[float]] = {}


def _time(fn, repeat: int, before=None) -> list[float]:
    """Wall-clock milliseconds of ``repeat`` runs; the CPU milliseconds of the same runs
    (``time.process_time``: SQLite runs in this process, so its work counts, but not the
    waits for a core a loaded machine adds) are kept in ``CPU_MS[id(result)]``."""
    times, cpu = [], []
    for _ in range(repeat):
        if before:
            before()
        start, start_cpu = time.perf_counter(), time.process_time()
        fn()
        times.append((time.perf_counter() - start) * 1000)
        cpu.append((time.process_time() - start_cpu) * 1000)
    CPU_MS[id(times)] = cpu
    return times


def _line(label: str, times: list[float]) -> str:
    cpu = CPU_MS.get(id(times), [0.0])
    return (f"{label}: best {min(times):.1f} ms, median {statistics.median(times):.1f} ms wall; "
            f"CPU best {min(cpu):.1f} ms")


def bench_championship(args) -> None:
    """The championship part (module docstring)."""
    from django.db import connection

    from championships import selectors
    from championships.models import EveningPlacings

    start = time.perf_counter()
    championship = build_season(args.evenings, args.pairs, args.members, args.rounds, args.seed)
    print(f"database built in {time.perf_counter() - start:.1f} s: {args.members} members, {args.evenings} "
          f"evenings × {args.pairs} pairs × {args.rounds} closed rounds ({connection.vendor})")
    view = selectors.standings(championship)  # warm-up (imports, SQLite page cache)
    print(f"championship: {len(view.rows)} members ranked over {len(view.evenings)} evenings")

    def forget_placings():
        EveningPlacings.objects.all().delete()

    first_read = _time(lambda: selectors.standings(championship), args.repeat, before=forget_placings)
    def new_connection():  # as a new process would (not inside a test's transaction)
        if not connection.in_atomic_block:
            connection.close()

    cold = _time(lambda: selectors.standings(championship), args.repeat, before=new_connection)
    first = championship.tournaments.order_by("date").first()

    def correct_one_evening():  # what a correction leaves: a new audit entry of one evening
        from tournaments.services.audit import audit

        audit(tournament=first, by=None, action="bench_correction")

    one = _time(lambda: selectors.standings(championship), args.repeat, before=correct_one_evening)
    print(f"championships.selectors.standings over {args.repeat} runs:")
    print(_line("  first read (no placings stored: every evening's standings computed and stored)", first_read))
    print(_line("  cold (placings read from the database, a new connection, nothing in the process)", cold))
    print(_line("  after a correction of one evening (that one computed again and stored)", one))
    for label, times in (("cold", cold), ("after a correction", one)):
        verdict = "OK" if min(times) <= CHAMPIONSHIP_TARGET_MS else "MISSED"
        print(f"target ≤ {CHAMPIONSHIP_TARGET_MS:.0f} ms ({label}, best): {verdict}")
    load = os.getloadavg()[0]
    print(f"load average while measuring: {load:.1f} on {os.cpu_count()} cores (figures grow with it)")
    forget_placings()
    tracemalloc.start()
    selectors.standings(championship)
    _current, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux
    print(f"memory: one first read (every evening computed) peaks at {peak / 2**20:.1f} MiB of Python objects; "
          f"the process's peak resident size is {rss:.0f} MiB (Django, the build included)")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--evenings", type=int, default=40)
    parser.add_argument("--pairs", type=int, default=60)
    parser.add_argument("--members", type=int, default=500)
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="arbitro-bench-") as var_dir:
        _setup_django(var_dir)
        bench_championship(args)
    # the member search at 5000 members, in a process of its own (its own temporary database)
    subprocess.run([sys.executable, str(Path(__file__).with_name("member_search.py"))], check=True)


if __name__ == "__main__":
    main()
