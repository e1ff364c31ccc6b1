"""The arbiter's printed documents (rules.md §10): PDF and XLSX downloads.

Each view parses the URL, reads plain values with one ``documents`` builder and returns the
bytes of one renderer. Login required (``arbiter_view``).

A PDF too big to render inside the request (``printpack.inline_ok``: setting
``ARBITRO_INLINE_PDF_PAGES``) goes to a background print job instead (``printpack``): the
view starts or joins it and redirects to its progress page (:func:`print_job`), or straight
to the file when that state of the document was rendered before.
"""
from __future__ import annotations

from django.conf import settings
from django.http import FileResponse, Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _

from ..kinds import kind_of
from ..models import Round
from ..views.common import arbiter_view
from . import documents, spreadsheets
from . import pack as printpack
from .team_slips import team_slips
from .team_slips import team_slips_pdf as render_slips

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


def _in_background(tournament, pack: printpack.Pack):
    """Start (or join) the job of a document too big for the request; redirect to its file
    when that state was rendered before, else to its progress page."""
    state = printpack.start(pack)
    if state["state"] == "done":
        return redirect("print_job_pdf", slug=tournament.slug, key=pack.key)
    return redirect("print_job", slug=tournament.slug, key=pack.key)


@arbiter_view
def team_slips_pdf(request, tournament):
    """The team captains' slips (rules.md §15): every team's, or ``?squadra=N`` one team's.
    404 outside a team tournament or for a team number it does not have."""
    if not kind_of(tournament).data.has_matches:
        raise Http404("teams")
    raw = (request.GET.get("squadra") or "").strip()
    number = None
    if raw:
        if not raw.isdecimal() or len(raw) > 6:
            raise Http404("squadra")
        number = int(raw)
    slips = team_slips(tournament, number=number, request=request)
    if number is not None and not slips:
        raise Http404("squadra")
    name = f"{tournament.slug}-capitani-squadre" + (f"-{number}" if number is not None else "") + ".pdf"
    return _download(render_slips(tournament, slips), PDF, name, inline=True)


@arbiter_view
def tablelist_pdf(request, tournament, number: int):
    """Table list of round ``number``; ``?qr=0`` leaves out the captains' QR codes.
    Too big for the request (``printpack.inline_ok``): a background job (module docstring)."""
    qr = _flag(request, "qr", True)
    rnd = _round(tournament, number)
    doc = documents.round_document(rnd, qr=False, request=request)
    if not printpack.inline_ok("tablelist", doc, qr=qr):
        return _in_background(tournament, printpack.prepare_document(
            "tablelist", rnd=rnd, round_doc=doc, qr=qr, request=request))
    if qr:
        doc = printpack.with_qr(doc)
    return _download(documents.tablelist_pdf(doc, qr=qr), PDF,
                     f"{tournament.slug}-tabellone-turno-{number}.pdf", inline=True)


@arbiter_view
def scoresheets_pdf(request, tournament, number: int):
    """Every score sheet of round ``number``, one A4 page per table.
    Too big for the request (``printpack.inline_ok``): a background job (module docstring)."""
    rnd = _round(tournament, number)
    doc = documents.round_document(rnd, qr=False, request=request)
    if not printpack.inline_ok("sheets", doc):
        return _in_background(tournament, printpack.prepare_document(
            "sheets", rnd=rnd, round_doc=doc, request=request))
    return _download(documents.scoresheets_pdf(printpack.with_qr(doc)), PDF,
                     f"{tournament.slug}-score-turno-{number}.pdf", inline=True)


@arbiter_view
def scoresheets_xlsx(request, tournament, number: int):
    """Every score sheet of round ``number`` as a spreadsheet."""
    doc = documents.round_document(_round(tournament, number), qr=False, request=request)
    return _download(spreadsheets.scoresheets_xlsx(doc), XLSX,
                     f"{tournament.slug}-score-turno-{number}.xlsx", inline=False)


def _standings_name(tournament, doc) -> str:
    if doc.final:
        return f"{tournament.slug}-classifica-finale"
    if doc.after_round:
        return f"{tournament.slug}-classifica-turno-{doc.after_round}"
    return f"{tournament.slug}-classifica"


