"""Team match results (rules.md §15): plain values in, plain values out.

A match between teams A and B takes two tables: A's first pair sits N/S at the first table,
A's second pair E/W at the second (crossed lines). Each table is an ordinary score sheet
(MP per line, VP by the pair scale). The match result is, by the tournament setting:

- ``"sum"`` (default): each team scores the sum of its two tables' pair-scale VP (0–40 with
  the 20-VP scales; 20–20 on a level match);
- ``"margin"``: the match margin (A's MP difference at the first table plus its MP difference
  at the second) is converted by a team scale (custom, rules.md §4 shape).

A resting team (odd number of teams), and the opponent of a team that forfeits or has
withdrawn, scores ``percent`` % of a match's maximum (70 % → 28 of 40 in the default mode).
"""
from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from . import vp as vp_rules

__all__ = ["TableScore", "MatchResult", "match_result", "match_max_vp", "team_rest_vp",
           "SUM", "MARGIN"]

SUM = "sum"
MARGIN = "margin"


@dataclass(frozen=True)
class TableScore:
    """One table of a match as its sheet gives it: MP and VP of the N/S and E/W lines."""

    mp_ns: int
    mp_ew: int
    vp_ns: Decimal | int
    vp_ew: Decimal | int


@dataclass(frozen=True)
class MatchResult:
    """A match seen from its two teams: ``mp_a``/``mp_b`` the MP each team's two pairs scored
    (A: N/S at table 1 + E/W at table 2), ``margin`` = ``mp_a - mp_b`` (the match margin, MP),
    ``vp_a``/``vp_b`` the match VP."""

    mp_a: int
    mp_b: int
    vp_a: Decimal
    vp_b: Decimal

    @property
    def margin(self) -> int:
        return self.mp_a - self.mp_b


def match_result(first: TableScore, second: TableScore, *, mode: str = SUM,
                 team_scale: vp_rules.VPScale | None = None) -> MatchResult:
    """The result of a match from its two tables (rules.md §15).

    Args:
        first: table 1 (team A N/S, team B E/W).
        second: table 2 (team B N/S, team A E/W).
        mode: ``"sum"`` (VP of A = first.vp_ns + second.vp_ew) or ``"margin"`` (A's margin
            (first.mp_ns − first.mp_ew) + (second.mp_ew − second.mp_ns) converted by
            ``team_scale``; the two VP sum to the team scale's total).
        team_scale: required for ``"margin"``.
    Example (4 hands, vp20-4h): table 1 1620–1115 (13–7), table 2 900–1000 (11–9 to B's
    N/S): sum mode A = 13 + 9 = 22, B = 7 + 11 = 18; margin +505 − 100 = +405 MP.
    Raises ``ValueError`` for an unknown mode or a margin mode without a team scale.
    """
    mp_a = first.mp_ns + second.mp_ew
    mp_b = first.mp_ew + second.mp_ns
    if mode == SUM:
        vp_a = Decimal(str(first.vp_ns)) + Decimal(str(second.vp_ew))
        vp_b = Decimal(str(first.vp_ew)) + Decimal(str(second.vp_ns))
    elif mode == MARGIN:
        if team_scale is None:
            raise ValueError("Il risultato per scarto richiede una tabella VP a squadre.")
        a, b = vp_rules.convert(mp_a - mp_b, 0, team_scale)
        vp_a, vp_b = Decimal(str(a)), Decimal(str(b))
    else:
        raise ValueError(f"Modalità di risultato a squadre sconosciuta: {mode!r}")
    return MatchResult(mp_a=mp_a, mp_b=mp_b, vp_a=vp_a, vp_b=vp_b)


def match_max_vp(pair_scale: vp_rules.VPScale, *, mode: str = SUM,
                 team_scale: vp_rules.VPScale | None = None) -> Decimal:
    """The most VP a team can score in a match: twice the pair scale's maximum in ``"sum"``
    mode (40 with a 20-VP scale), the team scale's maximum in ``"margin"`` mode."""
    if mode == MARGIN:
        if team_scale is None:
            raise ValueError("Il risultato per scarto richiede una tabella VP a squadre.")
        return Decimal(str(team_scale.max_vp))
    return 2 * Decimal(str(pair_scale.max_vp))


def team_rest_vp(pair_scale: vp_rules.VPScale, percent: Decimal | int = 70, *, mode: str = SUM,
                 team_scale: vp_rules.VPScale | None = None) -> Decimal:
    """VP of a resting team (and of the opponent of a forfeiting or withdrawn team):
    ``percent`` % of :func:`match_max_vp` (rules.md §15: 70 % → 28 of 40). Exact, not rounded.
    Raises ``ValueError`` for a percent outside 0–100."""
    percent = Decimal(str(percent))
    if not 0 <= percent <= 100:
        raise ValueError(f"Percentuale di riposo non valida: {percent}")
    value = match_max_vp(pair_scale, mode=mode, team_scale=team_scale) * percent / 100
    return value.quantize(Decimal(1)) if value == value.to_integral_value() else value.normalize()
