"""Standings of an individual tournament (rules.md §9): every player scores the VP and MP
of the line he played in, and players are ranked with the tie-breaks of §8 computed per
player. Head-to-head does not apply (players meet as opponents in different partnerships),
so the default chain is VP, MP difference, MP scored, then a shared position.

Plain values in, plain values out: the caller (``tournaments.selectors``) turns each
round's lines into :class:`PlayerResult` rows with :func:`player_results`.
"""
from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Iterable, Mapping, Sequence

from .standings import GameResult, Penalty, StandingRow, _Ranker, _Stats

__all__ = ["INDIVIDUAL_TIEBREAKS", "PlayerResult", "player_results", "individual_standings"]

INDIVIDUAL_TIEBREAKS: tuple[str, ...] = ("vp", "mp_difference", "mp_scored")
"""Default tie-breaks per player (rules.md §9)."""

PlayerId = int | str


@dataclass(frozen=True)
class PlayerResult:
    """One player's result in one round: the VP and MP of his line (``mp_conceded``: the
    opposing line's MP), or a rest (``rest`` True: the rest VP and MP credited, rules.md §5,
    ``mp_conceded`` 0)."""

    round: int
    player: PlayerId
    vp: Decimal | int
    mp_scored: int
    mp_conceded: int
    rest: bool = False


def player_results(lines: Iterable[GameResult], members: Mapping[PlayerId, Sequence[PlayerId]]) -> list[PlayerResult]:
    """Per-player results from line results.

    ``lines``: :class:`scoring.standings.GameResult` rows whose ``ns``/``ew`` are line ids
    (a rest: ``ew`` None, the rest VP/MP in ``vp_ns``/``mp_ns``); ``members``: line id → its
    players (two, or one for a rest). Each player of a line gets that line's VP and MP:
    e.g. N/S 3+7 score 1250 MP to E/W's 850 and 15 VP: players 3 and 7 each get 15 VP,
    1250 MP scored, 850 conceded (rules.md §9).
    """
    out: list[PlayerResult] = []
    for g in lines:
        if g.ew is None:
            out.extend(PlayerResult(g.round, p, g.vp_ns, g.mp_ns, 0, rest=True) for p in members.get(g.ns, ()))
            continue
        # conceded = scored − difference: the opponents' MP, or what makes a lateness
        # forfeit's own MP difference (rules.md §22, ``GameResult.diff_ns``)
        out.extend(PlayerResult(g.round, p, g.vp_ns, g.mp_ns, g.mp_ns - g.difference_ns) for p in members.get(g.ns, ()))
        out.extend(PlayerResult(g.round, p, g.vp_ew, g.mp_ew, g.mp_ew - g.difference_ew) for p in members.get(g.ew, ()))
    return out


def individual_standings(
    players: Iterable[PlayerId],
    results: Iterable[PlayerResult],
    penalties: Iterable[Penalty] = (),
    tiebreaks: Sequence[str] = INDIVIDUAL_TIEBREAKS,
    withdrawn: Iterable[PlayerId] = (),
) -> list[StandingRow]:
    """Rank the players of an individual tournament (rules.md §9 with §8 per player).

    ``players``: every player (their order lists players tied on every key); ``results``:
    :class:`PlayerResult` rows; ``penalties``: :class:`scoring.standings.Penalty` rows whose
    ``pair`` is the player id (VP off the total VP, MP off MP difference and MP scored);
    ``tiebreaks``: keys among ``vp``, ``mp_difference``, ``mp_scored`` (``head_to_head`` is
    ignored: it does not apply to individuals). Returns one
    :class:`scoring.standings.StandingRow` per player (``pair`` = the player id), best first;
    players tied on every key share the position ("3="). Raises ``ValueError`` for a result
    or penalty naming an unknown player.
    """
    keys = tuple(k for k in tiebreaks if k != "head_to_head")
    unknown = [k for k in keys if k not in INDIVIDUAL_TIEBREAKS]
    if unknown:
        raise ValueError(f"Unknown tie-break key(s) {unknown}; expected some of {INDIVIDUAL_TIEBREAKS}")
    stats: dict[PlayerId, _Stats] = {}
    for order, player in enumerate(players):
        if player in stats:
            raise ValueError(f"Player {player!r} listed twice")
        stats[player] = _Stats(player, order)
    for r in results:
        s = stats.get(r.player)
        if s is None:
            raise ValueError(f"Result of round {r.round} names unknown player {r.player!r}")
        s.vp += r.vp
        s.mp_scored += r.mp_scored
        s.mp_difference += r.mp_scored - r.mp_conceded
        s.played += 1
        s.rests += 1 if r.rest else 0
    for p in penalties:
        s = stats.get(p.pair)
        if s is None:
            raise ValueError(f"Penalty names unknown player {p.pair!r}")
        amount = abs(p.vp)
        s.penalty += amount
        s.vp -= amount
        mp = abs(int(p.mp))
        s.penalty_mp += mp
        s.mp_difference -= mp
        s.mp_scored -= mp
    groups = _Ranker([]).rank(list(stats.values()), keys)
    withdrawn_set = set(withdrawn)
    rows: list[StandingRow] = []
    position = 1
    for group in groups:
        for s in group:
            rows.append(StandingRow(
                position=position, pair=s.pair, vp=s.vp, penalty=s.penalty,
                mp_difference=s.mp_difference, mp_scored=s.mp_scored, played=s.played,
                rests=s.rests, tied=len(group) > 1, withdrawn=s.pair in withdrawn_set,
                penalty_mp=s.penalty_mp,
            ))
        position += len(group)
    return rows
