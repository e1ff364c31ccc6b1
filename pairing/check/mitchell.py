"""Checker of a Mitchell round (rules.md §5, §6; pairing-io.md "Mitchell").

Tables, bye, forced byes and ``adjustments`` exactly as the movement gives them, with the
request's ``offset`` (step changes) and the second-rest exchanges that ``rested``/``ranking``
demand (see :mod:`pairing.mitchell`); a second rest while a playing pair has not rested;
every meeting already in ``met`` that the response does not list in ``rematches``.
"""

from __future__ import annotations

from .. import mitchell as _mitchell
from ..messages import msg
from .common import check_listed_repeats, check_second_rests, coverage, seats

__all__ = ["parse", "judge"]

#: The request as the engine reads it (raises :class:`pairing.PairingError`).
parse = _mitchell.parse


def judge(req, request, response, tables, bye, forced, out) -> None:
    """Append to ``out`` the violations of a well-shaped response (``req``: :func:`parse`)."""
    pairs, absent = req["pairs"], req["absent"]
    present = [p for p in pairs if p not in absent]
    coverage(present, tables, bye, forced, out)
    n = len(pairs)
    t_count = (n + 1) // 2
    # The movement, recomputed from pairing-io.md's formula (offset = the moves so far).
    if n % 2 == 0:
        ns_line, ew_line, phantom_table = pairs[:t_count], pairs[t_count:], None
    else:
        ns_line, ew_line, phantom_table = pairs[:t_count - 1], pairs[t_count - 1:], t_count
    shift = req["offset"] if req["offset"] is not None else (req["round"] - 1) * req["step"]
    seat_ew = {((i + shift) % t_count) + 1: p for i, p in enumerate(ew_line)}
    want_tables, want_bye, want_forced = {}, None, []
    for t in range(1, t_count + 1):
        ns = ns_line[t - 1] if t != phantom_table else None
        ew = seat_ew[t]
        ns_here = ns is not None and ns not in absent
        ew_here = ew not in absent
        if t == phantom_table:
            want_bye = ew if ew_here else None
        elif ns_here or ew_here:
            want_tables[t] = [ns if ns_here else None, ew if ew_here else None]
            if not (ns_here and ew_here):
                want_forced.append(ns if ns_here else ew)
    # Second rests (rules.md §5): each idle pair that rested, bye first then forced rests in
    # table order, swaps with the lowest-ranked playing pair that has not rested.
    want_adjust = []
    if req["rested"] is not None:
        rested = req["rested"]
        idle = ([("bye", want_bye)] if want_bye is not None else []) + [
            ("forced", p) for p in want_forced]
        for kind, x in idle:
            if x not in rested:
                continue
            full = {}
            for t, table_seats in want_tables.items():
                if None not in table_seats:
                    full[table_seats[0]] = (t, 0)
                    full[table_seats[1]] = (t, 1)
            sub = None
            for p in reversed(req["ranking"]):
                if p in full and p not in rested and p not in absent:
                    sub = p
                    break
            if sub is None:
                continue
            t, k = full[sub]
            want_tables[t][k] = x
            if kind == "bye":
                want_bye = sub
            else:
                for u, table_seats in want_tables.items():
                    if u != t and x in table_seats:
                        table_seats[table_seats.index(x)] = sub
                want_forced[want_forced.index(x)] = sub
            want_adjust.append({"rests": sub, "plays": x, "table": t,
                                "line": "ns" if k == 0 else "ew"})
    got = {t["table"]: (t["ns"], t["ew"]) for t in tables}
    for t in sorted(set(want_tables) | set(got)):
        want = tuple(want_tables[t]) if t in want_tables else None
        if t not in got:
            out.append(msg("check.mitchell_missing_table", table=t, **seats("want", want)))
        elif want is None:
            out.append(msg("check.mitchell_extra_table", table=t))
        elif got[t] != want:
            out.append(msg("check.mitchell_table", table=t, **seats("want", want), **seats("got", got[t])))
    if bye != want_bye:
        out.append(msg("check.mitchell_bye", want=want_bye, got=bye))
    if set(forced) != set(want_forced):
        out.append(msg("check.mitchell_forced", want=str(sorted(map(str, want_forced))),
                       got=str(sorted(map(str, forced)))))
    given = response.get("adjustments", [])
    if given != want_adjust and (given or want_adjust):
        out.append(msg("check.mitchell_adjustments", want=_adjust_text(want_adjust), got=_adjust_text(given)))
    check_second_rests(request, response, out)
    check_listed_repeats(request, response, out)


def _adjust_text(adjustments) -> str:
    """Exchanges as numbers only, "4 → 5 (2)": who rests → who plays instead (table); the
    message's words say so, so that the reader's language names them. "—" for none."""
    if not isinstance(adjustments, list) or not adjustments:
        return "—"
    parts = []
    for a in adjustments:
        if isinstance(a, dict):
            parts.append(f"{a.get('rests')} → {a.get('plays')} ({a.get('table')})")
        else:
            parts.append(repr(a))
    return "; ".join(parts)
