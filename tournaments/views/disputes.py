"""The arbiter decides a disputed score sheet before validating it (trust; rules.md §3,
art. 31–33).

A disputed sheet is never validated by one click: every "Valida" of a disputed sheet
(live board, round page, sheet page) leads here. GET shows the table, the two lines, the
current MP/VP and hands, who entered the sheet and who disputed it with the note; the
arbiter writes his decision ("Decisione dell'arbitro", required) and POST validates the
version he saw with that decision (``services.validate_sheet(reason=...)``), which goes
into the audit trail beside the dispute it answers. A captain's change since the page was
opened is refused with the current sheet (409, as on the board). To change the score
instead, the page links to the sheet page (the correction flow).
"""
from __future__ import annotations

from django import forms
from django.contrib import messages
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring.vp import format_vp

from .. import selectors, services
from ..errors import ArbiterError, StaleSheetError
from ..models import Round, ScoreSheet, Table
from .common import arbiter_view, query_int
from .rounds import _round, _sheet_of, _table
from .stale_sheet import stale_sheet_page

#: ``?da=`` values: where the arbiter came from, so "Annulla" and the redirect go back there.
BACK_PAGES = ("tabellone", "turno", "score")

DECISION_REQUIRED = gettext_lazy("Scrivi la decisione dell'arbitro: resta nel registro del tavolo accanto "
                                 "alla contestazione.")


class DecisionForm(forms.Form):
    """The arbiter's decision on a dispute (required, at most 300 characters: the audit reason)."""

    reason = forms.CharField(label=gettext_lazy("Decisione dell'arbitro"), max_length=300,
                             widget=forms.Textarea(attrs={"rows": 3, "maxlength": 300}),
                             error_messages={"required": DECISION_REQUIRED})


def back_page(raw) -> str:
    """The ``da`` parameter as one of :data:`BACK_PAGES` (the round page when unknown)."""
    return raw if raw in BACK_PAGES else "turno"


def back_url(slug: str, round_number: int, table_number: int, back: str) -> str:
    """Where "Annulla" and a done validation lead: the live board, the round page (at the
    table's row) or the table's sheet page."""
    if back == "tabellone":
        return reverse("board", args=[slug, round_number]) + f"#t{table_number}"
    if back == "score":
        return reverse("sheet", args=[slug, round_number, table_number])
    return reverse("round", args=[slug, round_number]) + f"#table-{table_number}"


def decision_url(slug: str, round_number: int, table_number: int, *, back: str, version: int | None = None) -> str:
    """The decision page of a disputed sheet; ``version``: the sheet version the arbiter saw
    on the page he comes from (a change since is refused with 409)."""
    query = {"da": back}
    if version is not None:
        query["versione"] = version
    return reverse("sheet_validate_disputed", args=[slug, round_number, table_number]) + "?" + urlencode(query)


def _page(request, tournament, rnd: Round, table: Table, sheet: ScoreSheet, form: DecisionForm, *, back: str,
          refusal: str = "", status: int = 200):
    dispute = selectors.last_dispute(rnd, table.number)
    return render(request, "arbiter/dispute_validate.html", {
        "tournament": tournament, "round": rnd, "table": table, "sheet": sheet, "form": form,
        "ns": table.ns, "ew": table.ew,
        "mp": (sheet.mp_ns, sheet.mp_ew), "vp": (format_vp(sheet.vp_ns), format_vp(sheet.vp_ew)),
        "hands": list(sheet.hands.order_by("number")),
        "dispute": dispute, "back": back,
        "back_url": back_url(tournament.slug, rnd.number, table.number, back),
        "sheet_url": reverse("sheet", args=[tournament.slug, rnd.number, table.number]),
        "corrections_url": reverse("sheet_corrections", args=[tournament.slug, rnd.number, table.number]),
        "refusal": refusal,
        "action_url": reverse("sheet_validate_disputed", args=[tournament.slug, rnd.number, table.number]),
    }, status=status)


