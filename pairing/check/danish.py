"""Checker of a Danish round for pairs (rules.md §5, §7, art. 33; pairing-io.md "Danish").

Numbering 1..k; table order and N/S seating; the bye (only with an odd count; not to a pair
that rested when a non-rested one exists; the lowest entitled pair); forbidden rematches
avoidable or not listed in ``rematches``; every top-down choice the best available. It
shares only the from-scratch maximum-matching primitive with the engine (the tests compare
it with networkx).
"""

from __future__ import annotations

from .. import danish as _danish
from ..matching import min_unmatched
from ..messages import msg
from ..top_down import top_down_violation
from .common import coverage, full_tables, numbered_from_one

__all__ = ["parse", "judge"]

#: The request as the engine reads it (raises :class:`pairing.PairingError`).
parse = _danish.parse


def judge(req, request, response, tables, bye, forced, out) -> None:
    """Append to ``out`` the violations of a well-shaped response (``req``: :func:`parse`).
    The finer checks (seating, rematches, bye, top-down) run only on a well-formed pairing."""
    ranking, index = req["ranking"], req["index"]
    n = len(ranking)
    coverage(ranking, tables, bye, forced, out)
    numbered_from_one(tables, out)
    full_tables(tables, out)
    if forced:
        out.append(msg("check.danish_forced"))
    if out:
        return  # the finer checks assume a well-formed pairing
    forb = _danish.forbidden_sets(req)

    # Seating (rules.md §7): table order by best-ranked pair, better-ranked pair N/S.
    ranks = []
    for t in tables:
        a, b = index[t["ns"]], index[t["ew"]]
        if a > b:
            out.append(msg("check.better_ns", table=t["table"], pair=t["ew"]))
        ranks.append((min(a, b), max(a, b)))
    if [r[0] for r in ranks] != sorted(r[0] for r in ranks):
        out.append(msg("check.table_order"))

    # Rematches: exactly those listed, warned, and no more than unavoidable. A repeat that is
    # not listed (e.g. made by a hand change in the draft) is named with its table, as the
    # other systems do; a listing of meetings not played, or listed twice, is the engine's fault.
    played = [(a, b) for a, b in ranks if b in forb[a]]
    listed = response.get("rematches", [])
    listed_set = {frozenset(x) for x in listed if isinstance(x, list) and len(x) == 2}
    played_set = {frozenset((ranking[a], ranking[b])) for a, b in played}
    for t, (a, b) in zip(tables, ranks, strict=True):
        if b in forb[a] and frozenset((t["ns"], t["ew"])) not in listed_set:
            out.append(msg("check.unlisted_rematch", table=t["table"], ns=t["ns"], ew=t["ew"]))
    if listed_set - played_set or len(listed) != len(listed_set):
        out.append(msg("check.rematches_listed"))
    if played_set & listed_set and not response.get("warnings"):
        out.append(msg("check.rematch_no_warning"))
    rest = [i for i in range(n) if ranking[i] != bye]
    k_min = min_unmatched(rest, forb, n) // 2
    if len(played) > k_min:
        names = ", ".join(f"{ranking[a]}–{ranking[b]}" for a, b in played)
        out.append(msg("check.avoidable_rematch", names=names, k=k_min))
        return

    # Bye (rules.md §5, art. 33).
    if n % 2 == 0:
        if bye is not None:
            out.append(msg("check.even_bye", pair=bye))
    elif bye is None:
        out.append(msg("check.odd_no_bye"))
    else:
        _check_bye(req, forb, index[bye], k_min, out)

    # Top-down (pairing-io.md step 2): every better opponent must have been impossible.
    violation = top_down_violation(
        ranks, rest, forb, n, len(played),
        lambda k, a, q: msg("check.top_down", table=tables[k]["table"], pair=ranking[a], other=ranking[q]))
    if violation is not None:
        out.append(violation)


def _check_bye(req, forb, b: int, k_min: int, out) -> None:
    ranking, index = req["ranking"], req["index"]
    n = len(ranking)
    rested = {index[p] for p in req["rested"]}
    candidates = [i for i in range(n) if i not in rested]
    if not candidates:
        if b != n - 1:
            out.append(msg("check.all_rested", want=ranking[-1], got=ranking[b]))
        return
    if b in rested:
        out.append(msg("check.rested_already", pair=ranking[b]))
        return

    def k_without(x):
        return min_unmatched([i for i in range(n) if i != x], forb, n) // 2

    for x in candidates:
        if x > b and k_without(x) <= k_min:
            out.append(msg("check.bye_belongs", want=ranking[x], got=ranking[b]))
            return
        if x < b and k_min > 0 and k_without(x) < k_min:
            out.append(msg("check.bye_avoids_rematch", pair=ranking[x]))
            return
