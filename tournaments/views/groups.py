"""The arbiter's groups page (*gironi*, rules.md §14): split the pairs into
G groups for the round-robin rounds, by lot (a seed), by number in a snake, or by hand (a
group field per pair). The write is ``services.split_groups`` (audited); once a round-robin
round is published the page only shows the groups."""
from __future__ import annotations

from django import forms
from django.contrib import messages
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from .. import services
from ..errors import ArbiterError
from ..kinds import kind_of
from ..models import Tournament
from ..wording import by_kind, standings_headings
from .common import arbiter_view


class GroupsForm(forms.Form):
    """How many groups and how to split (the by-hand fields are read apart: one per pair)."""

    count = forms.IntegerField(label=gettext_lazy("Numero di gironi"), min_value=1, max_value=99)
    method = forms.ChoiceField(label=gettext_lazy("Divisione"), choices=Tournament.GroupSplit.choices,
                               widget=forms.RadioSelect, initial=Tournament.GroupSplit.SNAKE)
    seed = forms.IntegerField(
        label=gettext_lazy("Seme del sorteggio"), min_value=1, max_value=10**9, required=False,
        help_text=gettext_lazy("Solo per il sorteggio: vuoto = estratto a caso; con lo stesso seme "
                               "si ottengono gli stessi gironi."))


def _pairs_or_teams(tournament, *, pairs: str, teams: str) -> str:
    """The pairs' sentence, or the teams' in a team tournament (an individual tournament has
    no round-robin rounds, so no groups: rules.md §9, §14)."""
    return by_kind(tournament, pairs=pairs, individual=pairs, teams=teams)


def _hand_assignment(request, tournament, pairs) -> tuple[dict[int, int], list[str]]:
    """``{pair (team) number: group}`` from the ``g<number>`` fields, and the sentences for
    the bad ones (empty or not a number)."""
    assignment, errors = {}, []
    message = _pairs_or_teams(tournament, pairs=_("Coppia %(n)s: scrivi il numero del girone."),
                              teams=_("Squadra %(n)s: scrivi il numero del girone."))
    for pair in pairs:
        raw = (request.POST.get(f"g{pair.number}") or "").strip()
        if not raw.isdecimal():
            errors.append(message % {"n": pair.number})
            continue
        assignment[pair.number] = int(raw)
    return assignment, errors


@arbiter_view
def groups(request, tournament):
    """Show the groups and split the pairs again (POST), until a round-robin round, or a
    round drawn in groups, is published (then the groups are frozen, rules.md §14, §19). An
    individual tournament has no groups: the page says so (§19)."""
    kind = kind_of(tournament)
    if not kind.data.has_groups:
        return render(request, "arbiter/refused.html", {
            "tournament": tournament, "title": _("Gironi"),
            "refusal": services.groups_individual_refusal(),
            "back_url": reverse("tournament", args=[tournament.slug]),
            "back_label": _("Torna al torneo")})
    pairs = list(kind.entrants(tournament).order_by("number"))  # pairs or teams
    frozen = services.groups_frozen_message(tournament)
    form = GroupsForm(request.POST or None, initial={
        "count": tournament.groups, "method": tournament.group_split or Tournament.GroupSplit.SNAKE,
        "seed": tournament.group_seed})
    form.fields["count"].help_text = _pairs_or_teams(
        tournament, pairs=_("1 = un solo girone con tutte le coppie."),
        teams=_("1 = un solo girone con tutte le squadre."))
    if request.method == "POST" and not frozen and form.is_valid():
        d = form.cleaned_data
        assignment, errors = (_hand_assignment(request, tournament, pairs) if d["method"] == "hand"
                              else (None, []))
        for error in errors:
            form.add_error(None, error)
        if not errors:
            try:
                services.split_groups(tournament=tournament, by=request.user, count=d["count"],
                                      method=d["method"], seed=d["seed"], assignment=assignment)
            except ArbiterError as exc:
                form.add_error(None, exc.message)
            else:
                done = _pairs_or_teams(tournament, pairs=_("Coppie divise in %(g)s gironi."),
                                       teams=_("Squadre divise in %(g)s gironi."))
                messages.success(request, done % {"g": d["count"]})
                return redirect("groups", slug=tournament.slug)
    lists = services.group_lists(tournament) if tournament.groups > 1 else []
    by_number = {p.number: p for p in pairs}
    sections = [{"group": k, "pairs": [by_number[n] for n in members if n in by_number]}
                for k, members in enumerate(lists, start=1)]
    number_heading, name_heading = standings_headings(tournament)
    return render(request, "arbiter/groups.html", {
        "tournament": tournament, "form": form, "pairs": pairs, "frozen": frozen,
        "number_heading": number_heading, "name_heading": name_heading,
        "sections": sections, "refusal": services.groups_refusal(tournament),
        "posted": request.POST if request.method == "POST" else {},
    })
