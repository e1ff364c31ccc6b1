"""Score-sheet arithmetic: totals, sum check, swapped lines (rules.md §3, FIBUR art. 19–20,
seed code art. 30–31).

Plain values only. A sheet is a sequence of :class:`HandScore` (one per hand, N/S and E/W
scores in MP); :func:`sheet_totals` sums the lines, converts the difference to VP with the
tournament's scale (§4) and compares the totals declared at the table with the sum of the
hands (*errore di somma*).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

from scoring.messages import Message
from scoring.vp import VPScale, VPValue, convert

__all__ = [
    "MAX_HAND_MP",
    "HandScore",
    "hand_value_problems",
    "SheetTotals",
    "SheetError",
    "sheet_totals",
    "swap_lines",
    "swap_declared",
]

LINE_NAMES = {"ns": "N/S", "ew": "E/O"}

#: The largest hand score accepted, in MP, either sign: |hand| ≤ 10,000 MP.
#: A real Burraco hand stays far below it (a few thousand MP at most); the bound keeps a typo
#: or a forged request (10^30) from reaching the database's 32-bit integer fields. A declared
#: total is bounded accordingly: |total| ≤ 10,000 MP × the number of hands. The base/cards
#: parts of a hand obey the same per-hand bound.
MAX_HAND_MP = 10_000


class SheetError(ValueError):
    """A score sheet that cannot be accepted as entered. ``messages``: every problem, Italian,
    with the hand number ("Smazzata 3, linea E/O: 123 non è multiplo di 5"); each is a
    :class:`scoring.messages.Message` with a ``code`` and ``params`` for translation."""

    def __init__(self, messages: list[str] | str):
        if isinstance(messages, str):  # one message (a plain str or a Message)
            messages = [messages]
        self.messages: list[str] = list(messages)
        super().__init__("; ".join(self.messages))


@dataclass(frozen=True)
class HandScore:
    """One hand's scores in MP: ``ns`` for the N/S line, ``ew`` for E/W (multiples of 5, may
    be negative). The optional base/cards split (for printing) does not take part in equality.
    """

    ns: int
    ew: int
    ns_base: int | None = field(default=None, compare=False)
    ns_cards: int | None = field(default=None, compare=False)
    ew_base: int | None = field(default=None, compare=False)
    ew_cards: int | None = field(default=None, compare=False)

    @classmethod
    def from_parts(cls, ns_base: int, ns_cards: int, ew_base: int, ew_cards: int) -> "HandScore":
        """A hand entered as base + cards for each line (rules.md §2); totals are the sums."""
        return cls(
            ns=ns_base + ns_cards,
            ew=ew_base + ew_cards,
            ns_base=ns_base,
            ns_cards=ns_cards,
            ew_base=ew_base,
            ew_cards=ew_cards,
        )

    def swapped(self) -> "HandScore":
        """The same hand with the N/S and E/W lines exchanged."""
        return HandScore(self.ew, self.ns, self.ew_base, self.ew_cards, self.ns_base, self.ns_cards)


@dataclass(frozen=True)
class SheetTotals:
    """The result of one table (rules.md §3–4).

    ``mp_ns``/``mp_ew``: sums of the hands (MP); ``difference``: ``mp_ns − mp_ew`` (signed);
    ``vp_ns``/``vp_ew``: the scale's split; ``sum_error``: the declared totals differ from the
    sums (*errore di somma*: the arbiter decides; the sums are used meanwhile);
    ``declared_ns``/``declared_ew``: the totals written at the table, or None.
    """

    mp_ns: int
    mp_ew: int
    difference: int
    vp_ns: VPValue
    vp_ew: VPValue
    sum_error: bool
    declared_ns: int | None
    declared_ew: int | None

    def sum_error_messages(self) -> list[str]:
        """One Italian message per line whose declared total differs from the sum, both
        figures included ("Errore di somma, linea N/S: dichiarato 1200, somma delle smazzate
        1250")."""
        messages = []
        for line, declared, computed in (
            ("ns", self.declared_ns, self.mp_ns),
            ("ew", self.declared_ew, self.mp_ew),
        ):
            if declared is not None and declared != computed:
                messages.append(Message(
                    "sheet.sum_error",
                    "Errore di somma, linea %(line)s: dichiarato %(declared)s, somma delle smazzate %(sum)s",
                    line=line, declared=declared, sum=computed,
                ))
        return messages


def _short(value) -> str:
    shown = str(value)
    return shown[:12] + "…" if len(shown) > 12 else shown


def out_of_bounds(where: str, value: int, bound: int, *, hand: int | None = None, line: str = "") -> Message:
    """The Italian refusal of a value beyond ``±bound`` MP; a huge value is shortened so the
    message stays readable ("Smazzata 1, linea N/S: 1000000000000… è fuori dai limiti").
    ``hand`` (number) and ``line`` ("ns"/"ew") give it a translatable code; without them
    ``where`` is kept as given (code ``"sheet.out_of_bounds"``)."""
    tail = "è fuori dai limiti (al massimo %(bound)s MP in valore assoluto)"
    if hand is not None:
        return Message("sheet.hand_out_of_bounds", "Smazzata %(hand)s, linea %(line)s: %(value)s " + tail,
                       hand=hand, line=line, value=_short(value), bound=bound)
    if line:
        return Message("sheet.declared_out_of_bounds", "Totale dichiarato, linea %(line)s: %(value)s " + tail,
                       line=line, value=_short(value), bound=bound)
    return Message("sheet.out_of_bounds", "%(where)s: %(value)s " + tail, where=where, value=_short(value),
                   bound=bound)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def hand_value_problems(hand: int, line: str, value) -> list[Message]:
    """What is wrong with one hand score (rules.md §2: an integer multiple of 5 MP, at most
    ±:data:`MAX_HAND_MP`): ``hand`` (1-based number), ``line`` (``"ns"``/``"ew"``), ``value``
    (MP). An empty list when it is fine; :func:`sheet_totals` and the entry pages use it so
    one answer names every wrong value."""
    if not _is_int(value):
        return [Message("sheet.hand_not_integer", "Smazzata %(hand)s, linea %(line)s: %(value)s non è un numero intero",
                        hand=hand, line=line, value=repr(value))]
    if abs(value) > MAX_HAND_MP:
        return [out_of_bounds("", value, MAX_HAND_MP, hand=hand, line=line)]
    if value % 5:
        return [Message("sheet.hand_not_multiple", "Smazzata %(hand)s, linea %(line)s: %(value)s non è multiplo di 5",
                        hand=hand, line=line, value=value)]
    return []


def sheet_totals(
    hands: Sequence[HandScore],
    scale: VPScale,
    declared: tuple[int | None, int | None] | None = None,
    expected_hands: int | None = None,
) -> SheetTotals:
    """Total a score sheet and convert it to VP (rules.md §3–4; FIBUR art. 19–20).

    ``hands``: one :class:`HandScore` per hand, in order (MP). ``scale``: the tournament's VP
    scale. ``declared``: ``(ns, ew)`` totals as written at the table (either may be None);
    when one differs from the sum of the hands, ``sum_error`` is set and both figures are kept
    (``declared_*`` and ``mp_*``). A declared total that is not a multiple of 5 is simply a
    sum error. ``expected_hands``: the round's hands per round, checked when given.

    Raises :class:`SheetError` listing every problem: no hands, the wrong number of hands, a
    hand score that is not an integer multiple of 5 ("Smazzata 3, linea E/O: 123 non è
    multiplo di 5"), a hand score beyond ±:data:`MAX_HAND_MP` ("Smazzata 3, linea N/S: 20000 è
    fuori dai limiti (al massimo 10000 MP in valore assoluto)"), a declared total beyond
    ±``MAX_HAND_MP`` × the number of hands.
    """
    problems: list[str] = []
    if expected_hands is not None and len(hands) != expected_hands:
        problems.append(Message("sheet.hand_count", "Lo score ha %(got)s smazzate, ne sono previste %(expected)s",
                                got=len(hands), expected=expected_hands))
    elif not hands:
        problems.append(Message("sheet.no_hands", "Lo score non ha smazzate"))
    mp_ns = mp_ew = 0
    for number, hand in enumerate(hands, start=1):
        for line, value in (("ns", hand.ns), ("ew", hand.ew)):
            problems.extend(hand_value_problems(number, line, value))
        if _is_int(hand.ns) and _is_int(hand.ew) and abs(hand.ns) <= MAX_HAND_MP and abs(hand.ew) <= MAX_HAND_MP:
            mp_ns += hand.ns
            mp_ew += hand.ew
    if problems:
        raise SheetError(problems)

    declared_ns, declared_ew = declared if declared is not None else (None, None)
    for line, value in (("ns", declared_ns), ("ew", declared_ew)):
        if value is not None and not _is_int(value):
            raise SheetError(Message("sheet.declared_not_integer",
                                     "Totale dichiarato, linea %(line)s: %(value)s non è un numero intero",
                                     line=line, value=repr(value)))
        if value is not None and abs(value) > MAX_HAND_MP * len(hands):
            raise SheetError(out_of_bounds("", value, MAX_HAND_MP * len(hands), line=line))
    sum_error = (declared_ns is not None and declared_ns != mp_ns) or (
        declared_ew is not None and declared_ew != mp_ew
    )
    vp_ns, vp_ew = convert(mp_ns, mp_ew, scale)
    return SheetTotals(
        mp_ns=mp_ns,
        mp_ew=mp_ew,
        difference=mp_ns - mp_ew,
        vp_ns=vp_ns,
        vp_ew=vp_ew,
        sum_error=sum_error,
        declared_ns=declared_ns,
        declared_ew=declared_ew,
    )


def swap_lines(hands: Sequence[HandScore]) -> list[HandScore]:
    """Swapped lines (*inversione*, rules.md §3): every hand with N/S and E/W exchanged.

    Pair it with :func:`swap_declared` for the declared totals.
    """
    return [hand.swapped() for hand in hands]


def swap_declared(
    declared: tuple[int | None, int | None] | None,
) -> tuple[int | None, int | None] | None:
    """The declared totals ``(ns, ew)`` with the lines exchanged (None stays None)."""
    if declared is None:
        return None
    ns, ew = declared
    return ew, ns
