"""Score sheets: entry, confirmation, validation and corrections (art. 30–31)."""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from decimal import Decimal
from typing import Sequence

from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from scoring import sheets as sheet_rules

from .. import selectors
from ..errors import ArbiterError, StaleSheetError
from ..models import (
    HandRow,
    Round,
    ScoreSheet,
    Table,
)
from .audit import Actor, _as_actor, audit
from .guard import refuse_integrity_errors


def _sheet_snapshot(sheet: ScoreSheet) -> dict:
    hands = [[h.ns_score, h.ew_score] for h in sheet.hands.all().order_by("number")]
    return {
        "hands": hands,
        "declared": [sheet.declared_ns, sheet.declared_ew],
        "mp": [sheet.mp_ns, sheet.mp_ew],
        "vp": [str(sheet.vp_ns), str(sheet.vp_ew)],
        "state": sheet.state,
    }


def _content_hash(hands: Sequence, declared) -> str:
    payload = json.dumps(
        {"h": [[h.ns, h.ew, h.ns_base, h.ns_cards, h.ew_base, h.ew_cards] for h in hands], "d": list(declared or (None, None))},
        sort_keys=True,
    )
    return hashlib.sha256(payload.encode()).hexdigest()


@dataclass(frozen=True)
class HandInput:
    """One hand as entered: each line's total, optionally with base and cards."""

    ns: int
    ew: int
    ns_base: int | None = None
    ns_cards: int | None = None
    ew_base: int | None = None
    ew_cards: int | None = None


def _locked_sheet(table: Table) -> tuple[ScoreSheet, Round]:
    sheet = ScoreSheet.objects.select_for_update().select_related("table__round__tournament").get(table=table)
    return sheet, sheet.table.round


def round_closed_refusal(rnd: Round) -> str | None:
    """For a captain: why the sheets of round ``rnd`` can no longer be changed, confirmed or
    disputed (the round is closed, or not yet published), or ``None`` while it is in play.

    Checked before any version comparison, so a captain whose page is old hears the real
    reason ("Il turno 1 è chiuso"), not "changed on another device" (issue 9 item 10).
    """
    if rnd.state == Round.State.CLOSED:
        return _("Il turno %(n)s è chiuso: lo score è in sola lettura. Per un errore rivolgiti all'arbitro.") \
            % {"n": rnd.number}
    if rnd.state == Round.State.DRAFT:
        return _("Il turno %(n)s non è ancora pubblicato.") % {"n": rnd.number}
    return None


def closed_since_message(rnd: Round) -> str:
    """The arbiter saved a sheet from a page opened before round ``rnd`` was closed (e.g.
    after the browser's Back button): nothing is saved and the page shows the sheet as it is."""
    return (_("Il turno %(n)s è chiuso: lo score non è stato salvato, la pagina era stata aperta prima "
              "della chiusura (forse con «Indietro»). Ecco lo score com'è ora; per correggerlo serve il motivo.")
            % {"n": rnd.number})


def _may_correct(rnd: Round, actor: Actor, sheet: ScoreSheet) -> None:
    if rnd.state == Round.State.DRAFT:
        raise ArbiterError(_("Il turno non è ancora pubblicato."))
    if actor.user is None:  # captain
        if rnd.state == Round.State.CLOSED:
            raise ArbiterError(round_closed_refusal(rnd))
        if sheet.state in (ScoreSheet.State.CONFIRMED, ScoreSheet.State.VALIDATED):
            raise ArbiterError(_("Lo score è già confermato: solo l'arbitro può modificarlo."))
        return
    if rnd.state == Round.State.CLOSED and rnd.system != Round.System.MITCHELL:
        raise ArbiterError(
            _("Il turno danese è chiuso: riaprilo per correggere (rules §3: correzioni di somma "
              "dopo la chiusura solo nei turni Mitchell).")
        )


def correction_needs_reason(sheet: ScoreSheet, rnd: Round) -> bool:
    """True when an arbiter's change to ``sheet`` is a correction that must state its reason
    in the audit trail (rules.md §3): the sheet is confirmed, validated or disputed, a
    captain entered it, or the round is closed. A first entry, or the arbiter's change to
    the arbiter's own unvalidated entry, needs none."""
    if sheet.state == ScoreSheet.State.EMPTY:
        return False
    return (
        sheet.state in (ScoreSheet.State.CONFIRMED, ScoreSheet.State.VALIDATED, ScoreSheet.State.DISPUTED)
        or sheet.entered_by_captain
        or rnd.state == Round.State.CLOSED
    )