@arbiter_view
def standings_pdf(request, tournament):
    """Standings after round ``?dopo=N`` (default: the last closed round).
    Too big for the request (``printpack.inline_ok``): a background job (module docstring)."""
    doc = documents.standings_document(tournament, after_round=_after(request))
    if not printpack.inline_ok("standings", doc):
        return _in_background(tournament, printpack.prepare_document(
            "standings", tournament=tournament, standings_doc=doc, request=request))
    return _download(documents.standings_pdf(doc), PDF, _standings_name(tournament, doc) + ".pdf", inline=True)


@arbiter_view
def standings_xlsx(request, tournament):
    """Standings as a spreadsheet; ``?dopo=N`` as for the PDF."""
    doc = documents.standings_document(tournament, after_round=_after(request))
    return _download(spreadsheets.standings_xlsx(doc), XLSX, _standings_name(tournament, doc) + ".xlsx",
                     inline=False)


# --------------------------------------------------------------------------- print pack


@arbiter_view
def print_pack_start(request, tournament, number: int):
    """POST: start (or join) the print pack of round ``number`` (table list, every score
    sheet, standings; ``a5=1``: sheets two to an A4 page) and go to its progress page, or
    straight to the PDF when that state was printed before. GET shows the round's page.
    In the background (setting ``ARBITRO_PRINT_BACKGROUND``, the server's) the request
    reads nothing of the round: ``printpack.click`` answers with a ticket whose thread reads
    the pack and follows its job; otherwise the pack is read and rendered here."""
    from django.shortcuts import redirect

    rnd = _round(tournament, number)
    if request.method != "POST":
        return redirect("round", slug=tournament.slug, number=number)
    a5 = request.POST.get("a5", "").strip().lower() in ("1", "on", "true", "yes", "si", "sì")
    if settings.ARBITRO_PRINT_BACKGROUND:  # the round is read by the job's thread, not here
        key, state = printpack.click(rnd, a5=a5, request=request)
    else:
        pack = printpack.prepare(rnd, a5=a5, request=request)
        key, state = pack.key, printpack.start(pack)
    if state["state"] == "done":
        return redirect("print_pack_pdf", slug=tournament.slug, number=number, key=key)
    return redirect("print_pack", slug=tournament.slug, number=number, key=key)


def _pack_key(tournament, number: int, key: str) -> str:
    """``key`` when it is a pack of this tournament's round ``number``, else 404."""
    if (not printpack.valid_key(key, tournament.id) or not key.startswith(f"t{tournament.id}-r{number}-")
            or printpack.key_format(key) not in ("a4", "a5")):
        raise Http404("pacchetto")
    return key


@arbiter_view
def print_pack(request, tournament, number: int, key: str):
    """The progress page of a print pack: a progress bar (``static/js/printpack.js`` polls
    :func:`print_pack_status`) and the download link when done."""
    from django.shortcuts import render

    key = _pack_key(tournament, number, key)
    state = printpack.status(key)
    if state is None:
        raise Http404("pacchetto")
    return render(request, "arbiter/print_pack.html", {
        "tournament": tournament, "round_number": number, "key": key, "state": state,
        "pdf_url": reverse("print_pack_pdf", args=[tournament.slug, number, key]),
        "status_url": reverse("print_pack_status", args=[tournament.slug, number, key]),
        "restart_url": reverse("print_pack_start", args=[tournament.slug, number]),
        "a5": "-a5-" in key,
    })


@arbiter_view
def print_pack_status(request, tournament, number: int, key: str):
    """JSON status of a print pack: ``{"state", "done", "total", "sheets", "pages"?}``."""
    return _status_json(printpack.status(_pack_key(tournament, number, key)))


def _status_json(state: dict | None) -> JsonResponse:
    if state is None:
        raise Http404("pacchetto")
    return JsonResponse({k: v for k, v in state.items() if k in ("state", "done", "total", "sheets", "pages")},
                        headers={"Cache-Control": "no-store"})


