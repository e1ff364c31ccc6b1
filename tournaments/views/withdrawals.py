"""Undo of a withdrawal (rules.md §5, §15, art. 32) from the entrants pages: pairs, players
of an individual tournament, teams."""
from __future__ import annotations

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from .. import services
from ..errors import ArbiterError
from ..models import Pair, Player, Team
from .common import arbiter_view

_KINDS = {"pair": (Pair, "pairs"), "player": (Player, "players"), "team": (Team, "teams")}


def _undo(request, tournament, kind: str, number: int):
    model, page = _KINDS[kind]
    filters = {"tournament": tournament, "number": number}
    if model is Pair:
        filters["round__isnull"] = True  # a registered pair, not a partnership formed for a round
    entrant = get_object_or_404(model, **filters)
    try:
        services.undo_withdrawal(entrant=entrant, by=request.user, reason=request.POST.get("reason", "")[:300])
    except ArbiterError as exc:
        messages.error(request, exc.message)
    else:
        text = {Pair: _("Ritiro della coppia %(n)s annullato: torna in gara."),
                Player: _("Ritiro del giocatore %(n)s annullato: torna in gara."),
                Team: _("Ritiro della squadra %(n)s annullato: torna in gara.")}[model]
        messages.success(request, text % {"n": number})
    return redirect(page, slug=tournament.slug)


@arbiter_view
@require_http_methods(["POST"])
def pair_withdrawal_undo(request, tournament, number):
    """POST ``coppie/<n>/annulla-ritiro/``: pair ``n`` back in play (``services.undo_withdrawal``)."""
    return _undo(request, tournament, "pair", number)


@arbiter_view
@require_http_methods(["POST"])
def player_withdrawal_undo(request, tournament, number):
    """POST ``giocatori/<n>/annulla-ritiro/``: player ``n`` back in play."""
    return _undo(request, tournament, "player", number)


@arbiter_view
@require_http_methods(["POST"])
def team_withdrawal_undo(request, tournament, number):
    """POST ``squadre/<n>/annulla-ritiro/``: team ``n`` back in play."""
    return _undo(request, tournament, "team", number)
