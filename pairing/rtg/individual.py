"""Random tournament generator for individual tournaments (rules.md §9).

Each tournament has N players (ids 1..N) and a plan of ``D`` (Danish individual) and ``M``
(individual movement) letters, ``|`` between sessions (only the rest rule resets). Every
round is paired with :func:`pairing.run`, judged with :func:`pairing.check.check`, then given
random results: each table a random MP difference converted to a 20-VP split, both players
of a line scoring their line's VP and MP; a rest, plain or forced, scores 14 VP and 0 MP
(rules.md §5, §9). The ranking is by VP then MP difference, player number last. Players may
withdraw between rounds (about one round in six): Danish drops them from the ranking, the
movement keeps its schedule and gives their partner and opponents a forced rest.

The first round of a session-less tournament that starts with ``D`` is drawn by lot or by
number (``first_round`` with ``"kind": "individual"``); ``M`` rounds ask the movement for its
k-th round (k counts the plan's ``M`` rounds), with the partnerships played so far, the
session's rests and the ranking.

Besides the checker, each round is judged independently of it:

- *avoidable second rest*: a player rests (not a forced rest) who rested more often in the
  session than a seated player;
- *unreported repeated partner*: a partnership already played that ``repeated_partners`` does
  not list;
- *avoidable repeated partner* (Danish individual): more repeats than the fewest possible for
  the players seated (a from-scratch maximum matching).

Repeated opponents are counted as information (``opponent_repeats``,
``max_opponent_meetings``). Command line: ``python -m pairing.rtg --players 13 --plan DDDD``
or ``python -m pairing.rtg --individual --tournaments 50``.
"""

from __future__ import annotations

import random
import re
from collections import Counter

from ..check.individual import repeated_opponents
from ..matching import min_unmatched
from ..plan import INDIVIDUAL_LETTERS, parse_individual_plan
from .common import answer, checked, random_result, rounds

__all__ = ["play", "play_many", "PLANS"]

PLANS = ("DDDD", "MMMMMMM", "MMMD", "DMMM", "DDD|DDD", "MMM|MMM", "DMD|MDM", "MDMD",
         "DDDDDDDD")


def play(seed: int, players: int, plan: str, *, withdrawals: bool = True) -> dict:
    """Play one random individual tournament and check every round.

    Args:
        seed: seed of the random results, withdrawals, draws and movement (int).
        players: number of players N ≥ 5 (≥ 4 seated after a withdrawal).
        plan: ``D``/``M`` letters, ``|`` between sessions (:func:`parse_individual_plan`).
        withdrawals: let players withdraw between rounds.
    Returns:
        ``{"seed", "players", "plan", "rounds", "withdrawn": [ids], "violations": [...],
        "warnings", "second_rests", "second_rests_avoidable", "repeats",
        "repeats_unreported", "repeats_avoidable", "forced_rests", "opponent_repeats",
        "max_opponent_meetings"}`` (counts over the tournament).
    Raises:
        ValueError: bad plan or fewer than 5 players.
        PairingError: the engine rejected a request it should accept (a bug).
    """
    if players < 5:
        raise ValueError("at least 5 players")
    planned = parse_individual_plan(plan)
    rnd = random.Random(seed)
    ids = list(range(1, players + 1))
    vp = dict.fromkeys(ids, 0)
    diff = dict.fromkeys(ids, 0)
    partners: list[list] = []
    opponents: Counter = Counter()
    rested: Counter = Counter()
    withdrawn: list = []
    violations: list[str] = []
    counts = dict.fromkeys(("warnings", "second_rests", "second_rests_avoidable", "repeats",
                            "repeats_unreported", "repeats_avoidable", "forced_rests",
                            "opponent_repeats"), 0)
    m_total = sum(1 for p in planned if p.system == "M")
    m_round, movement_seed = 0, rnd.randrange(10 ** 6)
    r = 0
    for planned_round, new_session, active in rounds(planned, rnd, ids, withdrawn, withdrawals=withdrawals,
                                                     keep=5):
        r, letter = planned_round.number, planned_round.system
        if new_session:
            rested = Counter()
        ranking = sorted(active, key=lambda p: (-vp[p], -diff[p], p))
        history = {"partners": partners, "rested": sorted(rested.elements()),
                   "opponents": [list(k) for k in opponents]}
        if letter == "M":
            m_round += 1
            request = {"system": "individual-movement", "players": ids, "rounds": m_total,
                       "round": m_round, "seed": movement_seed, "absent": list(withdrawn),
                       "ranking": ranking, **history}
        elif r == 1:
            request = {"system": "first_round", "kind": "individual",
                       "method": rnd.choice(["lot", "number"]), "players": active,
                       "seed": rnd.randrange(10 ** 6)}
        else:
            request = {"system": INDIVIDUAL_LETTERS["D"], "ranking": ranking, **history}
        response = answer(seed, r, request)
        judged = dict(request, **history)  # the checker sees the history for every system
        violations += checked(r, letter, judged, response)
        counts["warnings"] += len(response.get("warnings", []))
        counts["opponent_repeats"] += len(repeated_opponents(judged, response))
        _judge(r, letter, response, partners, rested, counts, violations)
        for t in response["tables"]:
            d, share = random_result(rnd)
            for p in t["ns"]:
                vp[p] += share
                diff[p] += d
            for p in t["ew"]:
                vp[p] += 20 - share
                diff[p] -= d
            for line in (t["ns"], t["ew"]):
                partners.append([line[0], line[1], r])
            for a in t["ns"]:
                for b in t["ew"]:
                    opponents[tuple(sorted((a, b)))] += 1
        for p in response["rest"] + response.get("forced_rest", []):
            vp[p] += 14
            rested[p] += 1
        counts["forced_rests"] += len(response.get("forced_rest", []))
    return {"seed": seed, "players": players, "plan": plan, "rounds": r,
            "withdrawn": withdrawn, "violations": violations, **counts,
            "max_opponent_meetings": max(opponents.values(), default=0)}


