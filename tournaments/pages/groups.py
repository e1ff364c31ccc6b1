"""The standings per group (*girone*, rules.md §14): a page read, above the kinds, since
a group's members are the kind's entrants (pairs, or teams)."""
from __future__ import annotations

import dataclasses

from ..kinds import kind_of
from ..models import Tournament
from ..selectors import Standings, standings_after


@dataclasses.dataclass(frozen=True)
class GroupStandings:
    """The standings of one group (*girone*, rules.md §14): ``group`` (1..G) and ``rows``
    (``scoring.standings.StandingRow``, best first) with ``position`` and ``tied`` counted
    within the group."""

    group: int
    rows: list


def standings_by_group(tournament: Tournament, view: Standings | None = None) -> list[GroupStandings]:
    """The standings per group (rules.md §14: "standings per group and overall"), from the
    overall standings ``view`` (:func:`standings_after`, read when None), so both agree.

    A pair's group position is 1 + the number of pairs of its group ranked strictly above it
    overall; pairs sharing an overall position share the group position ("2="). The order
    and tie-breaks are those of the overall standings (rules.md §8; head-to-head among tied
    pairs is the same games either way). Empty when the field is not split into groups.
    """
    if tournament.groups <= 1:
        return []
    view = view if view is not None else standings_after(tournament)
    group_of = dict(kind_of(tournament).entrants(tournament).order_by().values_list("number", "group"))
    out = []
    for g in range(1, tournament.groups + 1):
        members = [r for r in view.rows if group_of.get(r.pair) == g]
        rows = []
        for r in members:
            above = sum(1 for o in members if o.position < r.position)
            shared = sum(1 for o in members if o.position == r.position) > 1
            rows.append(dataclasses.replace(r, position=above + 1, tied=shared))
        out.append(GroupStandings(group=g, rows=rows))
    return out
