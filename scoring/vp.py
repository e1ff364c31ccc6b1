"""Victory-point scales: MP difference → VP split (rules.md §4), and the rest score (§5).

Plain values only: no Django here. A scale is a tuple of inclusive MP-difference bands;
the built-in scales live in ``scoring/data/vp_scales.json`` and a custom scale is stored by
the tournament as the same JSON shape (:func:`scale_to_dict` / :func:`scale_from_dict`).

Units: MP (match points) are ints, multiples of 5; VP (victory points) are ``int`` or
``Decimal`` (a custom scale may use half points, a rest is 70 % of the maximum VP).
"""

from __future__ import annotations

import bisect
import csv
import io
import json
from dataclasses import dataclass
from decimal import ROUND_FLOOR, ROUND_HALF_UP, Decimal, InvalidOperation
from functools import cache, cached_property
from pathlib import Path
from typing import Any, Callable, Iterable

__all__ = [
    "Band",
    "VPScale",
    "ScaleError",
    "UnknownScaleError",
    "REST_MP_MODES",
    "builtin_scales",
    "scale_for_hands",
    "builtin_pair_scales",
    "builtin_team_scales",
    "validate_scale",
    "scale_from_rows",
    "scale_from_csv",
    "scale_to_dict",
    "scale_from_dict",
    "convert",
    "rest_vp",
    "rest_mp",
    "format_vp",
]

DATA_FILE = Path(__file__).resolve().parent / "data" / "vp_scales.json"

MP_STEP = 5
"""Every MP figure and every band boundary is a multiple of 5 (rules.md §2, §4)."""

REST_MP_MODES = ("zero", "band_lower_edge")

VPValue = int | Decimal


@dataclass(frozen=True)
class Band:
    """One band of a VP scale: an MP difference from ``min`` to ``max`` (both inclusive).

    ``max`` is ``None`` for the last, open-ended band. ``winner`` / ``loser`` are the VP of
    the line with more / fewer MP (equal in the draw band). rules.md §4.
    """

    min: int
    max: int | None
    winner: VPValue
    loser: VPValue

    def contains(self, difference: int) -> bool:
        return difference >= self.min and (self.max is None or difference <= self.max)


@dataclass(frozen=True)
class VPScale:
    """A VP scale (*tabella VP*, rules.md §4).

    ``hands`` is the number of hands per round it is meant for (``None`` for a custom scale
    not tied to one); ``total`` is the VP shared by the two lines of every table (20).
    """

    id: str
    name: str
    hands: int | None
    total: VPValue
    bands: tuple[Band, ...]

    @property
    def max_vp(self) -> VPValue:
        """The most VP one line can take at a table (20 on the 20-VP scales)."""
        return max(band.winner for band in self.bands)

    @cached_property
    def _mins(self) -> list[int]:
        return [band.min for band in self.bands]

    def band_for(self, difference: int) -> Band:
        """The band holding an MP difference (>= 0). Raises ScaleError if none does."""
        index = bisect.bisect_right(self._mins, difference) - 1
        if index >= 0 and self.bands[index].contains(difference):
            return self.bands[index]
        raise ScaleError([f"Nessuna fascia della tabella «{self.name}» contiene la differenza {difference}"])


class ScaleError(ValueError):
    """A VP scale the arbiter must fix. ``messages`` lists every problem, in Italian."""

    def __init__(self, messages: list[str] | str):
        if isinstance(messages, str):
            messages = [messages]
        self.messages: list[str] = list(messages)
        super().__init__("; ".join(self.messages))

    def __str__(self) -> str:
        return "; ".join(self.messages)


class UnknownScaleError(ScaleError, KeyError):
    """No built-in scale for the requested number of hands (both a ScaleError and a KeyError)."""


# --------------------------------------------------------------------------- built-in scales


@cache
def _load_builtin() -> dict[str, VPScale]:
    data = json.loads(DATA_FILE.read_text(encoding="utf-8"))
    scales = {}
    for entry in data["scales"]:
        scale = scale_from_dict(entry)
        scales[scale.id] = scale
    return scales


