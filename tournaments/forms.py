"""Forms of the arbiter's pages (Django forms: validation at the boundary)."""
from __future__ import annotations

import json

from django import forms
from django.utils.html import format_html, format_html_join
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _

from members.forms import MembershipNumberField
from scoring.standings import TIEBREAKS

from . import selectors
from .clock import PRESET_3_HANDS_35, default_round_minutes
from .errors import ArbiterError
from .kinds import KINDS, kind_of
from .models import Pair, Player, Tournament
from .plans import plan_change_refusal, plan_refusal
from .registrations import limits
from .services import PlayerData

TIEBREAK_LABELS = {  # one name per criterion, as the standings page, PDF and XLSX head it
    "vp": _("VP totali"),
    "mp_difference": _("Scarto MP"),
    "head_to_head": _("Scontro diretto"),
    "mp_scored": _("MP fatti"),
}


#: The settings page's note on the built-in team table (rules.md §15): where its bands come
#: from, and that no federation text was found to check them.
TEAM_SCALE_HELP = _(
    "«20 VP, scarto dell'incontro a squadre» (vp20-teams): 0–150 MP 10–10 … 2505 MP e oltre 20–0, la "
    "tabella «A squadre» di un'app pubblica di punteggi del burraco. Non è stato trovato un testo "
    "federale per verificarla: controllala col regolamento del torneo, oppure usa una tabella "
    "personalizzata. Il risultato predefinito resta la somma dei due tavoli.")


class TiebreakChooser(forms.MultiWidget):
    """The tie-break order as one select per place (1st, 2nd, … criterion) with the Italian
    names (rules.md §8: each step a setting); no JavaScript. Posted as ``tiebreaks_0`` … ``tiebreaks_3``; a
    plain ``tiebreaks=vp,mp_difference`` (scripts, older forms) is still read."""

    def __init__(self, attrs=None, keys=TIEBREAKS):
        choices = [("", "—")] + [(k, TIEBREAK_LABELS[k]) for k in keys]
        super().__init__([forms.Select(choices=choices) for _key in keys], attrs)

    def decompress(self, value):
        keys = [k.strip() for k in (value or "").split(",") if k.strip()]
        return keys + [""] * (len(self.widgets) - len(keys))

    def value_from_datadict(self, data, files, name):
        if f"{name}_0" not in data and name in data:
            return self.decompress(data.get(name))
        return super().value_from_datadict(data, files, name)

    def value_omitted_from_data(self, data, files, name):
        return name not in data and super().value_omitted_from_data(data, files, name)

    def render(self, name, value, attrs=None, renderer=None):
        context = self.get_context(name, value, attrs)
        items = []
        for place, sub in enumerate(context["widget"]["subwidgets"], start=1):
            widget = self.widgets[place - 1]
            sub_attrs = dict(sub["attrs"])
            sub_attrs["aria-label"] = _("%(n)s° criterio") % {"n": place}
            if place > 1:  # only the first criterion is needed; "—" stops the list
                sub_attrs.pop("required", None)
            html = widget.render(sub["name"], sub["value"][0] if sub["value"] else "", sub_attrs, renderer)
            items.append((place, html))
        return format_html('<ol class="tiebreaks" id="{}">{}</ol>', (attrs or {}).get("id", f"id_{name}"),
                           format_html_join("", '<li><span class="muted">{}°</span> {}</li>', items))


class TiebreakField(forms.Field):
    """The ordered tie-break keys as the stored comma list ("vp,mp_difference,…"): order kept,
    blanks skipped; unknown keys, a key chosen twice or none at all refused (scoring.standings)."""

    widget = TiebreakChooser

    def to_python(self, value):
        if isinstance(value, str):
            value = value.split(",")
        keys = [str(k).strip() for k in (value or []) if k is not None and str(k).strip()]
        if not keys:
            raise forms.ValidationError(_("Scegli almeno un criterio di spareggio."))
        unknown = [k for k in keys if k not in TIEBREAKS]
        if unknown:
            raise forms.ValidationError(_("Criterio di spareggio sconosciuto: %(keys)s.") % {"keys": ", ".join(unknown)})
        twice = sorted({TIEBREAK_LABELS[k] for k in keys if keys.count(k) > 1}, key=str)
        if twice:
            raise forms.ValidationError(
                _("Ogni criterio si sceglie una volta sola: %(names)s ripetuto.") % {"names": ", ".join(map(str, twice))})
        return ",".join(keys)

    def has_changed(self, initial, data):
        try:
            return self.to_python(data) != (initial or "")
        except forms.ValidationError:
            return True


