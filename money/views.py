"""The arbiter's cash desk (rules.md §21): the rates and the pool, each player's fee at
check-in (paid by cash/card/other, waived with a reason, cancelled), refunds, and the
treasurer's sheet on the page, as PDF and XLSX. Only the tournament's arbiters
(``arbiter_view``: another arbiter gets a 404); every write is a POST through
``money.services``, whose ``ArbiterError`` becomes a message."""
from __future__ import annotations

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from tournaments.errors import ArbiterError
from tournaments.views.common import arbiter_view

from . import documents, selectors, services
from .models import PlayerFee

PDF = "application/pdf"
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def _post(request, tournament) -> str:
    """Run the POSTed ``action``; returns the success message (raises ``ArbiterError``)."""
    p, by = request.POST, request.user
    action = p.get("action", "")
    if action == "fees":
        services.set_fees(tournament=tournament, by=by, member_rate=p.get("member_rate", ""),
                          guest_rate=p.get("guest_rate", ""),
                          category_rates=_categories(p.get("category_rates", "")),
                          pool_amount=p.get("pool_amount") if p.get("pool_kind") == "fixed" else None,
                          pool_percent=p.get("pool_percent") if p.get("pool_kind") == "percent" else None,
                          pool_cap=p.get("pool_cap") or None)
        return _("Quote e montepremi salvati.")
    if action == "pay":
        n = services.pay_player(tournament=tournament, by=by, player_id=p.get("player", ""),
                                method=p.get("method", "cash"))
        return _("Quota registrata.") if n else _("Quota già registrata.")
    if action == "pay_all":
        n = services.pay(tournament=tournament, by=by, entrant="all", method=p.get("method", "cash"))
        return _("%(n)s quote registrate.") % {"n": n}
    if action == "waive":
        services.waive(tournament=tournament, by=by, entrant=p.get("entrant", ""), reason=p.get("reason", ""),
                       player_id=p.get("player") or None)
        return _("Quota esonerata.")
    if action == "cancel":
        services.cancel_fee(tournament=tournament, by=by, player_id=p.get("player", ""))
        return _("Quota annullata: il giocatore la deve di nuovo.")
    if action == "refund":
        services.refund(tournament=tournament, by=by, entrant=p.get("entrant", ""), amount=p.get("amount", ""),
                        reason=p.get("reason", ""))
        return _("Rimborso registrato.")
    return _("Nessuna azione.")


def _categories(text: str) -> dict:
    """``"Juniores=5.00, Dame=8"`` → ``{"Juniores": "5.00", "Dame": "8"}`` (amounts checked by
    the service); raises ``ArbiterError`` for an item that is not NAME=AMOUNT."""
    out = {}
    for item in (text or "").split(","):
        if not item.strip():
            continue
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise ArbiterError(_("Quote per categoria: scrivi CATEGORIA=IMPORTO, separate da virgole, "
                                 "es. Juniores=5.00."))
        out[name.strip()] = value.strip()
    if len(out) > 30:
        raise ArbiterError(_("Al più 30 quote per categoria."))
    return out


@arbiter_view
def cash_desk(request, tournament):
    """``/tornei/<slug>/cassa/``: GET shows the desk and the sheet; POST one ``action``
    (``fees``, ``pay``, ``pay_all``, ``waive``, ``cancel``, ``refund``)."""
    if request.method == "POST":
        messages.success(request, _post(request, tournament))
        return redirect("money", slug=tournament.slug)
    fees = selectors.schedule(tournament)
    players = selectors.entrant_players(tournament)
    rates = selectors.player_rates(tournament, fees, players) if fees is not None else {}
    recorded = {f.player_id: f for f in PlayerFee.objects.filter(tournament=tournament)}
    rows = [{"player": p, "entrant": p.entrant_number, "rate": documents.rate_label(rates[p.id][0]) if rates else "",
             "due": rates[p.id][1] if rates else None, "fee": recorded.get(p.id)} for p in players]
    sheet = selectors.treasurer_sheet(tournament)
    context = documents.sheet_context(tournament, sheet)
    # "methods" is the sheet's «by method» rows (documents.sheet_context): the desk's choices
    # have their own name
    context.update({"fees": fees, "rows": rows, "method_choices": PlayerFee.Method.choices,
                    "category_text": ", ".join(f"{k}={v}" for k, v in (fees.category_rates or {}).items())
                    if fees else ""})
    return render(request, "money/cash_desk.html", context)


def _download(data: bytes, kind: str, name: str, inline: bool) -> HttpResponse:
    response = HttpResponse(data, content_type=kind)
    response["Content-Disposition"] = f'{"inline" if inline else "attachment"}; filename="{name}"'
    return response


@arbiter_view
def sheet_pdf(request, tournament):
    """The treasurer's sheet (A4 PDF), from the current fees and standings."""
    sheet = selectors.treasurer_sheet(tournament)
    return _download(documents.sheet_pdf(tournament, sheet), PDF, f"rendiconto-{tournament.slug}.pdf", True)


@arbiter_view
def sheet_xlsx(request, tournament):
    """The treasurer's sheet as a spreadsheet."""
    sheet = selectors.treasurer_sheet(tournament)
    return _download(documents.sheet_xlsx(tournament, sheet), XLSX, f"rendiconto-{tournament.slug}.xlsx", False)
