"""Random tournament generator (RTG): play whole seeded tournaments through the engines and
check every round with :func:`pairing.check.check` and with judgements of its own.

- :mod:`.common`: what every kind shares: the driver loop over the plan (sessions,
  withdrawals), the engine's answer as the command line returns it, the checker's verdict,
  a random table result.
- :mod:`.pairs`: pair tournaments (Mitchell, Danish, round robin, in groups or not):
  :func:`play`, :func:`play_many`, :data:`PLANS`, :data:`RR_PLANS` (re-exported here).
- :mod:`.individual`: individual tournaments (rules.md §9): ``pairing.rtg.individual.play``
  and ``play_many``.

The kinds import :mod:`.common`, never this module nor each other; :func:`main` chooses the
kind. Everything derives from the seed, so a failing tournament is replayed with the same
arguments. Command line::

    python -m pairing.rtg --seed 7 --pairs 23 --plan MMMD
    python -m pairing.rtg --seed 7 --pairs 5 --plan "DM|MM" --step 1,3
    python -m pairing.rtg --seed 1 --tournaments 200      # random sizes and plans
    python -m pairing.rtg --players 13 --plan "DMD|MM"    # an individual tournament
    python -m pairing.rtg --individual --tournaments 50

prints a JSON summary and exits 1 when any violation, avoidable second rest or unreported
(or, for individuals, avoidable) repeat was found.
"""

from __future__ import annotations

import argparse
import json
import sys

from . import individual
from .pairs import PLANS, RR_PLANS, play, play_many, snake_groups

__all__ = ["play", "play_many", "PLANS", "RR_PLANS", "snake_groups", "main"]


def main(argv=None) -> int:
    """Command line: play one tournament (``--pairs``/``--plan``, or ``--players`` for an
    individual one) or many (``--tournaments``); print JSON, return the exit status."""
    parser = argparse.ArgumentParser(prog="python -m pairing.rtg")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--pairs", type=int)
    parser.add_argument("--plan", default="MMMD")
    parser.add_argument("--step", default="1",
                        help="Mitchell step, or steps of the successive moves: 1,3")
    parser.add_argument("--no-withdrawals", action="store_true")
    parser.add_argument("--groups", type=int, default=1,
                        help="groups of the R, D and M rounds (rules §14, §19), split by the snake")
    parser.add_argument("--tournaments", type=int, default=0,
                        help="play this many random tournaments instead of one")
    # Individual tournaments (rules.md §9): pairing/rtg/individual.py.
    parser.add_argument("--players", type=int, help="an individual tournament of N players")
    parser.add_argument("--individual", action="store_true",
                        help="with --tournaments: random individual tournaments")
    args = parser.parse_args(argv)
    if args.players or args.individual:
        if args.tournaments:
            summary = individual.play_many(args.seed, args.tournaments)
        else:
            summary = individual.play(args.seed, args.players or 13, args.plan,
                                      withdrawals=not args.no_withdrawals)
    elif args.tournaments:
        summary = play_many(args.seed, args.tournaments)
    else:
        try:
            steps = [int(x) for x in args.step.split(",")]
        except ValueError:
            parser.error(f"--step: interi separati da virgole: {args.step!r}")
        summary = play(args.seed, args.pairs or 20, args.plan,
                       step=steps if len(steps) > 1 else steps[0],
                       withdrawals=not args.no_withdrawals, groups=args.groups)
    json.dump(summary, sys.stdout, ensure_ascii=False, indent=1)
    sys.stdout.write("\n")
    return 1 if summary["violations"] else 0
