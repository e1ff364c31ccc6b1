"""The arbiter's penalties page (rules.md §3, art. 23: "1 V.P. o equivalente"): VP or MP
taken off a pair in the overall standings, which give nothing to the opponents (an MP
penalty lowers the pair's MP difference and MP scored, never the table's result). Writes go through
``services.add_penalty`` / ``services.remove_penalty`` (each audited); the standings engine
deducts them (``StandingRow.penalty``). In a team tournament (rules.md §15) the penalties go
to teams: the form offers the teams, an MP penalty lowers the team's total match margin."""
from __future__ import annotations

from decimal import Decimal

from django import forms
from django.contrib import messages
from django.db.models import Prefetch
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from .. import services
from ..errors import ArbiterError
from ..forms import MAX_ENTRANT_NUMBER, MAX_ROUND_NUMBER
from ..kinds import kind_of
from ..models import Pair, Penalty, Player, Team
from ..wording import vp_display, withdrawn_mark
from .common import arbiter_view


class EntrantChoiceField(forms.ModelChoiceField):
    """A pair or team offered by number and name ("3 Rossi Anna – Verdi Bruno"), posted as
    its number (``to_field_name="number"``), so the arbiter picks the entrant he means."""

    def label_from_instance(self, obj) -> str:
        if isinstance(obj, Pair):
            name = " – ".join(p.display_name for p in obj.players) or obj.name
        else:
            name = obj.name
        mark = f" ({withdrawn_mark(obj.tournament)})" if getattr(obj, "status", "") == "withdrawn" else ""
        return f"{obj.number} {name}{mark}"

    def to_python(self, value):
        # a posted number is looked up in the database: one no entrant can have (not digits,
        # or beyond the entry-number bound) is refused before the query (a 20-digit number
        # overflows SQLite's integer)
        if value not in self.empty_values and (not str(value).strip().isdecimal()
                                               or int(str(value).strip()) > MAX_ENTRANT_NUMBER):
            raise forms.ValidationError(self.error_messages["invalid_choice"], code="invalid_choice")
        return super().to_python(value)


class PenaltyForm(forms.Form):
    pair = EntrantChoiceField(
        label=gettext_lazy("Coppia"), queryset=Pair.objects.none(), to_field_name="number", empty_label="—",
        error_messages={"invalid_choice": gettext_lazy("Scegli una coppia del torneo.")})
    vp = forms.DecimalField(
        label=gettext_lazy("VP da togliere"), max_digits=6, decimal_places=2, min_value=Decimal("0.01"),
        required=False,
        help_text=gettext_lazy("Un numero positivo: 1 toglie un VP."),
    )
    mp = forms.IntegerField(
        label=gettext_lazy("oppure MP da togliere"), min_value=1, max_value=100000, required=False,
        help_text=gettext_lazy("Un numero intero: toglie MP allo scarto e agli MP fatti della coppia, "
                               "non al risultato del tavolo. Indica VP oppure MP, non entrambi."),
    )
    reason = forms.CharField(label=gettext_lazy("Motivo"), max_length=200)
    round_number = forms.IntegerField(
        label=gettext_lazy("Turno"), min_value=1, max_value=MAX_ROUND_NUMBER, required=False,
        help_text=gettext_lazy("Facoltativo: senza turno vale per il turno in corso (o l'ultimo chiuso); "
                               "le classifiche dei turni precedenti non la contano."),
    )

    def __init__(self, *args, tournament, **kwargs):
        super().__init__(*args, **kwargs)
        self.tournament = tournament
        self.fields["pair"].queryset = (
            Pair.objects.filter(tournament=tournament, round__isnull=True).select_related("tournament")
            .prefetch_related(Prefetch("members", queryset=Player.objects.order_by("seat"))).order_by("number"))
        if kind_of(tournament).data.penalty_refusals["pair"]:  # rules.md §15: a team tournament penalises teams
            del self.fields["pair"]
            self.fields["team"] = EntrantChoiceField(
                label=gettext_lazy("Squadra"),
                queryset=Team.objects.filter(tournament=tournament).select_related("tournament").order_by("number"),
                empty_label="—", error_messages={"invalid_choice": gettext_lazy("Scegli una squadra del torneo.")})
            self.fields["mp"].help_text = gettext_lazy(
                "Un numero intero: toglie MP allo scarto totale degli incontri della squadra, non al risultato "
                "dell'incontro. Indica VP oppure MP, non entrambi.")
            self.order_fields(["team"])

    def clean(self):
        data = super().clean()
        if self.errors.get("vp") or self.errors.get("mp"):
            return data
        if (data.get("vp") is None) == (data.get("mp") is None):
            raise forms.ValidationError(_("Indica la penalità in VP oppure in MP (uno solo dei due)."))
        return data

    def clean_reason(self):
        reason = self.cleaned_data["reason"].strip()
        if not reason:
            raise forms.ValidationError(_("Indica il motivo della penalità."))
        return reason


