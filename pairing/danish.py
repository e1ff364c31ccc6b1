"""Danish pairing (*danese*): pair by standings from the top without rematches.

Rules: rules.md §5 (bye, seed code art. 33) and §7; exact procedure in pairing-io.md
("Danish rule, exactly").

Algorithm. Pairs are numbered by ranking position (0 = best). The graph of allowed meetings
(everything except forbidden rematches) is dense, so it is stored by its forbidden edges and
one *maximum matching* of the pairs still to be paired is kept up to date
(:class:`pairing.matching.DenseMatcher`). With ``k`` = the minimum number of unavoidable
rematches among those pairs (half the exposed vertices of that matching; 0 in every normal
round):

1. Bye (odd count): walk the ranking from the bottom over pairs that have not rested; test
   each by removing it and re-augmenting from its freed partner. The first one that leaves
   ``k = 0`` rests. If none does, the non-rested pair leaving the fewest rematches rests
   (lowest-ranked among equals); if all have rested, the lowest-ranked pair rests (warning).
2. Top-down: the best unpaired P tries unpaired Q in ranking order. P–Q is accepted when
   ``[P–Q forbidden] + k(rest) == k``: remove P and Q inside a trial, re-augment from their
   two freed partners (usually directly compatible: O(1); otherwise an Edmonds blossom search)
   and roll back if the count grew. With ``k = 0`` this is exactly "the highest-ranked Q that
   P may meet such that the rest can still be paired without a rematch"; with ``k > 0`` it
   yields a pairing with the fewest rematches, closest to ranking order (lexicographically
   top-down).
3. Seating: matches come out best-first; table 1 is the first, the better-ranked pair N/S.
"""

from __future__ import annotations

from .errors import refusal
from .groups import pair_grouped
from .matching import DenseMatcher
from .messages import msg
from .request import check_request_dict, id_set, meetings, pair_list

__all__ = ["pair", "AVOID_MODES", "parse", "forbidden_sets", "top_down"]

AVOID_MODES = ("all", "previous", "none")


def parse(request: dict) -> dict:
    """Validate a Danish request and return its normalised pieces.

    Returns a dict with ``ranking`` (list of ids), ``index`` (id → rank 0-based), ``mode``,
    ``met`` (list of ``(a, b, round|None)`` between ranked pairs), ``met_last`` (same, for
    the previous round) and ``rested`` (set of ids).

    Raises:
        PairingError: see :func:`pairing.request.pair_list` and
            :func:`pairing.request.meetings`; an unknown ``avoid_rematches`` value.
    """
    check_request_dict(request)
    ranking = pair_list(request, "ranking", min_len=1)
    mode = request.get("avoid_rematches", "all")
    if mode is None:
        mode = "all"
    if mode not in AVOID_MODES:
        raise refusal("pairing.not_one_of", key="avoid_rematches", allowed=", ".join(AVOID_MODES),
                      value=repr(mode))
    index = {p: i for i, p in enumerate(ranking)}
    # Meetings with pairs no longer ranked (withdrawn) are irrelevant: keep only ranked ones.
    met = [m for m in meetings(request, "met") if m[0] in index and m[1] in index]
    met_last = [m for m in meetings(request, "met_last_round")
                if m[0] in index and m[1] in index]
    rested = id_set(request, "rested") & set(index)
    allow = request.get("allow_rematch", False)
    if allow is None:
        allow = False
    if not isinstance(allow, bool):
        raise refusal("pairing.not_one_of", key="allow_rematch", allowed="true, false", value=repr(allow))
    return {"ranking": ranking, "index": index, "mode": mode, "met": met,
            "met_last": met_last, "rested": rested, "allow_rematch": allow}


