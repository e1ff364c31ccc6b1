"""The hand calculator: one line's score for one hand (*smazzata*), rules.md §2.

A line's hand score = **base** + **cards**:

- base: each burraco on the table — clean (*pulito*) 200, dirty (*sporco*) 100 and, where the
  rule set allows them, semi-clean (*semipulito*) 150, royal (*reale*) 300, super 250;
  closing (*chiusura*) +100; pot (*pozzetto*) not taken −100.
- cards: value of the cards melded on the table − value of the cards left in hand − value of a
  pot taken but not played.

Closing (*chiusura*): the line that closes must have taken its pot (a pot taken but not
played does not forbid it) and have at least one burraco; the cards still in the partner's
hand count against it like any cards in hand. Only one line closes in a hand
(:func:`hand_scores`, :func:`check_single_closing`). A pot not played is worth 55 to 260.

Rule sets (a tournament setting): ``"fibur"`` (default; clean and dirty only) and ``"fgb"``
(adds semi-clean, royal and super). Card values (jolly 30, pinella 20, ace 15, K–8 10,
7–3 5) are all multiples of 5, so every card total and every hand score is too.

Worked examples (computed by hand):

>>> # FIBUR: 1 clean + 1 dirty, closing; 185 melded, nothing in hand
>>> # base 200 + 100 + 100 = 400; cards 185 → 585
>>> hand_score(HandDetail(clean=1, dirty=1, closing=True, cards_on_table=185))
585
>>> # the other line: 1 dirty, pot taken; 95 melded, 40 in hand → base 100, cards 55 → 155
>>> hand_score(HandDetail(dirty=1, cards_on_table=95, cards_in_hand=40))
155
>>> # pot not taken: no burraco, 60 melded, 35 in hand → base −100, cards 25 → −75
>>> hand_score(HandDetail(pot="not_taken", cards_on_table=60, cards_in_hand=35))
-75
>>> # pot taken but not played (worth 70): 1 dirty, 120 melded, 20 in hand
>>> # base 100; cards 120 − 20 − 70 = 30 → 130
>>> hand_score(HandDetail(dirty=1, pot="not_played", pot_cards=70, cards_on_table=120, cards_in_hand=20))
130
>>> # FGB: 1 royal + 1 semi-clean + 1 super, closing; 310 melded
>>> # base 300 + 150 + 250 + 100 = 800; cards 310 → 1110
>>> hand_score(HandDetail(royal=1, semi_clean=1, super_burraco=1, closing=True, cards_on_table=310), "fgb")
1110
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

__all__ = [
    "HandDetail",
    "HandError",
    "RULE_SETS",
    "BURRACO_VALUES",
    "CLOSING_BONUS",
    "POT_NOT_TAKEN_PENALTY",
    "hand_base",
    "hand_cards",
    "hand_score",
    "hand_scores",
    "check_single_closing",
    "check_hand_score",
]

PotState = Literal["taken", "not_taken", "not_played"]
POT_STATES = ("taken", "not_taken", "not_played")

BURRACO_VALUES = {
    "clean": 200,
    "dirty": 100,
    "semi_clean": 150,
    "royal": 300,
    "super_burraco": 250,
}
CLOSING_BONUS = 100
POT_NOT_TAKEN_PENALTY = -100
POT_NOT_PLAYED_MIN = 55
POT_NOT_PLAYED_MAX = 260
"""A pot taken but not played counts minus its 11 cards (rules.md §2): from eleven 3–7
(11 × 5 = 55) to 4 jolly and 7 pinelle (4 × 30 + 7 × 20 = 260)."""

RULE_SETS: dict[str, frozenset[str]] = {
    "fibur": frozenset({"clean", "dirty"}),
    "fgb": frozenset(BURRACO_VALUES),
}
"""Burraco kinds each rule set counts (rules.md §2)."""

_KIND_NAMES = {
    "clean": "pulito",
    "dirty": "sporco",
    "semi_clean": "semipulito",
    "royal": "reale",
    "super_burraco": "super",
}


class HandError(ValueError):
    """A hand entry the captain or the arbiter must correct (Italian message)."""


@dataclass
class HandDetail:
    """What one line shows at the end of a hand (rules.md §2).

    Counts of burraco by kind; ``closing``: this line went out; ``pot``: ``"taken"``,
    ``"not_taken"`` (−100) or ``"not_played"`` (taken but the hand ended before it was
    played: its ``pot_cards`` value is subtracted); ``cards_on_table`` / ``cards_in_hand``:
    card values (points, multiples of 5).
    """

    clean: int = 0
    dirty: int = 0
    semi_clean: int = 0
    royal: int = 0
    super_burraco: int = 0
    closing: bool = False
    pot: PotState = "taken"
    pot_cards: int = 0
    cards_on_table: int = 0
    cards_in_hand: int = 0


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check(detail: HandDetail, rule_set: str) -> None:
    if rule_set not in RULE_SETS:
        raise HandError(f"Regolamento sconosciuto: «{rule_set}» (ammessi: {', '.join(RULE_SETS)})")
    problems: list[str] = []
    allowed = RULE_SETS[rule_set]
    burraco_count = 0
    for kind in BURRACO_VALUES:
        count = getattr(detail, kind)
        name = _KIND_NAMES[kind]
        if not _is_int(count) or count < 0:
            problems.append(f"Numero di burraco {name} non valido: {count!r}")
            continue
        burraco_count += count
        if count and kind not in allowed:
            problems.append(f"Il regolamento {rule_set.upper()} non prevede il burraco {name}")
    if detail.pot not in POT_STATES:
        problems.append(f"Stato del pozzetto non valido: {detail.pot!r}")
    for field, name in (
        ("cards_on_table", "carte sul tavolo"),
        ("cards_in_hand", "carte in mano"),
        ("pot_cards", "carte del pozzetto"),
    ):
        value = getattr(detail, field)
        if not _is_int(value) or value < 0:
            problems.append(f"Valore delle {name} non valido: {value!r}")
        elif value % 5:
            problems.append(f"Valore delle {name}: {value} non è multiplo di 5")
    if detail.pot_cards and detail.pot != "not_played":
        problems.append("Il valore del pozzetto si indica solo se il pozzetto è stato preso ma non giocato")
    if (detail.pot == "not_played" and _is_int(detail.pot_cards)
            and not POT_NOT_PLAYED_MIN <= detail.pot_cards <= POT_NOT_PLAYED_MAX):
        problems.append(
            f"Un pozzetto preso ma non giocato vale da {POT_NOT_PLAYED_MIN} a {POT_NOT_PLAYED_MAX} "
            f"(le sue 11 carte), non {detail.pot_cards}"
        )
    if detail.closing:
        # Cards left in the partner's hand are allowed: they count against the closing line
        # (cards_in_hand). A pot taken but not played does not forbid closing either.
        if detail.pot == "not_taken":
            problems.append("Non si può chiudere senza aver preso il pozzetto")
        if burraco_count == 0:
            problems.append("Non si può chiudere senza almeno un burraco")
    if problems:
        raise HandError("; ".join(problems))


def hand_base(detail: HandDetail, rule_set: str = "fibur") -> int:
    """The base (*onori*) of one line's hand, in MP (rules.md §2).

    Burraco values (clean 200, dirty 100; with ``"fgb"`` also semi-clean 150, royal 300,
    super 250) + closing 100 − 100 if the pot was not taken.

    Raises :class:`HandError` (Italian) for a burraco kind the rule set does not allow, negative
    or non-integer counts, card values that are not multiples of 5, a pot not played worth
    less than 55 or more than 260, or an impossible closing (pot not taken, no burraco).
    Cards left in the partner's hand do not forbid closing: they count against the line.

    >>> hand_base(HandDetail(clean=2, dirty=1, closing=True))  # 400 + 100 + 100
    600
    >>> hand_base(HandDetail(semi_clean=1))
    Traceback (most recent call last):
    ...
    scoring.hands.HandError: Il regolamento FIBUR non prevede il burraco semipulito
    """
    _check(detail, rule_set)
    base = sum(getattr(detail, kind) * value for kind, value in BURRACO_VALUES.items())
    if detail.closing:
        base += CLOSING_BONUS
    if detail.pot == "not_taken":
        base += POT_NOT_TAKEN_PENALTY
    return base


def hand_cards(detail: HandDetail) -> int:
    """The card points (*punti carte*) of one line's hand, in MP (rules.md §2).

    Cards melded − cards in hand − the pot's cards when it was taken but not played.
    Raises :class:`HandError` for values that are negative or not multiples of 5.

    >>> hand_cards(HandDetail(cards_on_table=120, cards_in_hand=20, pot="not_played", pot_cards=70))
    30
    """
    _check(detail, "fgb")  # card checks only; the burraco kinds are checked by hand_base
    cards = detail.cards_on_table - detail.cards_in_hand
    if detail.pot == "not_played":
        cards -= detail.pot_cards
    return cards


def hand_score(detail: HandDetail, rule_set: str = "fibur") -> int:
    """One line's hand score in MP: :func:`hand_base` + :func:`hand_cards` (rules.md §2).

    Always a multiple of 5, may be negative. Raises :class:`HandError`.
    """
    return hand_base(detail, rule_set) + hand_cards(detail)


def check_single_closing(ns_closing: bool, ew_closing: bool) -> None:
    """Refuse a hand in which both lines close (rules.md §2: only one line closes in a hand).

    Raises :class:`HandError` ("Una sola linea chiude la smazzata").
    """
    if ns_closing and ew_closing:
        raise HandError("Una sola linea chiude la smazzata: N/S ed E/O non possono chiudere entrambe")


def hand_scores(ns: HandDetail, ew: HandDetail, rule_set: str = "fibur") -> tuple[int, int]:
    """Both lines' hand scores in MP, ``(ns, ew)``, for one hand (rules.md §2).

    Each line is checked as in :func:`hand_score`; in addition only one line may close.
    Raises :class:`HandError`.

    >>> # N/S close: clean 200 + closing 100, 200 melded, 45 left in the partner's hand → 455
    >>> # E/O: 1 dirty, 110 melded, 60 in hand → 100 + 50 = 150
    >>> hand_scores(HandDetail(clean=1, closing=True, cards_on_table=200, cards_in_hand=45),
    ...             HandDetail(dirty=1, cards_on_table=110, cards_in_hand=60))
    (455, 150)
    """
    check_single_closing(ns.closing, ew.closing)
    return hand_score(ns, rule_set), hand_score(ew, rule_set)


def check_hand_score(value: int) -> int:
    """Return ``value`` if it is a valid hand score (an integer multiple of 5, any sign).

    Raises :class:`HandError` ("Il punteggio 123 non è multiplo di 5"). rules.md §2.
    """
    if not _is_int(value):
        raise HandError(f"Il punteggio {value!r} non è un numero intero")
    if value % 5:
        raise HandError(f"Il punteggio {value} non è multiplo di 5")
    return value
