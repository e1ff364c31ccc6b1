"""Withdrawals and late pairs (art. 32–33).
"""
from __future__ import annotations

from django import forms
from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from .. import services
from ..errors import ArbiterError
from ..forms import MAX_ROUND_NUMBER, PairForm
from ..kinds import kind_of
from ..models import Pair, Round, Table, Tournament
from ..wording import by_kind
from .common import arbiter_view
from .rounds import _int_field, _round_redirect


class WithdrawForm(forms.Form):
    pair = forms.TypedChoiceField(label=gettext_lazy("Coppia"), coerce=int)
    from_round = forms.IntegerField(label=gettext_lazy("Ritirata dal turno"), min_value=1,
                                    max_value=MAX_ROUND_NUMBER)
    reason = forms.CharField(label=gettext_lazy("Motivo"), max_length=300)

    def __init__(self, *args, tournament: Tournament, **kwargs):
        super().__init__(*args, **kwargs)
        pairs = tournament.pairs.filter(round__isnull=True, status=Pair.Status.ACTIVE).prefetch_related("members").order_by("number")
        self.fields["pair"].choices = [(p.number, f"{p.number} {p.name}") for p in pairs]


def first_open_round(tournament: Tournament) -> int:
    """The first round not closed (drawn or not): where a withdrawal takes effect."""
    last = tournament.rounds.order_by("-number").first()
    if last is None:
        return 1
    return last.number + 1 if last.state == Round.State.CLOSED else last.number


def _not_for_pairs(request, tournament):
    """A pair-only page asked for in a team or individual tournament: a redirect to the page
    that holds that kind's withdrawals and late entrants (the Squadre or Giocatori page), with
    a sentence saying where to go; ``None`` for a pair tournament."""
    page = kind_of(tournament).data.entrants_page
    if page == "pairs":
        return None
    messages.info(request, by_kind(
        tournament, pairs="",
        individual=_("In un torneo individuale ritiri e giocatori tardivi si gestiscono dalla pagina Giocatori."),
        teams=_("In un torneo a squadre ritiri e squadre tardive si gestiscono dalla pagina Squadre.")))
    return redirect(page, slug=tournament.slug)


@arbiter_view
def pair_withdraw(request, tournament):
    """Withdraw a pair from round k (art. 32): its opponent there gets the forced rest.
    GET ``?coppia=<n>&turno=<k>`` preselects; the page is the confirmation. A team or
    individual tournament is sent to its own page (:func:`_not_for_pairs`)."""
    other = _not_for_pairs(request, tournament)
    if other is not None:
        return other
    initial = {"pair": _int_field(request, "coppia"),
               "from_round": _int_field(request, "turno") or first_open_round(tournament)}
    form = WithdrawForm(request.POST or None, tournament=tournament, initial=initial)
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        pair = get_object_or_404(Pair, tournament=tournament, number=d["pair"])
        try:
            services.withdraw_pair(pair=pair, from_round=d["from_round"], by=request.user, reason=d["reason"])
        except ArbiterError as exc:
            form.add_error(None, exc.message)
        else:
            messages.success(request, _("Coppia %(n)s ritirata dal turno %(k)s.") % {"n": pair.number,
                                                                                 "k": d["from_round"]})
            rnd = tournament.rounds.filter(number=d["from_round"]).first()
            if rnd is not None:
                forced = rnd.tables.filter(bye=Table.Bye.FORCED).prefetch_related("seats__pair")
                for t in forced:
                    messages.info(request, _("Tavolo %(t)s: riposo forzato per la coppia %(p)s.")
                                  % {"t": t.number, "p": t.resting_pair.number})
                return _round_redirect(rnd)
            return redirect("tournament", slug=tournament.slug)
    return render(request, "arbiter/pair_withdraw.html", {"tournament": tournament, "form": form})


class LatePairForm(PairForm):
    number = None  # a late pair takes the next free number


@arbiter_view
def late_pair(request, tournament):
    """A late pair (art. 33): only during round 1, to complete the incomplete table.
    When that is not possible the page says why before any form, and no form that
    could only be refused. A team or
    individual tournament is sent to its own page (:func:`_not_for_pairs`)."""
    other = _not_for_pairs(request, tournament)
    if other is not None:
        return other
    refusal = services.late_pair_refusal(tournament)
    if refusal and request.method != "POST":
        first = tournament.rounds.filter(number=1).first()
        back = reverse("round", args=[tournament.slug, 1]) if first else reverse("pairs", args=[tournament.slug])
        return render(request, "arbiter/refused.html", {
            "tournament": tournament, "title": _("Coppia tardiva"), "refusal": refusal,
            "other_url": None if tournament.rounds.exists() else reverse("pair_add", args=[tournament.slug]),
            "other_label": _("Aggiungi coppia"),
            "back_url": back, "back_label": _("Torna al turno 1") if first else _("Torna alle coppie"),
        })
    form = LatePairForm(request.POST or None, tournament=tournament)
    if request.method == "POST" and form.is_valid():
        try:
            pair = services.add_late_pair(tournament=tournament, players=form.players(), by=request.user)
        except ArbiterError as exc:
            form.add_error(None, exc.message)
        else:
            messages.success(request, _("Coppia tardiva %(n)s inserita al tavolo zoppo del turno 1.")
                             % {"n": pair.number})
            return redirect("round", slug=tournament.slug, number=1)
    rnd = tournament.rounds.filter(number=1).first()
    return render(request, "arbiter/late_pair.html", {"tournament": tournament, "form": form, "round": rnd})