def builtin_scales() -> dict[str, VPScale]:
    """The published scales of ``scoring/data/vp_scales.json``, by id (``"vp20-3h"``, ``"vp20-4h"``).

    Loaded and validated once; the returned dict is a fresh copy, the scales are immutable.
    rules.md §4.
    """
    return dict(_load_builtin())


def builtin_pair_scales() -> dict[str, VPScale]:
    """The built-in scales of a table (pairs and individual; rules.md §4): those made for a
    number of hands (``vp20-3h``, ``vp20-4h``)."""
    return {k: v for k, v in _load_builtin().items() if v.hands is not None}


def builtin_team_scales() -> dict[str, VPScale]:
    """The built-in scales of a team match margin (rules.md §15, the ``"margin"`` result
    mode): those without a number of hands (``vp20-teams``: 0–150 MP 10–10 … 2505+ 20–0,
    from a public scoring app's team table; no federation text was found to check it)."""
    return {k: v for k, v in _load_builtin().items() if v.hands is None}


def scale_for_hands(hands: int) -> VPScale:
    """The built-in scale for ``hands`` hands per round (3 → ``vp20-3h``, 4 → ``vp20-4h``).

    Raises :class:`UnknownScaleError` (a ``ScaleError`` and a ``KeyError``) when there is
    none: the arbiter must then define a custom scale (rules.md §4).
    """
    for scale in _load_builtin().values():
        if scale.hands == hands:
            return scale
    raise UnknownScaleError(
        [f"Nessuna tabella VP pubblicata per {hands} smazzate: definire una tabella personalizzata"]
    )


# --------------------------------------------------------------------------- validation


def _band_label(index: int) -> str:
    return f"Fascia {index + 1}"


def _fmt(value: Any) -> str:
    if isinstance(value, (int, Decimal)) and not isinstance(value, bool):
        return format_vp(value)
    return str(value)


def _problems(scale: VPScale, label: Callable[[int], str] = _band_label) -> list[str]:
    problems: list[str] = []
    bands = scale.bands
    if not bands:
        return ["La tabella non ha fasce"]
    if not _is_number(scale.total) or scale.total <= 0:
        problems.append(f"Il totale dei VP deve essere un numero positivo, non {scale.total!r}")
    if scale.hands is not None and (not _is_int(scale.hands) or scale.hands <= 0):
        problems.append(f"Il numero di smazzate deve essere un intero positivo, non {scale.hands!r}")

    numbers_ok = True
    for i, band in enumerate(bands):
        where = label(i)
        if not _is_int(band.min) or (band.max is not None and not _is_int(band.max)):
            problems.append(f"{where}: i limiti devono essere numeri interi di MP")
            numbers_ok = False
            continue
        if not _is_number(band.winner) or not _is_number(band.loser):
            problems.append(f"{where}: i VP devono essere numeri")
            numbers_ok = False
            continue
        if band.min < 0:
            problems.append(f"{where}: il limite inferiore {band.min} è negativo")
        if band.min % MP_STEP:
            problems.append(f"{where}: il limite inferiore {band.min} non è multiplo di 5")
        if band.max is not None and band.max % MP_STEP:
            problems.append(f"{where}: il limite superiore {band.max} non è multiplo di 5")
        if band.max is not None and band.max < band.min:
            problems.append(f"{where}: il limite superiore {band.max} è minore del limite inferiore {band.min}")
        if band.winner < 0 or band.loser < 0:
            problems.append(f"{where}: i VP non possono essere negativi")
        if band.winner < band.loser:
            problems.append(
                f"{where}: il vincente prende meno VP del perdente ({_fmt(band.winner)} contro {_fmt(band.loser)})"
            )
        if _is_number(scale.total) and band.winner + band.loser != scale.total:
            problems.append(
                f"{where}: {_fmt(band.winner)} + {_fmt(band.loser)} = {_fmt(band.winner + band.loser)}, "
                f"non {_fmt(scale.total)} (il totale della tabella)"
            )
        if band.max is None and i != len(bands) - 1:
            problems.append(f"{where}: solo l'ultima fascia può essere senza limite superiore")
    if not numbers_ok:
        return problems

    first = bands[0]
    if first.min != 0:
        problems.append(f"La prima fascia deve iniziare da 0, non da {first.min}")
    elif first.winner != first.loser:
        problems.append(
            f"La prima fascia (differenza 0) deve dare lo stesso punteggio alle due linee, "
            f"non {_fmt(first.winner)}-{_fmt(first.loser)}"
        )
    last = bands[-1]
    if last.max is not None:
        problems.append(
            f"L'ultima fascia deve essere aperta (senza limite superiore), invece finisce a {last.max}"
        )

    for i in range(1, len(bands)):
        prev, band = bands[i - 1], bands[i]
        if prev.max is None:
            continue  # already reported: open band that is not the last
        expected = prev.max + MP_STEP
        pair = f"({label(i - 1).lower()} e {label(i).lower()})"
        if band.min > expected:
            problems.append(f"Buco tra {prev.max} e {band.min} {pair}: manca la differenza da {expected}")
        elif band.min < expected:
            problems.append(
                f"Sovrapposizione tra {prev.max} e {band.min} {pair}: "
                f"la fascia successiva deve iniziare da {expected}"
            )
        if band.winner < prev.winner:
            problems.append(
                f"{label(i)}: i VP del vincente scendono da {_fmt(prev.winner)} a {_fmt(band.winner)} "
                f"mentre la differenza cresce"
            )
    return problems