def amount_text(penalty: Penalty) -> str:
    """"−1 VP", "−1,5 VP" (the page's decimal separator: :func:`wording.vp_display`) or
    "−100 MP"."""
    return f"−{penalty.mp} MP" if penalty.mp else f"−{vp_display(penalty.vp)} VP"


@arbiter_view
def penalty_list(request, tournament):
    """List every penalty of the tournament and add one (POST)."""
    form = PenaltyForm(request.POST or None, tournament=tournament)
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        target = "team" if "team" in form.fields else "pair"  # the entrant the form offers
        who = {target: d[target]}
        try:
            penalty = services.add_penalty(**who, vp=d["vp"] or 0, mp=d["mp"] or 0, reason=d["reason"],
                                           round_number=d["round_number"], by=request.user)
        except ArbiterError as exc:
            form.add_error(None, exc.message)
        else:
            done = (_("Penalità di %(amount)s alla squadra %(n)s registrata (turno %(round)s).") if target == "team"
                    else _("Penalità di %(amount)s alla coppia %(n)s registrata (turno %(round)s)."))
            entrant = d[target]
            messages.success(request, done % {"amount": amount_text(penalty), "n": entrant.number,
                                              "round": penalty.round_number})
            return redirect("penalties", slug=tournament.slug)
    penalties = (
        Penalty.objects.filter(tournament=tournament)
        .select_related("pair", "player", "team", "created_by")
        .prefetch_related(Prefetch("pair__members", queryset=Player.objects.order_by("seat")))
        .order_by("created_at", "id")
    )
    rows = [{"penalty": p, "amount": amount_text(p)} for p in penalties]
    return render(request, "arbiter/penalties.html", {"tournament": tournament, "form": form, "rows": rows})


@arbiter_view
def penalty_remove(request, tournament, pk):
    """Confirm (with a reason), then cancel a penalty; the audit trail keeps it."""
    penalty = get_object_or_404(Penalty.objects.select_related("pair", "player", "team"), pk=pk, tournament=tournament)
    if penalty.team_id:  # rules.md §15: a team's penalty
        done, title = _("Penalità tolta alla squadra %(n)s."), _("Togliere la penalità alla squadra %(n)s?")
        number = penalty.team.number
    elif penalty.player_id:  # rules.md §9: a player's penalty
        done, title = _("Penalità tolta al giocatore %(n)s."), _("Togliere la penalità al giocatore %(n)s?")
        number = penalty.player.number
    else:
        done, title = _("Penalità tolta alla coppia %(n)s."), _("Togliere la penalità alla coppia %(n)s?")
        number = penalty.pair.number
    if request.method == "POST":
        services.remove_penalty(penalty=penalty, by=request.user, reason=request.POST.get("reason", "").strip())
        messages.success(request, done % {"n": number})
        return redirect("penalties", slug=tournament.slug)
    return render(request, "arbiter/confirm.html", {
        "tournament": tournament,
        "title": title % {"n": number},
        "text": _("%(amount)s: %(reason)s") % {"amount": amount_text(penalty), "reason": penalty.reason},
        "button": _("Togli la penalità"),
        "ask_reason": True,
    })
