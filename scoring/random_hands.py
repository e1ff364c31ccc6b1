"""Random but realistic hands for simulations and demos (rules.md §2).

Pure: a ``random.Random`` in, :class:`scoring.hands.HandDetail` values out; every score is
computed by :func:`scoring.hands.hand_score`, so it follows the rules (multiples of 5, base +
cards, closing +100, pot not taken −100). Typical line scores run from about −400 to +1600 MP.

The shape of a hand: usually one line goes out (*chiusura*) with one to four burraco; the
other line has zero to three burraco, cards left in hand and, now and then, a pot it never
took (−100) or took but did not play (its cards subtracted). About one hand in twelve ends
with the stock exhausted and nobody closing.
"""
from __future__ import annotations

import random
from dataclasses import dataclass

from .hands import RULE_SETS, HandDetail, hand_base, hand_cards

__all__ = ["LineHand", "random_line_details", "random_hand"]

_KIND_WEIGHTS = {
    "clean": 45,
    "dirty": 55,
    "semi_clean": 12,
    "royal": 2,
    "super_burraco": 4,
}


@dataclass(frozen=True)
class LineHand:
    """One line's hand: its detail and its base, cards and total (MP, multiples of 5)."""

    detail: HandDetail
    base: int
    cards: int

    @property
    def score(self) -> int:
        return self.base + self.cards


def _points(rng: random.Random, low: int, high: int) -> int:
    """A card value between ``low`` and ``high`` MP, a multiple of 5."""
    return 5 * rng.randint(low // 5, high // 5)


def _line(rng: random.Random, *, closes: bool, somebody_closed: bool, rule_set: str) -> HandDetail:
    if closes:
        burraco = rng.choices([1, 2, 3, 4], weights=[30, 40, 22, 8])[0]
        pot = "taken"
    else:
        burraco = rng.choices([0, 1, 2, 3], weights=[32, 40, 21, 7])[0]
        roll = rng.random()
        if somebody_closed and roll < 0.10:
            pot = "not_taken"
        elif somebody_closed and roll < 0.16:
            pot = "not_played"
        else:
            pot = "taken"
        if pot == "not_taken":
            burraco = 0
    kinds = [k for k in _KIND_WEIGHTS if k in RULE_SETS[rule_set]]
    counts = dict.fromkeys(_KIND_WEIGHTS, 0)
    for _ in range(burraco):
        counts[rng.choices(kinds, weights=[_KIND_WEIGHTS[k] for k in kinds])[0]] += 1
    # Every burraco holds 7+ cards (50–110 points); other melds add up to 150.
    on_table = sum(_points(rng, 50, 110) for _ in range(burraco)) + _points(rng, 0, 150)
    if closes:
        in_hand = 0
    elif pot == "not_taken":
        in_hand = _points(rng, 30, 200)
    else:
        in_hand = _points(rng, 5, 120)
    return HandDetail(
        clean=counts["clean"], dirty=counts["dirty"], semi_clean=counts["semi_clean"],
        royal=counts["royal"], super_burraco=counts["super_burraco"], closing=closes, pot=pot,
        pot_cards=_points(rng, 55, 150) if pot == "not_played" else 0,
        cards_on_table=on_table, cards_in_hand=in_hand,
    )


def random_line_details(rng: random.Random, rule_set: str = "fibur") -> tuple[HandDetail, HandDetail]:
    """(N/S detail, E/W detail) of one random hand under ``rule_set`` ("fibur" or "fgb").

    At most one line closes. Raises ``KeyError`` for an unknown rule set.
    """
    RULE_SETS[rule_set]
    closer = None if rng.random() < 0.08 else rng.randrange(2)
    return tuple(  # type: ignore[return-value]
        _line(rng, closes=closer == line, somebody_closed=closer is not None, rule_set=rule_set)
        for line in (0, 1)
    )


def random_hand(rng: random.Random, rule_set: str = "fibur") -> tuple[LineHand, LineHand]:
    """One random hand as (N/S, E/W) :class:`LineHand`, scored by ``scoring.hands`` (rules.md §2)."""
    return tuple(  # type: ignore[return-value]
        LineHand(detail=d, base=hand_base(d, rule_set), cards=hand_cards(d))
        for d in random_line_details(rng, rule_set)
    )
