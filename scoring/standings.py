"""Standings (*classifica*) with a configurable tie-break chain, rules.md §8.

Plain values in, plain values out: the services turn validated sheets into
:class:`GameResult` rows and arbiter penalties into :class:`Penalty` rows.

Default order (each step a tournament setting, :data:`TIEBREAKS`):

1. ``"vp"`` — total VP, VP penalties deducted;
2. ``"mp_difference"`` — total MP difference (*scarto*: own MP − opponents' MP), MP penalties
   deducted;
3. ``"head_to_head"`` — VP earned in the games between the tied pairs, applied only when
   every pair of the tied group met every other one (otherwise the step is skipped);
4. ``"mp_scored"`` — total MP scored, MP penalties deducted;
5. still tied: shared position, printed "3=" (the next position skips: 3=, 3=, 5).
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from itertools import groupby
from typing import Iterable, Sequence

__all__ = [
    "PairId",
    "GameResult",
    "Penalty",
    "StandingRow",
    "TIEBREAKS",
    "compute_standings",
]

PairId = int | str

TIEBREAKS: tuple[str, ...] = ("vp", "mp_difference", "head_to_head", "mp_scored")
"""Default tie-break order (rules.md §8). Any subset, in any order, is a valid setting."""

_KNOWN_KEYS = frozenset(TIEBREAKS)


@dataclass(frozen=True)
class GameResult:
    """One pair-vs-pair result of one round (MP and VP of each line).

    For a rest (*riposo*, rules.md §5, seed code art. 33; forced rest art. 32): ``ns`` is the
    resting pair, ``ew`` is None, ``vp_ns`` is the rest VP (:func:`scoring.vp.rest_vp`),
    ``mp_ns`` the MP credited (:func:`scoring.vp.rest_mp`, 0 by default), which count both as
    MP scored and as MP difference; ``mp_ew`` and ``vp_ew`` are ignored (use 0).

    ``diff_ns`` / ``diff_ew``: each line's MP difference when it is not the gap between the
    two lines' MP (None: ``mp_ns - mp_ew`` and its opposite). A match forfeited for lateness
    (rules.md §22) gives each line the lower edge of its own VP band: in four-hand rounds the
    present line +305 (12 VP) and the late line −705 (6 VP), which one MP gap cannot give.
    """

    round: int
    ns: PairId
    ew: PairId | None
    mp_ns: int
    mp_ew: int
    vp_ns: Decimal | int
    vp_ew: Decimal | int
    diff_ns: int | None = None
    diff_ew: int | None = None

    @property
    def is_rest(self) -> bool:
        return self.ew is None

    @property
    def difference_ns(self) -> int:
        """The N/S line's MP difference (``diff_ns``, else ``mp_ns - mp_ew``)."""
        return self.mp_ns - self.mp_ew if self.diff_ns is None else self.diff_ns

    @property
    def difference_ew(self) -> int:
        """The E/W line's MP difference (``diff_ew``, else ``mp_ew - mp_ns``)."""
        return self.mp_ew - self.mp_ns if self.diff_ew is None else self.diff_ew


@dataclass(frozen=True)
class Penalty:
    """VP or MP taken off a pair in the overall standings (rules.md §3; art. 23: "1 V.P. o
    equivalente").

    ``vp`` is the VP deducted (write 1 for "−1 VP"; a negative number is read as the same
    deduction). ``mp`` is the MP deducted (an integer, sign ignored likewise): it lowers the
    pair's MP difference and MP scored, never the table's result, so the opponents' MP and
    VP do not change. Either kind gives nothing to the opponents. ``round``: the round it
    belongs to; standings ``after_round`` an earlier round ignore it (None = always counted).
    """

    pair: PairId
    vp: Decimal | int = 0
    reason: str = ""
    round: int | None = None
    mp: int = 0


@dataclass(frozen=True)
class StandingRow:
    """One line of the standings.

    ``vp``: total VP after penalties; ``penalty``: VP deducted (a positive number);
    ``mp_difference`` / ``mp_scored``: MP, after MP penalties; ``penalty_mp``: MP deducted
    (a positive integer); ``played``: rounds with a result, rests included;
    ``rests``: rounds rested; ``tied``: shares its position; ``withdrawn``: the pair left the
    tournament (its results stay).
    """

    position: int
    pair: PairId
    vp: Decimal
    penalty: Decimal
    mp_difference: int
    mp_scored: int
    played: int
    rests: int
    tied: bool
    withdrawn: bool
    penalty_mp: int = 0

    @property
    def position_label(self) -> str:
        """``"3"``, or ``"3="`` for a shared position."""
        return f"{self.position}=" if self.tied else str(self.position)


class _Stats:
    __slots__ = ("pair", "vp", "penalty", "penalty_mp", "mp_difference", "mp_scored", "played", "rests", "order")

    def __init__(self, pair: PairId, order: int):
        self.pair = pair
        self.order = order
        self.vp = Decimal(0)
        self.penalty = Decimal(0)
        self.penalty_mp = 0
        self.mp_difference = 0
        self.mp_scored = 0
        self.played = 0
        self.rests = 0


