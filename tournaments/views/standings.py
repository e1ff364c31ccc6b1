"""The arbiter's standings page (django-tables2) with the tie-break columns.
"""
from __future__ import annotations


import django_tables2 as tables
from django.db.models import Prefetch
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django_tables2 import RequestConfig

from scoring.vp import format_vp

from .. import selectors
from ..models import Player, Round
from .common import arbiter_view
from .rounds import _int_field, _optional_url



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
    mp_scored = tables.Column(verbose_name=gettext_lazy("MP totali"), attrs=_secondary("num"))
    played = tables.Column(verbose_name=gettext_lazy("Turni"), attrs=_secondary("num"))
    withdrawn = tables.Column(verbose_name=gettext_lazy("Ritirata"), attrs=_secondary("withdrawn"))

    class Meta:
        attrs = {"class": "grid compact", "id": "standings"}
        per_page = 100
        orderable = True

    def render_vp(self, value):
        return format_vp(value)

    def render_penalty(self, value):
        return f"−{format_vp(value)}" if value else ""

    def render_withdrawn(self, value):
        return _("ritirata") if value else ""


@arbiter_view
def standings(request, tournament):
    """Standings after the closed rounds, or after round N with ``?dopo=N`` (rules.md §8)."""
    closed = list(tournament.rounds.filter(state=Round.State.CLOSED).order_by("number")
                  .values_list("number", flat=True))
    after = _int_field(request, "dopo")
    if after is not None and after not in closed:
        after = None
    rows = selectors.standings(tournament, after_round=after)
    pairs = {
        p.number: p
        for p in tournament.pairs.prefetch_related(Prefetch("members", queryset=Player.objects.order_by("seat")))
    }
    data = [{
        "position": r.position, "position_label": r.position_label, "pair": r.pair,
        "players": pairs[r.pair].full_name if r.pair in pairs else "",
        "vp": r.vp, "penalty": r.penalty, "mp_difference": r.mp_difference, "mp_scored": r.mp_scored,
        "played": r.played, "withdrawn": r.withdrawn,
    } for r in rows]
    table = StandingsTable(data)
    RequestConfig(request, paginate={"per_page": 100}).configure(table)
    shown = after if after is not None else (closed[-1] if closed else None)
    return render(request, "arbiter/standings.html", {
        "tournament": tournament, "table": table, "closed": closed, "after": shown,
        "is_final": bool(closed) and shown == tournament.rounds_planned,
        "penalties_url": _optional_url("penalties", tournament.slug),
        "tournament_url": reverse("tournament", args=[tournament.slug]),
    })
