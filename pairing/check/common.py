"""What every pair system's check shares: the refused request, the response's shape, the
coverage of the seats, table numbering, the history checks (second rests, unlisted repeated
meetings) and the message helpers.

Nothing here knows a system: the per-system modules (:mod:`.mitchell`, :mod:`.danish`,
:mod:`.round_robin`, :mod:`.first_round`) import it, and :mod:`pairing.check` dispatches to
them. Messages are :class:`pairing.messages.Message` strings: the Italian text, with a code
and parameters so the application shows them in the reader's language.
"""

from __future__ import annotations

from ..errors import PairingError
from ..messages import msg
from ..request import is_pair_id

__all__ = ["bad_request", "shape", "coverage", "numbered_from_one", "full_tables",
           "repeated_meetings", "second_rests", "check_second_rests", "check_listed_repeats",
           "seats"]


def bad_request(exc: PairingError):
    """The single violation of a request the engine would refuse ("richiesta non valida"):
    the refusal's own code rides along, so the reader's language reaches the detail too."""
    return msg("check.bad_request", detail=str(exc), detail_code=exc.code, detail_params=exc.params)


# -- history: rests and meetings so far ------------------------------------------------------
def repeated_meetings(request: dict, response: dict) -> list[tuple]:
    """Every meeting of ``response`` already in ``request["met"]``, any system.

    Args:
        request: a pairing request; only its ``met`` (``[a, b]`` or ``[a, b, round]``) is
            read.
        response: a pairing response (``tables`` with ``ns``/``ew``).
    Returns:
        ``[(table, ns, ew, first_round|None), ...]`` in table order; empty without ``met``.
    """
    first: dict = {}
    for m in request.get("met") or []:
        if isinstance(m, (list, tuple)) and len(m) in (2, 3):
            key = frozenset(m[:2])
            r = m[2] if len(m) == 3 else None
            if key not in first or (r is not None and (first[key] is None or r < first[key])):
                first[key] = r
    out = []
    for t in response.get("tables") or []:
        if not isinstance(t, dict) or t.get("ns") is None or t.get("ew") is None:
            continue
        key = frozenset((t["ns"], t["ew"]))
        if len(key) == 2 and key in first:
            out.append((t.get("table"), t["ns"], t["ew"], first[key]))
    return out


def second_rests(request: dict, response: dict) -> list[tuple]:
    """Avoidable second rests (rules.md §5, art. 33): ``[(idle pair, pair that could rest)]``.

    An idle pair (``bye`` or forced rest) that is in ``request["rested"]`` while a pair
    seated at a full table of the response is not. The pair that could rest is the
    lowest-ranked such pair (``ranking``, else the request's pair order). Empty when the
    request has no ``rested``.
    """
    rested = request.get("rested")
    if rested is None:
        return []
    rested = set(rested)
    order = request.get("ranking") or request.get("pairs") or []
    playing = [p for t in response.get("tables") or [] if isinstance(t, dict)
               and t.get("ns") is not None and t.get("ew") is not None for p in (t["ns"], t["ew"])]
    fresh = [p for p in playing if p not in rested]
    if not fresh:
        return []
    pos = {p: i for i, p in enumerate(order)}
    lowest = max(fresh, key=lambda p: pos.get(p, -1))
    idle = ([response["bye"]] if response.get("bye") is not None else []) + list(
        response.get("forced_byes") or [])
    return [(p, lowest) for p in idle if p in rested]


def check_second_rests(request, response, out) -> None:
    """Each avoidable second rest of :func:`second_rests` as a violation."""
    for p, q in second_rests(request, response):
        out.append(msg("check.second_rest", pair=p, other=q))


def check_listed_repeats(request, response, out) -> None:
    """Each meeting already in ``met`` that the response does not list in ``rematches``."""
    listed = {frozenset(x) for x in response.get("rematches") or []
              if isinstance(x, list) and len(x) == 2}
    for t, ns, ew, r in repeated_meetings(request, response):
        if frozenset((ns, ew)) not in listed:
            if r is not None:
                out.append(msg("check.unlisted_rematch_round", table=t, ns=ns, ew=ew, round=r))
            else:
                out.append(msg("check.unlisted_rematch", table=t, ns=ns, ew=ew))