def unique_slug(name: str, *, exclude_pk=None) -> str:
    """The tournament's short address from its name: ``slugify(name)``
    ("Torneo d'Autunno 2026" → "torneo-dautunno-2026"), "torneo" when nothing is left,
    made unique among tournaments with -2, -3, … (the field holds 80 characters)."""
    base = (slugify(name) or "torneo")[:72].strip("-") or "torneo"
    taken = Tournament.objects.filter(slug__startswith=base)
    if exclude_pk is not None:
        taken = taken.exclude(pk=exclude_pk)
    used = set(taken.values_list("slug", flat=True))
    if base not in used:
        return base
    n = 2
    while f"{base}-{n}" in used:
        n += 1
    return f"{base}-{n}"


def slug_address_example() -> str:
    """The address of a tournament's arbiter page with "indirizzo-breve" as its short address,
    as the server routes it ("…/tornei/indirizzo-breve/"): the help of the short-address
    fields shows the real address, reversed, never written by hand."""
    from django.urls import reverse

    return "…" + reverse("tournament", args=[_("indirizzo-breve")])


PLAN_HELP = _("Una lettera per turno: M = Mitchell (in un individuale: movimento individuale; non per le "
              "squadre), D = danese, R = girone all'italiana (coppie e squadre; gironi nella pagina «Gironi»); "
              "| separa due sessioni "
              "(es. MMD|DD = 5 turni in 2 sessioni). A torneo in corso si aggiunge una "
              "sessione in fondo (es. |DD); i turni già generati non cambiano.")

REMATCH_CHOICES = {
    Tournament.RematchWindow.ALL: _("Nessuna rivincita"),
    Tournament.RematchWindow.PREVIOUS: _("Non con l'avversario del turno prima"),
    Tournament.RematchWindow.NONE: _("Rivincite ammesse"),
}
REMATCH_HELP = _("Nei turni danesi: «Nessuna rivincita» = mai contro un avversario già incontrato; "
                 "«Non con l'avversario del turno prima» = solo l'ultimo incontro è escluso.")

INDIVIDUAL_TIEBREAK_HELP = _("Torneo individuale: VP totali, poi scarto MP, poi MP fatti, per giocatore "
                             "(regole §9). Lo scontro diretto non si applica: i giocatori si incontrano "
                             "in coppie che cambiano ogni turno.")

# Settings that apply to one kind of tournament only: the Mitchell step moves
# pairs (an individual M is the prepared movement, a team plan has no M); the team settings
# (rules.md §15) are for teams. The settings page leaves the other kinds' fields out; the
# create form marks them ``data-kinds`` and static/js/tournament_form.js hides them.
KIND_FIELDS = {
    "mitchell_step": ("pairs",),
    # rules.md §7: pairs and teams; the individual Danish keeps its no-repeated-partner rule
    "last_round_rematches": ("pairs", "teams"),
    "team_result": ("teams",), "team_scale": ("teams",),
    "team_min_players": ("teams",), "team_max_players": ("teams",),
}


def first_round_number_labels() -> dict[str, str]:
    """The label of the first round "by number" per kind (``{"pairs": "Per numero di
    coppia", "individual": "Per numero di giocatore", "teams": "Per numero di squadra"}``)."""
    return {"pairs": str(Tournament.FirstRound.NUMBER.label), "individual": str(_("Per numero di giocatore")),
            "teams": str(_("Per numero di squadra"))}


FROZEN_REASON = _("Fissato dalla pubblicazione del turno 1: cambierebbe risultati già inseriti (regole §12).")


