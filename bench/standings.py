"""Benchmark: standings of 500 pairs after 10 closed rounds, read from the database (rules.md §8).

Run: ``.venv/bin/python bench/standings.py [--pairs 500] [--rounds 10] [--repeat 15] [--seed 7]``.

Builds, in a temporary SQLite database (``ARBITRO_VAR_DIR`` points to a temporary folder
and ``DATABASE_URL`` is ignored, so the real database is never touched), a tournament with
``--pairs`` pairs (two players each) and ``--rounds`` closed rounds: random pairings, one
rest per round when the number of pairs is odd, one validated score sheet per table with
random MP (multiples of 5) converted by the 4-hand scale, four hand rows per sheet, and a
few penalties. Everything is inserted with ``bulk_create``. Then it times
``tournaments.selectors.standings_after(t)`` (database reads + ``scoring.standings``) and prints
the best and the median of ``--repeat`` runs, plus the time of the pure ranking alone.
Target: ≤ 50 ms for 500 pairs × 10 rounds. Prints figures only, asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from decimal import Decimal
from pathlib import Path

# Run as a script, sys.path[0] is bench/; put the repository root first.
_ROOT = Path(__file__).resolve().parents[1]
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _ROOT / "bench"]
sys.path.insert(0, str(_ROOT))

TARGET_MS = 50.0


def _setup_django(var_dir: str) -> None:
    os.environ["ARBITRO_VAR_DIR"] = var_dir
    os.environ.pop("DATABASE_URL", None)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0, interactive=False)


def build(pairs: int, rounds: int, seed: int):
    """Insert one tournament with ``pairs`` pairs and ``rounds`` closed rounds; return it."""
    import datetime

    from scoring.vp import convert, scale_for_hands
    from tournaments.models import HandRow, Pair, Penalty, Player, Round, ScoreSheet, Seat, Table, Tournament

    rng = random.Random(seed)
    scale = scale_for_hands(4)
    t = Tournament.objects.create(
        name="Bench", slug="bench", date=datetime.date(2026, 1, 1), hands_per_round=4, vp_scale=scale.id,
        plan="D" * rounds,
    )
    Pair.objects.bulk_create([Pair(tournament=t, number=n) for n in range(1, pairs + 1)])
    pair_ids = dict(Pair.objects.filter(tournament=t).values_list("number", "id"))
    Player.objects.bulk_create([
        Player(tournament=t, pair_id=pair_ids[n], seat=s, first_name=f"Nome{n}{s}", last_name=f"Cognome{n}{s}")
        for n in range(1, pairs + 1) for s in (1, 2)
    ])
    Round.objects.bulk_create([
        Round(tournament=t, number=r, system=Round.System.DANISH, state=Round.State.CLOSED) for r in range(1, rounds + 1)
    ])
    round_ids = dict(Round.objects.filter(tournament=t).values_list("number", "id"))
    numbers = list(range(1, pairs + 1))
    tables, seats_plan, sheets_plan = [], [], []
    for r in range(1, rounds + 1):
        rng.shuffle(numbers)
        table_no = 0
        for i in range(0, pairs - 1, 2):
            table_no += 1
            tables.append(Table(round_id=round_ids[r], number=table_no))
            seats_plan.append((r, table_no, numbers[i], numbers[i + 1]))
            hands = [(rng.randrange(-20, 80) * 5, rng.randrange(-20, 80) * 5) for _ in range(4)]
            sheets_plan.append((r, table_no, hands))
        if pairs % 2:
            table_no += 1
            tables.append(Table(round_id=round_ids[r], number=table_no, bye=Table.Bye.REST))
            seats_plan.append((r, table_no, numbers[-1], None))
    Table.objects.bulk_create(tables, batch_size=2000)
    table_ids = {
        (rnum, tnum): tid
        for rnum, tnum, tid in Table.objects.filter(round__tournament=t).values_list("round__number", "number", "id")
    }
    seats = []
    for r, tnum, ns, ew in seats_plan:
        tid = table_ids[(r, tnum)]
        seats.append(Seat(round_id=round_ids[r], table_id=tid, pair_id=pair_ids[ns], line=Seat.Line.NS))
        if ew is not None:
            seats.append(Seat(round_id=round_ids[r], table_id=tid, pair_id=pair_ids[ew], line=Seat.Line.EW))
    Seat.objects.bulk_create(seats, batch_size=2000)
    sheets = []
    for r, tnum, hands in sheets_plan:
        mp_ns = sum(h[0] for h in hands)
        mp_ew = sum(h[1] for h in hands)
        vp_ns, vp_ew = convert(mp_ns, mp_ew, scale)
        sheets.append(ScoreSheet(
            table_id=table_ids[(r, tnum)], state=ScoreSheet.State.VALIDATED, mp_ns=mp_ns, mp_ew=mp_ew,
            vp_ns=Decimal(vp_ns), vp_ew=Decimal(vp_ew), version=1,
        ))
    ScoreSheet.objects.bulk_create(sheets, batch_size=2000)
    sheet_ids = dict(ScoreSheet.objects.filter(table__round__tournament=t).values_list("table_id", "id"))
    HandRow.objects.bulk_create([
        HandRow(sheet_id=sheet_ids[table_ids[(r, tnum)]], number=k, ns_score=ns, ew_score=ew)
        for r, tnum, hands in sheets_plan for k, (ns, ew) in enumerate(hands, start=1)
    ], batch_size=5000)
    Penalty.objects.bulk_create([
        Penalty(tournament=t, pair_id=pair_ids[n], vp=Decimal(1), reason="bench", round_number=rng.randint(1, rounds))
        for n in rng.sample(range(1, pairs + 1), min(10, pairs))
    ])
    return t


def _time(fn, repeat: int) -> list[float]:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return times


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=500)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args(argv)

    with tempfile.TemporaryDirectory(prefix="arbitro-bench-") as var_dir:
        _setup_django(var_dir)
        from django.db import connection

        from scoring.standings import compute_standings
        from tournaments import selectors
        from tournaments.models import Pair

        start = time.perf_counter()
        t = build(args.pairs, args.rounds, args.seed)
        print(f"database built in {time.perf_counter() - start:.1f} s: {args.pairs} pairs, "
              f"{args.rounds} closed rounds ({connection.vendor})")

        rows = selectors.standings_after(t).rows  # warm-up (imports, scale cache, SQLite page cache)
        assert len(rows) == args.pairs
        times = _time(lambda: selectors.standings_after(t), args.repeat)

        results = selectors.game_results(t)
        numbers = list(Pair.objects.filter(tournament=t).values_list("number", flat=True))
        pure = _time(lambda: compute_standings(numbers, results, tiebreaks=t.tiebreak_order), args.repeat)

        best, median = min(times), statistics.median(times)
        print(f"selectors.standings_after: best {best:.1f} ms, median {median:.1f} ms over {args.repeat} runs "
              f"({len(results)} results)")
        print(f"  of which scoring.standings.compute_standings: best {min(pure):.1f} ms, "
              f"median {statistics.median(pure):.1f} ms")
        verdict = "OK" if best <= TARGET_MS else "MISSED"
        print(f"target ≤ {TARGET_MS:.0f} ms (best): {verdict}")


if __name__ == "__main__":
    main()
