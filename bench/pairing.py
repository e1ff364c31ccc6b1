"""Benchmark: one Danish round after 9 rounds of history (issue 4 targets).

Run: ``.venv/bin/python bench/pairing.py [--seed N] [--repeat R]``.

For 100, 200, 500 and 1000 pairs: plays 9 random Danish rounds (random VP per table, ranking
by VP then MP difference, all meetings remembered), then times the 10th round's pairing with
:func:`pairing.run` (best of ``--repeat``). For 100 and 200 pairs it also times the baseline
(top-down with a networkx perfect-matching feasibility test at every step,
``tests/pairing/nx_baseline.py``), prints the speed-up and whether both give the same tables.
Targets: 1000 pairs ≤ 0.3 s; ≥ 30× faster than the baseline at 200 pairs. Prints figures
only, asserts nothing.
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
            d = rnd.choice(range(-1500, 1505, 5))
            share = max(0, min(20, 10 + d // 100))
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
    args = parser.parse_args()
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
