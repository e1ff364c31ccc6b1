"""The arbiter's printed documents (rules.md §10): PDF and XLSX downloads.

Each view parses the URL, reads plain values with one ``documents`` builder and returns the
bytes of one renderer. Login required (``arbiter_view``).
"""
from __future__ import annotations

from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404

from .. import documents
from ..models import Round
from .common import arbiter_view

PDF = "application/pdf"
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def _download(data: bytes, content_type: str, filename: str, *, inline: bool) -> HttpResponse:
    response = HttpResponse(data, content_type=content_type)
    disposition = "inline" if inline else "attachment"
    response["Content-Disposition"] = f'{disposition}; filename="{filename}"'
    return response


def _flag(request, name: str, default: bool) -> bool:
    value = request.GET.get(name)
    if value is None:
        return default
    return value.strip().lower() not in ("0", "no", "false", "off", "")


def _after(request) -> int | None:
    raw = request.GET.get("dopo")
    if raw in (None, ""):
        return None
    try:
        value = int(raw)
    except ValueError:
        raise Http404("dopo") from None
    if value < 1 or value > 32767:  # a round number (never an overflow in the database)
        raise Http404("dopo")
    return value


def _round(tournament, number: int) -> Round:
    return get_object_or_404(Round, tournament=tournament, number=number)


@arbiter_view
def tablelist_pdf(request, tournament, number: int):
    """Table list of round ``number``; ``?qr=0`` leaves out the captains' QR codes."""
    qr = _flag(request, "qr", True)
    doc = documents.round_document(_round(tournament, number), qr=qr, request=request)
    return _download(documents.tablelist_pdf(doc, qr=qr), PDF,
                     f"{tournament.slug}-tabellone-turno-{number}.pdf", inline=True)


@arbiter_view
def scoresheets_pdf(request, tournament, number: int):
    """Every score sheet of round ``number``, one A4 page per table."""
    doc = documents.round_document(_round(tournament, number), request=request)
    return _download(documents.scoresheets_pdf(doc), PDF,
                     f"{tournament.slug}-score-turno-{number}.pdf", inline=True)


@arbiter_view
def scoresheets_xlsx(request, tournament, number: int):
    """Every score sheet of round ``number`` as a spreadsheet."""
    doc = documents.round_document(_round(tournament, number), qr=False, request=request)
    return _download(documents.scoresheets_xlsx(doc), XLSX,
                     f"{tournament.slug}-score-turno-{number}.xlsx", inline=False)


def _standings_name(tournament, doc) -> str:
    if doc.final:
        return f"{tournament.slug}-classifica-finale"
    if doc.after_round:
        return f"{tournament.slug}-classifica-turno-{doc.after_round}"
    return f"{tournament.slug}-classifica"


@arbiter_view
def standings_pdf(request, tournament):
    """Standings after round ``?dopo=N`` (default: the last closed round)."""
    doc = documents.standings_document(tournament, after_round=_after(request))
    return _download(documents.standings_pdf(doc), PDF, _standings_name(tournament, doc) + ".pdf", inline=True)


@arbiter_view
def standings_xlsx(request, tournament):
    """Standings as a spreadsheet; ``?dopo=N`` as for the PDF."""
    doc = documents.standings_document(tournament, after_round=_after(request))
    return _download(documents.standings_xlsx(doc), XLSX, _standings_name(tournament, doc) + ".xlsx",
                     inline=False)
