"""The arbiter's VP scale pages (rules.md §4): built-in scales read-only, custom scales
created by a form (one row per band) or by a CSV upload, and deleted when unused.

A custom scale belongs to a club (rules.md §20): its arbiters read it and pick it for the
club's tournaments, only staff create and delete custom ones (others get 403 on those
pages); another club's scale is a 404.

Validation is ``scoring.vp`` (every problem listed, in Italian); storing and deleting go
through ``services.create_custom_scale`` / ``services.delete_custom_scale``.
"""
from __future__ import annotations

from decimal import Decimal
from functools import wraps

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import Count
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from clubs import access
from scoring import vp as vp_rules

from .. import selectors, services
from ..errors import ArbiterError
from ..models import CustomScale, Tournament

FORM_ROWS = 12
"""Empty band rows offered by the form (blank rows are ignored)."""

CSV_MAX_BYTES = 100 * 1024


def staff_only(view):
    """Login required, then 403 unless the user is staff (custom scales are shared)."""

    @login_required
    @wraps(view)
    def wrapper(request, *args, **kwargs):
        if not (request.user.is_staff or request.user.is_superuser):
            raise PermissionDenied(_("Solo lo staff può creare o cancellare le tabelle VP personalizzate."))
        return view(request, *args, **kwargs)

    return wrapper


def _vp_number(value: Decimal):
    """Whole VP as int (``10``), otherwise the Decimal without trailing zeros (``17.5``)."""
    if value == value.to_integral_value():
        return int(value)
    return value.normalize()


class ScaleHeaderForm(forms.Form):
    """What every custom scale has besides its bands."""

    scale_id = forms.SlugField(
        label=gettext_lazy("Codice"), max_length=60,
        help_text=gettext_lazy("Lettere minuscole, cifre e trattini, es. vp20-2h."),
    )
    name = forms.CharField(label=gettext_lazy("Nome"), max_length=120)
    total = forms.DecimalField(
        label=gettext_lazy("Totale VP per tavolo"), max_digits=6, decimal_places=2, min_value=Decimal("0.5"),
        initial=20,
    )
    hands = forms.IntegerField(
        label=gettext_lazy("Smazzate per turno"), min_value=1, max_value=20, required=False,
        help_text=gettext_lazy("Vuoto: tabella utilizzabile con qualsiasi numero di smazzate."),
    )

    def clean_scale_id(self):
        scale_id = self.cleaned_data["scale_id"]
        if scale_id in vp_rules.builtin_scales() or CustomScale.objects.filter(scale_id=scale_id).exists():
            raise forms.ValidationError(_("Esiste già una tabella VP con questo codice."))
        return scale_id


class BandForm(forms.Form):
    """One band: MP difference from ``min`` to ``max`` (both inclusive, empty max = open)."""

    min = forms.IntegerField(label=gettext_lazy("Da MP"), required=False, min_value=-1_000_000, max_value=1_000_000)
    max = forms.IntegerField(label=gettext_lazy("A MP"), required=False, min_value=-1_000_000, max_value=1_000_000)
    winner = forms.DecimalField(label=gettext_lazy("VP vincente"), max_digits=6, decimal_places=2, required=False)
    loser = forms.DecimalField(label=gettext_lazy("VP perdente"), max_digits=6, decimal_places=2, required=False)

    def clean(self):
        data = super().clean()
        filled = [data.get(k) is not None for k in ("min", "max", "winner", "loser")]
        if any(filled) and not all(filled[i] for i in (0, 2, 3)):
            raise forms.ValidationError(_("Servono «da MP», «VP vincente» e «VP perdente» (solo «a MP» può restare vuoto nell'ultima fascia)."))
        return data

    def row(self):
        """``(min, max, winner, loser)`` or None for a blank row."""
        d = self.cleaned_data
        if d.get("min") is None:
            return None
        return d["min"], d.get("max"), _vp_number(d["winner"]), _vp_number(d["loser"])


BandFormSet = forms.formset_factory(BandForm, extra=FORM_ROWS, max_num=60, validate_max=True)


class ScaleUploadForm(ScaleHeaderForm):
    """A scale from a CSV file: columns min, max, winner, loser (``scoring.vp.scale_from_csv``)."""

    file = forms.FileField(label=gettext_lazy("File CSV"), help_text=gettext_lazy(
        "Colonne: min, max, vincente, perdente (separatore virgola o punto e virgola); "
        "riga di intestazione facoltativa; «max» vuoto nell'ultima fascia."
    ))

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["total"].required = False
        self.fields["total"].initial = None
        self.fields["total"].help_text = _("Vuoto: la somma dei VP della prima fascia.")

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > CSV_MAX_BYTES:
            raise forms.ValidationError(_("File troppo grande per una tabella VP (massimo 100 kB)."))
        data = upload.read()
        for encoding in ("utf-8-sig", "cp1252"):
            try:
                return data.decode(encoding)
            except UnicodeDecodeError:
                continue
        raise forms.ValidationError(_("Il file non è un testo CSV leggibile."))


# --------------------------------------------------------------------------- display


def _bands(scale: vp_rules.VPScale) -> list[dict]:
    return [
        {
            "min": b.min,
            "max": b.max,
            "winner": vp_rules.format_vp(b.winner),
            "loser": vp_rules.format_vp(b.loser),
        }
        for b in scale.bands
    ]