def validate_scale(scale: VPScale) -> None:
    """Check a scale against rules.md §4; raise :class:`ScaleError` listing every problem.

    Checked: at least one band; bands cover 0 to infinity in order, without a gap ("Buco tra
    100 e 110") or an overlap; the first band starts at 0 and splits evenly (a draw); only the
    last band is open-ended (``max`` None); every boundary (``min`` and ``max``) is a multiple
    of 5 MP; each band's split sums to ``scale.total``; the winner never gets fewer VP than the
    loser; the winner's VP never decrease as the MP difference grows.
    """
    problems = _problems(scale)
    if problems:
        raise ScaleError(problems)


# --------------------------------------------------------------------------- building scales


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: Any) -> bool:
    return _is_int(value) or isinstance(value, Decimal)


def _vp(value: Any) -> VPValue:
    """int, whole Decimal/float/str → int; otherwise Decimal. Raises ValueError."""
    if _is_int(value):
        return value
    if isinstance(value, bool) or value is None:
        raise ValueError(f"VP non valido: {value!r}")
    try:
        number = Decimal(str(value).strip().replace(",", "."))
    except InvalidOperation:
        raise ValueError(f"VP non valido: {value!r}") from None
    if not number.is_finite():
        raise ValueError(f"VP non valido: {value!r}")
    return int(number) if number == number.to_integral_value() else number


def scale_from_rows(
    id: str,
    name: str,
    total: VPValue,
    rows: Iterable[tuple[int, int | None, VPValue, VPValue]],
    hands: int | None = None,
) -> VPScale:
    """Build and validate a custom scale from ``(min, max, winner, loser)`` rows.

    ``min``/``max``: MP differences (``max`` None = open-ended); ``winner``/``loser``: VP.
    Raises :class:`ScaleError` (all problems, bands numbered from 1). rules.md §4.
    """
    scale = VPScale(
        id=id,
        name=name,
        hands=hands,
        total=total,
        bands=tuple(Band(mn, mx, w, lo) for mn, mx, w, lo in rows),
    )
    validate_scale(scale)
    return scale


def _sniff_delimiter(text: str) -> str:
    for line in text.splitlines():
        if line.strip():
            return ";" if ";" in line else ","
    return ","