def forbidden_sets(parsed: dict) -> list[set[int]]:
    """``forbidden[i]`` = ranks that rank ``i`` may not meet under the request's window.

    ``"all"``: every earlier opponent (``met`` and ``met_last_round``); ``"previous"``: the previous round's opponent;
    ``"none"``: nobody (rules.md §7, setting *avoid rematches*). ``allow_rematch`` (the
    plan's last round with «ultimo turno: rivincite ammesse», rules.md §7): nobody either,
    whatever the window.
    """
    n = len(parsed["ranking"])
    index = parsed["index"]
    forb: list[set[int]] = [set() for _ in range(n)]
    if parsed.get("allow_rematch"):
        return forb
    mode = parsed["mode"]
    if mode == "all":  # met_last_round is part of "every meeting so far" even if omitted
        source = parsed["met"] + parsed["met_last"]
    elif mode == "previous":
        source = parsed["met_last"]
    else:
        source = []
    for a, b, _ in source:
        i, j = index[a], index[b]
        forb[i].add(j)
        forb[j].add(i)
    return forb


def _met_rounds(parsed: dict) -> dict:
    rounds: dict[frozenset, set] = {}
    for a, b, r in parsed["met"] + parsed["met_last"]:
        s = rounds.setdefault(frozenset((a, b)), set())
        if r is not None:
            s.add(r)
    return rounds


def _why_met(a, b, rounds: dict, mode: str) -> str:
    known = sorted(rounds.get(frozenset((a, b)), ()))
    if len(known) == 1:
        return f"{a} e {b} si sono già incontrate al turno {known[0]}"
    if known:
        listed = ", ".join(str(r) for r in known[:-1]) + f" e {known[-1]}"
        return f"{a} e {b} si sono già incontrate ai turni {listed}"
    if mode == "previous":
        return f"{a} e {b} si sono incontrate al turno precedente"
    return f"{a} e {b} si sono già incontrate"


def _choose_bye(m: DenseMatcher, n: int, rested_ranks: set[int], ranking: list,
                warnings: list) -> int:
    """Pick the bye rank (rules.md §5, art. 33) and remove it from ``m`` (committed)."""
    candidates = [i for i in range(n - 1, -1, -1) if i not in rested_ranks]
    if not candidates:
        bye = n - 1
        warnings.append(msg("warning.all_rested", pair=ranking[bye]))
        m.repair([m.remove(bye)])
        return bye
    best = None  # (rematches left, rank)
    for b in candidates:
        m.begin()
        left = m.repair([m.remove(b)]) // 2
        if left == 0:
            m.commit()
            return b
        m.rollback()
        if best is None or left < best[0]:
            best = (left, b)
    b = best[1]
    m.repair([m.remove(b)])
    return b


def top_down(m: DenseMatcher, forb: list[set[int]], k: int) -> list[tuple[int, int, list]]:
    """Match the alive vertices of ``m`` top-down with the fewest forbidden edges.

    Shared by the Danish engines for pairs and for individual players (pairing-io.md: "give
    it the highest-ranked Q ... such that the rest can still all be paired").

    Args:
        m: a matcher whose matching is maximum over its alive vertices (ranks, 0 = best).
        forb: the forbidden sets it was built with (rematches, or repeated partners).
        k: the minimum number of forbidden edges, ``m.unmatched() // 2``.
    Returns:
        ``[(P, Q, skipped), ...]`` in the order formed (P < Q), ``skipped`` being
        ``[(Q', "met" | "stuck"), ...]``: the better-ranked Q' passed over, because P–Q'
        is forbidden (``"met"``) or leaves the rest without a completion (``"stuck"``).
        Every alive vertex of ``m`` is removed.
    """
    n = m.n
    alive = m.alive
    matches: list[tuple[int, int, list]] = []
    start = 0
    while True:
        while start < n and not alive[start]:
            start += 1
        if start >= n:
            break
        p = start
        skipped = []
        chosen = None
        for q in range(p + 1, n):
            if not alive[q]:
                continue
            cost = 1 if q in forb[p] else 0
            if cost > k:
                skipped.append((q, "met"))
                continue
            if m.mate[p] == q:
                m.remove(p)
                m.remove(q)
                chosen = q
                break
            m.begin()
            pp = m.remove(p)
            qq = m.remove(q)
            if cost + m.repair([pp, qq], floor=2 * (k - cost)) // 2 == k:
                m.commit()
                chosen = q
                break
            m.rollback()
            skipped.append((q, "met" if cost else "stuck"))
        if chosen is None:  # cannot happen: the maintained matching proves feasibility
            raise AssertionError("Danish pairing: no feasible opponent")
        k -= 1 if chosen in forb[p] else 0
        matches.append((p, chosen, skipped))
    return matches


