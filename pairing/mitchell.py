"""Mitchell movement: N/S pairs stay, E/W pairs move +s tables each round.

Rules: rules.md §6; exact formula in pairing-io.md ("Mitchell").

- N pairs, T = ceil(N/2) tables. N even: N/S line ``pairs[0:T]``, E/W line ``pairs[T:N]``.
  N odd: the phantom is the N/S pair of table T (the *tavolo zoppo* stays at table T),
  N/S line ``pairs[0:T-1]``, E/W line ``pairs[T-1:N]``.
- Round r, step s: E/W index i (0-based) sits at table ``((i + (r-1)*s) mod T) + 1``.
  The E/W pair facing the phantom rests (``bye``).

Withdrawn pairs (extension, rules.md §6 "empty seat"). The request may carry
``"absent": [ids]``: those pairs keep their seat in the movement but do not play. The response
then always carries ``"forced_byes": [ids]`` (empty when nobody is affected), and:

- table numbers are the movement's numbers and never shift, so the paper table list, the
  score sheets and the players' expectations stay valid after a withdrawal;
- a table where one present pair faces an absent one is still listed, with the absent seat
  set to ``null`` (``{"table": 3, "ns": 5, "ew": null}``): a table holding a single pair with a
  rest, as rules.md §1 allows; that pair is in ``forced_byes`` (*riposo forzato*, art. 32);
- a table with no present pair (both seats absent, or absent facing the phantom) is not
  listed, which is the only way a gap appears in the numbering. The phantom table T itself is
  never listed (its E/W pair is the ``bye``), so without absences tables are 1..T without
  gaps (1..T-1 for odd N), as pairing-io.md requires.

Step changes (rules.md §6, pairing-io.md ``offset``). The request may carry ``"offset": k``
(integer ≥ 0), the E/W line's displacement for this round, used instead of ``(r-1)*s``: the
sum of the moves made so far, so a new step applies to the moves from then on.

Second rests (rules.md §5, art. 33; pairing-io.md ``rested``/``ranking``/``adjustments``).
With ``"rested": [ids]`` (pairs that already rested in this session) and optionally
``"ranking": [ids]`` (best first; default: ``pairs`` order), every idle pair the movement
gives (the ``bye`` first, then each forced rest in table order) that has already rested is
exchanged with the lowest-ranked pair of ``ranking`` that has not rested and plays at a full
table of this round: that pair rests (takes the bye, or the seat facing the empty one) and
the idle pair takes its seat for this round only. Each exchange is listed in
``"adjustments"`` as ``{"rests": S, "plays": R, "table": t, "line": "ns"|"ew"}`` (``t`` and
``line``: the seat R takes). When every playing pair has rested, no exchange and a warning.
The response always carries ``"adjustments"`` (empty without ``rested``).

Repeated meetings. With ``"met": [[a, b], [a, b, round], ...]`` (every meeting so far, any
system) every table of the round whose two pairs already met is listed in ``rematches`` as
``[ns, ew]`` with one warning each: the movement cannot avoid them, the arbiter must see them.

The checker (:mod:`pairing.check`) expects exactly this shape.
"""

from __future__ import annotations

from math import gcd

from .errors import refusal
from .groups import pair_grouped
from .messages import msg
from .request import check_request_dict, id_set, meetings, pair_list, positive_int

__all__ = ["pair", "movement", "repeat_period", "plan_warnings", "exchange_rests"]

PHANTOM = object()


def movement(pairs: list, rnd: int, step: int = 1,
             offset: int | None = None) -> list[tuple[int, object, object]]:
    """The seats of every table in round ``rnd``: ``[(table, ns, ew), ...]`` for 1..T.

    Args:
        pairs: all pairs in pair-number order (N ≥ 2).
        rnd: Mitchell round number, ≥ 1 (the 1st Mitchell round of the plan is 1).
        step: tables an E/W pair moves after each round, ≥ 1.
        offset: the E/W line's displacement in tables (sum of the moves so far); when given
            it replaces ``(rnd - 1) * step`` (pairing-io.md ``offset``).
    Returns:
        one tuple per table 1..T; ``ns`` is :data:`PHANTOM` at table T when N is odd.

    Source: pairing-io.md "Mitchell", rules.md §6.
    """
    n = len(pairs)
    t_count = (n + 1) // 2
    if n % 2 == 0:
        ns_line = list(pairs[:t_count])
        ew_line = list(pairs[t_count:])
    else:
        ns_line = list(pairs[:t_count - 1]) + [PHANTOM]
        ew_line = list(pairs[t_count - 1:])
    shift = (rnd - 1) * step if offset is None else offset
    ew_at = [None] * t_count
    for i, p in enumerate(ew_line):
        ew_at[(i + shift) % t_count] = p
    return [(t + 1, ns_line[t], ew_at[t]) for t in range(t_count)]