@refuse_integrity_errors
@transaction.atomic
def save_score_sheet(
    *,
    table: Table,
    hands: Sequence[HandInput],
    by,
    declared: tuple[int | None, int | None] | None = None,
    expected_version: int | None = None,
    reason: str = "",
    validate: bool = False,
) -> ScoreSheet:
    """Store a table's score sheet, hand by hand (rules.md §2–4).

    ``hands``: one :class:`HandInput` per hand, MP, multiples of 5, may be negative;
    the round's hand count must match. ``declared``: the totals as written on the
    paper sheet, if any; a difference from the sum sets ``sum_error``. Totals,
    difference and VP are always derived (``scoring.sheets.sheet_totals``).

    ``expected_version``: the sheet version the writer started from; a different
    current version raises :class:`StaleSheetError` carrying the current sheet (two
    captains saving at once). Re-sending the same content stores nothing new.
    Captains (``Actor`` without user) may not change a confirmed or validated sheet
    nor any sheet of a closed round; the arbiter may correct a closed Mitchell round
    (rules.md §3). Every change is audited with old → new.
    """
    actor = _as_actor(by)
    sheet, rnd = _locked_sheet(table)
    tournament = rnd.tournament
    new_hash = _content_hash(hands, declared)
    if sheet.content_hash == new_hash and sheet.state != ScoreSheet.State.EMPTY:
        # An idempotent re-send (e.g. a captain's retry after a lost answer) succeeds even
        # when the sheet has been confirmed meanwhile: it changes nothing.
        if validate and sheet.state != ScoreSheet.State.VALIDATED and actor.user is not None:
            return validate_sheet(table=table, by=actor)
        return sheet
    _may_correct(rnd, actor, sheet)
    if expected_version is not None and expected_version != sheet.version:
        if rnd.state == Round.State.CLOSED:  # the real reason, not "another device"
            raise StaleSheetError(closed_since_message(rnd), current=sheet)
        raise StaleSheetError(
            _("Lo score è stato modificato da un altro dispositivo: ecco la versione attuale."), current=sheet
        )
    if actor.user is not None and correction_needs_reason(sheet, rnd) and not reason.strip():
        raise ArbiterError(_("Indica il motivo della correzione."))
    if len(hands) != tournament.hands_per_round:
        raise ArbiterError(
            _("Lo score deve avere %(hands)s smazzate (ricevute %(received)s).")
            % {"hands": tournament.hands_per_round, "received": len(hands)}
        )
    scale = selectors.scale_of(tournament)
    try:
        totals = sheet_rules.sheet_totals(
            [sheet_rules.HandScore(ns=h.ns, ew=h.ew) for h in hands],
            scale,
            declared=declared,
            expected_hands=tournament.hands_per_round,
        )
    except sheet_rules.SheetError as exc:
        raise ArbiterError(str(exc)) from exc
    for h in hands:
        for base, cards, total, label in ((h.ns_base, h.ns_cards, h.ns, _("N/S")),
                                         (h.ew_base, h.ew_cards, h.ew, _("E/O"))):
            if base is not None and cards is not None and base + cards != total:
                raise ArbiterError(_("Linea %(line)s: base %(base)s + carte %(cards)s non fa %(total)s.")
                                   % {"line": label, "base": base, "cards": cards, "total": total})
    old = _sheet_snapshot(sheet) if sheet.state != ScoreSheet.State.EMPTY else None
    sheet.hands.all().delete()
    HandRow.objects.bulk_create(
        [
            HandRow(sheet=sheet, number=i, ns_score=h.ns, ew_score=h.ew, ns_base=h.ns_base,
                    ns_cards=h.ns_cards, ew_base=h.ew_base, ew_cards=h.ew_cards)
            for i, h in enumerate(hands, start=1)
        ]
    )
    sheet.declared_ns, sheet.declared_ew = declared if declared else (None, None)
    sheet.mp_ns, sheet.mp_ew = totals.mp_ns, totals.mp_ew
    sheet.vp_ns, sheet.vp_ew = Decimal(totals.vp_ns), Decimal(totals.vp_ew)
    sheet.sum_error = totals.sum_error
    sheet.arbitral = False
    sheet.content_hash = new_hash
    sheet.version += 1
    if actor.user is None:
        sheet.state = ScoreSheet.State.ENTERED
        sheet.entered_by = actor.label[:60]
        sheet.entered_by_captain = True
        sheet.confirmed_by = ""
    else:
        if old is None or sheet.state == ScoreSheet.State.DISPUTED or sheet.entered_by_captain:
            sheet.entered_by = actor.label[:60]  # the arbiter's entry or correction replaces the captain's
            sheet.entered_by_captain = False
        if validate and not sheet.sum_error:
            sheet.state = ScoreSheet.State.VALIDATED
        elif sheet.state in (ScoreSheet.State.EMPTY, ScoreSheet.State.DISPUTED):
            sheet.state = ScoreSheet.State.ENTERED
    sheet.save()
    audit(
        tournament=tournament, by=actor, action="sheet_saved" if old is None else "sheet_corrected",
        round_number=rnd.number, table_number=sheet.table.number,
        old=old, new=_sheet_snapshot(sheet), reason=reason,
    )
    return sheet


