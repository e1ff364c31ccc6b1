"""Random tournaments of pairs: play whole seeded tournaments and check every round.

Each tournament has K pairs (ids 1..K) and a plan such as ``"MMMD"`` (one letter per round:
``M`` Mitchell, ``D`` Danish, ``R`` round robin (rules.md §14, optionally in ``groups``
made by the snake of :func:`snake_groups`, as are ``D`` and ``M`` rounds in groups, rules.md
§19; asked as the application asks: ``round`` = the r-th ``R`` round of the plan, withdrawn
pairs ``absent``, every meeting so far in ``met``); ``|`` splits sessions, e.g. ``"DMM|MD"``,
and only resets the rest rule of rules.md §5). Every round is paired with :func:`pairing.run`, judged with
:func:`pairing.check.check`, then given random results (random MP difference per table,
converted to a 20-VP split; a rest, plain or forced, scores 14 VP and 0 MP, rules.md §5).
The ranking for the next round is by VP then MP difference (rules.md §8, first two
criteria; pair number breaks remaining ties). Pairs may withdraw between rounds: Mitchell
keeps their seat empty (``absent``), Danish drops them from the ranking (rules.md §6).
A Danish first round is paired by lot or by pair number.

Mitchell rounds are asked as the application asks them: ``offset`` = the sum of the moves
made so far (the step of each Mitchell round after the first, which may change), the
ranking, the pairs that rested in the session and every meeting so far.

Besides the checker, each round is judged independently of it:

- *avoidable second rest*: a pair rests (bye or forced) that already rested in the session
  while a pair seated at a full table has not (rules.md §5, art. 33);
- *unreported repeat*: a meeting already played that the response does not list in
  ``rematches`` (for Danish, only meetings the round's ``avoid_rematches`` forbids).

Everything derives from the seed, so a failing tournament is replayed with the same
arguments (``python -m pairing.rtg --seed 7 --pairs 23 --plan MMMD``, :mod:`pairing.rtg`).
"""

from __future__ import annotations

import random
import re

from ..plan import parse_plan
from ..round_robin import snake_groups
from .common import answer, checked, random_result, rounds

__all__ = ["play", "play_many", "PLANS", "RR_PLANS", "snake_groups"]

PLANS = ("MMMD", "MMDD", "DDDDDDD", "MMMM", "MDMD", "DDDD", "MMMDDD", "MMMMMMMD", "DMMM",
         "MMDM", "MDM", "DMM|MMD", "MMM|MMM", "MD|DM|MM")
#: Plans with round-robin rounds (rules.md §14), played by :func:`play_many` too.
RR_PLANS = ("RRRRR", "RRR|RR", "RRRRRRRRRR", "DRRR", "RRRD")


def _round_robin_request(ids, rr_round, groups, withdrawn, rested, met) -> dict:
    """The round-robin request the application sends (pairing-io.md "Round robin")."""
    request = {"system": "round-robin", "round": rr_round, "absent": list(withdrawn),
               "rested": sorted(rested), "met": met}
    if groups and groups > 1:
        request["groups"] = snake_groups(ids, groups)
    else:
        request["pairs"] = list(ids)
    return request


