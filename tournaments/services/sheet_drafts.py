"""The arbiter's draft of a score sheet: a half-typed grid kept to finish
later, not counted, blocking the close of the round, hidden from captains (409); and its
discarding (the "Scarta bozza" button)."""
from __future__ import annotations

from django.utils.translation import gettext as _

from ..errors import ArbiterError, StaleSheetError
from ..models import AuditAction, Round, ScoreSheet, Table
from ._common import as_actor
from .audit import audit
from .guard import write
from .locks import lock_sheet

#: Cells of a draft: ``h<i>_<line>`` totals and ``_base`` / ``_cards`` parts, declared totals.
DRAFT_CELL_MAX = 12


@write
def save_sheet_draft(*, table: Table, cells: dict[str, str], by, parts: bool = False,
                     expected_version: int | None = None) -> ScoreSheet:
    """Keep the arbiter's half-typed grid of a sheet still empty, to finish later.
    ``cells``: the grid's fields as typed (``"h1_ns"``, ``"h1_ns_base"``, …,
    ``"declared_ns"``; MP as text, blanks allowed; the completeness check is skipped).

    The sheet stays empty: no hand, MP or VP is stored and nothing is counted in standings;
    it is marked "Bozza incompleta" everywhere, ``close_round`` refuses while it exists, and
    a captain's save over it gets a :class:`StaleSheetError` (409). A complete
    :func:`save_score_sheet` replaces it.

    Raises ``ArbiterError``: a captain; a round not in play; a sheet already entered (a draft
    is only for the first entry; a correction is made in one go); a cell that is not an
    integer. ``StaleSheetError``: ``expected_version`` differs (a captain saved meanwhile).
    Audited as ``sheet_draft_saved``.
    """
    actor = as_actor(by)
    if actor.user is None:
        raise ArbiterError(_("Solo l'arbitro può farlo."))
    sheet, rnd = lock_sheet(table)
    if rnd.state != Round.State.PUBLISHED:
        raise ArbiterError(_("Una bozza si salva solo mentre il turno è in gioco."))
    if expected_version is not None and expected_version != sheet.version:
        raise StaleSheetError(
            _("Lo score è stato modificato da un altro dispositivo: ecco la versione attuale."), current=sheet)
    if sheet.state != ScoreSheet.State.EMPTY:
        raise ArbiterError(_("Tavolo %(t)s: lo score è già inserito; una bozza vale solo per il primo "
                             "inserimento.") % {"t": sheet.table.number})
    kept = {}
    for key, raw in cells.items():
        value = (raw or "").strip()
        if not value:
            continue
        number = value.replace("−", "-").replace(" ", "")
        if len(number) > DRAFT_CELL_MAX or not number.lstrip("+-").isdigit():
            raise ArbiterError(_("«%(v)s» non è un numero intero.") % {"v": value[:DRAFT_CELL_MAX]})
        kept[str(key)[:20]] = value
    old = sheet.draft
    sheet.draft = {"cells": kept, "parts": bool(parts)}
    sheet.version += 1
    sheet.save(update_fields=["draft", "version", "updated_at"])
    audit(tournament=rnd.tournament, by=actor, action=AuditAction.SHEET_DRAFT_SAVED, round_number=rnd.number,
          table_number=sheet.table.number, old=old, new=sheet.draft)
    return sheet


@write
def discard_sheet_draft(*, table: Table, by, expected_version: int | None = None) -> ScoreSheet:
    """Throw away the arbiter's draft of ``table``'s sheet: the typed cells
    go, the sheet stays empty, the round may close again and captains may enter it.

    Args:
        table: a playing table of a published round.
        by: the arbiter (a user or an arbiter ``Actor``); captains are refused.
        expected_version: the sheet version the arbiter's page showed; ``None`` skips the check.
    Raises:
        ArbiterError: a captain; no draft to discard.
        StaleSheetError: ``expected_version`` differs (the sheet changed meanwhile).
    Audited as ``sheet_draft_discarded`` with the discarded cells as the old value.
    """
    actor = as_actor(by)
    if actor.user is None:
        raise ArbiterError(_("Solo l'arbitro può farlo."))
    sheet, rnd = lock_sheet(table)
    if expected_version is not None and expected_version != sheet.version:
        raise StaleSheetError(
            _("Lo score è stato modificato da un altro dispositivo: ecco la versione attuale."), current=sheet)
    if sheet.draft is None:
        raise ArbiterError(_("Tavolo %(t)s: non c'è una bozza da scartare.") % {"t": sheet.table.number})
    old = sheet.draft
    sheet.draft = None
    sheet.version += 1
    sheet.save(update_fields=["draft", "version", "updated_at"])
    audit(tournament=rnd.tournament, by=actor, action=AuditAction.SHEET_DRAFT_DISCARDED, round_number=rnd.number,
          table_number=sheet.table.number, old=old)
    return sheet