@arbiter_view
def print_pack_pdf(request, tournament, number: int, key: str):
    """The finished print pack (inline PDF); 404 while it is still being rendered."""
    path = printpack.pdf_path(_pack_key(tournament, number, key))
    if not path.exists():
        raise Http404("pacchetto")
    suffix = "-a5" if "-a5-" in key else ""
    response = FileResponse(open(path, "rb"), content_type=PDF,
                            filename=f"{tournament.slug}-pacchetto-turno-{number}{suffix}.pdf")
    response["Content-Disposition"] = response["Content-Disposition"].replace("attachment", "inline")
    return response


# --------------------------------------------------------------------------- one big document in the background


def _job_key(tournament, key: str) -> str:
    """``key`` when it is a single document's job of this tournament (not a pack), else 404."""
    if not printpack.valid_key(key, tournament.id) or printpack.key_format(key) in ("a4", "a5"):
        raise Http404("documento")
    return key


def _job_document(tournament, key: str) -> dict:
    """What the progress page and the download say about the document of ``key``: its title,
    the file name (as the inline download's), the address that starts it again (same
    options) and the page to go back to."""
    fmt, number = printpack.key_format(key), int(key.split("-")[1][1:])
    slug = tournament.slug
    if fmt in ("tabellone", "tabellonenoqr"):
        return {"title": _("Tabellone del turno %(n)s") % {"n": number},
                "filename": f"{slug}-tabellone-turno-{number}.pdf",
                "restart": reverse("tablelist_pdf", args=[slug, number]),
                "params": [("qr", "0")] if fmt == "tabellonenoqr" else [],
                "back": reverse("round", args=[slug, number]), "back_label": _("Torna al turno")}
    if fmt == "score":
        return {"title": _("Score del turno %(n)s") % {"n": number},
                "filename": f"{slug}-score-turno-{number}.pdf",
                "restart": reverse("scoresheets_pdf", args=[slug, number]), "params": [],
                "back": reverse("round", args=[slug, number]), "back_label": _("Torna al turno")}
    if fmt == "finale":
        name, title = f"{slug}-classifica-finale", _("Classifica finale")
    elif number:
        name, title = f"{slug}-classifica-turno-{number}", _("Classifica dopo il turno %(n)s") % {"n": number}
    else:
        name, title = f"{slug}-classifica", _("Classifica")
    return {"title": title, "filename": name + ".pdf", "restart": reverse("standings_pdf", args=[slug]),
            "params": [("dopo", str(number))] if number else [],
            "back": reverse("standings", args=[slug]), "back_label": _("Torna alla classifica")}


@arbiter_view
def print_job(request, tournament, key: str):
    """The progress page of one big document's job (same page and ``static/js/printpack.js``
    as the print pack): the state, the download link when done, an error and a button that
    asks for the document again (a new job) when it failed or was superseded."""
    key = _job_key(tournament, key)
    state = printpack.status(key)
    if state is None:
        raise Http404("documento")
    info = _job_document(tournament, key)
    return render(request, "arbiter/print_pack.html", {
        "tournament": tournament, "key": key, "state": state, "document": info,
        "pdf_url": reverse("print_job_pdf", args=[tournament.slug, key]),
        "status_url": reverse("print_job_status", args=[tournament.slug, key]),
        "restart_url": info["restart"],
    })


@arbiter_view
def print_job_status(request, tournament, key: str):
    """JSON status of one big document's job, as :func:`print_pack_status`."""
    return _status_json(printpack.status(_job_key(tournament, key)))


@arbiter_view
def print_job_pdf(request, tournament, key: str):
    """The finished document of a job (inline PDF, named as the direct download); 404 while
    it is still being rendered."""
    path = printpack.pdf_path(_job_key(tournament, key))
    if not path.exists():
        raise Http404("documento")
    response = FileResponse(open(path, "rb"), content_type=PDF, filename=_job_document(tournament, key)["filename"])
    response["Content-Disposition"] = response["Content-Disposition"].replace("attachment", "inline")
    return response