def play(seed: int, pairs: int, plan: str, *, step=1, withdrawals: bool = True,
         avoid: str | None = None, groups: int = 1) -> dict:
    """Play one random tournament and check every round.

    Args:
        seed: seed of the random results, withdrawals and draw (int).
        pairs: number of pairs K ≥ 4.
        plan: one letter per round, ``M`` (Mitchell) or ``D`` (Danish); ``|`` between two
            rounds starts a new session (the rest rule resets, the movement continues).
        step: Mitchell step s, or a list of steps: the k-th Mitchell round (k ≥ 2) moves the
            E/W line by ``step[(k - 2) % len(step)]`` tables (a step changed mid-movement).
        withdrawals: let pairs withdraw between rounds (about one round in six).
        avoid: ``avoid_rematches`` for the Danish rounds; None draws one per round
            (``"all"`` most of the time).
        groups: groups of the round-robin, Danish and Mitchell rounds (``R``, ``D``, ``M``,
            rules.md §14, §19), split by the snake of the pair numbers (each group's
            Mitchell order: its members in number order); 1 = none.
    Returns:
        ``{"seed", "pairs", "plan", "rounds": played, "withdrawn": [ids],
        "violations": ["turno r (X): ...", ...], "warnings": count,
        "second_rests_avoidable": count, "second_rests": count (avoidable or not),
        "repeats": count, "repeats_unreported": count, "adjustments": count}``.
        Avoidable second rests and unreported repeats are also listed in ``violations``.
    Raises:
        ValueError: bad plan letters or fewer than 4 pairs.
        PairingError: the engine rejected a request it should accept (a bug).
    """
    if pairs < 4:
        raise ValueError("at least 4 pairs")
    planned = parse_plan(plan)  # PlanError (a ValueError) for a malformed plan
    steps = list(step) if isinstance(step, (list, tuple)) else [step]
    rnd = random.Random(seed)
    ids = list(range(1, pairs + 1))
    vp = dict.fromkeys(ids, 0)
    diff = dict.fromkeys(ids, 0)
    met: list[list] = []
    last: list[list] = []
    rested: set = set()
    withdrawn: list = []
    violations: list[str] = []
    counts = dict.fromkeys(("warnings", "second_rests_avoidable", "second_rests", "repeats",
                            "repeats_unreported", "adjustments"), 0)
    mitchell_round = 0
    rr_round = 0
    offset = 0
    m_total = sum(1 for p in planned if p.system == "M")
    r = 0
    for planned_round, new_session, active in rounds(planned, rnd, ids, withdrawn, withdrawals=withdrawals,
                                                     keep=4):
        r, system = planned_round.number, planned_round.system
        if new_session:  # a new session resets only the rest rule
            rested = set()
        ranking = sorted(active, key=lambda p: (-vp[p], -diff[p], p))
        mode = "all"
        split = snake_groups(ids, groups) if groups and groups > 1 else None
        if system == "M":
            mitchell_round += 1
            move = steps[(mitchell_round - 2) % len(steps)] if mitchell_round > 1 else 0
            offset += move
            request = {"system": "mitchell", "pairs": ids, "round": mitchell_round,
                       "step": move or steps[0], "offset": offset, "absent": list(withdrawn),
                       "plan_rounds": m_total, "ranking": ranking, "rested": sorted(rested),
                       "met": met}
            if split:  # rules.md §19: one movement per group, the snake's order
                del request["pairs"]
                request["groups"] = split
        elif system == "R":
            rr_round += 1
            request = _round_robin_request(ids, rr_round, groups, withdrawn, rested, met)
        elif split:  # rules.md §19: Danish within each group (round 1: by pair number)
            mode = (avoid or rnd.choice(["all"] * 8 + ["previous", "none"])) if r > 1 else "all"
            request = {"system": "danish", "ranking": ranking, "groups": split, "met": met,
                       "met_last_round": last, "rested": sorted(rested),
                       "avoid_rematches": mode}
        elif r == 1:
            request = {"system": "first_round", "method": rnd.choice(["lot", "number"]),
                       "pairs": active, "seed": rnd.randrange(10 ** 6)}
        else:
            mode = avoid or rnd.choice(["all"] * 8 + ["previous", "none"])
            request = {"system": "danish", "ranking": ranking, "met": met,
                       "met_last_round": last, "rested": sorted(rested),
                       "avoid_rematches": mode}
        response = answer(seed, r, request)
        violations += checked(r, system, request, response)
        counts["warnings"] += len(response.get("warnings", []))
        counts["adjustments"] += len(response.get("adjustments", []))
        _judge(r, system, mode, response, met, last, rested, counts, violations,
               split if system != "R" else None)
        last = []
        for t in response["tables"]:
            a, b = t["ns"], t["ew"]
            if a is None or b is None:
                continue
            d, share = random_result(rnd)
            vp[a] += share
            vp[b] += 20 - share
            diff[a] += d
            diff[b] -= d
            met.append([a, b, r])
            last.append([a, b])
        resting = list(response.get("forced_byes", []))
        resting += response["byes"] if "byes" in response else (
            [response["bye"]] if response["bye"] is not None else [])
        for p in resting:
            vp[p] += 14
            rested.add(p)
    return {"seed": seed, "pairs": pairs, "plan": plan, "rounds": r,
            "withdrawn": withdrawn, "violations": violations, **counts}


