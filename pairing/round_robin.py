"""Round robin (*girone all'italiana*) by the circle method, with optional groups.

Rules: rules.md §14; exact schedule in pairing-io.md ("Round robin"):

1. L = ``pairs`` (entrants in number order), plus a phantom at the end when the count is odd;
   n = len(L).
2. Cycle c = (r − 1) div (n − 1), k = (r − 1) mod (n − 1). L[0] stays; the rest L[1:] is
   rotated right by k places: seq = [L[0]] + L[1:][n−1−k:] + L[1:][:n−1−k].
3. Match i (i = 0 … n/2 − 1) is seq[i] v seq[n − 1 − i]; seq[i] sits N/S, except in odd
   cycles (c = 1, 3, …) where the two swap. The match with the phantom is the rest (``bye``).
4. Tables are the other matches in order of i, numbered 1, 2, … without gaps.

Over one cycle (n − 1 rounds) every two entrants meet exactly once; with an odd count every
entrant rests exactly once. A round beyond the cycle repeats the schedule of round
r − (n − 1) with the lines swapped (odd cycles) or not (even cycles).

Extensions (the application's needs, same response shape as Mitchell):

- ``"absent": [ids]`` (withdrawn entrants, rules.md §5 art. 32): as in Mitchell, an absent
  entrant keeps its slot in the schedule and does not play; the table where a present entrant
  faces an absent one is listed with the absent seat ``null`` and the present one is in
  ``forced_byes`` (*riposo forzato*); a table with both absent is not listed (a gap in the
  numbering, so table numbers never shift after a withdrawal); an absent entrant facing the
  phantom leaves ``bye`` null.
- ``"groups": [[ids], [ids], ...]`` instead of ``pairs``: each group plays its own round robin
  (its own request, round ``r`` for all), tables numbered group after group (group g's tables
  start after the ⌊size/2⌋ tables of each earlier group, so numbers never depend on the
  round). The response then carries ``"byes"`` (every rest, group order; ``bye`` is the first
  or null) and ``"groups"``: ``[{"group": g (1-based), "tables": [numbers], "bye": id|None}]``.
- ``"met": [[a, b(, round)]]``: meetings so far (any system); every table of the round whose
  two entrants already met is listed in ``rematches`` with a warning (the schedule is fixed:
  the round robin never avoids them, e.g. a Danish round before the round robin, or a
  second cycle).
- ``"rested": [ids]``: entrants that already rested in the session; a ``bye`` among them gets
  a warning only (the circle schedule is not altered: within one cycle nobody rests twice).

Response: ``{"tables": [{"table", "ns", "ew"}], "bye": id|None, "forced_byes": [ids],
"cycle": c, "rematches": [[ns, ew]], "warnings": [...]}`` (plus ``byes``/``groups`` for a
grouped request). Identifiers are integers or strings, used as given.
"""

from __future__ import annotations

from .errors import refusal
from .messages import msg
from .request import check_request_dict, id_set, meetings, pair_list, positive_int

__all__ = ["pair", "schedule", "parse", "cycle_length", "snake_groups", "lot_groups"]

PHANTOM = None


def cycle_length(count: int) -> int:
    """Rounds in one full round robin of ``count`` entrants: n − 1, or n when odd (§14)."""
    n = count + (count % 2)
    return n - 1


def snake_groups(ids: list, count: int) -> list[list]:
    """Split ``ids`` (in number order) into ``count`` groups by the snake (*serpentina*).

    The ids are dealt in rows of ``count``: the first row forwards (1 → group 1, 2 → group 2,
    …, G → group G), the second backwards (G+1 → group G, …, 2G → group 1), the third
    forwards again, and so on: with G = 3, rows 1 2 3 / 6 5 4 / 7 8 9, so group 1 = 1 6 7,
    group 2 = 2 5 8, group 3 = 3 4 9 (each group's members in number order). Groups differ in
    size by at most one, and the seeding (pair numbers) is spread evenly.
    """
    if count < 1:
        raise refusal("pairing.no_groups")
    groups: list[list] = [[] for _ in range(count)]
    for i, p in enumerate(ids):
        row, col = divmod(i, count)
        groups[col if row % 2 == 0 else count - 1 - col].append(p)
    return [sorted(g, key=lambda x: (str(type(x)), x)) for g in groups]


def lot_groups(ids: list, count: int, seed: int) -> list[list]:
    """Split ``ids`` into ``count`` groups by lot: shuffle with ``random.Random(seed)``, then
    deal the shuffled ids in turn (1st → group 1, 2nd → group 2, …, G+1st → group 1 …);
    groups differ in size by at most one; each group's members in number order."""
    import random

    if count < 1:
        raise refusal("pairing.no_groups")
    order = list(ids)
    random.Random(seed).shuffle(order)
    groups: list[list] = [[] for _ in range(count)]
    for i, p in enumerate(order):
        groups[i % count].append(p)
    return [sorted(g, key=lambda x: (str(type(x)), x)) for g in groups]