def _card(scale: vp_rules.VPScale, *, custom: bool, used_by: int = 0) -> dict:
    return {
        "id": scale.id,
        "name": scale.name,
        "hands": scale.hands,
        "total": vp_rules.format_vp(scale.total),
        "rest": vp_rules.format_vp(vp_rules.rest_vp(scale, 70)),
        "bands": _bands(scale),
        "custom": custom,
        "used_by": used_by,
        # the built-in team table (rules.md §15): no federation text was found to check it
        "team": not custom and scale.id in vp_rules.builtin_team_scales(),
    }


@login_required
def scale_list(request):
    """Every scale: built-in ones (read-only) and custom ones (deletable when unused, by
    staff only; other arbiters see them read-only)."""
    # the counts and the custom scales are those of the arbiter's clubs (rules.md §20)
    used = dict(Tournament.objects.filter(access.works_in_q(request.user))
                .order_by().values_list("vp_scale").annotate(n=Count("id")))
    cards = [_card(s, custom=False, used_by=used.get(s.id, 0)) for s in selectors.scales.builtin_scales()]
    broken = []
    for custom in selectors.scales.custom_scales_of(request.user):
        try:
            scale = vp_rules.scale_from_dict(custom.data)
        except vp_rules.ScaleError as exc:
            broken.append((custom, exc.messages))
            continue
        cards.append(_card(scale, custom=True, used_by=used.get(custom.scale_id, 0)))
    can_edit = request.user.is_staff or request.user.is_superuser
    return render(request, "arbiter/scales.html", {"cards": cards, "broken": broken, "can_edit": can_edit})


def _save(request, form, build):
    """Build the scale with ``build()`` and store it; on failure put every message on ``form``."""
    try:
        scale = build()
    except vp_rules.ScaleError as exc:
        for message in exc.messages:
            form.add_error(None, message)
        return None
    try:
        custom = services.create_custom_scale(scale=scale, by=request.user, club=access.current_club(request))
    except ArbiterError as exc:
        form.add_error(None, exc.message)
        for detail in exc.details:
            form.add_error(None, detail)
        return None
    messages.success(request, _("Tabella «%(name)s» salvata.") % {"name": custom.name})
    return redirect(reverse("scales") + f"#scala-{custom.scale_id}")


@staff_only
def scale_create(request):
    """A custom scale typed in a form: header fields plus one row per band."""
    form = ScaleHeaderForm(request.POST or None, prefix="scale")
    bands = BandFormSet(request.POST or None, prefix="band")
    if request.method == "POST" and form.is_valid() and bands.is_valid():
        rows = [r for r in (f.row() for f in bands.forms) if r is not None]
        if not rows:
            form.add_error(None, _("Inserisci almeno una fascia."))
        else:
            d = form.cleaned_data
            response = _save(request, form, lambda: vp_rules.scale_from_rows(
                d["scale_id"], d["name"], _vp_number(d["total"]), rows, hands=d["hands"]
            ))
            if response is not None:
                return response
    return render(request, "arbiter/scales_form.html", {"form": form, "bands": bands})


@staff_only
def scale_upload(request):
    """A custom scale from a CSV file (``scoring.vp.scale_from_csv``: messages name the line)."""
    form = ScaleUploadForm(request.POST or None, request.FILES or None, prefix="scale")
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        total = _vp_number(d["total"]) if d["total"] is not None else None
        response = _save(request, form, lambda: vp_rules.scale_from_csv(
            d["file"], d["scale_id"], d["name"], total=total, hands=d["hands"]
        ))
        if response is not None:
            return response
    return render(request, "arbiter/scales_upload.html", {"form": form})


@login_required
def scale_delete(request, scale_id):
    """Confirm, then delete a custom scale no tournament uses. A built-in scale is refused
    with a sentence; a custom scale of another club (or none) is a 404, as if it did not
    exist (rules.md §20); then only staff go on (403)."""
    if scale_id in vp_rules.builtin_scales():
        messages.error(request, _("La tabella «%(id)s» non è una tabella personalizzata.") % {"id": scale_id})
        return redirect("scales")
    custom = get_object_or_404(selectors.scales.custom_scales_of(request.user), scale_id=scale_id)
    if not (request.user.is_staff or request.user.is_superuser):
        raise PermissionDenied(_("Solo lo staff può creare o cancellare le tabelle VP personalizzate."))
    if request.method == "POST":
        try:
            services.delete_custom_scale(scale_id=scale_id, by=request.user)
        except ArbiterError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(request, _("Tabella «%(name)s» cancellata.") % {"name": custom.name})
        return redirect("scales")
    users = list(Tournament.objects.filter(vp_scale=scale_id).values_list("name", flat=True))
    if users:
        messages.error(request, _("La tabella «%(name)s» è usata dal torneo %(t)s: non si può cancellare.")
                       % {"name": custom.name, "t": ", ".join(users)})
        return redirect("scales")
    return render(request, "arbiter/confirm.html", {
        "title": _("Cancellare la tabella «%(name)s»?") % {"name": custom.name},
        "text": _("Codice %(id)s. Nessun torneo la usa.") % {"id": scale_id},
        "button": _("Cancella"),
    })