def _judge(r, system, mode, response, met, last, rested, counts, violations, split=None) -> None:
    """Count second rests and repeated meetings of one round, without the checker. With
    ``split`` (Danish or Mitchell in groups, rules.md §19) a second rest is avoidable only
    when a pair of the same group has not rested, and a table across groups or two rests in
    one group are violations."""
    group_of = {p: g for g, members in enumerate(split or [[]]) for p in members}
    playing = [p for t in response["tables"] if t["ns"] is not None and t["ew"] is not None
               for p in (t["ns"], t["ew"])]
    idle = list(response.get("forced_byes", [])) + (
        response["byes"] if "byes" in response else
        [response["bye"]] if response["bye"] is not None else [])
    if split:
        for t in response["tables"]:
            if t["ns"] is not None and t["ew"] is not None and group_of[t["ns"]] != group_of[t["ew"]]:
                violations.append(f"turno {r} ({system}): tavolo {t['table']} tra due gironi")
        resting = [group_of[p] for p in response.get("byes") or []]
        if len(resting) != len(set(resting)):
            violations.append(f"turno {r} ({system}): due riposi nello stesso girone")
    for p in idle:
        fresh = [q for q in playing if q not in rested
                 and (not split or group_of.get(q) == group_of.get(p))]
        if p in rested:
            counts["second_rests"] += 1
            # The round robin's schedule is exact (rules.md §14): a second rest after other
            # systems in the session (D R R R) is counted, not judged avoidable.
            if fresh and system != "R":
                counts["second_rests_avoidable"] += 1
                violations.append(f"turno {r} ({system}): secondo riposo evitabile per la "
                                  f"coppia {p} (la {fresh[0]} non ha riposato)")
    before = {frozenset(m[:2]) for m in met}
    previous = {frozenset(m[:2]) for m in last}
    listed = {frozenset(x) for x in response.get("rematches", [])}
    for t in response["tables"]:
        key = frozenset((t["ns"], t["ew"]))
        if None in key or key not in before:
            continue
        counts["repeats"] += 1
        forbidden = system != "D" or r == 1 or mode == "all" or (
            mode == "previous" and key in previous)
        if forbidden and key not in listed:
            counts["repeats_unreported"] += 1
            violations.append(f"turno {r} ({system}): incontro ripetuto non segnalato "
                              f"{t['ns']}–{t['ew']}")


def play_many(seed: int, count: int, *, max_pairs: int = 200) -> dict:
    """Play ``count`` tournaments with random sizes (4..max_pairs, mostly small) and plans.

    Returns ``{"tournaments", "rounds", "violations": [...], "failed": [play() args...],
    "second_rests_avoidable", "repeats_unreported", "second_rests", "repeats",
    "adjustments"}`` (counts summed over the tournaments).
    """
    rnd = random.Random(seed)
    total_rounds, violations, failed = 0, [], []
    keys = ("second_rests_avoidable", "repeats_unreported", "second_rests", "repeats",
            "adjustments")
    totals = dict.fromkeys(keys, 0)
    for i in range(count):
        size = rnd.randint(4, 40) if rnd.random() < 0.85 else rnd.randint(41, max_pairs)
        if rnd.random() < 0.5:
            size = rnd.randint(2, 12) * 2 + 1  # odd counts: a rest every round
        plan = rnd.choice(PLANS + RR_PLANS) if rnd.random() < 0.6 else re.sub(r"\|+", "|", "".join(
            rnd.choice("MMDD|" if i else "MD") for i in range(rnd.randint(1, 9)))).rstrip("|")
        step = rnd.choice([1, 1, 1, 2, 3])
        if rnd.random() < 0.3:
            step = [rnd.choice([1, 2, 3]) for _ in range(3)]  # a step changed mid-movement
        sub_seed = rnd.randrange(2 ** 31)
        groups = rnd.choice([1, 1, 2, 3]) if size >= 12 and ("R" in plan or rnd.random() < 0.3) else 1
        result = play(sub_seed, size, plan, step=step, groups=groups)
        total_rounds += result["rounds"]
        for k in keys:
            totals[k] += result[k]
        if result["violations"]:
            failed.append({"seed": sub_seed, "pairs": size, "plan": plan, "step": step,
                           "groups": groups})
            violations.extend(result["violations"])
    return {"tournaments": count, "rounds": total_rounds, "violations": violations,
            "failed": failed, **totals}
