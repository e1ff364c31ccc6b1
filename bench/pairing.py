"""Benchmark: one Danish round after 9 rounds of history (rules.md §7).

Run: ``.venv/bin/python bench/pairing.py [--seed N] [--repeat R]``.

For 100, 200, 500 and 1000 pairs: plays 9 random Danish rounds (random VP per table, ranking
by VP then MP difference, all meetings remembered), then times the 10th round's pairing with
:func:`pairing.run` (best of ``--repeat``). For 100 and 200 pairs it also times the baseline
(top-down with a networkx perfect-matching feasibility test at every step,
``tests/pairing/nx_baseline.py``), prints the speed-up and whether both give the same tables.
Targets: 1000 pairs ≤ 0.3 s; ≥ 30× faster than the baseline at 200 pairs. Prints figures
only, asserts nothing.

Individual tournaments (rules.md §9): for 50 … 2000 players, 9 random Danish individual rounds
(each player scores his line's VP; ranking by VP then MP difference; every partnership and
rest remembered), then times the 10th ``danish-individual`` round (target: 2000 players
≤ 0.3 s). Up to 200 players it also times the networkx baseline
(``tests/pairing/nx_baseline.py``: a fresh max-cardinality matching for every candidate
partner), which grows too fast to run beyond that. ``--only pairs|individual`` runs one
table; ``--max-players N`` stops the individual table at N players, ``--baseline-max N``
times the baseline only up to N players.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

# Run as a script, sys.path[0] is bench/, where this very file would shadow the package.
_ROOT = Path(__file__).resolve().parents[1]
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _ROOT / "bench"]
sys.path.insert(0, str(_ROOT))

from pairing import run  # noqa: E402
from pairing.rtg.common import random_result  # noqa: E402


def history(n: int, rounds: int, seed: int) -> dict:
    """A Danish request for round ``rounds + 1`` after ``rounds`` random Danish rounds."""
    rnd = random.Random(seed)
    pairs = list(range(1, n + 1))
    vp = {p: 0 for p in pairs}
    diff = {p: 0 for p in pairs}
    met, last, rested = [], [], []
    ranking = list(pairs)
    rnd.shuffle(ranking)
    for r in range(1, rounds + 1):
        response = run({"system": "danish", "ranking": ranking, "met": met,
                        "rested": rested, "avoid_rematches": "all"})
        last = []
        for t in response["tables"]:
            a, b = t["ns"], t["ew"]
            d, share = random_result(rnd)
            vp[a] += share
            vp[b] += 20 - share
            diff[a] += d
            diff[b] -= d
            met.append([a, b, r])
            last.append([a, b])
        if response["bye"] is not None:
            vp[response["bye"]] += 14
            rested.append(response["bye"])
        ranking = sorted(pairs, key=lambda p: (-vp[p], -diff[p], p))
    return {"system": "danish", "ranking": ranking, "met": met, "met_last_round": last,
            "rested": rested, "avoid_rematches": "all"}


def individual_history(n: int, rounds: int, seed: int) -> dict:
    """A ``danish-individual`` request for round ``rounds + 1`` after ``rounds`` random rounds."""
    rnd = random.Random(seed)
    players = list(range(1, n + 1))
    vp = dict.fromkeys(players, 0)
    diff = dict.fromkeys(players, 0)
    partners, rested = [], []
    ranking = list(players)
    rnd.shuffle(ranking)
    for r in range(1, rounds + 1):
        response = run({"system": "danish-individual", "ranking": ranking,
                        "partners": partners, "rested": rested})
        for t in response["tables"]:
            d, share = random_result(rnd)
            for p in t["ns"]:
                vp[p] += share
                diff[p] += d
            for p in t["ew"]:
                vp[p] += 20 - share
                diff[p] -= d
            partners += [[*t["ns"], r], [*t["ew"], r]]
        for p in response["rest"]:
            vp[p] += 14
            rested.append(p)
        ranking = sorted(players, key=lambda p: (-vp[p], -diff[p], p))
    return {"system": "danish-individual", "ranking": ranking, "partners": partners,
            "rested": rested}


def individual_table(seed: int, repeat: int, max_players: int, baseline_max: int = 200) -> None:
    """Print the Danish individual timings (engine, and baseline up to 200 players)."""
    try:
        from tests.pairing.nx_baseline import danish_individual_lines as baseline
    except ImportError as exc:  # networkx missing
        baseline = None
        print(f"baseline unavailable: {exc}")
    print(f"Danish individual round 10 (9 rounds of history), seed {seed}, best of {repeat}")
    print(f"{'players':>7} {'engine s':>10} {'baseline s':>11} {'speed-up':>9} {'same':>5}")
    for n in (50, 100, 200, 500, 1000, 2000):
        if n > max_players:
            break
        request = individual_history(n, 9, seed + n)
        t_engine, response = timed(run, request, repeat)
        line = f"{n:>7} {t_engine:>10.4f}"
        if baseline is not None and n <= min(200, baseline_max):
            t_base, (lines, rest) = timed(baseline, request, 1)
            got = [line_ for t in response["tables"] for line_ in (t["ns"], t["ew"])]
            same = got == lines and response["rest"] == rest
            line += f" {t_base:>11.3f} {t_base / t_engine:>8.0f}x {'yes' if same else 'NO':>5}"
        elif baseline is not None:
            why = "grows too fast beyond 200" if n > 200 else f"skipped above {baseline_max}"
            line += f" {'-':>11} {'-':>9} {'-':>5}  (baseline {why})"
        target = "  target <= 0.3 s: " + ("met" if t_engine <= 0.3 else "MISSED") \
            if n == 2000 else ""
        print(line + target, flush=True)


def timed(fn, request, repeat: int):
    best, result = None, None
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn(request)
        elapsed = time.perf_counter() - start
        best = elapsed if best is None else min(best, elapsed)
    return best, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--only", choices=("pairs", "individual"))
    parser.add_argument("--max-players", type=int, default=2000)
    parser.add_argument("--baseline-max", type=int, default=200,
                        help="largest field timed with the networkx baseline (≤ 200)")
    args = parser.parse_args()
    if args.only != "pairs":
        individual_table(args.seed, args.repeat, args.max_players, args.baseline_max)
        if args.only == "individual":
            return
    baseline = None
    try:
        from tests.pairing.nx_baseline import danish_tables as baseline
    except ImportError as exc:  # networkx missing
        print(f"baseline unavailable: {exc}")
    print(f"Danish round 10 (9 rounds of history), seed {args.seed}, best of {args.repeat}")
    print(f"{'pairs':>6} {'engine s':>10} {'baseline s':>11} {'speed-up':>9} {'same':>5}")
    for n in (100, 200, 500, 1000):
        request = history(n, 9, args.seed + n)
        t_engine, response = timed(run, request, args.repeat)
        line = f"{n:>6} {t_engine:>10.4f}"
        if baseline is not None and n <= 200:
            t_base, (tables, bye) = timed(baseline, request, 1)
            same = ([(t["ns"], t["ew"]) for t in response["tables"]] == tables
                    and response["bye"] == bye)
            line += f" {t_base:>11.3f} {t_base / t_engine:>8.0f}x {'yes' if same else 'NO':>5}"
        print(line, flush=True)


if __name__ == "__main__":
    main()