def repeat_period(n_pairs: int, step: int = 1) -> int:
    """Rounds after which a Mitchell movement repeats a meeting: T / gcd(s, T) (rules.md §6)."""
    t_count = (n_pairs + 1) // 2
    return t_count // gcd(step, t_count)


def plan_warnings(pairs: list, rounds: int, step: int = 1) -> list[str]:
    """Warnings for a plan of ``rounds`` Mitchell rounds that would repeat meetings.

    Args:
        pairs: all pairs in pair-number order.
        rounds: number of Mitchell rounds planned (the movement's rounds 1..rounds).
        step: the movement step s.
    Returns:
        one Italian sentence (a :class:`pairing.messages.Message`, codes
        ``warning.mitchell_plan``/``warning.mitchell_plan_rest``) per round beyond T / gcd(s, T), naming the pairs that would meet
        again and the round where they first met (and the pair that would rest again for
        odd N); empty when the plan is safe (rules.md §6: "the arbiter is warned before a plan
        would repeat a meeting").
    """
    if len(pairs) < 2:
        return []
    period = repeat_period(len(pairs), step)
    out = []
    for r in range(period + 1, rounds + 1):
        first = (r - 1) % period + 1
        meets, rests = [], []
        for _, ns, ew in movement(pairs, r, step):
            if ns is PHANTOM:
                rests.append(ew)
            else:
                meets.append(f"{ns}–{ew}")
        params = {"round": r, "step": step, "first": first, "meetings": ", ".join(meets),
                  "pairs": len(pairs), "period": period}
        if rests:
            out.append(msg("warning.mitchell_plan_rest", pair=rests[0], **params))
        else:
            out.append(msg("warning.mitchell_plan", **params))
    return out


def parse(request: dict) -> dict:
    """Validate a Mitchell request; return ``pairs``, ``round``, ``step``, ``absent``,
    ``plan_rounds`` (None when not given), ``offset`` (None when not given), ``ranking``
    (``pairs`` order when not given), ``rested`` (None when not given), ``met``
    (list of ``(a, b, round|None)``).

    Raises:
        PairingError: fewer than 2 pairs, a pair listed twice, round/step not an integer ≥ 1,
            an absent pair that is not in ``pairs``, ``plan_rounds`` smaller than ``round``,
            ``offset`` not an integer ≥ 0, a ``ranking`` that names an unknown pair or
            misses a present one, an unknown pair in ``rested``.
    """
    check_request_dict(request)
    pairs = pair_list(request, "pairs", min_len=2)
    rnd = positive_int(request, "round")
    step = positive_int(request, "step", default=1)
    absent = id_set(request, "absent")
    unknown = absent - set(pairs)
    if unknown:
        raise refusal("pairing.unknown_pairs", key="absent", pairs=", ".join(map(str, unknown)))
    plan_rounds = None
    if request.get("plan_rounds") is not None:
        plan_rounds = positive_int(request, "plan_rounds")
        if plan_rounds < rnd:
            raise refusal("pairing.plan_rounds_before_round")
    offset = request.get("offset")
    if offset is not None and (not isinstance(offset, int) or isinstance(offset, bool)
                               or offset < 0):
        raise refusal("pairing.bad_offset", value=repr(offset))
    if request.get("ranking") is not None:
        ranking = pair_list(request, "ranking")
        extra = set(ranking) - set(pairs)
        if extra:
            raise refusal("pairing.unknown_pairs", key="ranking", pairs=", ".join(map(str, extra)))
        missing = [p for p in pairs if p not in absent and p not in set(ranking)]
        if missing:
            raise refusal("pairing.ranking_missing", pairs=", ".join(map(str, missing)))
    else:
        ranking = list(pairs)
    rested = None
    if request.get("rested") is not None:
        rested = id_set(request, "rested")
        unknown = rested - set(pairs)
        if unknown:
            raise refusal("pairing.unknown_pairs", key="rested", pairs=", ".join(map(str, unknown)))
    return {"pairs": pairs, "round": rnd, "step": step, "absent": absent,
            "plan_rounds": plan_rounds, "offset": offset, "ranking": ranking,
            "rested": rested, "met": meetings(request, "met")}