def decision_page(request, tournament, rnd: Round, table: Table, sheet: ScoreSheet, *, back: str,
                  reason: str = ""):
    """The decision page of a disputed sheet, with ``reason`` already in the field (the
    sheet page's "Salva e valida" of an unchanged disputed sheet shows it, the reason the
    arbiter typed there kept)."""
    form = DecisionForm(initial={"reason": (reason or "")[:300]})
    return _page(request, tournament, rnd, table, sheet, form, back=back_page(back))


@arbiter_view
def sheet_validate_disputed(request, tournament, number, table):
    """``/tornei/<slug>/turni/<n>/tavoli/<t>/decidi-contestazione/``: the arbiter's decision
    on a disputed sheet, then its validation.

    GET ``da`` (``tabellone`` | ``turno`` | ``score``: where "Annulla" leads back),
    ``versione`` (optional: the version shown where "Valida" was pressed; a different
    current version → 409 with the current sheet). A sheet that is not (or no longer)
    disputed has nothing to decide: back to the sheet page with a message.

    POST ``version`` (the version shown on this page, required), ``reason`` (the decision,
    required, ≤ 300 characters), ``da``. Blank decision → the page again (200) with the
    error and what was typed; a captain's change since → 409 with the current sheet;
    done → redirect to ``da`` with a message. Audited by ``services.validate_sheet``. The 409
    page shows the decision typed, so it can be copied after a look at the current sheet.
    """
    rnd = _round(tournament, number)
    table_obj = _table(rnd, table)
    sheet = _sheet_of(table_obj)
    back = back_page(request.POST.get("da") if request.method == "POST" else request.GET.get("da"))
    if sheet is None:
        messages.error(request, _("Il tavolo %(t)s non ha uno score.") % {"t": table})
        return redirect("round", slug=tournament.slug, number=number)
    if request.method != "POST":
        seen = query_int(request.GET.get("versione"), low=0)
        if seen is not None and seen != sheet.version:
            return stale_sheet_page(request, tournament, rnd, services.stale_sheet_error(sheet, seen), back=back, status=409)
        if sheet.state != ScoreSheet.State.DISPUTED:
            messages.info(request, _("Lo score del tavolo %(t)s non è contestato: non c'è una decisione da "
                                     "scrivere.") % {"t": table})
            return redirect("sheet", slug=tournament.slug, number=number, table=table)
        return _page(request, tournament, rnd, table_obj, sheet, DecisionForm(), back=back)

    raw = request.POST.get("version", "").strip()
    if not raw.isdecimal() or len(raw) > 9:
        return stale_sheet_page(request, tournament, rnd, StaleSheetError(
            _("Manca la versione dello score vista sulla pagina: riapri la pagina e riprova."), current=sheet),
            back=back, status=400)
    form = DecisionForm(request.POST)
    if not form.is_valid():
        if int(raw) != sheet.version:  # a captain's change meanwhile wins over the form's error
            return stale_sheet_page(request, tournament, rnd, services.stale_sheet_error(sheet, int(raw)), back=back,
                               status=409,
                               typed=request.POST.get("reason", ""))
        return _page(request, tournament, rnd, table_obj, sheet, form, back=back)
    try:
        services.validate_sheet(table=table_obj, by=request.user, expected_version=int(raw),
                                reason=form.cleaned_data["reason"])
    except StaleSheetError as exc:
        return stale_sheet_page(request, tournament, rnd, exc, back=back, status=409,
                           typed=form.cleaned_data["reason"])
    except ArbiterError as exc:  # e.g. a sum error: the page again, the decision kept
        sheet.refresh_from_db()
        return _page(request, tournament, rnd, table_obj, sheet, form, back=back, refusal=exc.message, status=400)
    messages.success(request, _("Tavolo %(t)s validato: la decisione è nel registro.") % {"t": table})
    return redirect(back_url(tournament.slug, number, table, back))