def _judge(r, letter, response, partners, rested, counts, violations) -> None:
    """Second rests and repeated partners of one round, without the checker."""
    seated = [p for t in response["tables"] for line in (t["ns"], t["ew"]) for p in line]
    fewest = min((rested[p] for p in seated), default=0)
    for p in response["rest"]:
        if rested[p] and seated:
            counts["second_rests"] += 1
            if rested[p] > fewest:
                counts["second_rests_avoidable"] += 1
                violations.append(f"turno {r} ({letter}): secondo riposo evitabile per {p}")
    before = {frozenset(m[:2]) for m in partners}
    listed = {frozenset(x) for x in response["repeated_partners"]}
    played = [frozenset(line) for t in response["tables"] for line in (t["ns"], t["ew"])]
    repeats = [x for x in played if x in before]
    counts["repeats"] += len(repeats)
    for x in repeats:
        if x not in listed:
            counts["repeats_unreported"] += 1
            violations.append(f"turno {r} ({letter}): compagni ripetuti non segnalati "
                              f"{'+'.join(map(str, sorted(x)))}")
    if letter == "D" and repeats:
        index = {p: i for i, p in enumerate(seated)}
        forb = [set() for _ in seated]
        for a, b in (tuple(x) for x in before):
            if a in index and b in index:
                forb[index[a]].add(index[b])
                forb[index[b]].add(index[a])
        fewest_repeats = min_unmatched(range(len(seated)), forb) // 2
        if len(repeats) > fewest_repeats:
            counts["repeats_avoidable"] += len(repeats) - fewest_repeats
            violations.append(f"turno {r} (D): {len(repeats)} compagni ripetuti, ne bastavano "
                              f"{fewest_repeats}")


def play_many(seed: int, count: int, *, max_players: int = 120) -> dict:
    """Play ``count`` individual tournaments of random size (5..max_players) and plan.

    Returns ``{"tournaments", "rounds", "violations", "failed": [play() args],
    "second_rests_avoidable", "repeats_unreported", "repeats_avoidable", "repeats",
    "second_rests", "opponent_repeats", "max_opponent_meetings"}``.
    """
    rnd = random.Random(seed)
    keys = ("second_rests_avoidable", "repeats_unreported", "repeats_avoidable", "repeats",
            "second_rests", "opponent_repeats")
    totals = dict.fromkeys(keys, 0)
    total_rounds, violations, failed, most = 0, [], [], 0
    for _ in range(count):
        size = rnd.randint(5, 30) if rnd.random() < 0.85 else rnd.randint(31, max_players)
        plan = rnd.choice(PLANS) if rnd.random() < 0.6 else re.sub(r"\|+", "|", "".join(
            rnd.choice("MMDD|" if i else "MD") for i in range(rnd.randint(1, 9)))).rstrip("|")
        sub_seed = rnd.randrange(2 ** 31)
        result = play(sub_seed, size, plan)
        total_rounds += result["rounds"]
        most = max(most, result["max_opponent_meetings"])
        for k in keys:
            totals[k] += result[k]
        if result["violations"]:
            failed.append({"seed": sub_seed, "players": size, "plan": plan})
            violations.extend(result["violations"])
    return {"tournaments": count, "rounds": total_rounds, "violations": violations,
            "failed": failed, **totals, "max_opponent_meetings": most}