def compute_standings(
    pairs: Iterable[PairId],
    results: Iterable[GameResult],
    penalties: Iterable[Penalty] = (),
    tiebreaks: Sequence[str] = TIEBREAKS,
    withdrawn: Iterable[PairId] = (),
    after_round: int | None = None,
) -> list[StandingRow]:
    """Rank the pairs (rules.md §8).

    ``pairs``: every pair of the tournament (withdrawn ones included); their order is the
    order in which pairs tied on every key are listed. ``results``: :class:`GameResult` rows
    (MP, VP); ``penalties``: :class:`Penalty` rows (VP and/or MP: VP come off the total VP,
    MP off both MP difference and MP scored, so they act on those tie-breaks); ``tiebreaks``: keys of
    :data:`TIEBREAKS` in the order to apply them; ``withdrawn``: pairs marked as withdrawn
    (they keep their results and their place); ``after_round``: ignore results (and
    penalties with a round) of later rounds — the standings a Danish round is paired from.

    Head-to-head: among a group tied on the previous keys, the VP each earned in games against
    the other members, only if every member met every other; after a head-to-head split the
    sub-groups continue with the following keys. Pairs tied on every key share the position
    (``tied`` = True, label "3="); the next position skips.

    Returns one :class:`StandingRow` per pair, best first. Raises ``ValueError`` for an unknown
    tie-break key or a result/penalty naming a pair not in ``pairs``.
    """
    tiebreaks = tuple(tiebreaks)
    unknown = [key for key in tiebreaks if key not in _KNOWN_KEYS]
    if unknown:
        raise ValueError(f"Unknown tie-break key(s) {unknown}; expected some of {TIEBREAKS}")
    if len(set(tiebreaks)) != len(tiebreaks):
        raise ValueError(f"Repeated tie-break key in {tiebreaks}")

    stats: dict[PairId, _Stats] = {}
    for order, pair in enumerate(pairs):
        if pair in stats:
            raise ValueError(f"Pair {pair!r} listed twice")
        stats[pair] = _Stats(pair, order)

    games: list[GameResult] = []
    for result in results:
        if after_round is not None and result.round > after_round:
            continue
        try:
            ns = stats[result.ns]
            if result.ew is None:
                ns.vp += result.vp_ns
                ns.mp_scored += result.mp_ns
                ns.mp_difference += result.mp_ns
                ns.played += 1
                ns.rests += 1
                continue
            ew = stats[result.ew]
        except KeyError as exc:
            raise ValueError(f"Result of round {result.round} names unknown pair {exc.args[0]!r}") from None
        ns.vp += result.vp_ns
        ew.vp += result.vp_ew
        ns.mp_scored += result.mp_ns
        ew.mp_scored += result.mp_ew
        ns.mp_difference += result.difference_ns
        ew.mp_difference += result.difference_ew
        ns.played += 1
        ew.played += 1
        games.append(result)

    for penalty in penalties:
        if after_round is not None and penalty.round is not None and penalty.round > after_round:
            continue
        if penalty.pair not in stats:
            raise ValueError(f"Penalty names unknown pair {penalty.pair!r}")
        pair = stats[penalty.pair]
        amount = abs(penalty.vp)
        pair.penalty += amount
        pair.vp -= amount
        mp = abs(int(penalty.mp))
        pair.penalty_mp += mp
        pair.mp_difference -= mp
        pair.mp_scored -= mp

    ranker = _Ranker(games)
    groups = ranker.rank(list(stats.values()), tiebreaks)

    withdrawn_set = set(withdrawn)
    rows: list[StandingRow] = []
    position = 1
    for group in groups:
        tied = len(group) > 1
        for s in group:
            rows.append(
                StandingRow(
                    position=position,
                    pair=s.pair,
                    vp=s.vp,
                    penalty=s.penalty,
                    mp_difference=s.mp_difference,
                    mp_scored=s.mp_scored,
                    played=s.played,
                    rests=s.rests,
                    tied=tied,
                    withdrawn=s.pair in withdrawn_set,
                    penalty_mp=s.penalty_mp,
                )
            )
        position += len(group)
    return rows


class _Ranker:
    """Splits pairs into ordered groups of equals along a tie-break chain."""

    def __init__(self, games: list[GameResult]):
        self._games = games
        self._h2h: dict[tuple[PairId, PairId], Decimal] | None = None

    def _meetings(self) -> dict[tuple[PairId, PairId], Decimal]:
        """(a, b) → VP a earned against b, over all their games. Built on first need."""
        if self._h2h is None:
            h2h: dict[tuple[PairId, PairId], Decimal] = {}
            for g in self._games:
                key = (g.ns, g.ew)
                h2h[key] = h2h.get(key, 0) + g.vp_ns
                key = (g.ew, g.ns)
                h2h[key] = h2h.get(key, 0) + g.vp_ew
            self._h2h = h2h
        return self._h2h

    def rank(self, group: list[_Stats], keys: tuple[str, ...]) -> list[list[_Stats]]:
        if len(group) <= 1:
            return [group]
        if not keys:
            group.sort(key=lambda s: s.order)
            return [group]
        key, rest = keys[0], keys[1:]
        if key == "head_to_head":
            scores = self._head_to_head(group)
            if scores is None:
                return self.rank(group, rest)
            value = scores.__getitem__
            group.sort(key=lambda s: -scores[s.pair])
            split = [list(g) for _, g in groupby(group, key=lambda s: value(s.pair))]
        else:
            attr = key  # "vp", "mp_difference", "mp_scored" are _Stats attributes
            group.sort(key=lambda s: -getattr(s, attr))
            split = [list(g) for _, g in groupby(group, key=lambda s: getattr(s, attr))]
        ordered: list[list[_Stats]] = []
        for sub in split:
            ordered.extend(self.rank(sub, rest))
        return ordered

    def _head_to_head(self, group: list[_Stats]) -> dict[PairId, Decimal] | None:
        """VP each member earned against the others, or None if not all of them met."""
        meetings = self._meetings()
        members = [s.pair for s in group]
        scores: dict[PairId, Decimal] = {}
        for a in members:
            total = Decimal(0)
            for b in members:
                if a is b or a == b:
                    continue
                vp = meetings.get((a, b))
                if vp is None:
                    return None
                total += vp
            scores[a] = total
        return scores
