"""Lateness (*ritardo*, rules.md §22) from the round page: one POST records it (penalty
beyond 5 minutes, forfeit beyond 10), another takes it back until the round closes. Every
kind: the number typed is the pair's, the player's or the team's; the service
(``services.lateness``) refuses anything else with a sentence."""
from __future__ import annotations

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from ..models import Round
from ..services.lateness import record_lateness, undo_lateness
from ..wording import by_kind
from .common import arbiter_view


@arbiter_view
@require_POST
def round_lateness(request, tournament, number):
    """POST ``pair`` (the entrant's number) and ``minutes`` (record) or ``pair`` and
    ``undo=1`` (take back)."""
    rnd = get_object_or_404(Round, tournament=tournament, number=number)
    pair = request.POST.get("pair", "")
    if request.POST.get("undo"):
        undo_lateness(round=rnd, pair_number=pair, by=request.user)
        messages.success(request, by_kind(tournament, pairs=_("Ritardo della coppia %(n)s annullato."),
                                          individual=_("Ritardo del giocatore %(n)s annullato."),
                                          teams=_("Ritardo della squadra %(n)s annullato."))
                         % {"n": pair.strip()[:12]})
    else:
        done = record_lateness(round=rnd, pair_number=pair, minutes=request.POST.get("minutes", ""),
                               by=request.user)
        if done["kind"] == "penalty":
            messages.success(request, by_kind(tournament, pairs=_("Ritardo della coppia %(n)s: penalità di %(mp)s MP."),
                                              individual=_("Ritardo del giocatore %(n)s: penalità di %(mp)s MP."),
                                              teams=_("Ritardo della squadra %(n)s: penalità di %(mp)s MP."))
                             % {"n": done["entrant"], "mp": done["mp"]})
        else:
            messages.success(request, by_kind(
                tournament,
                pairs=_("Ritardo della coppia %(n)s oltre 10 minuti: partita persa a tavolino al tavolo %(t)s."),
                individual=_("Ritardo del giocatore %(n)s oltre 10 minuti: partita persa a tavolino al tavolo "
                             "%(t)s."),
                teams=_("Ritardo della squadra %(n)s oltre 10 minuti: partita persa a tavolino ai tavoli %(t)s."))
                % {"n": done["entrant"], "t": ", ".join(map(str, done["tables"]))})
    return redirect("round", slug=tournament.slug, number=rnd.number)