def _transition(table: Table, by, *, allowed: set, new_state: str, action: str, reason: str = "",
                captain_ok: bool = False, **extra) -> ScoreSheet:
    actor = _as_actor(by)
    sheet, rnd = _locked_sheet(table)
    if actor.user is None and not captain_ok:
        raise ArbiterError(_("Solo l'arbitro può farlo."))
    if actor.user is None and rnd.state != Round.State.PUBLISHED:
        raise ArbiterError(round_closed_refusal(rnd))
    if sheet.state not in allowed:
        raise ArbiterError(_("Operazione non ammessa: lo score è «%(state)s».")
                           % {"state": sheet.get_state_display()})
    old_state = sheet.state
    sheet.state = new_state
    for key, value in extra.items():
        setattr(sheet, key, value)
    sheet.version += 1
    sheet.save()
    audit(tournament=rnd.tournament, by=actor, action=action, round_number=rnd.number,
          table_number=sheet.table.number, old={"state": old_state}, new={"state": new_state, **extra},
          reason=reason)
    return sheet


@refuse_integrity_errors
@transaction.atomic
def confirm_sheet(*, table: Table, by) -> ScoreSheet:
    """The other line's captain confirms the entered sheet; afterwards only the arbiter changes it."""
    label = _as_actor(by).label[:60]
    return _transition(table, by, allowed={ScoreSheet.State.ENTERED}, new_state=ScoreSheet.State.CONFIRMED,
                       action="sheet_confirmed", captain_ok=True, confirmed_by=label)


@refuse_integrity_errors
@transaction.atomic
def dispute_sheet(*, table: Table, by, note: str = "") -> ScoreSheet:
    """The other line disputes the entered sheet; the arbiter is alerted on the board."""
    return _transition(table, by, allowed={ScoreSheet.State.ENTERED}, new_state=ScoreSheet.State.DISPUTED,
                       action="sheet_disputed", captain_ok=True, reason=note, dispute_note=note[:300])


@refuse_integrity_errors
@transaction.atomic
def validate_sheet(*, table: Table, by) -> ScoreSheet:
    """The arbiter validates a sheet. Refused while it is empty or flagged with a sum error."""
    sheet = ScoreSheet.objects.get(table=table)
    if sheet.sum_error:
        raise ArbiterError(
            _("Tavolo %(table)s: errore di somma (dichiarato %(declared_ns)s/%(declared_ew)s, "
              "somma delle smazzate %(mp_ns)s/%(mp_ew)s). Correggi prima di validare.")
            % {"table": table.number, "declared_ns": sheet.declared_ns, "declared_ew": sheet.declared_ew,
               "mp_ns": sheet.mp_ns, "mp_ew": sheet.mp_ew}
        )
    return _transition(
        table, by,
        allowed={ScoreSheet.State.ENTERED, ScoreSheet.State.CONFIRMED, ScoreSheet.State.DISPUTED},
        new_state=ScoreSheet.State.VALIDATED, action="sheet_validated",
    )


@refuse_integrity_errors
@transaction.atomic
def validate_entered_sheets(*, round: Round, by) -> list[int]:
    """Validate, in one transaction, every sheet of ``round`` without a sum error that is
    either confirmed by the other line or entered by the arbiter. Left for the arbiter:
    disputed sheets, sum errors, and sheets a captain entered that the other line has
    not confirmed yet (validating them would take away that line's right to dispute).

    Returns the table numbers validated (ascending).
    """
    tables = Table.objects.filter(
        Q(sheet__state=ScoreSheet.State.CONFIRMED)
        | Q(sheet__state=ScoreSheet.State.ENTERED, sheet__entered_by_captain=False),
        round=round, bye="", sheet__sum_error=False,
    ).order_by("number")
    done = []
    for table in tables:
        validate_sheet(table=table, by=by)
        done.append(table.number)
    return done


@refuse_integrity_errors
@transaction.atomic
def unvalidate_sheet(*, table: Table, by, reason: str = "") -> ScoreSheet:
    """Undo a validation while the round is still open; ``reason`` is required (audit trail)."""
    if not reason.strip():
        raise ArbiterError(_("Indica il motivo della correzione."))
    if table.round.state == Round.State.CLOSED:
        raise ArbiterError(_("Il turno è chiuso."))
    return _transition(table, by, allowed={ScoreSheet.State.VALIDATED}, new_state=ScoreSheet.State.ENTERED,
                       action="sheet_unvalidated", reason=reason)


