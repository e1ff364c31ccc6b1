"""Checker of a round-robin round (rules.md §14; pairing-io.md "Round robin").

Tables, bye(s), forced byes (and, for groups, the per-group summary) exactly as the circle
schedule gives them, tables numbered group after group (so within one cycle no two entrants
meet twice); every meeting already in ``met`` listed in ``rematches``.
"""

from __future__ import annotations

from .. import round_robin as _round_robin
from ..messages import msg
from .common import check_listed_repeats, coverage, seats

__all__ = ["parse", "judge"]

#: The request as the engine reads it (raises :class:`pairing.PairingError`).
parse = _round_robin.parse


def judge(req, request, response, tables, bye, forced, out) -> None:
    """The response must be the circle schedule (``req``: :func:`parse`)."""
    present = [p for g in req["groups"] for p in g if p not in req["absent"]]
    single = [bye] if bye is not None else []
    byes = response.get("byes", single) if req["grouped"] else single
    if not isinstance(byes, list):
        out.append(msg("check.not_a_list", key="byes"))
        byes = []
    extra_byes = [p for p in byes if p != bye]
    coverage(present, tables, bye, list(forced) + extra_byes, out)
    want = _round_robin.expected(req)
    got = {t["table"]: (t["ns"], t["ew"]) for t in tables}
    want_tables = {t["table"]: (t["ns"], t["ew"]) for t in want["tables"]}
    for t in sorted(set(want_tables) | set(got)):
        if t not in got:
            out.append(msg("check.rr_missing_table", table=t, **seats("want", want_tables[t])))
        elif t not in want_tables:
            out.append(msg("check.rr_extra_table", table=t))
        elif got[t] != want_tables[t]:
            out.append(msg("check.rr_table", table=t, **seats("want", want_tables[t]), **seats("got", got[t])))
    if bye != want["bye"]:
        out.append(msg("check.rr_bye", want=want["bye"], got=bye))
    if req["grouped"] and byes != want["byes"]:
        out.append(msg("check.rr_byes", want=str(want["byes"]), got=str(byes)))
    if set(forced) != set(want["forced_byes"]):
        out.append(msg("check.rr_forced", want=str(sorted(map(str, want["forced_byes"]))),
                       got=str(sorted(map(str, forced)))))
    if req["grouped"] and "groups" in response and response["groups"] != want["groups"]:
        out.append(msg("check.rr_groups"))
    # Exactness already rules out a meeting repeated within one cycle (the circle method
    # pairs every two entrants once per cycle); meetings from earlier rounds (another
    # system, an earlier cycle) must be listed in ``rematches``.
    check_listed_repeats(request, response, out)