def scale_from_csv(
    text: str, id: str, name: str, total: VPValue | None = None, hands: int | None = None
) -> VPScale:
    """Parse a custom scale from CSV text and validate it.

    Columns ``min,max,winner,loser`` (MP, MP, VP, VP); separator comma or semicolon (with a
    semicolon, a decimal comma is accepted in VP: ``17,5``); an optional header line (any first
    line whose first cell is not a number); blank lines ignored; an empty ``max`` means the
    open-ended last band. ``total`` defaults to winner + loser of the first band.

    Every error message names the line of the text ("Riga 3: ..."), counting the header.
    Raises :class:`ScaleError` listing every problem. rules.md §4.
    """
    delimiter = _sniff_delimiter(text)
    reader = csv.reader(io.StringIO(text), delimiter=delimiter)
    problems: list[str] = []
    bands: list[Band] = []
    line_numbers: list[int] = []
    seen_data = False
    for row in reader:
        line_no = reader.line_num
        cells = [cell.strip() for cell in row]
        if not any(cells):
            continue
        if not seen_data and not _looks_numeric(cells[0]):
            seen_data = True  # header
            continue
        seen_data = True
        where = f"Riga {line_no}"
        while len(cells) > 4 and cells[-1] == "":
            cells.pop()
        if len(cells) != 4:
            problems.append(
                f"{where}: servono 4 colonne (min, max, vincente, perdente), trovate {len(cells)}"
            )
            continue
        raw_min, raw_max, raw_winner, raw_loser = cells
        try:
            mn = _parse_mp(raw_min, "min")
            mx = None if raw_max == "" else _parse_mp(raw_max, "max")
            winner = _parse_vp(raw_winner, "vincente")
            loser = _parse_vp(raw_loser, "perdente")
        except ValueError as exc:
            problems.append(f"{where}: {exc}")
            continue
        bands.append(Band(mn, mx, winner, loser))
        line_numbers.append(line_no)
    if problems:
        raise ScaleError(problems)
    if not bands:
        raise ScaleError(["Il file non contiene fasce"])
    total = _vp(bands[0].winner + bands[0].loser if total is None else total)
    scale = VPScale(id=id, name=name, hands=hands, total=total, bands=tuple(bands))
    problems = _problems(scale, label=lambda i: f"Riga {line_numbers[i]}")
    if problems:
        raise ScaleError(problems)
    return scale


def _looks_numeric(cell: str) -> bool:
    try:
        Decimal(cell.replace(",", "."))
    except InvalidOperation:
        return False
    return True


def _parse_mp(raw: str, column: str) -> int:
    try:
        return int(raw)
    except ValueError:
        raise ValueError(f"colonna {column}: «{raw}» non è un numero intero di MP") from None


def _parse_vp(raw: str, column: str) -> VPValue:
    try:
        return _vp(raw)
    except ValueError:
        raise ValueError(f"colonna {column}: «{raw}» non è un numero di VP") from None


def _vp_to_json(value: VPValue) -> int | str:
    if _is_int(value):
        return value
    return int(value) if value == value.to_integral_value() else str(value)


def scale_to_dict(scale: VPScale) -> dict[str, Any]:
    """The JSON shape of one entry of ``vp_scales.json``: ``{"id", "name", "hands", "total",
    "bands": [{"min", "max", "winner", "loser"}, ...]}``.

    Whole VP are ints; fractional VP are strings (``"17.5"``) so no float rounding creeps into
    a stored scale. ``scale_from_dict(scale_to_dict(s)) == s`` for a valid scale.
    """
    return {
        "id": scale.id,
        "name": scale.name,
        "hands": scale.hands,
        "total": _vp_to_json(scale.total),
        "bands": [
            {"min": b.min, "max": b.max, "winner": _vp_to_json(b.winner), "loser": _vp_to_json(b.loser)}
            for b in scale.bands
        ],
    }


