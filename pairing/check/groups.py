"""Checker of Danish and Mitchell rounds in groups (rules.md §19; pairing-io.md "Groups").

The round is judged group by group with the ordinary checks (:func:`pairing.check.check` on
each group's own request, :func:`pairing.groups.sub_request`, and the group's part of the
response, its tables renumbered from 1), after these round-wide checks:

- no table holds pairs of two groups (``check.group_cross_table``), nor a pair of no group;
- each group's tables lie in its own range, group after group (``check.group_table_range``):
  group g's first table follows the ⌊n/2⌋ tables of each earlier group;
- a table's ``group`` label, when given, is its pairs' group (``check.group_label``);
- at most one rest per group (``check.group_two_rests``); the second rests within a group
  come from the group's own check (its ``rested``).

A group's violation is reported as ``check.in_group`` ("girone g: …"), its table numbers
those of the round.
"""

from __future__ import annotations

from ..errors import PairingError, refusal
from ..groups import parse_groups, shift_message, sub_request, table_counts
from ..messages import msg
from .common import bad_request

__all__ = ["check_grouped"]


def check_grouped(request: dict, response, check) -> list:
    """Violations of a grouped Danish or Mitchell ``response`` for ``request``.

    Args:
        request: a ``danish``/``mitchell`` request with ``groups`` (pairing-io.md "Groups").
        response: the response to judge.
        check: :func:`pairing.check.check`, passed in: this module does not import the
            package that dispatches to it (no import cycle).
    Returns:
        :class:`pairing.messages.Message` violations; empty when none.
    """
    system = request.get("system")
    try:
        if system == "mitchell" and "pairs" in request:
            raise refusal("pairing.groups_or_pairs")
        groups = parse_groups(request, min_len=2 if system == "mitchell" else 1)
    except PairingError as exc:
        return [bad_request(exc)]
    if not isinstance(response, dict):
        return [msg("check.response_not_object")]
    if not isinstance(response.get("tables"), list):
        return [msg("check.no_tables")]
    group_of = {p: g for g, members in enumerate(groups, start=1) for p in members}
    counts = table_counts(request, groups)
    firsts, first = [], 1
    for count in counts:
        firsts.append(first)
        first += count
    out: list = []
    parts: dict[int, list] = {g: [] for g in range(1, len(groups) + 1)}
    for t in response["tables"]:
        if not isinstance(t, dict):
            continue
        seated = [t.get(line) for line in ("ns", "ew") if t.get(line) is not None]
        owners = {group_of.get(p) for p in seated}
        if None in owners:
            out.append(msg("check.unknown_pair", pair=next(p for p in seated if p not in group_of)))
            continue
        if len(owners) > 1:
            out.append(msg("check.group_cross_table", table=t.get("table"), ns=t.get("ns"),
                           ew=t.get("ew"), group_ns=group_of[t["ns"]], group_ew=group_of[t["ew"]]))
            continue
        if not owners:
            continue
        g = owners.pop()
        if "group" in t and t["group"] != g:
            out.append(msg("check.group_label", table=t.get("table"), want=g, got=t["group"]))
        num = t.get("table")
        lo, hi = firsts[g - 1], firsts[g - 1] + counts[g - 1] - 1
        if isinstance(num, int) and not isinstance(num, bool) and not lo <= num <= hi:
            out.append(msg("check.group_table_range", table=num, group=g, first=lo, last=hi))
            continue
        parts[g].append(t)
    byes = response.get("byes")
    if not isinstance(byes, list):
        byes = [response["bye"]] if response.get("bye") is not None else []
    rests: dict[int, list] = {g: [] for g in parts}
    for p in byes:
        if p in group_of:
            rests[group_of[p]].append(p)
        else:
            out.append(msg("check.unknown_pair", pair=p))
    forced = response.get("forced_byes") if isinstance(response.get("forced_byes"), list) else []
    adjustments = response.get("adjustments") if isinstance(response.get("adjustments"), list) else []
    rematches = response.get("rematches") if isinstance(response.get("rematches"), list) else []
    for g, members in enumerate(groups, start=1):
        if len(rests[g]) > 1:
            out.append(msg("check.group_two_rests", group=g,
                           pairs=", ".join(map(str, rests[g]))))
            continue
        mine = set(members)
        shift = firsts[g - 1] - 1
        sub_req = sub_request(request, members)
        if system == "danish" and not sub_req.get("ranking"):
            continue
        sub_resp = dict(response)
        sub_resp.pop("groups", None)
        sub_resp.pop("byes", None)
        sub_resp["tables"] = [{k: v for k, v in dict(t, table=t["table"] - shift).items()
                               if k != "group"} for t in parts[g]]
        sub_resp["bye"] = rests[g][0] if rests[g] else None
        sub_resp["forced_byes"] = [p for p in forced if p in mine]
        if "forced_byes" not in response:
            sub_resp.pop("forced_byes")
        if "adjustments" in response:
            sub_resp["adjustments"] = [dict(a, table=a["table"] - shift) for a in adjustments
                                       if isinstance(a, dict) and a.get("rests") in mine]
        sub_resp["rematches"] = [x for x in rematches if isinstance(x, list) and set(x) <= mine]
        if "warnings" in response:  # a group's warnings are the round's, as far as the check goes
            sub_resp["warnings"] = list(response.get("warnings") or [])
        for v in check(sub_req, sub_resp):
            v = shift_message(v, shift)
            out.append(msg("check.in_group", group=g, detail=str(v),
                           detail_code=getattr(v, "code", ""), detail_params=getattr(v, "params", {})))
    return out

