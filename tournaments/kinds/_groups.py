"""Groups (*gironi*) in a pairing request (rules.md §14, §19): the pairs' group lists and a
whole-field request split into groups. Teams read their lists from ``selectors.teams``."""
from __future__ import annotations

from typing import Callable

from ..models import Tournament


def pair_group_lists(tournament: Tournament) -> list[list[int]]:
    """The pair numbers of each group, group 1 first, each in number order; ``[[all pairs]]``
    when the field is not split (``groups`` = 1). Withdrawn pairs are included (they keep
    their slot in the schedule, rules.md §5 art. 32). A pair with no group is left out (see
    :func:`tournaments.services.groups.groups_refusal`)."""
    pairs = list(tournament.pairs.order_by("number").values_list("number", "group"))
    if tournament.groups <= 1:
        return [[n for n, _g in pairs]]
    return [[n for n, g in pairs if g == k] for k in range(1, tournament.groups + 1)]


def in_groups(tournament: Tournament, request: dict,
              group_lists: Callable[[Tournament], list[list[int]]]) -> dict:
    """``request`` (a ``danish`` or ``mitchell`` request of the whole field) in groups when
    the field is split (``Tournament.groups`` > 1; rules.md §19, pairing-io.md "Groups").

    Danish: ``groups`` = the pair (team) numbers of each group, group 1 first
    (``group_lists(tournament)``, withdrawn ones included: the engine ignores those not
    ranked); ``ranking`` stays the overall one, which restricted to a group is the group's
    standings. Mitchell: ``groups`` replaces ``pairs``: each group's Mitchell order is the
    tournament's order (``Tournament.mitchell_order``) restricted to the group, so one
    stored order keeps one movement per group. Unsplit: ``request`` unchanged.
    """
    if tournament.groups <= 1:
        return request
    lists = group_lists(tournament)
    if request["system"] == "mitchell":
        group_of = {n: g for g, members in enumerate(lists) for n in members}
        order = request.pop("pairs")
        request["groups"] = [[n for n in order if group_of.get(n) == g] for g in range(len(lists))]
    else:
        request["groups"] = lists
    return request