def scale_from_dict(data: dict[str, Any]) -> VPScale:
    """Inverse of :func:`scale_to_dict`; validates. VP may be int, float or numeric string.

    Raises :class:`ScaleError` (missing keys or an invalid scale).
    """
    try:
        bands = tuple(
            Band(
                min=b["min"],
                max=b.get("max"),
                winner=_vp(b["winner"]),
                loser=_vp(b["loser"]),
            )
            for b in data["bands"]
        )
        scale = VPScale(
            id=str(data["id"]),
            name=str(data.get("name") or data["id"]),
            hands=data.get("hands"),
            total=_vp(data["total"]),
            bands=bands,
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise ScaleError([f"Tabella VP non leggibile: {exc}"]) from None
    validate_scale(scale)
    return scale


# --------------------------------------------------------------------------- conversion


def convert(mp_ns: int, mp_ew: int, scale: VPScale) -> tuple[VPValue, VPValue]:
    """Convert a table's MP totals into ``(vp_ns, vp_ew)`` with ``scale`` (rules.md §4).

    MP may be negative; the band is chosen by the absolute difference; equal MP fall in the
    draw band. The two VP always sum to ``scale.total``. Example (4 hands): 1620 v 1115 →
    difference 505 → 13-7.

    Raises ``ValueError`` if the difference is not a multiple of 5 (a sheet error upstream),
    :class:`ScaleError` if the scale has no band for it (an unvalidated scale).
    """
    difference = mp_ns - mp_ew
    if difference % MP_STEP:
        raise ValueError(f"La differenza {abs(difference)} MP non è multipla di 5")
    band = scale.band_for(abs(difference))
    if difference >= 0:
        return band.winner, band.loser
    return band.loser, band.winner


# --------------------------------------------------------------------------- rest (bye)


def _clean_decimal(value: Decimal) -> Decimal:
    if value == value.to_integral_value():
        return value.quantize(Decimal(1))
    return value.normalize()


def rest_vp(scale: VPScale, percent: Decimal | int = 70) -> Decimal:
    """VP of a resting pair: ``percent`` % of the scale's maximum VP (rules.md §5, seed code
    art. 33 "tavolo zoppo"; also the forced rest of art. 32).

    Exact, not rounded: 70 % of 20 → ``Decimal("14")``, of 25 → ``Decimal("17.5")``.
    Raises ``ValueError`` for a percent outside 0–100.
    """
    percent = Decimal(str(percent)) if not isinstance(percent, Decimal) else percent
    if not (0 <= percent <= 100):
        raise ValueError(f"Percentuale di riposo non valida: {percent}")
    return _clean_decimal(Decimal(scale.max_vp) * percent / 100)


def rest_mp(scale: VPScale, mode: str = "zero", percent: Decimal | int = 70) -> int:
    """MP credited to a resting pair (rules.md §5: a tournament setting).

    - ``"zero"`` (default): 0 MP.
    - ``"band_lower_edge"``: take the rest VP (:func:`rest_vp` with ``percent``), round it
      down to a whole VP, and credit the lower edge (``min``) of the band whose winner VP equals
      it — the smallest MP difference that would have earned that VP at a table. 4 hands,
      14 VP → 705 MP; 3 hands → 355 MP. If no band gives exactly that VP (a custom scale that
      skips values), the last band whose winner VP is below it is used; 0 if none.

    The credited MP count as both MP scored and MP difference in the standings (§8).
    Raises ``ValueError`` for an unknown mode.
    """
    if mode == "zero":
        return 0
    if mode != "band_lower_edge":
        raise ValueError(f"Modalità MP di riposo sconosciuta: {mode!r} (attese: {', '.join(REST_MP_MODES)})")
    target = rest_vp(scale, percent).to_integral_value(rounding=ROUND_FLOOR)
    for band in scale.bands:
        if band.winner == target:
            return band.min
    below = [band for band in scale.bands if band.winner < target]
    return below[-1].min if below else 0


def loser_band_edge(scale: VPScale, vp: Decimal | int) -> int:
    """The MP difference (>= 0, to be taken as a loss) of the lower edge of the band whose
    loser scores ``vp`` VP: the smallest MP gap that leaves a line with that VP (rules.md §22:
    the late line's 6 VP; 4 hands, ``vp20-4h``: band 705–900, 14–6 → 705; 3 hands,
    ``vp20-3h``: band 355–500 → 355). ``vp`` is rounded down to a whole VP; if no band's loser
    scores exactly that (a custom scale that skips values), the last band whose loser scores
    more is used, as :func:`rest_mp` does for the winner; 0 if none."""
    target = Decimal(str(vp)).to_integral_value(rounding=ROUND_FLOOR)
    for band in scale.bands:
        if band.loser == target:
            return band.min
    above = [band for band in scale.bands if band.loser > target]
    return above[-1].min if above else 0


def format_vp(value: VPValue | float | str) -> str:
    """VP for display: ``"14"`` when whole, otherwise one decimal (``"17.5"``, half up)."""
    number = value if isinstance(value, Decimal) else Decimal(str(value))
    if number == number.to_integral_value():
        return str(int(number))
    return str(number.quantize(Decimal("0.1"), rounding=ROUND_HALF_UP))
