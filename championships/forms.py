"""The championship's settings form (rules.md §17)."""
from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from scoring import championship as rules


class ChampionshipForm(forms.Form):
    """Name, points rule, best N (blank: all), minimum evenings, public switches; a new
    championship also takes its slug."""

    slug = forms.SlugField(label=_("Indirizzo breve (nell'URL)"), max_length=80, required=False)
    name = forms.CharField(label=_("Nome"), max_length=200)
    points = forms.CharField(label=_("Punti di una serata"), max_length=2000, initial="field",
                             help_text=_("field = N − posizione + 1; table:25,18,15… = punti per posizione; "
                                         "vp = i VP finali. A pari merito la media delle posizioni coperte."))
    best = forms.IntegerField(label=_("Migliori serate contate"), required=False, min_value=1, max_value=1000,
                              help_text=_("Vuoto: tutte."))
    min_evenings = forms.IntegerField(label=_("Minimo di serate"), initial=1, min_value=1, max_value=1000)
    public_enabled = forms.BooleanField(label=_("Pagina pubblica attiva"), required=False)
    projector_enabled = forms.BooleanField(label=_("Vista proiettore attiva"), required=False)

    def clean_points(self):
        try:
            return rules.parse_points_rule(self.cleaned_data["points"]).text
        except rules.RuleError as exc:
            raise forms.ValidationError(str(exc)) from None
