"""The page that refuses a validation made on a sheet that changed meanwhile (another
captain's or arbiter's save, a version the arbiter did not see): the live board's and the
disputed-sheet decision's refusal."""
from __future__ import annotations

from django.http import HttpResponse
from django.shortcuts import render
from django.urls import NoReverseMatch, reverse

from scoring.vp import format_vp

from ..errors import StaleSheetError
from ..models import Round
from ..templatetags.audit import actor_label
from .rounds import status_label


def sheet_url(slug: str, round_number: int, table_number: int) -> str:
    """The arbiter's page of one table's sheet (URL name ``sheet``), where he corrects it."""
    try:
        return reverse("sheet", args=[slug, round_number, table_number])
    except NoReverseMatch:  # the rounds pages are not mounted: same path by hand
        return f"/tornei/{slug}/turni/{round_number}/tavoli/{table_number}/"


def stale_sheet_page(request, tournament, rnd: Round, exc: StaleSheetError, *, status: int,
                back: str = "tabellone", typed: str = "") -> HttpResponse:
    """The refusal page of a validation from the board: the message and the current sheet.
    ``back``: where the arbiter came from (``tabellone`` | ``turno`` | ``score``, the
    decision page of a disputed sheet), for the way back; ``typed``: the decision he had
    written there (shown, not saved)."""
    sheet = exc.current
    current = None
    if sheet is not None:
        current = {
            "state": status_label(sheet),
            "mp": (sheet.mp_ns, sheet.mp_ew),
            "vp": (format_vp(sheet.vp_ns), format_vp(sheet.vp_ew)),
            "entered_by": actor_label(sheet.entered_by),
            "version": sheet.version,
            "url": sheet_url(tournament.slug, rnd.number, sheet.table.number),
        }
    return render(request, "arbiter/board_stale.html", {
        "tournament": tournament, "round": rnd, "refusal": exc.message, "current": current, "back": back,
        "typed": typed.strip(),
    }, status=status)
