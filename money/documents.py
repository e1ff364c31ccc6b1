"""The treasurer's sheet as a PDF (WeasyPrint, ``templates/money/sheet_print.html``) and an
XLSX (openpyxl), from :class:`money.selectors.Sheet`. Amounts are written as numbers with
two decimals (``0.00`` format in the spreadsheet, exact ``Decimal`` → float only in the cell)."""
from __future__ import annotations

import io

from django.template.loader import render_to_string
from django.utils.translation import gettext as _

from tournaments.models import Tournament
from tournaments.printing.documents import html_to_pdf, long_date
from tournaments.printing.spreadsheets import append_row

from .selectors import Sheet, money

MONEY_FORMAT = "0.00"


def rate_label(key: str) -> str:
    """The sheet's name of a rate key: ``member`` → «soci», ``guest`` → «ospiti»,
    ``category:Juniores`` → «categoria Juniores»."""
    if key == "member":
        return _("soci")
    if key == "guest":
        return _("ospiti")
    return _("categoria %(name)s") % {"name": key.split(":", 1)[-1]}


def method_label(key: str) -> str:
    """``cash``/``card``/``other`` in words."""
    return {"cash": _("contanti"), "card": _("carta"), "other": _("altro")}.get(key, key)


def sheet_context(tournament: Tournament, sheet: Sheet) -> dict:
    """What the page and the PDF show: the sheet with its rates and methods labelled."""
    return {"tournament": tournament, "sheet": sheet, "date_text": long_date(tournament.date),
            "rates": [(rate_label(k), v) for k, v in sheet.by_rate.items()],
            "methods": [(method_label(k), v) for k, v in sorted(sheet.by_method.items())]}


def sheet_pdf(tournament: Tournament, sheet: Sheet) -> bytes:
    """The treasurer's sheet (A4 PDF)."""
    return html_to_pdf(render_to_string("money/sheet_print.html", sheet_context(tournament, sheet)))


def sheet_xlsx(tournament: Tournament, sheet: Sheet) -> bytes:
    """The treasurer's sheet as one worksheet: two columns (item, amount in euro, stored as a
    number with the ``0.00`` format), sections in the order of the PDF."""
    # lazy: openpyxl is slow to import and only the spreadsheet files need it
    from openpyxl import Workbook
    from openpyxl.styles import Font

    wb = Workbook()
    ws = wb.active
    ws.title = _("Rendiconto")[:31]
    ws.column_dimensions["A"].width = 48
    ws.column_dimensions["B"].width = 14
    ws.column_dimensions["C"].width = 40

    def row(label, amount=None, note="", bold=False):
        append_row(ws, [label, float(amount) if amount is not None else None, note])
        r = ws.max_row
        if amount is not None:
            ws.cell(row=r, column=2).number_format = MONEY_FORMAT
        if bold:
            ws.cell(row=r, column=1).font = Font(bold=True)

    row(f"{tournament.name} – {long_date(tournament.date)}", bold=True)
    row(_("Quote incassate per tariffa"), bold=True)
    for key, value in sheet.by_rate.items():
        row(rate_label(key), value)
    row(_("Quote incassate per metodo"), bold=True)
    for key, value in sorted(sheet.by_method.items()):
        row(method_label(key), value)
    row(_("Esoneri"), sheet.waived, bold=True)
    for entrant, name, amount, reason in sheet.waivers:
        row(f"{entrant} {name}", amount, reason)
    row(_("Rimborsi"), sheet.refunds, bold=True)
    for entrant, names, amount, reason in sheet.refund_rows:
        row(f"{entrant} {names}".strip(), amount, reason)
    row(_("Incassato (pagato − rimborsi)"), sheet.total, bold=True)
    row(_("Montepremi"), sheet.pool, bold=True)
    row(_("Premi"), bold=True)
    for p in sheet.prizes:
        row(p.prize, p.amount, p.names if p.entrant is not None else _("nessun avente diritto"))
    row(_("Quota del circolo"), sheet.club_share, bold=True)
    row(_("Saldo (montepremi − premi assegnati)"), sheet.balance,
        _("I premi superano il montepremi: la differenza esce dalla quota del circolo.") if sheet.balance < 0 else "",
        bold=True)
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()


__all__ = ["sheet_pdf", "sheet_xlsx", "sheet_context", "money"]