class TournamentForm(forms.ModelForm):
    vp_scale = forms.ChoiceField(label=_("Tabella VP"), initial=Tournament._meta.get_field("vp_scale").default)
    slug = forms.SlugField(label=_("Indirizzo breve (nell'URL)"), max_length=80, required=False)
    tiebreaks = TiebreakField(
        label=_("Spareggi, in ordine"), initial=Tournament._meta.get_field("tiebreaks").default,
        help_text=_("A parità di VP si guarda il 1° criterio, poi il 2°, e così via; «—» per fermarsi."),
    )

    class Meta:
        model = Tournament
        fields = [
            "name", "slug", "date", "venue", "kind", "plan", "hands_per_round", "vp_scale",
            "mitchell_step", "first_round", "rematch_window", "last_round_rematches", "bye_percent", "bye_mp",
            "tiebreaks", "rule_set", "minutes_per_round", "membership_check",
            "missing_membership",
            "team_result", "team_scale", "team_min_players", "team_max_players",
            "organising_club", "arbiter_name",
        ]
        widgets = {"date": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")}

    def __init__(self, *args, frozen=(), locked=None, club=None, **kwargs):
        """``club``: the club of a new tournament (an edited one's is its own): its custom
        VP scales are the ones offered (rules.md §20). ``frozen``: names of settings that may no longer change
        (``services.frozen_settings``): shown disabled with the reason (rules.md §12);
        a disabled field keeps the tournament's value whatever is posted. ``locked``: more
        such settings, each with its own reason (``{"kind": "…"}``,
        ``services.kind_change_refusal``)."""
        super().__init__(*args, **kwargs)
        # The kind may still change on the settings page (no entrant, no round): the kind
        # select is marked for static/js/tournament_form.js, as on the create form, so the
        # plan and the tie-breaks follow it live (the other kinds' fields stay out).
        self.kind_open = self.instance.pk is None or not ((locked or {}).get("kind") or "kind" in frozen)
        self._fields_by_kind()
        excluded = kind_of(self.instance).data.excluded_tiebreaks if self.instance.pk is not None else ()
        if excluded and not self.kind_open:
            # only the criteria that apply (rules.md §9: head-to-head has no meaning per player)
            keys = [k for k in TIEBREAKS if k not in excluded]
            self.fields["tiebreaks"].widget = TiebreakChooser(keys=keys)
            self.initial["tiebreaks"] = ",".join(selectors.applied_tiebreaks(self.instance))
            self.fields["tiebreaks"].help_text = INDIVIDUAL_TIEBREAK_HELP
        for name, reason in (locked or {}).items():
            if name in self.fields:
                self.fields[name].disabled = True
                self.fields[name].help_text = reason
        scale_club = self.instance.club if self.instance.pk is not None else club
        self.fields["vp_scale"].choices = selectors.scales.scale_choices(scale_club)
        self.frozen = [name for name in frozen if name in self.fields]
        for name in self.frozen:
            field = self.fields[name]
            field.disabled = True
            field.help_text = FROZEN_REASON
            field.widget.attrs["aria-describedby"] = "frozen-note"
        if "minutes_per_round" in self.fields:  # rules.md §11: blank = 10 × hands + 2
            self.fields["minutes_per_round"].widget.attrs.update({"min": 1, "max": 600, "list": "minutes-presets"})
        for name, low, high in (("hands_per_round", 1, None), ("mitchell_step", 1, None), ("bye_percent", 0, 100)):
            if name in self.fields:  # the browser says it before the form is sent
                self.fields[name].widget.attrs["min"] = low
                if high is not None:
                    self.fields[name].widget.attrs["max"] = high
        if "plan" in self.fields:
            self.fields["plan"].help_text = PLAN_HELP
        if "rematch_window" in self.fields and not self.fields["rematch_window"].disabled:
            # Choices short enough to be read whole in a select on a phone; the help says them in full.
            self.fields["rematch_window"].choices = list(REMATCH_CHOICES.items())
            self.fields["rematch_window"].help_text = REMATCH_HELP
        if "membership_check" in self.fields:  # rules.md §16; absent from a post = unchanged
            self.fields["membership_check"].required = False
            self.fields["membership_check"].help_text = _(
                "Tessera sconosciuta (assente dagli elenchi soci importati) o scaduta alla data del torneo.")
        if "missing_membership" in self.fields:  # rules.md §16; absent from a post = unchanged
            self.fields["missing_membership"].required = False
            self.fields["missing_membership"].help_text = _(
                "Giocatore iscritto senza numero di tessera (un ospite), quando è stato importato un elenco "
                "soci. Indipendente dalle tessere sconosciute o scadute: si possono rifiutare quelle e "
                "accogliere gli ospiti.")
        self.fields["slug"].widget.attrs.update({"data-slug-from": "id_name", "autocapitalize": "none"})
        self.fields["slug"].help_text = _("Compare negli indirizzi del torneo (%(address)s). Vuoto: ricavato "
                                          "dal nome.") % {"address": slug_address_example()}
        # The team settings (rules.md §15) are optional in a post: a form that does
        # not show them keeps the defaults.
        for name in ("team_result", "team_scale", "team_min_players", "team_max_players"):
            if name in self.fields:
                self.fields[name].required = False
        if "team_scale" in self.fields and not self.fields["team_scale"].disabled:
            self.fields["team_scale"] = forms.ChoiceField(
                label=_("Tabella VP a squadre (solo per lo scarto sommato)"), required=False,
                choices=[("", "—")] + selectors.scales.team_scale_choices(scale_club),
                help_text=TEAM_SCALE_HELP)
        self._mark_kinds()

    def _fields_by_kind(self):
        """The settings page shows the fields of the tournament's kind only: the others
        (:data:`KIND_FIELDS`) leave the form, so saving keeps their stored values untouched;
        the first round's "by number" is labelled by kind."""
        if self.instance.pk is None:
            return
        for name, kinds in KIND_FIELDS.items():
            if self.instance.kind not in kinds:
                self.fields.pop(name, None)
        label = first_round_number_labels().get(self.instance.kind)
        if "first_round" in self.fields and label:
            self.fields["first_round"].choices = [
                (value, label if value == Tournament.FirstRound.NUMBER else text)
                for value, text in self.fields["first_round"].choices]

    def _mark_kinds(self):
        """The create form keeps every field, each kind-only one marked ``data-kinds`` (its
        kinds, space separated) and the first round's select ``data-number-labels`` (JSON by
        kind), for static/js/tournament_form.js (which also hides head-to-head among the
        tie-breaks of an individual tournament, rules.md §9); the server checks stay."""
        if not self.kind_open:
            return
        for name, kinds in KIND_FIELDS.items():
            if name in self.fields:
                self.fields[name].widget.attrs["data-kinds"] = " ".join(kinds)
        if "first_round" in self.fields:
            self.fields["first_round"].widget.attrs["data-number-labels"] = json.dumps(first_round_number_labels())
        if "kind" in self.fields:
            self.fields["kind"].widget.attrs["data-kind-select"] = ""

    def _team_default(self, name):
        value = self.cleaned_data.get(name)
        if value in (None, ""):
            if self.instance.pk is not None:
                return getattr(self.instance, name)
            return Tournament._meta.get_field(name).default
        return value

    def clean_team_result(self):
        return self._team_default("team_result")

    def clean_team_min_players(self):
        return self._team_default("team_min_players")

    def clean_team_max_players(self):
        return self._team_default("team_max_players")

    def clean_membership_check(self):
        """rules.md §16: a form sent without the field keeps the tournament's setting."""
        return self._team_default("membership_check")

    def clean_missing_membership(self):
        """rules.md §16: a form sent without the field keeps the tournament's setting."""
        return self._team_default("missing_membership")

    def clean_team_scale(self):
        return self.cleaned_data.get("team_scale") or ""

    # The model's CheckConstraints (tournament_hands_positive, tournament_step_positive,
    # tournament_bye_percent_range) checked here with plain sentences, so the arbiter never
    # reads a constraint name.
    @property
    def minutes_presets(self) -> list[tuple[int, str]]:
        """Choices offered for the minutes per round (rules.md §11): 10 × hands + 2 for 2,
        3 and 4 hands, and "3 hands in 35 minutes"."""
        hands, minutes = PRESET_3_HANDS_35
        presets = [(default_round_minutes(h), _("%(h)s smazzate (10 minuti a smazzata + 2)") % {"h": h})
                   for h in (2, 3, 4)]
        presets.append((minutes, _("%(h)s smazzate in %(m)s minuti") % {"h": hands, "m": minutes}))
        return presets

    def clean_minutes_per_round(self):
        minutes = self.cleaned_data.get("minutes_per_round")
        if minutes is not None and not 1 <= minutes <= 600:
            raise forms.ValidationError(_("I minuti per turno vanno da 1 a 600 (vuoto = 10 a smazzata + 2)."))
        return minutes

    def clean_hands_per_round(self):
        hands = self.cleaned_data["hands_per_round"]
        if hands is not None and hands < 1:
            raise forms.ValidationError(_("Le smazzate per turno devono essere almeno 1."))
        if hands is not None and hands > limits.MAX_HANDS:
            raise forms.ValidationError(
                _("Le smazzate per turno sono al massimo %(max)s.") % {"max": limits.MAX_HANDS})
        return hands

    def clean_mitchell_step(self):
        step = self.cleaned_data["mitchell_step"]
        if step is not None and step < 1:
            raise forms.ValidationError(
                _("Il salto Mitchell deve essere almeno 1 (1 = ogni coppia E/O avanza di un tavolo)."))
        return step

    def clean_bye_percent(self):
        percent = self.cleaned_data["bye_percent"]
        if percent is not None and not 0 <= percent <= 100:
            raise forms.ValidationError(
                _("La percentuale del riposo va da 0 a 100 (70 = 14 VP su 20)."))
        return percent

    def clean_plan(self):
        plan = "".join(self.cleaned_data["plan"].split()).upper()
        refusal = plan_refusal(plan)
        if not refusal and self.instance.pk is not None:  # the settings page: rounds may exist
            refusal = plan_change_refusal(self.instance.plan, plan, self.instance.rounds.count())
        if refusal:
            raise forms.ValidationError(refusal)
        return plan

    def clean(self):
        data = super().clean()
        plan = data.get("plan")
        kind = KINDS.get(data.get("kind"))
        playable = plan
        for letter, instead in (kind.data.plan_replacements if kind is not None and plan else ()):
            playable = playable.replace(letter, instead)  # rules.md §15: no Mitchell for teams
        if playable != plan:
            if "plan" in self.changed_data:  # the arbiter wrote rounds the kind does not play
                self.add_error("plan", kind.data.plan_refusal % {"plan": playable})
            else:  # the plan offered for another kind: the same rounds the kind plays
                data["plan"] = playable
        if kind is not None and kind.data.excluded_tiebreaks and data.get("tiebreaks"):
            try:  # rules.md §9: the pairs' default becomes the per-player one
                data["tiebreaks"] = kind.normal_tiebreaks(data["tiebreaks"])
            except ArbiterError as exc:
                self.add_error("tiebreaks", exc.message)
        if not data.get("slug") and "slug" not in self.errors and data.get("name"):
            data["slug"] = unique_slug(data["name"], exclude_pk=self.instance.pk)
        scale_id, hands = data.get("vp_scale"), data.get("hands_per_round")
        if scale_id and hands:
            try:
                scale = selectors.scales.scale_by_id(scale_id)
            except KeyError:
                self.add_error("vp_scale", _("Tabella inesistente."))
            else:
                if scale.hands and scale.hands != hands:
                    self.add_error(
                        "vp_scale",
                        _("La tabella «%(name)s» è per %(h)s smazzate.") % {"name": scale.name, "h": scale.hands},
                    )
        return data


#: The largest pair, player or team number a form accepts (far above any room; a 20-digit
#: number overflowed the database's 64-bit integer and gave a 500).
MAX_ENTRANT_NUMBER = 99_999
#: The largest round number a form accepts.
MAX_ROUND_NUMBER = 1000


class PairForm(forms.Form):
    number = forms.IntegerField(label=_("Numero"), min_value=1, max_value=MAX_ENTRANT_NUMBER, required=False,
                                help_text=_("Vuoto: il primo numero libero."))
    last_name_1 = forms.CharField(label=_("Cognome 1"), max_length=80)
    first_name_1 = forms.CharField(label=_("Nome 1"), max_length=80)
    membership_1 = MembershipNumberField(label=_("Tessera 1"))
    club_1 = forms.CharField(label=_("Circolo 1"), max_length=120, required=False)
    last_name_2 = forms.CharField(label=_("Cognome 2"), max_length=80)
    first_name_2 = forms.CharField(label=_("Nome 2"), max_length=80)
    membership_2 = MembershipNumberField(label=_("Tessera 2"))
    club_2 = forms.CharField(label=_("Circolo 2"), max_length=120, required=False)

    def __init__(self, *args, tournament=None, pair=None, **kwargs):
        """``tournament`` (and ``pair`` when editing): check the pair number and the membership
        numbers against the pairs already registered, before the service refuses them."""
        super().__init__(*args, **kwargs)
        self.tournament = tournament
        self.pair = pair

    def _others(self, model):
        qs = model.objects.filter(tournament=self.tournament)
        if self.pair is not None:
            qs = qs.exclude(pk=self.pair.pk) if model is Pair else qs.exclude(pair=self.pair)
        return qs

    def clean_number(self):
        """pair_number_unique_in_tournament, said in words."""
        number = self.cleaned_data.get("number")
        if number and self.tournament is not None:
            clash = self._others(Pair).filter(number=number).prefetch_related("members").first()
            if clash is not None:
                raise forms.ValidationError(
                    _("Il numero %(n)s è già usato dalla coppia %(name)s: scegli un altro numero o lascia vuoto.")
                    % {"n": number, "name": clash.name})
        return number

    def clean(self):
        """player_membership_unique_in_tournament, said in words: the same membership number
        twice in the pair, or a player already registered in another pair."""
        data = super().clean()
        seen = {}
        for k in (1, 2):
            field = f"membership_{k}"
            membership = (data.get(field) or "").strip()
            if not membership:
                continue
            if membership in seen:
                self.add_error(field, _("I due giocatori hanno la stessa tessera %(m)s.") % {"m": membership})
                continue
            seen[membership] = k
            if self.tournament is not None:
                clash = self._others(Player).filter(membership_number=membership).first()
                if clash is not None:
                    self.add_error(field, _("La tessera %(m)s è già di %(name)s, già iscritto al torneo.")
                                   % {"m": membership, "name": clash.display_name})
        return data

    def players(self):
        d = self.cleaned_data
        return [
            PlayerData(first_name=d[f"first_name_{k}"].strip(), last_name=d[f"last_name_{k}"].strip(),
                       membership_number=d[f"membership_{k}"].strip(), club=d[f"club_{k}"].strip())
            for k in (1, 2)
        ]

    @classmethod
    def initial_for(cls, pair):
        initial = {"number": pair.number}
        for p in pair.players:
            k = p.seat
            initial.update({f"last_name_{k}": p.last_name, f"first_name_{k}": p.first_name,
                            f"membership_{k}": p.membership_number, f"club_{k}": p.club})
        return initial


class ImportForm(forms.Form):
    file = forms.FileField(label=_("File CSV o XLSX"))

    def clean_file(self):
        f = self.cleaned_data["file"]
        if f.size > 5 * 1024 * 1024:
            raise forms.ValidationError(_("File troppo grande (massimo 5 MB)."))
        return f


class ArbiterAddForm(forms.Form):
    """The username of an existing arbiter account to add as co-director (a tournament belongs
    to its arbiters)."""

    username = forms.CharField(
        label=_("Nome utente"), max_length=150,
        help_text=_("Un account già creato (manage.py create_arbiter o l'amministrazione)."),
    )


class PlayerForm(forms.Form):
    """A single player of an individual tournament (rules.md §9)."""

    number = forms.IntegerField(label=_("Numero"), min_value=1, max_value=MAX_ENTRANT_NUMBER, required=False,
                                help_text=_("Vuoto: il primo numero libero."))
    last_name = forms.CharField(label=_("Cognome"), max_length=80)
    first_name = forms.CharField(label=_("Nome"), max_length=80)
    membership = MembershipNumberField(label=_("Tessera"))
    club = forms.CharField(label=_("Circolo"), max_length=120, required=False)

    def player(self):
        d = self.cleaned_data
        return PlayerData(first_name=d["first_name"].strip(), last_name=d["last_name"].strip(),
                          membership_number=d["membership"].strip(), club=d["club"].strip())


class TournamentFileForm(forms.Form):
    """Upload of a tournament file of ``manage.py export_tournament``."""

    MAX_BYTES = 50 * 1024 * 1024

    file = forms.FileField(label=_("File del torneo (JSON)"))
    slug = forms.SlugField(label=_("Nuovo indirizzo breve"), required=False, max_length=80)
    name = forms.CharField(
        label=_("Nome"), required=False, max_length=200,
        help_text=_("Vuoto: il nome del file; se un torneo con quel nome esiste già, il nome del file "
                    "seguito da «(copia)»."),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["slug"].help_text = _(
            "Vuoto: quello del file; se è già usato su questo server, quello del file seguito da "
            "«-copia». Compare negli indirizzi del torneo (%(address)s).") % {"address": slug_address_example()}
        self.fields["slug"].widget.attrs["autocapitalize"] = "none"

    def clean_file(self):
        f = self.cleaned_data["file"]
        if f.size > self.MAX_BYTES:
            raise forms.ValidationError(_("File troppo grande (massimo 50 MB)."))
        return f
