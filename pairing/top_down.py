"""The top-down re-derivation of a Danish round, one rule for pairs and individuals
(rules.md §7 and §9, pairing-io.md step 2): used by :mod:`pairing.check.danish` and
:mod:`pairing.check.individual`."""
from __future__ import annotations

from .matching import min_unmatched

__all__ = ["top_down_violation"]


def top_down_violation(matches, unpaired, forb, n: int, repeats: int, message, *, leader_message=None):
    """Re-derive the top-down choices of a Danish round (rules.md §7, pairing-io.md step 2;
    for individuals §9, partnerships instead of matches) and say where one was not the best.

    Args:
        matches: ``[(a, b), ...]`` in the order formed (table order, or partnership order),
            ``a`` and ``b`` ranking indices (0 = best), ``a`` the better-ranked.
        unpaired: the ranking indices of every seated entrant.
        forb: ``forb[i]`` = the indices ``i`` may not meet (partner) again.
        n: the ranking's length (for :func:`min_unmatched`).
        repeats: the repeats the response uses, already known to be the fewest possible.
        message: ``message(k, a, q)`` → the sentence for match ``k`` (0-based) whose
            ``a`` should have taken the better-ranked ``q``.
        leader_message: when given, each match must be led by the best-ranked entrant still
            unpaired (Danish individual); ``leader_message(k, best)`` → the sentence.
    Returns:
        the first violation's sentence, or ``None``. The response itself witnesses that
        each chosen match is feasible; its suffix from match ``k`` on has the fewest repeats
        because the total does.
    """
    unpaired = sorted(unpaired)
    left = repeats
    for k, (a, b) in enumerate(matches):
        if leader_message is not None and a != unpaired[0]:
            return leader_message(k, unpaired[0])
        for q in unpaired:
            if q == a:
                continue
            if q == b:
                break
            cost = 1 if q in forb[a] else 0
            if cost > left:
                continue
            others = [x for x in unpaired if x not in (a, q)]
            if cost + min_unmatched(others, forb, n) // 2 <= left:
                return message(k, a, q)
        left -= 1 if b in forb[a] else 0
        unpaired.remove(a)
        unpaired.remove(b)
    return None