# -- shape and coverage ---------------------------------------------------------------------
def shape(response, out):
    """The response's shape (pairing-io.md): ``(tables, bye, forced_byes)`` with the
    well-formed tables only, or None when there is nothing to judge; faults go to ``out``."""
    if not isinstance(response, dict):
        out.append(msg("check.response_not_object"))
        return None
    tables = response.get("tables")
    if not isinstance(tables, list):
        out.append(msg("check.no_tables"))
        return None
    good = []
    for t in tables:
        if not isinstance(t, dict) or not {"table", "ns", "ew"} <= set(t):
            out.append(msg("check.bad_table", value=repr(t)))
            continue
        num = t["table"]
        if not isinstance(num, int) or isinstance(num, bool):
            out.append(msg("check.bad_table_number", value=repr(num)))
            continue
        for seat in ("ns", "ew"):
            if t[seat] is not None and not is_pair_id(t[seat]):
                out.append(msg("check.bad_pair_id", table=num, value=repr(t[seat])))
        good.append(t)
    for key in ("rematches", "warnings"):
        if not isinstance(response.get(key, []), list):
            out.append(msg("check.not_a_list", key=key))
    bye = response.get("bye")
    if bye is not None and not is_pair_id(bye):
        out.append(msg("check.bad_bye", value=repr(bye)))
        bye = None
    forced = response.get("forced_byes", [])
    if not isinstance(forced, list):
        out.append(msg("check.not_a_list", key="forced_byes"))
        forced = []
    nums = [t["table"] for t in good]
    if nums != sorted(nums):
        out.append(msg("check.tables_unordered"))
    if len(set(nums)) != len(nums):
        out.append(msg("check.table_repeated"))
    return good, bye, forced


def coverage(expected: list, tables, bye, forced, out) -> None:
    """Every expected pair exactly once among seats, bye and forced byes; nobody else."""
    expected_set = set(expected)
    count: dict = {}
    for t in tables:
        if t["ns"] is not None and t["ns"] == t["ew"]:
            out.append(msg("check.plays_itself", table=t["table"], pair=t["ns"]))
        for seat in ("ns", "ew"):
            if t[seat] is not None:
                count[t[seat]] = count.get(t[seat], 0) + 1
    # A forced rest (Mitchell with an absent opponent) is shown at a half-empty table *and*
    # listed in forced_byes: count it once, at the table.
    alone = {t["ns"] if t["ew"] is None else t["ew"] for t in tables
             if (t["ns"] is None) != (t["ew"] is None)}
    for p in ([bye] if bye is not None else []) + [p for p in forced if p not in alone]:
        count[p] = count.get(p, 0) + 1
    for p in alone - set(forced):
        out.append(msg("check.alone_not_forced", pair=p))
    for p, c in count.items():
        if p not in expected_set:
            out.append(msg("check.unknown_pair", pair=p))
        elif c > 1:
            out.append(msg("check.pair_repeated", pair=p, count=c))
    for p in expected:
        if p not in count:
            out.append(msg("check.pair_missing", pair=p))


def numbered_from_one(tables, out) -> None:
    """Tables numbered 1..k without gaps."""
    nums = [t["table"] for t in tables]
    if sorted(nums) != list(range(1, len(nums) + 1)):
        out.append(msg("check.numbering"))


def full_tables(tables, out) -> None:
    """No empty seat (every system but Mitchell and the round robin, which keep absent
    pairs' seats)."""
    for t in tables:
        if t["ns"] is None or t["ew"] is None:
            out.append(msg("check.line_missing", table=t["table"]))


def seats(prefix: str, pair_) -> dict:
    """A table's two lines as message parameters ``<prefix>_ns`` / ``<prefix>_ew`` ("—" for an
    empty seat): the message's own words name the lines, in the reader's language."""
    ns, ew = pair_
    return {f"{prefix}_ns": "—" if ns is None else ns, f"{prefix}_ew": "—" if ew is None else ew}
