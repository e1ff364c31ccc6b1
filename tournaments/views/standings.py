"""The arbiter's standings page (django-tables2) with the tie-break columns.
"""
from __future__ import annotations

import django_tables2 as tables
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django_tables2 import RequestConfig

from scoring.vp import format_vp

from .. import pages, selectors
from ..forms import TIEBREAK_LABELS
from ..wording import by_kind, standings_headings
from .common import arbiter_view
from .rounds import _int_field, _optional_url


def penalty_text(vp, mp) -> str:
    """Deductions as one cell: "−1" (VP), "−100 MP", or both ("−1 −100 MP"); "" for none."""
    parts = []
    if vp:
        parts.append(f"−{format_vp(vp)}")
    if mp:
        parts.append(f"−{mp} MP")
    return " ".join(parts)


def _secondary(cls: str) -> dict:
    """Column attrs of a secondary standings column, hidden on a phone (VP already have
    the penalties deducted; the rest is on the PDF and on a wider screen)."""
    return {"th": {"class": f"{cls} hide-phone"}, "td": {"class": f"{cls} hide-phone"}}


class StandingsTable(tables.Table):
    """Standings (rules.md §8) as a sortable table; rows are dicts built by :func:`standings`."""

    position = tables.Column(verbose_name=gettext_lazy("Pos."), accessor="position_label",
                             order_by=("position",), attrs={"td": {"class": "num"}})
    pair = tables.Column(verbose_name=gettext_lazy("Coppia"), attrs={"td": {"class": "num"}})
    players = tables.Column(verbose_name=gettext_lazy("Giocatori"), orderable=False)
    vp = tables.Column(verbose_name=gettext_lazy("VP"), attrs={"td": {"class": "num"}})
    penalty = tables.Column(verbose_name=gettext_lazy("Penalità"), attrs=_secondary("num"))
    mp_difference = tables.Column(verbose_name=gettext_lazy("Scarto MP"), attrs={"td": {"class": "num"}})
    mp_scored = tables.Column(verbose_name=gettext_lazy("MP fatti"), attrs=_secondary("num"))
    played = tables.Column(verbose_name=gettext_lazy("Turni"), attrs=_secondary("num"))
    withdrawn = tables.Column(verbose_name=gettext_lazy("Ritirata"), attrs=_secondary("withdrawn"))

    class Meta:
        attrs = {"class": "grid compact", "id": "standings"}
        per_page = 100
        orderable = True

    def render_vp(self, value):
        return format_vp(value)

    def render_penalty(self, value, record):
        return penalty_text(value, record.get("penalty_mp", 0))

    def render_withdrawn(self, value):
        return _("ritirata") if value else ""


class IndividualStandingsTable(StandingsTable):
    """Standings per player of an individual tournament (rules.md §9): the number
    column "N.", the name column "Giocatore", "Ritirato" for a withdrawn player (the
    headings of :func:`tournaments.wording.standings_headings`, as on the PDF and XLSX)."""

    pair = tables.Column(verbose_name=gettext_lazy("N."), attrs={"td": {"class": "num"}})
    players = tables.Column(verbose_name=gettext_lazy("Giocatore"), orderable=False)
    withdrawn = tables.Column(verbose_name=gettext_lazy("Ritirato"), attrs=_secondary("withdrawn"))

    class Meta(StandingsTable.Meta):
        sequence = ("position", "pair", "players", "...")

    def render_withdrawn(self, value):
        return _("ritirato") if value else ""


class TeamStandingsTable(StandingsTable):
    """Standings per team of a team tournament (rules.md §15): VP after the team's
    penalties, the MP difference is the total match margin (after its MP penalties); the
    number column "N.", the team's name under "Squadra" (as on the PDF and XLSX)."""

    pair = tables.Column(verbose_name=gettext_lazy("N."), attrs={"td": {"class": "num"}})
    players = tables.Column(verbose_name=gettext_lazy("Squadra"), orderable=False)

    class Meta(StandingsTable.Meta):
        sequence = ("position", "pair", "players", "...")


@arbiter_view
def standings(request, tournament):
    """Standings after a closed round (rules.md §8): by default after the last closed round,
    or after round N with ``?dopo=N``; read from ``selectors.standings_after``, like the PDF,
    the XLSX and the public pages. Penalties of a round not closed yet are listed apart."""
    after = _int_field(request, "dopo")
    closed = selectors.closed_rounds(tournament)
    if after is not None and after not in closed:
        after = None
    view = selectors.standings_after(tournament, after)
    names = selectors.entrant_names(tournament)
    data = [{
        "position": r.position, "position_label": r.position_label, "pair": r.pair,
        "players": names.get(r.pair, ""),
        "vp": r.vp, "penalty": r.penalty, "penalty_mp": r.penalty_mp,
        "mp_difference": r.mp_difference, "mp_scored": r.mp_scored,
        "played": r.played, "withdrawn": r.withdrawn,
    } for r in view.rows]
    table = by_kind(tournament, pairs=StandingsTable, individual=IndividualStandingsTable,
                    teams=TeamStandingsTable)(data)
    RequestConfig(request, paginate={"per_page": 100}).configure(table)
    by_pair = {row["pair"]: row for row in data}
    group_sections = [  # rules.md §14: standings per group (and overall, above)
        {"group": g.group, "rows": [dict(by_pair[r.pair], position_label=r.position_label,
                                         vp_text=format_vp(r.vp)) for r in g.rows]}
        for g in pages.groups.standings_by_group(tournament, view)]
    number_heading, name_heading = standings_headings(tournament)
    pending = [{"entry": p, "text": f"−{p.mp} MP" if p.mp else f"−{format_vp(p.vp)} VP"} for p in view.pending]
    return render(request, "arbiter/standings.html", {
        "tournament": tournament, "table": table, "closed": closed, "after": view.after_round,
        "is_latest": view.after_round is not None and view.after_round == view.last_closed,
        "is_final": view.final, "pending": pending, "group_sections": group_sections,
        "latenesses": selectors.lateness.latenesses(tournament, view.after_round) if view.after_round else [],
        "awards": pages.prizes.prize_awards(tournament, view) if view.after_round == view.last_closed else [],
        "number_heading": number_heading, "name_heading": name_heading,
        "penalties_url": _optional_url("penalties", tournament.slug),
        "tournament_url": reverse("tournament", args=[tournament.slug]),
        "tiebreak_names": [str(TIEBREAK_LABELS[k]) for k in selectors.applied_tiebreaks(tournament) if k in TIEBREAK_LABELS],
    })
