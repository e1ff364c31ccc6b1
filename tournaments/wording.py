"""Words that follow the tournament's kind (pairs, individual, teams).

A pair tournament speaks of *coppie*, an individual one of *giocatori*, a team one of
*squadre* (rules.md, "Glossary"). Italian nouns carry gender and number into the whole sentence
("Coppie 3 e 5 scambiate", "Giocatori 3 e 5 scambiati"), so a message is never built by
inserting a noun: the caller writes the three whole sentences, each translated on its own,
and :func:`by_kind` picks one. The column headings of the standings (page, PDF, XLSX) are
here once, so the three outputs agree.
"""
from __future__ import annotations

from django.utils.translation import gettext as _

from scoring.vp import format_vp

from .clock import format_mmss

PAIRS, INDIVIDUAL, TEAMS = "pairs", "individual", "teams"


def kind_of(tournament_or_kind) -> str:
    """``"pairs"``, ``"individual"`` or ``"teams"`` of a :class:`Tournament` (its ``kind``)
    or of the kind itself (a string)."""
    return getattr(tournament_or_kind, "kind", tournament_or_kind)


def by_kind(tournament_or_kind, *, pairs, individual, teams):
    """The value of the tournament's kind: ``pairs`` for a pair tournament (also an unknown
    kind), ``individual`` for an individual one, ``teams`` for a team one.

    Example: ``by_kind(t, pairs=_("Coppie %(a)s e %(b)s scambiate."), individual=_("Giocatori
    %(a)s e %(b)s scambiati."), teams=_("Squadre %(a)s e %(b)s scambiate."))``."""
    kind = kind_of(tournament_or_kind)
    if kind == INDIVIDUAL:
        return individual
    if kind == TEAMS:
        return teams
    return pairs


def standings_headings(tournament_or_kind) -> tuple[str, str]:
    """``(number column, name column)`` of the standings and lists of entrants:
    pairs ``("Coppia", "Giocatori")`` (the pair's number, its two players); individual
    ``("N.", "Giocatore")``; teams ``("N.", "Squadra")`` — translated."""
    return by_kind(tournament_or_kind, pairs=(_("Coppia"), _("Giocatori")),
                   individual=(_("N."), _("Giocatore")), teams=(_("N."), _("Squadra")))


def withdrawn_heading(tournament_or_kind) -> str:
    """The heading of the standings' withdrawn column: "Ritirata" (a *coppia*, a
    *squadra*), "Ritirato" (a *giocatore*), translated."""
    return by_kind(tournament_or_kind, pairs=_("Ritirata"), individual=_("Ritirato"), teams=_("Ritirata"))


def withdrawn_mark(tournament_or_kind) -> str:
    """The lower-case mark of a withdrawn entrant in a list: "ritirata" / "ritirato"."""
    return by_kind(tournament_or_kind, pairs=_("ritirata"), individual=_("ritirato"), teams=_("ritirata"))


def vp_display(value) -> str:
    """VP for a page in the reader's language: whole VP without decimals ("18"), otherwise
    one decimal (half up, as :func:`scoring.vp.format_vp`) with the active language's decimal
    separator: "17,5" in Italian, "17.5" in English. ``value``: Decimal, int, float or str."""
    from django.utils import formats


    return format_vp(value).replace(".", formats.get_format("DECIMAL_SEPARATOR"))


def clock_entered_text(seconds: int | None) -> str:
    """When a sheet was entered against the table's time (rules.md §10, the round clock):
    ``seconds`` still left then (negative: past the time). 2498 → "inserito 41:38 prima
    della fine"; −125 → "+2:05 oltre il tempo"; None (clock not started) → ""."""
    if seconds is None:
        return ""
    if seconds >= 0:
        return _("inserito %(t)s prima della fine") % {"t": format_mmss(seconds)}
    return _("+%(t)s oltre il tempo") % {"t": format_mmss(-seconds)}


def clock_left_text(seconds: int) -> str:
    """Time left on the round clock as the Registro reads it: 2495 → "41:35 rimasti";
    −125 → "2:05 oltre il tempo"."""
    if seconds >= 0:
        return _("%(t)s rimasti") % {"t": format_mmss(seconds)}
    return _("%(t)s oltre il tempo") % {"t": format_mmss(-seconds)}
