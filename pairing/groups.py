"""Danish and Mitchell rounds in groups (*danesi a gironi*, rules.md §19; pairing-io.md "Groups").

A ``danish`` or ``mitchell`` request may carry ``"groups": [[ids], [ids], ...]``:

- **Danish**: ``groups`` lists each group's members (any order; withdrawn members may be
  listed, they are ignored); ``ranking`` (every active pair, best first), ``met``,
  ``met_last_round`` and ``rested`` are those of the whole field. Each group is paired by §7
  on its own: its ranking is ``ranking`` restricted to the group (the group's standings),
  its meetings and rests those of its members. An odd group has its own rest (§5: the
  lowest-ranked member of the group that has not rested in the session).
- **Mitchell**: ``groups`` replaces ``pairs``: each list is that group's movement order
  (its own Mitchell order, withdrawn pairs included and listed in ``absent``); ``round``,
  ``step`` and ``offset`` are common to every group (each group moves on its own T_g
  tables); ``ranking``, ``rested``, ``absent`` and ``met`` are restricted to each group.

Tables are numbered group after group: group g's first table follows the ⌊n/2⌋ tables of
each earlier group (n = its ranked pairs for Danish, its movement pairs for Mitchell), so a
Mitchell table keeps its number whatever the round. The response is one response for the
round: ``tables`` (each with ``"group": g``, 1-based), ``bye`` (the first group's rest or
null), ``byes`` (every rest, group order), ``forced_byes``, ``rematches``, ``warnings``
(table numbers are the round's), Danish ``explanations``, Mitchell ``adjustments``, and
``groups``: ``[{"group": g, "tables": [numbers], "bye": id|None}]``.
"""

from __future__ import annotations

from .errors import refusal
from .messages import Message, msg
from .request import pair_list

__all__ = ["parse_groups", "sub_request", "pair_grouped", "table_counts", "shift_message"]


def parse_groups(request: dict, *, min_len: int) -> list[list]:
    """The request's ``groups``, validated: a non-empty list of lists of distinct ids, no id
    in two groups, each group at least ``min_len`` ids.

    Raises:
        PairingError: ``pairing.rr_groups_not_list``, ``pairing.rr_bad_group`` (a group that
            is not a list of ``min_len`` distinct ids), ``pairing.rr_pair_in_two_groups``.
    """
    raw = request.get("groups")
    if not isinstance(raw, list) or not raw:
        raise refusal("pairing.rr_groups_not_list")
    groups, seen = [], set()
    for g, members in enumerate(raw, start=1):
        if not isinstance(members, list):
            raise refusal("pairing.rr_bad_group", group=g)
        group = pair_list({"g": members}, "g", min_len=min_len)
        twice = seen & set(group)
        if twice:
            raise refusal("pairing.rr_pair_in_two_groups", pair=sorted(map(str, twice))[0])
        seen |= set(group)
        groups.append(group)
    return groups


def _meetings_within(value, members: set):
    if not isinstance(value, list):
        return value
    return [m for m in value if isinstance(m, (list, tuple)) and len(m) >= 2
            and m[0] in members and m[1] in members]


def _ids_within(value, members: set):
    if not isinstance(value, list):
        return value
    return [p for p in value if p in members]


def sub_request(request: dict, group: list) -> dict:
    """The ordinary (ungrouped) request of one group: ``request`` without ``groups``, its
    lists restricted to the group's members (Danish ``ranking``; Mitchell ``pairs`` = the
    group's movement order, ``ranking``), meetings only between members."""
    members = set(group)
    sub = {k: v for k, v in request.items() if k != "groups"}
    for key in ("met", "met_last_round"):
        if key in sub:
            sub[key] = _meetings_within(sub[key], members)
    for key in ("rested", "absent", "ranking"):
        if key in sub and sub[key] is not None:
            sub[key] = _ids_within(sub[key], members)
    if request.get("system") == "mitchell":
        sub["pairs"] = list(group)
    return sub


def table_counts(request: dict, groups: list[list]) -> list[int]:
    """Tables each group takes in the numbering: ⌊n/2⌋, n = the group's ranked pairs (Danish)
    or its movement pairs, withdrawn included (Mitchell)."""
    if request.get("system") == "mitchell":
        return [len(g) // 2 for g in groups]
    ranked = request.get("ranking") if isinstance(request.get("ranking"), list) else []
    return [len([p for p in ranked if p in set(g)]) // 2 for g in groups]


def shift_message(message, offset: int):
    """A message whose ``table`` parameter is a group's own table number, renumbered for the
    round (``+ offset``); any other message unchanged."""
    if offset and isinstance(message, Message) and isinstance(message.params.get("table"), int):
        return msg(message.code, **dict(message.params, table=message.params["table"] + offset))
    return message


def pair_grouped(request: dict, engine) -> dict:
    """Pair a grouped Danish or Mitchell round (see the module docstring).

    Args:
        request: a ``danish`` or ``mitchell`` request with ``groups``.
        engine: ``engine(sub_request, first_table)`` pairs one group and returns its
            response with the group's own table numbers 1, 2, … (Danish explanations
            already name the round's table numbers, from ``first_table``).
    Returns:
        the round's response (module docstring).
    Raises:
        PairingError: malformed ``groups`` (:func:`parse_groups`; Mitchell groups need 2
            pairs each), a Danish ``ranking`` naming a pair of no group, or what the engine
            raises for a group.
    """
    system = request.get("system")
    if system == "mitchell" and "pairs" in request:
        raise refusal("pairing.groups_or_pairs")
    groups = parse_groups(request, min_len=2 if system == "mitchell" else 1)
    everyone = {p for g in groups for p in g}
    if system == "danish":
        ranking = pair_list(request, "ranking", min_len=1)
        outside = [p for p in ranking if p not in everyone]
        if outside:
            raise refusal("pairing.pair_in_no_group", pair=outside[0])
    counts = table_counts(request, groups)
    out = {"tables": [], "bye": None, "byes": [], "forced_byes": [], "rematches": [],
           "warnings": [], "groups": []}
    if system == "danish":
        out["explanations"] = []
    else:
        out["adjustments"] = []
    first = 1
    for g, (members, count) in enumerate(zip(groups, counts, strict=True), start=1):
        sub = sub_request(request, members)
        if system == "danish" and not sub["ranking"]:
            out["groups"].append({"group": g, "tables": [], "bye": None})
            first += count
            continue
        answer = engine(sub, first)
        shift = first - 1
        tables = [dict(t, table=t["table"] + shift, group=g) for t in answer["tables"]]
        out["tables"] += tables
        bye = answer.get("bye")
        if bye is not None:
            out["byes"].append(bye)
        out["forced_byes"] += list(answer.get("forced_byes") or [])
        out["rematches"] += list(answer.get("rematches") or [])
        out["warnings"] += [shift_message(w, shift) for w in answer.get("warnings") or []]
        if system == "danish":
            out["explanations"] += list(answer.get("explanations") or [])
        else:
            out["adjustments"] += [dict(a, table=a["table"] + shift)
                                   for a in answer.get("adjustments") or []]
        out["groups"].append({"group": g, "tables": [t["table"] for t in tables],
                              "bye": bye})
        first += count
    out["bye"] = out["byes"][0] if out["byes"] else None
    return out
