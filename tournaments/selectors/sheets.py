"""One set of names for a score sheet's state, used by the round page,
its summary, the sheet pages and the live board alike.

The badge key of a sheet (:func:`sheet_status`) refines the stored state: a sheet a
captain entered that the other line has not confirmed yet is ``"awaiting"`` (not the
arbiter's plain ``"entered"``); the arbiter's unfinished draft is ``"draft"``; a sum error
and a dispute are shown as such.
"""
from __future__ import annotations

from django.utils.translation import gettext_lazy

from ..models import AuditAction, AuditEntry, Round, ScoreSheet

STATUS_LABELS = {
    "empty": gettext_lazy("Da inserire"),
    "draft": gettext_lazy("Bozza incompleta"),
    "entered": gettext_lazy("Inserito"),
    "awaiting": gettext_lazy("Inserito, da confermare"),
    "sum_error": gettext_lazy("Errore di somma"),
    "confirmed": gettext_lazy("Confermato"),
    "disputed": gettext_lazy("Contestato"),
    "validated": gettext_lazy("Validato"),
}


def sheet_status(sheet: ScoreSheet | None) -> str | None:
    """The badge (and counter) key of a sheet, a key of :data:`STATUS_LABELS`:
    ``"disputed"`` whenever a line disputed it, whatever else is flagged; else
    ``"sum_error"`` when the declared totals differ from the hands (rules.md §3); else
    ``"draft"`` for the arbiter's saved draft; ``"awaiting"`` for a captain's entry not yet
    confirmed by the other line; else its state. None for a table without a sheet (rest,
    draft round). A disputed sheet that also has a sum error shows the sum-error mark beside
    the badge (``sheet.sum_error``), so neither is hidden; each sheet is counted once."""
    if sheet is None:
        return None
    if sheet.state == ScoreSheet.State.DISPUTED:
        return "disputed"
    if getattr(sheet, "is_draft", False):
        return "draft"
    if sheet.sum_error:
        return "sum_error"
    if sheet.state == ScoreSheet.State.ENTERED and sheet.entered_by_captain:
        return "awaiting"
    return sheet.state


def status_label(sheet: ScoreSheet | None, default: str = "") -> str:
    """The label of :func:`sheet_status` in the reader's language ("" without a sheet)."""
    key = sheet_status(sheet)
    return str(STATUS_LABELS[key]) if key else default


def last_dispute(rnd: Round, table_number: int) -> AuditEntry | None:
    """The latest ``sheet_disputed`` audit entry of table ``table_number`` of round ``rnd``
    (who disputed, when, the note as ``reason``), or ``None``. The arbiter's decision page
    and the audit entry of its validation name it (rules.md §3, trust)."""
    return (AuditEntry.objects.filter(tournament_id=rnd.tournament_id, round_number=rnd.number,
                                      table_number=table_number, action=AuditAction.SHEET_DISPUTED)
            .order_by("-at", "-id").first())
