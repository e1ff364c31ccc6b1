"""Who wins each prize of a tournament (rules.md §18), from its current standings.

The rule is ``scoring.prizes.award_prizes``; this module feeds it the standings
(``selectors.standings_after``), each entrant's group and the categories of its players'
members (rules.md §16: ``Player.member.category``).
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from scoring import prizes as prize_rules

from .. import selectors
from ..kinds import kind_of
from ..models import Tournament


@dataclass(frozen=True)
class PrizeLine:
    """One prize as pages and documents show it: ``prize`` (name), ``scope`` (``overall``,
    ``group:2``…), ``entrant`` (number, None when nobody is entitled), ``names`` (the pair's
    players «Serra Anna – Santoro Marta», the player, or the team's name), ``position``
    (the winner's overall position label), ``ex_aequo``."""

    prize: str
    scope: str
    entrant: int | None
    names: str | None
    position: str
    ex_aequo: bool


def entrant_categories(tournament: Tournament) -> dict[int, frozenset[str]]:
    """Entrant number → the categories every one of its players has (compared case-blind;
    empty when a player has no member or no category): a pair's two players, an individual
    player, every registered player of a team."""
    rows = (kind_of(tournament).entrant_players(tournament).order_by()
            .values_list("entrant_number", "member__category"))
    seen: dict[int, list[str]] = defaultdict(list)
    for number, category in rows:
        seen[number].append(prize_rules.category_key(category or ""))
    return {n: frozenset(cats) if all(cats) and len(set(cats)) == 1 else frozenset() for n, cats in seen.items()}


def _groups(tournament: Tournament) -> dict[int, int | None]:
    if tournament.groups <= 1:
        return {}
    return dict(kind_of(tournament).entrants(tournament).values_list("number", "group"))


def prize_awards(tournament: Tournament, view: selectors.Standings | None = None) -> list[PrizeLine]:
    """The tournament's prize list with its winners after the last closed round (or the
    standings ``view`` given), in list order; [] without a prize list. Withdrawn entrants
    win nothing; ``cumulative`` follows ``Tournament.prizes_cumulative``."""
    if not tournament.prize_list:
        return []
    view = view if view is not None else selectors.standings_after(tournament)
    specs = prize_rules.parse_prize_list(tournament.prize_list)
    if view.after_round is None:
        return [PrizeLine(s.name, s.scope.text, None, None, "", False) for s in specs]
    groups, categories = _groups(tournament), entrant_categories(tournament)
    contenders = [prize_rules.Contender(entrant=r.pair, position=r.position, withdrawn=r.withdrawn,
                                        group=groups.get(r.pair), categories=categories.get(r.pair, frozenset()))
                  for r in view.rows]
    names = selectors.entrant_names(tournament)
    labels = {r.pair: r.position_label for r in view.rows}
    return [PrizeLine(prize=a.prize.name, scope=a.prize.scope.text, entrant=a.entrant,
                      names=names.get(a.entrant) if a.entrant is not None else None,
                      position=labels.get(a.entrant, ""), ex_aequo=a.ex_aequo)
            for a in prize_rules.award_prizes(specs, contenders, cumulative=tournament.prizes_cumulative)]


def prizes_json(lines: list[PrizeLine]) -> dict:
    """``{"prizes": [{"prize", "entrant", "names", "ex_aequo"}, …]}`` in list order."""
    return {"prizes": [{"prize": p.prize, "entrant": p.entrant, "names": p.names, "ex_aequo": p.ex_aequo}
                       for p in lines]}
