"""Random tournament generator: play whole seeded tournaments and check every round.

Each tournament has K pairs (ids 1..K) and a plan such as ``"MMMD"`` (one letter per round:
``M`` Mitchell, ``D`` Danish). Every round is paired with :func:`pairing.run`, judged with
:func:`pairing.check.check`, then given random results (random MP difference per table,
converted to a 20-VP split; a rest, plain or forced, scores 14 VP and 0 MP, rules.md §5).
The ranking for the next Danish round is by VP then MP difference (rules.md §8, first two
criteria; pair number breaks remaining ties). Pairs may withdraw between rounds: Mitchell
keeps their seat empty (``absent``), Danish drops them from the ranking (rules.md §6).
A Danish first round is paired by lot or by pair number.

Everything derives from the seed, so a failing tournament is replayed with the same
arguments. Command line::

    python -m pairing.rtg --seed 7 --pairs 23 --plan MMMD
    python -m pairing.rtg --seed 1 --tournaments 200      # random sizes and plans

prints a JSON summary and exits 1 when any violation was found.
"""

from __future__ import annotations

import argparse
import json
import random
import sys

from . import PairingError, run
from .check import check

__all__ = ["play", "play_many", "PLANS"]

PLANS = ("MMMD", "MMDD", "DDDDDDD", "MMMM", "MDMD", "DDDD", "MMMDDD", "MMMMMMMD")


def play(seed: int, pairs: int, plan: str, *, step: int = 1, withdrawals: bool = True,
         avoid: str | None = None) -> dict:
    """Play one random tournament and check every round.

    Args:
        seed: seed of the random results, withdrawals and draw (int).
        pairs: number of pairs K ≥ 4.
        plan: one letter per round, ``M`` (Mitchell) or ``D`` (Danish).
        step: Mitchell step s.
        withdrawals: let pairs withdraw between rounds (about one round in six).
        avoid: ``avoid_rematches`` for the Danish rounds; None draws one per round
            (``"all"`` most of the time).
    Returns:
        ``{"seed", "pairs", "plan", "rounds": played, "withdrawn": [ids],
        "violations": ["turno r (X): ...", ...], "warnings": count}``.
    Raises:
        ValueError: bad plan letters or fewer than 4 pairs.
        PairingError: the engine rejected a request it should accept (a bug).
    """
    if pairs < 4:
        raise ValueError("at least 4 pairs")
    if not plan or set(plan) - {"M", "D"}:
        raise ValueError(f"plan must be made of M and D: {plan!r}")
    rnd = random.Random(seed)
    ids = list(range(1, pairs + 1))
    vp = dict.fromkeys(ids, 0)
    diff = dict.fromkeys(ids, 0)
    met: list[list] = []
    last: list[list] = []
    rested: set = set()
    withdrawn: list = []
    violations: list[str] = []
    warnings = 0
    mitchell_round = 0
    for r, system in enumerate(plan, start=1):
        active = [p for p in ids if p not in withdrawn]
        if withdrawals and r > 1 and len(active) > 4 and rnd.random() < 0.17:
            gone = rnd.choice(active)
            withdrawn.append(gone)
            active.remove(gone)
        if system == "M":
            mitchell_round += 1
            request = {"system": "mitchell", "pairs": ids, "round": mitchell_round,
                       "step": step, "absent": list(withdrawn), "plan_rounds": plan.count("M")}
        elif r == 1:
            request = {"system": "first_round", "method": rnd.choice(["lot", "number"]),
                       "pairs": active, "seed": rnd.randrange(10 ** 6)}
        else:
            ranking = sorted(active, key=lambda p: (-vp[p], -diff[p], p))
            mode = avoid or rnd.choice(["all"] * 8 + ["previous", "none"])
            request = {"system": "danish", "ranking": ranking, "met": met,
                       "met_last_round": last, "rested": sorted(rested),
                       "avoid_rematches": mode}
        try:
            response = run(request)
        except PairingError as exc:
            raise PairingError(f"seed {seed}, round {r}: {exc}") from exc
        response = json.loads(json.dumps(response))  # exactly what the CLI would return
        for v in check(request, response):
            violations.append(f"turno {r} ({system}): {v}")
        warnings += len(response.get("warnings", []))
        last = []
        for t in response["tables"]:
            a, b = t["ns"], t["ew"]
            if a is None or b is None:
                continue
            d = 5 * rnd.randint(-300, 300)
            share = max(0, min(20, 10 + d // 100))
            vp[a] += share
            vp[b] += 20 - share
            diff[a] += d
            diff[b] -= d
            met.append([a, b, r])
            last.append([a, b])
        resting = list(response.get("forced_byes", []))
        if response["bye"] is not None:
            resting.append(response["bye"])
        for p in resting:
            vp[p] += 14
            rested.add(p)
    return {"seed": seed, "pairs": pairs, "plan": plan, "rounds": len(plan),
            "withdrawn": withdrawn, "violations": violations, "warnings": warnings}


def play_many(seed: int, count: int, *, max_pairs: int = 200) -> dict:
    """Play ``count`` tournaments with random sizes (4..max_pairs, mostly small) and plans.

    Returns ``{"tournaments", "rounds", "violations": [...], "failed": [play() args...]}``.
    """
    rnd = random.Random(seed)
    total_rounds, violations, failed = 0, [], []
    for i in range(count):
        size = rnd.randint(4, 40) if rnd.random() < 0.85 else rnd.randint(41, max_pairs)
        plan = rnd.choice(PLANS) if rnd.random() < 0.6 else "".join(
            rnd.choice("MD") for _ in range(rnd.randint(1, 8)))
        step = rnd.choice([1, 1, 1, 2, 3])
        sub_seed = rnd.randrange(2 ** 31)
        result = play(sub_seed, size, plan, step=step)
        total_rounds += result["rounds"]
        if result["violations"]:
            failed.append({"seed": sub_seed, "pairs": size, "plan": plan, "step": step})
            violations.extend(result["violations"])
    return {"tournaments": count, "rounds": total_rounds, "violations": violations,
            "failed": failed}


def main(argv=None) -> int:
    """Command line: play one tournament (``--pairs``/``--plan``) or many; print JSON."""
    parser = argparse.ArgumentParser(prog="python -m pairing.rtg")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--pairs", type=int)
    parser.add_argument("--plan", default="MMMD")
    parser.add_argument("--step", type=int, default=1)
    parser.add_argument("--no-withdrawals", action="store_true")
    parser.add_argument("--tournaments", type=int, default=0,
                        help="play this many random tournaments instead of one")
    args = parser.parse_args(argv)
    if args.tournaments:
        summary = play_many(args.seed, args.tournaments)
    else:
        summary = play(args.seed, args.pairs or 20, args.plan, step=args.step,
                       withdrawals=not args.no_withdrawals)
    json.dump(summary, sys.stdout, ensure_ascii=False, indent=1)
    sys.stdout.write("\n")
    return 1 if summary["violations"] else 0


if __name__ == "__main__":
    sys.exit(main())
