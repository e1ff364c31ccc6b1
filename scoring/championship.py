"""A championship across evenings (*campionato sociale*, rules.md §17): pure Python.

An evening is a tournament's standings (positions, VP) with the members behind each entrant;
this module turns them into points per member and ranks the members:

- :func:`parse_points_rule` reads ``field``, ``table:a,b,c`` or ``vp``;
- :func:`evening_points` gives each entrant of one evening its points, entrants sharing a
  position getting the average of the positions they cover;
- :func:`rank_members` sums each member's best N evenings and orders the members (total,
  best single evening, evenings played, then shared), members below the minimum after.

Points are :class:`fractions.Fraction` (three-way ties give thirds); callers round for show.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, replace
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from typing import Hashable, Iterable, Sequence

FIELD = "field"
TABLE = "table"
VP = "vp"

#: A points table longer than this is refused (a typo, not a club's table).
MAX_TABLE_LENGTH = 500
#: One value of a points table: ASCII digits, decimals with a point (``25``, ``7.5``); not
#: ``1_000``, ``1e3`` nor other scripts' digits, which Python's Decimal would read.
_POINTS = re.compile(r"[0-9]+(?:\.[0-9]+)?", re.ASCII)


class RuleError(ValueError):
    """A points rule or setting that cannot be used; the message is a sentence for the user."""


@dataclass(frozen=True)
class PointsRule:
    """How an evening gives points (rules.md §17): ``kind`` ``field`` (N − p + 1), ``table``
    (``table[p − 1]``, 0 beyond it) or ``vp`` (the entrant's final VP)."""

    kind: str
    table: tuple[Fraction, ...] = ()

    @property
    def text(self) -> str:
        """The rule as typed: ``field``, ``table:25,18,15`` or ``vp``."""
        if self.kind == TABLE:
            return "table:" + ",".join(_number_text(v) for v in self.table)
        return self.kind


def _number_text(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else str(float(value))


def parse_points_rule(text: str) -> PointsRule:
    """``"field"``, ``"vp"`` or ``"table:25,18,15,12"`` (points for 1st, 2nd, …; numbers ≥ 0
    in ASCII digits, decimals with a point) → :class:`PointsRule`.

    Raises :class:`RuleError` (a sentence) for anything else.
    """
    raw = (text or "").strip()
    lowered = raw.lower()
    if lowered in (FIELD, VP):
        return PointsRule(lowered)
    if lowered.startswith(TABLE + ":"):
        parts = [p.strip() for p in raw.split(":", 1)[1].split(",")]
        if not parts or any(not p for p in parts):
            raise RuleError("La tabella dei punti vuole numeri separati da virgole, es. table:25,18,15.")
        if len(parts) > MAX_TABLE_LENGTH:
            raise RuleError(f"La tabella dei punti ha più di {MAX_TABLE_LENGTH} posizioni.")
        values = []
        for part in parts:
            if not _POINTS.fullmatch(part):
                raise RuleError(f"«{part}» non è un numero (tabella dei punti).")
            value = Fraction(Decimal(part))
            if value < 0 or value > 100_000:
                raise RuleError(f"«{part}»: i punti vanno da 0 a 100000.")
            values.append(value)
        return PointsRule(TABLE, tuple(values))
    raise RuleError(f"Regola dei punti «{raw}» sconosciuta: usa field, vp oppure table:a,b,c….")


@dataclass(frozen=True)
class Placing:
    """One entrant's final place in an evening: ``entrant`` (its number), ``position``
    (1-based; entrants sharing a place have the same one, the next skips), ``vp`` (final
    VP, penalties deducted)."""

    entrant: int
    position: int
    vp: Decimal


def evening_points(rule: PointsRule, placings: Sequence[Placing]) -> dict[int, Fraction]:
    """Points of each entrant of one evening (rules.md §17), entrant number → points.

    ``placings``: every ranked entrant of the tournament (withdrawn ones included at their
    position); N = their count. ``field``: N − p + 1; ``table``: the table's p-th value, 0
    beyond it; ``vp``: the final VP. Entrants sharing a position p (k of them) each get the
    average of the points of positions p … p + k − 1 (two tied 3rd of 10 under ``field``:
    (8 + 7) / 2 = 7.5).
    """
    n = len(placings)
    sharing: dict[int, int] = {}
    for p in placings:
        sharing[p.position] = sharing.get(p.position, 0) + 1
    out: dict[int, Fraction] = {}
    for p in placings:
        if rule.kind == VP:
            out[p.entrant] = Fraction(Decimal(p.vp))
            continue
        k = sharing[p.position]
        if rule.kind == FIELD:  # the mean of n − q + 1 for q = p … p + k − 1
            out[p.entrant] = Fraction(2 * (n - p.position + 1) - (k - 1), 2)
            continue
        covered = range(p.position, p.position + k)
        values = [rule.table[q - 1] if q - 1 < len(rule.table) else Fraction(0) for q in covered]
        out[p.entrant] = sum(values, Fraction(0)) / k
    return out


@dataclass(frozen=True)
class MemberEvening:
    """One member's result in one evening: ``evening`` (its index in date order, 0 first)
    and ``points`` (a Fraction or an int)."""

    evening: int
    points: Fraction


@dataclass(frozen=True)
class MemberRow:
    """One line of the championship: ``member`` (the caller's key), ``total`` (sum of the
    counted evenings), ``best`` (best single evening), ``played`` (evenings played),
    ``counted`` (indices of the counted evenings, in date order), ``evenings`` (every
    evening's points, in date order), ``position`` (None below the minimum), ``tied``
    (shares the position, shown «3=»)."""

    member: Hashable
    total: Fraction
    best: Fraction
    played: int
    counted: tuple[int, ...]
    evenings: tuple[MemberEvening, ...]
    position: int | None
    tied: bool

    @property
    def position_label(self) -> str:
        """``"3"``, ``"3="`` for a shared place, ``""`` below the minimum."""
        if self.position is None:
            return ""
        return f"{self.position}=" if self.tied else str(self.position)


def rank_members(
    results: dict[Hashable, Iterable[MemberEvening]],
    *,
    best: int | None = None,
    min_evenings: int = 1,
    listing_key=None,
) -> list[MemberRow]:
    """The championship's standings (rules.md §17).

    ``results``: member → his evenings (at most one per evening). ``best``: count the best N
    evenings (None: all); ``min_evenings``: members with fewer evenings are listed after the
    ranked ones, in the same order, without a position. Order: total points, then the best
    single evening, then more evenings played; still equal: shared position (1, 2, 2, 4).
    ``listing_key``: member → sort key for members sharing a place (default: the member).

    Raises :class:`RuleError` for ``best`` < 1 or ``min_evenings`` < 1.
    """
    if best is not None and best < 1:
        raise RuleError("«migliori N» deve essere almeno 1.")
    if min_evenings < 1:
        raise RuleError("Il minimo di serate deve essere almeno 1.")
    listing_key = listing_key or (lambda m: m)
    results = {m: tuple(sorted(evs, key=lambda e: e.evening)) for m, evs in results.items()}
    # Exact and fast: every evening's points as an integer count of 1/scale (scale: the least
    # common multiple of the denominators, e.g. 6 with halves and thirds), so sums and
    # comparisons are integer ones (Fraction arithmetic is about 20 times slower).
    scale = 1
    for evs in results.values():
        for e in evs:
            scale = math.lcm(scale, e.points.denominator)
    rows, merits = [], {}
    for member, evenings in results.items():
        if not evenings:
            continue
        units = [(e.evening, e.points.numerator * (scale // e.points.denominator)) for e in evenings]
        ordered = sorted(units, key=lambda u: (-u[1], u[0]))
        chosen = ordered if best is None else ordered[:best]
        counted = tuple(sorted(i for i, _u in chosen))
        total = sum(u for _i, u in chosen)
        top = ordered[0][1]
        row = MemberRow(member=member, total=Fraction(total, scale), best=Fraction(top, scale),
                        played=len(evenings), counted=counted, evenings=evenings, position=None, tied=False)
        merits[id(row)] = (-total, -top, -len(evenings))
        rows.append(row)

    def merit(row: MemberRow):
        return merits[id(row)]

    rows.sort(key=lambda r: (merit(r), listing_key(r.member)))
    ranked = [r for r in rows if r.played >= min_evenings]
    below = [r for r in rows if r.played < min_evenings]
    counts: dict = {}
    for row in ranked:
        counts[merit(row)] = counts.get(merit(row), 0) + 1
    out, position, previous = [], 0, None
    for i, row in enumerate(ranked):
        key = merit(row)
        if key != previous:
            position, previous = i + 1, key
        out.append(replace(row, position=position, tied=counts[key] > 1))
    return out + below


def rounded(points: Fraction, places: int = 2) -> Decimal:
    """``points`` rounded half up to ``places`` decimals (22.5 / 3 → 7.50; 23/3 → 7.67)."""
    quantum = Decimal(1).scaleb(-places)
    return (Decimal(points.numerator) / Decimal(points.denominator)).quantize(quantum, rounding=ROUND_HALF_UP)


def points_text(points: Fraction) -> str:
    """Points for a page: ``"7,5"``, ``"12"``, ``"7,67"`` (Italian decimal comma, no trailing zeros)."""
    return f"{rounded(points).normalize():f}".replace(".", ",")