def schedule(entrants: list, rnd: int) -> tuple[int, list[tuple[object, object]]]:
    """The matches of round ``rnd`` by the circle method (pairing-io.md "Round robin").

    Args:
        entrants: ids in number order (at least 2).
        rnd: the round robin's round number r ≥ 1 (beyond one cycle the schedule repeats,
            lines swapped in odd cycles).
    Returns:
        ``(cycle, matches)``: ``matches`` is ``[(ns, ew), ...]`` for i = 0 … n/2 − 1, the
        phantom given as ``None`` (its opponent rests).
    """
    lst = list(entrants) + ([PHANTOM] if len(entrants) % 2 else [])
    n = len(lst)
    cycle, k = divmod(rnd - 1, n - 1)
    rest = lst[1:]
    seq = [lst[0]] + rest[n - 1 - k:] + rest[:n - 1 - k]
    matches = []
    for i in range(n // 2):
        a, b = seq[i], seq[n - 1 - i]
        matches.append((b, a) if cycle % 2 else (a, b))
    return cycle, matches


def parse(request: dict) -> dict:
    """Validate a round-robin request; return ``groups`` (list of id lists; one group for
    ``pairs``), ``grouped`` (bool), ``round``, ``absent`` (set), ``rested`` (set or None),
    ``met`` (list of ``(a, b, round|None)``).

    Raises:
        PairingError: neither or both of ``pairs``/``groups``; a group that is not a list of
            at least 2 distinct ids; an id in two groups; ``round`` not an integer ≥ 1; an
            unknown id in ``absent`` or ``rested``.
    """
    check_request_dict(request)
    if ("pairs" in request) == ("groups" in request):
        raise refusal("pairing.rr_pairs_or_groups")
    if "pairs" in request:
        groups, grouped = [pair_list(request, "pairs", min_len=2)], False
    else:
        raw = request["groups"]
        if not isinstance(raw, list) or not raw:
            raise refusal("pairing.rr_groups_not_list")
        groups, seen = [], set()
        for g, members in enumerate(raw, start=1):
            group = pair_list({"g": members}, "g", min_len=2) if isinstance(members, list) else None
            if group is None:
                raise refusal("pairing.rr_bad_group", group=g)
            twice = seen & set(group)
            if twice:
                raise refusal("pairing.rr_pair_in_two_groups", pair=sorted(map(str, twice))[0])
            seen |= set(group)
            groups.append(group)
        grouped = True
    rnd = positive_int(request, "round")
    everyone = {p for g in groups for p in g}
    absent = id_set(request, "absent")
    if absent - everyone:
        raise refusal("pairing.unknown_pairs", key="absent", pairs=", ".join(map(str, absent - everyone)))
    rested = None
    if request.get("rested") is not None:
        rested = id_set(request, "rested")
        if rested - everyone:
            raise refusal("pairing.unknown_pairs", key="rested", pairs=", ".join(map(str, rested - everyone)))
    return {"groups": groups, "grouped": grouped, "round": rnd, "absent": absent,
            "rested": rested, "met": meetings(request, "met")}


def expected(req: dict) -> dict:
    """The response the rule gives for a parsed request (:func:`parse`), without warnings:
    ``tables``, ``bye``, ``byes``, ``forced_byes``, ``cycle``, ``groups``. Shared by
    :func:`pair` and the checker."""
    absent = req["absent"]
    tables, byes, forced, groups = [], [], [], []
    first_table = 1
    cycle = 0
    for g, members in enumerate(req["groups"], start=1):
        cycle, matches = schedule(members, req["round"])
        number = first_table
        numbers, group_bye = [], None
        for ns, ew in matches:
            if ns is PHANTOM or ew is PHANTOM:
                other = ew if ns is PHANTOM else ns
                if other not in absent:
                    group_bye = other
                continue
            ns_here, ew_here = ns not in absent, ew not in absent
            if ns_here or ew_here:
                tables.append({"table": number, "ns": ns if ns_here else None,
                               "ew": ew if ew_here else None})
                numbers.append(number)
                if not (ns_here and ew_here):
                    forced.append(ns if ns_here else ew)
            number += 1
        first_table += len(members) // 2
        if group_bye is not None:
            byes.append(group_bye)
        groups.append({"group": g, "tables": numbers, "bye": group_bye})
    return {"tables": tables, "bye": byes[0] if byes else None, "byes": byes,
            "forced_byes": forced, "cycle": cycle, "groups": groups}


def pair(request: dict) -> dict:
    """Pair one round-robin round.

    Args:
        request: ``{"system": "round-robin", "pairs": [ids in number order], "round": r}``
            (pairing-io.md), or ``"groups": [[ids], ...]`` instead of ``pairs``; optional
            ``absent``, ``met``, ``rested`` (see the module docstring).
    Returns:
        ``{"tables", "bye", "forced_byes", "cycle", "rematches", "warnings"}`` and, for a
        grouped request, ``"byes"`` and ``"groups"``.
    Raises:
        PairingError: see :func:`parse`.

    Source: rules.md §14 (and §5 for rests); pairing-io.md "Round robin".
    """
    req = parse(request)
    out = expected(req)
    warnings = []
    for p in out["forced_byes"]:
        warnings.append(msg("warning.forced_rest", pair=p))
    if req["rested"] is not None:
        for p in out["byes"]:
            if p in req["rested"]:
                warnings.append(msg("warning.rr_rest_again", pair=p))
    rematches = []
    if req["met"]:
        first: dict = {}
        for a, b, r in req["met"]:
            key = frozenset((a, b))
            if key not in first or (r is not None and (first[key] is None or r < first[key])):
                first[key] = r
        for t in out["tables"]:
            key = frozenset((t["ns"], t["ew"]))
            if None not in key and key in first:
                rematches.append([t["ns"], t["ew"]])
                if first[key] is not None:
                    warnings.append(msg("warning.rematch_round", table=t["table"], ns=t["ns"],
                                        ew=t["ew"], round=first[key]))
                else:
                    warnings.append(msg("warning.rematch", table=t["table"], ns=t["ns"], ew=t["ew"]))
    response = {"tables": out["tables"], "bye": out["bye"], "forced_byes": out["forced_byes"],
                "cycle": out["cycle"], "rematches": rematches, "warnings": warnings}
    if req["grouped"]:
        response["byes"] = out["byes"]
        response["groups"] = out["groups"]
    return response