@refuse_integrity_errors
@transaction.atomic
def accept_declared_totals(*, table: Table, by, reason: str = "") -> ScoreSheet:
    """Sum error: the arbiter decides the hands are right and drops the declared totals."""
    sheet = ScoreSheet.objects.get(table=table)
    hands = [HandInput(h.ns_score, h.ew_score, h.ns_base, h.ns_cards, h.ew_base, h.ew_cards)
             for h in sheet.hands.order_by("number")]
    return save_score_sheet(table=table, hands=hands, declared=None, by=by,
                            reason=reason or "errore di somma: valgono le smazzate")


@refuse_integrity_errors
@transaction.atomic
def swap_sheet_lines(*, table: Table, by, reason: str) -> ScoreSheet:
    """Swapped lines (*inversione*, rules.md §3): N/S and E/W scores exchanged, at any time
    when the table agrees; audited with the reason."""
    actor = _as_actor(by)
    if actor.user is None:
        raise ArbiterError(_("Solo l'arbitro può invertire le linee."))
    if not reason.strip():
        raise ArbiterError(_("Indica il motivo della correzione."))
    sheet, rnd = _locked_sheet(table)
    if sheet.state == ScoreSheet.State.EMPTY:
        raise ArbiterError(_("Lo score è vuoto."))
    old = _sheet_snapshot(sheet)
    for h in sheet.hands.all():
        h.ns_score, h.ew_score = h.ew_score, h.ns_score
        h.ns_base, h.ew_base = h.ew_base, h.ns_base
        h.ns_cards, h.ew_cards = h.ew_cards, h.ns_cards
        h.save()
    sheet.declared_ns, sheet.declared_ew = sheet.declared_ew, sheet.declared_ns
    sheet.mp_ns, sheet.mp_ew = sheet.mp_ew, sheet.mp_ns
    sheet.vp_ns, sheet.vp_ew = sheet.vp_ew, sheet.vp_ns
    sheet.version += 1
    sheet.content_hash = ""
    sheet.save()
    audit(tournament=rnd.tournament, by=actor, action="sheet_lines_swapped", round_number=rnd.number,
          table_number=table.number, old=old, new=_sheet_snapshot(sheet), reason=reason)
    return sheet


@refuse_integrity_errors
@transaction.atomic
def set_arbitral_score(
    *, table: Table, by, vp_ns: Decimal, vp_ew: Decimal, mp_ns: int = 0, mp_ew: int = 0, reason: str
) -> ScoreSheet:
    """Arbitral score (*punteggio arbitrale*, art. 15): the arbiter assigns VP (and MP)
    to a table directly. VP need not sum to the scale total (e.g. both lines at fault);
    each must lie between 0 and the scale maximum. The sheet is validated."""
    actor = _as_actor(by)
    if actor.user is None:
        raise ArbiterError(_("Solo l'arbitro assegna un punteggio arbitrale."))
    if not reason.strip():
        raise ArbiterError(_("Indica il motivo del punteggio arbitrale."))
    sheet, rnd = _locked_sheet(table)
    _may_correct(rnd, actor, sheet)
    scale = selectors.scale_of(rnd.tournament)
    vp_ns, vp_ew = Decimal(vp_ns), Decimal(vp_ew)
    for v in (vp_ns, vp_ew):
        if v < 0 or v > scale.max_vp:
            raise ArbiterError(_("I VP devono stare tra 0 e %(max)s.") % {"max": scale.max_vp})
    for mp in (mp_ns, mp_ew):
        if mp % 5:
            raise ArbiterError(_("%(mp)s non è multiplo di 5.") % {"mp": mp})
    old = _sheet_snapshot(sheet)
    sheet.hands.all().delete()
    sheet.mp_ns, sheet.mp_ew, sheet.vp_ns, sheet.vp_ew = mp_ns, mp_ew, vp_ns, vp_ew
    sheet.declared_ns = sheet.declared_ew = None
    sheet.sum_error = False
    sheet.arbitral = True
    sheet.arbitral_note = reason[:200]
    sheet.state = ScoreSheet.State.VALIDATED
    sheet.version += 1
    sheet.content_hash = ""
    sheet.save()
    audit(tournament=rnd.tournament, by=actor, action="arbitral_score", round_number=rnd.number,
          table_number=table.number, old=old, new=_sheet_snapshot(sheet), reason=reason)
    return sheet


