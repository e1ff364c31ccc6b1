"""Reads of penalties as the standings count them (rules.md §3, art. 23)."""
from __future__ import annotations

import dataclasses
from decimal import Decimal

from ..models import Penalty, Tournament


@dataclasses.dataclass(frozen=True)
class PenaltyEntry:
    """One penalty as the standings count it: pair number (a player's in an individual
    tournament, a team's in a team tournament), VP or MP deducted (positive; the other kind
    0), reason, the round it belongs to (rules.md §3, art. 23)."""

    pair: int
    vp: Decimal
    mp: int
    reason: str
    round_number: int


def split_penalties(tournament: Tournament, entrant: str, after_round: int | None,
                    last: int | None) -> tuple[list[PenaltyEntry], list[PenaltyEntry]]:
    """(counted, pending) penalties of ``entrant`` ("pair", "player" or "team", the
    ``Penalty`` field; ``PenaltyEntry.pair`` is then that entrant's number), by number then
    as given: counted when their round is ≤ ``after_round``, pending when it is after the
    last closed round ``last`` (rules.md §3, art. 23; a penalty without a round counts from
    round 1)."""
    rows = (Penalty.objects.filter(tournament=tournament, **{f"{entrant}__isnull": False})
            .order_by(f"{entrant}__number", "created_at", "id")
            .values_list(f"{entrant}__number", "vp", "mp", "reason", "round_number"))
    return split_penalty_rows(rows, after_round, last)


def pair_penalty_rows(tournament_ids) -> dict[int, list[tuple]]:
    """Tournament id → its pairs' penalties as :func:`split_penalty_rows` takes them
    (``(pair number, vp, mp, reason, round number)``, in :func:`split_penalties`' order), for
    many tournaments in one query; a tournament without any is absent."""
    out: dict[int, list[tuple]] = {}
    for tid, *row in (Penalty.objects.filter(tournament_id__in=list(tournament_ids), pair__isnull=False)
                      .order_by("tournament_id", "pair__number", "created_at", "id")
                      .values_list("tournament_id", "pair__number", "vp", "mp", "reason", "round_number")):
        out.setdefault(tid, []).append(tuple(row))
    return out


def split_penalty_rows(rows, after_round: int | None, last: int | None) -> tuple[list[PenaltyEntry], list[PenaltyEntry]]:
    """:func:`split_penalties` of rows already read: ``(number, vp, mp, reason, round
    number)`` in order; a penalty without a round counts from round 1 (rules.md §3, art. 23)."""
    counted, pending = [], []
    for number, vp, mp, reason, rnd in rows:
        entry = PenaltyEntry(pair=number, vp=vp, mp=mp, reason=reason, round_number=rnd or 1)
        if after_round is not None and entry.round_number <= after_round:
            counted.append(entry)
        elif last is None or entry.round_number > last:
            pending.append(entry)
    return counted, pending