def pair(request: dict) -> dict:
    """Pair one Danish round.

    Args:
        request: ``{"system": "danish", "ranking": [ids best first], "met": [[a, b] or
            [a, b, round], ...], "met_last_round": [...], "rested": [ids],
            "avoid_rematches": "all" | "previous" | "none", "allow_rematch": bool}``
            (pairing-io.md; ``allow_rematch`` true lifts the rematch rule for this round:
            the last round of a modified Danish, rules.md §7); with
            ``"groups": [[ids], ...]`` each group is paired on its own (rules.md §19,
            :mod:`pairing.groups`).
    Returns:
        ``{"tables": [{"table", "ns", "ew"}...], "bye": id|None, "rematches": [[ns, ew]...],
        "warnings": [str...], "explanations": [str...]}``; ``explanations`` has one Italian
        line per table that differs from the natural 1v2, 3v4, ... of the ranking without the
        bye, or that holds an unavoidable rematch.
    Raises:
        PairingError: malformed request (see :func:`parse`).

    Source: rules.md §5 and §7, FIBUR seed code art. 33, pairing-io.md.
    """
    if isinstance(request, dict) and "groups" in request:  # rules.md §19: §7 within each group
        return pair_grouped(request, lambda sub, first: _pair(parse(sub), first))
    return _pair(parse(request), 1)


def _pair(parsed: dict, first_table: int) -> dict:
    """Pair one parsed Danish field (:func:`pair`); tables numbered 1, 2, …, explanations
    naming them from ``first_table`` (a group's first table in the round, rules.md §19)."""
    ranking = parsed["ranking"]
    mode = parsed["mode"]
    n = len(ranking)
    forb = forbidden_sets(parsed)
    rounds = _met_rounds(parsed)
    warnings: list[str] = []

    m = DenseMatcher(n, forb)
    m.maximize()

    bye = None
    if n % 2 == 1:
        rested_ranks = {parsed["index"][p] for p in parsed["rested"]}
        bye = _choose_bye(m, n, rested_ranks, ranking, warnings)

    k = m.unmatched() // 2
    if k:
        warnings.append(msg("warning.min_rematches_one" if k == 1 else "warning.min_rematches", count=k))

    matches = top_down(m, forb, k)

    natural = [i for i in range(n) if i != bye]
    tables, rematches, explanations = [], [], []
    for t, (p, q, skipped) in enumerate(matches, start=1):
        a, b = ranking[p], ranking[q]
        tables.append({"table": t, "ns": a, "ew": b})
        if q in forb[p]:
            rematches.append([a, b])
        n1, n2 = natural[2 * t - 2], natural[2 * t - 1]
        if (n1, n2) == (p, q) and q not in forb[p]:
            continue
        reasons = []
        if n2 in forb[n1] and n1 != p and (n1, n2) != (p, q):
            reasons.append(_why_met(ranking[n1], ranking[n2], rounds, mode))
        for q2, why in skipped:
            if why == "met":
                reasons.append(_why_met(a, ranking[q2], rounds, mode))
            else:
                reasons.append(f"con {a}–{ranking[q2]} le coppie restanti non si potrebbero "
                               f"accoppiare senza incontri ripetuti")
        if q in forb[p]:
            reasons.append(_why_met(a, b, rounds, mode)
                           + ", ma nessun accoppiamento senza ripetizioni è possibile")
        if not reasons:
            reasons.append("conseguenza degli accoppiamenti ai tavoli precedenti")
        explanations.append(f"Tavolo {t + first_table - 1}: {a} contro {b} — "
                            + "; ".join(reasons) + ".")

    return {"tables": tables, "bye": None if bye is None else ranking[bye],
            "rematches": rematches, "warnings": warnings, "explanations": explanations}
