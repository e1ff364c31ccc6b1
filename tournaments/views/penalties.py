"""The arbiter's penalties page (rules.md §3, art. 23): VP taken off a pair in the overall
standings, which give nothing to the opponents. Writes go through
``services.add_penalty`` / ``services.remove_penalty`` (each audited); the standings engine
deducts them (``StandingRow.penalty``)."""
from __future__ import annotations

from decimal import Decimal

from django import forms
from django.contrib import messages
from django.db.models import Prefetch
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring.vp import format_vp

from .. import services
from ..errors import ArbiterError
from ..models import Pair, Penalty, Player
from .common import arbiter_view


class PenaltyForm(forms.Form):
    pair = forms.IntegerField(label=gettext_lazy("Coppia (numero)"), min_value=1)
    vp = forms.DecimalField(
        label=gettext_lazy("VP da togliere"), max_digits=6, decimal_places=2, min_value=Decimal("0.01"),
        help_text=gettext_lazy("Un numero positivo: 1 toglie un VP."),
    )
    reason = forms.CharField(label=gettext_lazy("Motivo"), max_length=200)
    round_number = forms.IntegerField(
        label=gettext_lazy("Turno"), min_value=1, required=False,
        help_text=gettext_lazy("Facoltativo: le classifiche dei turni precedenti non la contano."),
    )

    def __init__(self, *args, tournament, **kwargs):
        super().__init__(*args, **kwargs)
        self.tournament = tournament

    def clean_pair(self):
        number = self.cleaned_data["pair"]
        pair = Pair.objects.filter(tournament=self.tournament, number=number).first()
        if pair is None:
            raise forms.ValidationError(_("Nessuna coppia con il numero %(n)s in questo torneo.") % {"n": number})
        return pair

    def clean_reason(self):
        reason = self.cleaned_data["reason"].strip()
        if not reason:
            raise forms.ValidationError(_("Indica il motivo della penalità."))
        return reason


@arbiter_view
def penalty_list(request, tournament):
    """List every penalty of the tournament and add one (POST)."""
    form = PenaltyForm(request.POST or None, tournament=tournament)
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        try:
            services.add_penalty(pair=d["pair"], vp=d["vp"], reason=d["reason"],
                                 round_number=d["round_number"], by=request.user)
        except ArbiterError as exc:
            form.add_error(None, exc.message)
        else:
            messages.success(request, _("Penalità di %(vp)s VP alla coppia %(n)s registrata.")
                             % {"vp": format_vp(d["vp"]), "n": d["pair"].number})
            return redirect("penalties", slug=tournament.slug)
    penalties = (
        Penalty.objects.filter(tournament=tournament)
        .select_related("pair", "created_by")
        .prefetch_related(Prefetch("pair__members", queryset=Player.objects.order_by("seat")))
        .order_by("created_at", "id")
    )
    rows = [{"penalty": p, "vp": format_vp(p.vp)} for p in penalties]
    return render(request, "arbiter/penalties.html", {"tournament": tournament, "form": form, "rows": rows})


@arbiter_view
def penalty_remove(request, tournament, pk):
    """Confirm (with a reason), then cancel a penalty; the audit trail keeps it."""
    penalty = get_object_or_404(Penalty.objects.select_related("pair"), pk=pk, tournament=tournament)
    if request.method == "POST":
        services.remove_penalty(penalty=penalty, by=request.user, reason=request.POST.get("reason", "").strip())
        messages.success(request, _("Penalità tolta alla coppia %(n)s.") % {"n": penalty.pair.number})
        return redirect("penalties", slug=tournament.slug)
    return render(request, "arbiter/confirm.html", {
        "tournament": tournament,
        "title": _("Togliere la penalità alla coppia %(n)s?") % {"n": penalty.pair.number},
        "text": _("−%(vp)s VP: %(reason)s") % {"vp": format_vp(penalty.vp), "reason": penalty.reason},
        "button": _("Togli la penalità"),
        "ask_reason": True,
    })