def pair(request: dict) -> dict:
    """Pair one Mitchell round.

    Args:
        request: ``{"system": "mitchell", "pairs": [ids in pair-number order], "round": r,
            "step": s (default 1), "offset": k (optional, E/W displacement in tables),
            "absent": [ids] (optional), "plan_rounds": R (optional, the number of Mitchell
            rounds planned, for the repeat warning), "ranking": [ids best first] and
            "rested": [ids] (optional, second-rest exchange), "met": [[a, b(, round)]]
            (optional, meetings so far)}``; or ``"groups": [[movement order], ...]``
            instead of ``pairs`` (rules.md §19, :mod:`pairing.groups`).
    Returns:
        ``{"tables": [...], "bye": id|None, "forced_byes": [ids], "adjustments": [...],
        "rematches": [[ns, ew], ...], "warnings": [...]}`` as described in the module
        docstring.
    Raises:
        PairingError: see :func:`parse`.

    Source: rules.md §5 (art. 32, 33), §6; pairing-io.md "Mitchell".
    """
    if isinstance(request, dict) and "groups" in request:  # rules.md §19: one movement per group
        return pair_grouped(request, lambda sub, _first: pair(sub))
    req = parse(request)
    pairs, rnd, step, absent = req["pairs"], req["round"], req["step"], req["absent"]
    tables, forced, bye = [], [], None
    for t, ns, ew in movement(pairs, rnd, step, req["offset"]):
        ns_here = ns is not PHANTOM and ns not in absent
        ew_here = ew not in absent
        if ns is PHANTOM:
            if ew_here:
                bye = ew
        elif ns_here and ew_here:
            tables.append({"table": t, "ns": ns, "ew": ew})
        elif ns_here or ew_here:
            tables.append({"table": t, "ns": ns if ns_here else None,
                           "ew": ew if ew_here else None})
            forced.append(ns if ns_here else ew)
    warnings = []
    if req["offset"] is None:
        period = repeat_period(len(pairs), step)
        if rnd > period:
            warnings.extend(plan_warnings(pairs, rnd, step)[-1:])
        elif req["plan_rounds"] is not None:
            warnings.extend(plan_warnings(pairs, req["plan_rounds"], step))
    elif req["plan_rounds"] is not None:
        warnings.extend(plan_warnings(pairs, req["plan_rounds"], step))
    adjustments = []
    if req["rested"] is not None:
        bye, forced, adjustments, again = exchange_rests(
            tables, bye, forced, req["ranking"], req["rested"], absent)
        for p in again:
            warnings.append(msg("warning.rest_again_all_rested", pair=p))
    for p in forced:
        warnings.append(msg("warning.forced_rest", pair=p))
    rematches = []
    if req["met"]:
        first_met: dict = {}
        for a, b, r in req["met"]:
            key = frozenset((a, b))
            if key not in first_met or (r is not None and (first_met[key] is None
                                                           or r < first_met[key])):
                first_met[key] = r
        for t in tables:
            key = frozenset((t["ns"], t["ew"]))
            if None not in key and key in first_met:
                rematches.append([t["ns"], t["ew"]])
                if first_met[key] is not None:
                    warnings.append(msg("warning.rematch_round", table=t["table"], ns=t["ns"],
                                        ew=t["ew"], round=first_met[key]))
                else:
                    warnings.append(msg("warning.rematch", table=t["table"], ns=t["ns"], ew=t["ew"]))
    return {"tables": tables, "bye": bye, "forced_byes": forced, "adjustments": adjustments,
            "rematches": rematches, "warnings": warnings}


def exchange_rests(tables: list[dict], bye, forced: list, ranking: list, rested: set,
                   absent: set = frozenset()):
    """Give each idle pair that already rested a seat, resting another pair instead (§5).

    Args:
        tables: the round's tables ``{"table", "ns", "ew"}`` (changed in place); a table
            with a ``None`` seat holds a forced rest.
        bye: the pair meeting the phantom, or None.
        forced: the forced rests in table order.
        ranking: pair ids best first (the lowest-ranked pair not rested rests instead).
        rested: pairs that already rested in the session.
        absent: withdrawn pairs (never chosen).
    Returns:
        ``(bye, forced, adjustments, again)``: the new bye and forced rests, the exchanges
        ``[{"rests", "plays", "table", "line"}]`` in the order made (bye first, then forced
        rests in table order), and the idle pairs that rest again because every playing
        pair has rested.

    Source: rules.md §5 (art. 33) and §6; pairing-io.md ``rested``/``adjustments``.
    """
    forced = list(forced)
    adjustments, again = [], []
    idle = ([("bye", bye)] if bye is not None else []) + [("forced", p) for p in forced]
    for kind, x in idle:
        if x not in rested:
            continue
        seat_of = {t[line]: (t, line) for t in tables if t["ns"] is not None
                   and t["ew"] is not None for line in ("ns", "ew")}
        substitute = next((p for p in reversed(ranking) if p in seat_of and p not in rested
                           and p not in absent), None)
        if substitute is None:
            again.append(x)
            continue
        table, line = seat_of[substitute]
        table[line] = x
        if kind == "bye":
            bye = substitute
        else:
            half = next(t for t in tables if x in (t["ns"], t["ew"]) and t is not table)
            half["ns" if half["ns"] == x else "ew"] = substitute
            forced[forced.index(x)] = substitute
        adjustments.append({"rests": substitute, "plays": x, "table": table["table"],
                            "line": line})
    return bye, forced, adjustments, again
