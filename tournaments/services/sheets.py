"""Score sheets: entry, confirmation, validation and corrections (art. 30–31)."""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from decimal import Decimal
from typing import Sequence

from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring import sheets as sheet_rules

from .. import selectors
from ..errors import ArbiterError, StaleSheetError
from ..i18n_messages import message_text
from ..models import (
    AuditAction,
    AuditEntry,
    CorrectionKind,
    HandRow,
    Round,
    ScoreSheet,
    Table,
)
from ..selectors.clock import entry_clock_seconds
from ..text import clean_note
from ._common import as_actor
from .audit import SUM_ERROR_REASON, audit, audit_entry, clean_reason
from .corrections import (
    check_correction,
    closed_since_message,
    correction_needs_reason,
    delivered_by_captains,
    may_correct,
    round_closed_refusal,
)
from .guard import write
from .locks import lock_round, lock_sheet, lock_tables


def _sheet_snapshot(sheet: ScoreSheet, hands: Sequence | None = None) -> dict:
    """The sheet for the audit trail; ``hands``: the :class:`HandInput` just stored (else read)."""
    if hands is not None:
        hands = [[h.ns, h.ew] for h in hands]
    else:
        hands = [[h.ns_score, h.ew_score] for h in sheet.hands.all().order_by("number")]
    return {
        "hands": hands,
        "declared": [sheet.declared_ns, sheet.declared_ew],
        "mp": [sheet.mp_ns, sheet.mp_ew],
        "vp": [str(sheet.vp_ns), str(sheet.vp_ew)],
        "state": sheet.state,
    }


def sheet_content_hash(hands: Sequence, declared) -> str:
    """The content hash of a sheet as entered (SHA-256 hex of the hands and declared totals).

    ``hands``: :class:`HandInput` items (MP); ``declared``: ``(ns, ew)`` or ``None``. Two
    entries of the same numbers have the same hash; :func:`save_score_sheet` stores it, so
    a re-sent sheet is recognised, and a phone that lost an answer can show that the
    server holds exactly what it last sent (``last_sent_hash``).
    """
    return _content_hash(hands, declared)


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
    """The sheet of ``table`` and its round, locked in the one order (tournament, round, table,
    sheet: :func:`tournaments.services.locks.lock_sheet`) and read again under the locks."""
    return lock_sheet(table)


def _clock_now(table: Table, rnd: Round) -> int | None:
    """The table's remaining clock seconds at this entry (rules.md §11: slow tables), or
    None when the round's clock has not started or the round is no longer in play."""
    return entry_clock_seconds(table, rnd) if rnd.state == Round.State.PUBLISHED else None


def _checked_totals(hands: Sequence[HandInput], declared, hands_per_round: int,
                    scale) -> sheet_rules.SheetTotals:
    """Totals and VP of ``hands`` (MP) after the input checks of :func:`save_score_sheet`
    (hand count, bounds, base + cards = total); raises ArbiterError. Reads nothing."""
    try:
        totals = sheet_rules.sheet_totals(
            [sheet_rules.HandScore(ns=h.ns, ew=h.ew) for h in hands],
            scale,
            declared=declared,
            expected_hands=hands_per_round,
        )
    except sheet_rules.SheetError as exc:  # in the reader's language
        raise ArbiterError("; ".join(message_text(m) for m in exc.messages)) from exc
    for number, h in enumerate(hands, start=1):
        for part in (h.ns_base, h.ns_cards, h.ew_base, h.ew_cards):
            if part is not None and abs(part) > sheet_rules.MAX_HAND_MP:
                raise ArbiterError(_("Smazzata %(n)s: base o carte %(v)s fuori dai limiti (al massimo "
                                     "%(max)s MP in valore assoluto).")
                                   % {"n": number, "v": str(part)[:12], "max": sheet_rules.MAX_HAND_MP})
        for base, cards, total, label in ((h.ns_base, h.ns_cards, h.ns, _("N/S")),
                                         (h.ew_base, h.ew_cards, h.ew, _("E/O"))):
            if base is not None and cards is not None and base + cards != total:
                raise ArbiterError(_("Linea %(line)s: base %(base)s + carte %(cards)s non fa %(total)s.")
                                   % {"line": label, "base": base, "cards": cards, "total": total})
    return totals


@dataclass(frozen=True)
class _Prepared:
    """What :func:`save_score_sheet` computes before its transaction (the write
    lock is held only for the reads and writes that need it): the totals, or the refusal
    to raise in its turn, for the given hand count and VP scale."""

    hands_per_round: int
    scale: object
    content_hash: str
    result: object  # SheetTotals, or the ArbiterError to raise

    def totals(self):
        if isinstance(self.result, ArbiterError):
            raise self.result
        return self.result


def _prepare(table: Table, hands: Sequence[HandInput], declared) -> _Prepared:
    tournament = table.round.tournament
    scale = selectors.scales.scale_of(tournament)
    try:
        result = _checked_totals(hands, declared, tournament.hands_per_round, scale)
    except ArbiterError as exc:
        result = exc
    return _Prepared(tournament.hands_per_round, scale, _content_hash(hands, declared), result)


def save_score_sheet(
    *,
    table: Table,
    hands: Sequence[HandInput],
    by,
    declared: tuple[int | None, int | None] | None = None,
    expected_version: int | None = None,
    last_sent_hash: str | None = None,
    reason: str = "",
    kind: str = "",
    validate: bool = False,
    device: tuple[str, str] | None = None,
    decision: str = "",
) -> ScoreSheet:
    """Store a table's score sheet, hand by hand (rules.md §2–4).

    ``validate`` on a **disputed** sheet (trust, rules.md §3): unchanged, it is
    :func:`validate_sheet` with ``decision`` (or ``reason``) as the decision; changed, the
    arbiter's ``decision`` (non-blank, ≤ 300 characters) is required, else ``ArbiterError``
    (:func:`dispute_refusal`) and nothing is stored; with it, the correction is saved (its
    audit entry keeps the dispute it answers) and then validated by a ``sheet_validated``
    entry whose reason is the decision, as the decision page records it.

    ``device``: for a captain's entry, ``(device cookie id or "", User-Agent hash)`` of the
    browser that saved it, kept for the board's "same browser?" hint.

    ``hands``: one :class:`HandInput` per hand, MP, multiples of 5, may be negative;
    the round's hand count must match. ``declared``: the totals as written on the
    paper sheet, if any; a difference from the sum sets ``sum_error``. Totals,
    difference and VP are always derived (``scoring.sheets.sheet_totals``).

    ``expected_version``: the sheet version the writer started from; a different
    current version raises :class:`StaleSheetError` carrying the current sheet (two
    captains saving at once). Re-sending the same content stores nothing new.
    ``last_sent_hash``: the :func:`sheet_content_hash` of what this writer (a captain's
    phone) last sent; when the stored sheet holds exactly that content, the writer's old
    ``expected_version`` is not another phone's change but its own save whose answer was
    lost, and the new content is accepted.

    Every hand score (and base/cards part) is bounded: |value| ≤
    ``scoring.sheets.MAX_HAND_MP`` (10,000 MP); declared totals ≤ 10,000 MP × hands. Beyond
    it, ``ArbiterError`` (the database's integer fields never see an overflow).
    Captains (``Actor`` without user) may not change a confirmed or validated sheet
    nor any sheet of a closed round.

    Corrections (rules.md §3, art. 31): any change by the arbiter to a sheet that is no
    longer empty is a correction and needs ``kind``: ``"transcription"`` or
    ``"sum_error"`` here (swapped lines and arbitral scores have their own services);
    :func:`.corrections.correction_refusal` decides whether the kind is still allowed. A correction
    of a closed round applies directly (no reopening) and its sheet stays validated; a
    validated sheet may not be left with a sum error. ``reason`` is required when
    :func:`correction_needs_reason` says so. Every change is audited with old → new
    and, for a correction, its kind.

    A room of captains saves at once: the input checks, totals, VP and content
    hash are computed before the transaction, which holds SQLite's write lock only for the
    locked read, the checks against the stored sheet and the writes; that transaction is
    the write (:func:`~tournaments.services.guard.write`): a busy database is waited for
    by retrying it alone, the prepared values are not computed again.
    """
    return _save_score_sheet(
        table=table, hands=hands, by=by, declared=declared, expected_version=expected_version,
        last_sent_hash=last_sent_hash, reason=reason, kind=kind, validate=validate, device=device,
        prepared=_prepare(table, hands, declared), decision=decision,
    )


@write
def _save_score_sheet(*, table: Table, hands: Sequence[HandInput], by, declared, expected_version: int | None,
                      last_sent_hash: str | None, reason: str, kind: str, validate: bool,
                      device: tuple[str, str] | None, prepared: _Prepared, decision: str = "") -> ScoreSheet:
    actor = as_actor(by)
    sheet, rnd = _locked_sheet(table)
    tournament = rnd.tournament
    new_hash = prepared.content_hash
    decision = (decision or "").strip()[:300]
    disputed_validation = validate and actor.user is not None and sheet.state == ScoreSheet.State.DISPUTED
    if sheet.content_hash == new_hash and sheet.state != ScoreSheet.State.EMPTY:
        # An idempotent re-send (e.g. a captain's retry after a lost answer) succeeds even
        # when the sheet has been confirmed meanwhile: it changes nothing.
        if validate and sheet.state != ScoreSheet.State.VALIDATED and actor.user is not None:
            # unchanged: a plain validation; a disputed sheet only with the arbiter's decision
            # written (``decision``, or the reason typed with it), which validate_sheet requires
            return validate_sheet(table=table, by=actor, reason=decision or reason)
        return sheet
    if disputed_validation and not decision:
        # changed and validated at once: the correction's reason is not the decision (trust)
        raise ArbiterError(dispute_refusal(sheet.table.number))
    may_correct(rnd, actor, sheet)
    if actor.user is None and sheet.draft is not None:
        # the arbiter is typing this sheet; a captain may not overwrite it
        raise StaleSheetError(draft_refusal(sheet.table.number), current=sheet)
    own_last_save = bool(last_sent_hash) and sheet.content_hash == last_sent_hash \
        and sheet.state == ScoreSheet.State.ENTERED and actor.user is None
    if expected_version is not None and expected_version != sheet.version and not own_last_save:
        if rnd.state == Round.State.CLOSED:  # the real reason, not "another device"
            raise StaleSheetError(closed_since_message(rnd), current=sheet)
        raise StaleSheetError(
            _("Lo score è stato modificato da un altro dispositivo: ecco la versione attuale."), current=sheet
        )
    is_correction = actor.user is not None and sheet.state != ScoreSheet.State.EMPTY
    if is_correction:
        if kind in (CorrectionKind.SWAPPED_LINES, CorrectionKind.ARBITRAL):
            raise ArbiterError(_("Linee invertite e punteggio arbitrale si applicano dalla pagina "
                                 "Correzioni del tavolo."))
        check_correction(kind, rnd=rnd, sheet=sheet)
    if actor.user is not None and correction_needs_reason(sheet, rnd) and not reason.strip():
        raise ArbiterError(_("Indica il motivo della correzione."))
    scale = selectors.scales.scale_of(tournament)
    if (prepared.hands_per_round, prepared.scale) == (tournament.hands_per_round, scale):
        totals = prepared.totals()  # computed before the transaction (raises its refusal here)
    else:  # the tournament's settings changed meanwhile: compute again
        totals = _checked_totals(hands, declared, tournament.hands_per_round, scale)
    if totals.sum_error and sheet.state == ScoreSheet.State.VALIDATED:
        raise ArbiterError(
            _("Lo score è validato: non può restare con un errore di somma (dichiarato %(declared)s, "
              "somma delle smazzate %(sum)s). Correggi le smazzate o i totali dichiarati.")
            % {"declared": "%s/%s" % tuple(declared), "sum": f"{totals.mp_ns}/{totals.mp_ew}"}
        )
    old = _sheet_snapshot(sheet) if sheet.state != ScoreSheet.State.EMPTY else None
    dispute = None
    if sheet.state == ScoreSheet.State.DISPUTED:  # the dispute this correction answers (trust)
        dispute = _dispute_record(sheet, rnd)
        old.update(dispute)
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
    sheet.draft = None  # a complete save replaces the arbiter's draft
    sheet.content_hash = new_hash
    sheet.version += 1
    if actor.user is None:
        sheet.state = ScoreSheet.State.ENTERED
        sheet.entered_by = actor.label[:60]
        sheet.entered_by_captain = True
        sheet.entered_clock_seconds = _clock_now(sheet.table, rnd)
        sheet.confirmed_by = ""
        sheet.entry_device, sheet.entry_agent = device or ("", "")
        sheet.confirm_device = sheet.confirm_agent = ""
    else:
        replaces_captain = sheet.entered_by_captain and not delivered_by_captains(sheet)
        if old is None or sheet.state == ScoreSheet.State.DISPUTED or replaces_captain:
            # The arbiter's entry replaces a captain's unconfirmed or disputed one; over a sheet
            # the captains confirmed, the delivered sheet stays theirs (the audit has the change).
            sheet.entered_by = actor.label[:60]
            sheet.entered_by_captain = False
            sheet.entered_clock_seconds = _clock_now(sheet.table, rnd)
        if validate and not sheet.sum_error and not disputed_validation:
            sheet.state = ScoreSheet.State.VALIDATED
        elif sheet.state in (ScoreSheet.State.EMPTY, ScoreSheet.State.DISPUTED):
            sheet.state = ScoreSheet.State.ENTERED
    sheet.save()
    new = _sheet_snapshot(sheet, hands)
    if is_correction:
        new["kind"] = CorrectionKind(kind).value
    audit(
        tournament=tournament, by=actor, action=AuditAction.SHEET_SAVED if old is None else AuditAction.SHEET_CORRECTED,
        round_number=rnd.number, table_number=sheet.table.number,
        old=old, new=new, reason=reason,
    )
    if disputed_validation and not sheet.sum_error:
        # the validation itself, with the decision, as the decision page records it
        sheet.state = ScoreSheet.State.VALIDATED
        sheet.version += 1
        sheet.save(update_fields=["state", "version"])
        audit(tournament=tournament, by=actor, action=AuditAction.SHEET_VALIDATED, round_number=rnd.number,
              table_number=sheet.table.number, old={"state": ScoreSheet.State.DISPUTED, **(dispute or {})},
              new={"state": ScoreSheet.State.VALIDATED}, reason=decision)
    return sheet


def draft_refusal(table_number: int) -> str:
    """What a captain reads when the arbiter holds a draft of his sheet."""
    return (_("Tavolo %(t)s: l'arbitro sta inserendo questo score. Aspetta che finisca, o "
              "rivolgiti all'arbitro.") % {"t": table_number})


def stale_sheet_error(sheet: ScoreSheet, seen: int) -> StaleSheetError:
    """The refusal of an action taken on version ``seen`` of ``sheet``, which a captain has
    changed since (the views answer 409 with the current sheet)."""
    return StaleSheetError(
        _("Tavolo %(table)s: lo score è cambiato dopo che l'hai visto (versione %(seen)s, ora %(now)s): "
          "controlla lo score attuale prima di validarlo.")
        % {"table": sheet.table.number, "seen": seen, "now": sheet.version},
        current=sheet,
    )


def _check_round_in_play(rnd: Round, actor) -> None:
    """Raise ArbiterError unless ``rnd`` (read under its lock) is in play: a sheet changes
    state only while its round is published, for every actor, the round read under the lock,
    not the page's copy (a close committed meanwhile, rules.md §3)."""
    if rnd.state != Round.State.PUBLISHED:
        if actor.user is None:
            raise ArbiterError(round_closed_refusal(rnd))
        raise ArbiterError(_("Il turno %(n)s è chiuso: lo score non cambia più stato. Per correggerlo "
                             "scegli una correzione (art. 31).") % {"n": rnd.number}
                           if rnd.state == Round.State.CLOSED else _("Il turno non è ancora pubblicato."))


def _transition(table: Table, by, *, allowed: set, new_state: str, action: str, reason: str = "",
                captain_ok: bool = False, expected_version: int | None = None,
                audit_old: dict | None = None, **extra) -> ScoreSheet:
    actor = as_actor(by)
    sheet, rnd = _locked_sheet(table)
    if expected_version is not None and expected_version != sheet.version:
        raise stale_sheet_error(sheet, expected_version)
    if actor.user is None and not captain_ok:
        raise ArbiterError(_("Solo l'arbitro può farlo."))
    _check_round_in_play(rnd, actor)
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
          table_number=sheet.table.number, old={"state": old_state, **(audit_old or {})},
          new={"state": new_state, **extra},
          reason=reason)
    return sheet


@write
def confirm_sheet(*, table: Table, by, device: tuple[str, str] | None = None) -> ScoreSheet:
    """The other line's captain confirms the entered sheet; afterwards only the arbiter changes it.

    ``device``: ``(device cookie id or "", User-Agent hash)`` of the confirming browser, for the
    board's "same browser?" hint; ``None`` records nothing.
    """
    label = as_actor(by).label[:60]
    extra = {}
    if device is not None:
        extra = {"confirm_device": device[0][:32], "confirm_agent": device[1][:16]}
    return _transition(table, by, allowed={ScoreSheet.State.ENTERED}, new_state=ScoreSheet.State.CONFIRMED,
                       action=AuditAction.SHEET_CONFIRMED, captain_ok=True, confirmed_by=label, **extra)


@write
def dispute_sheet(*, table: Table, by, note: str = "") -> ScoreSheet:
    """The other line disputes the entered sheet; the arbiter is alerted on the board.
    ``note``: the dispute's text, kept on the sheet as ``text.clean_note`` leaves it (new
    lines kept, control characters and bidirectional overrides removed, 300 characters)."""
    note = clean_note(note, max_length=300)
    return _transition(table, by, allowed={ScoreSheet.State.ENTERED}, new_state=ScoreSheet.State.DISPUTED,
                       action=AuditAction.SHEET_DISPUTED, captain_ok=True, reason=note, dispute_note=note[:300])


def dispute_refusal(table_number: int) -> str:
    """What the arbiter reads when he validates a disputed sheet without a decision (trust)."""
    return (_("Lo score del tavolo %(t)s è contestato: scrivi la decisione dell'arbitro prima di "
              "validarlo.") % {"t": table_number})


def _dispute_record(sheet: ScoreSheet, rnd: Round) -> dict:
    """The dispute a decision answers, for its audit entry: ``{"dispute_note", "disputed_by"}``
    (the note the other line wrote, the label of who disputed: the latest ``sheet_disputed``
    entry of the table; "" when unknown)."""
    entry = selectors.last_dispute(rnd, sheet.table.number)
    return {"dispute_note": sheet.dispute_note, "disputed_by": entry.actor if entry else ""}


@write
def validate_sheet(*, table: Table, by, expected_version: int | None = None, reason: str = "") -> ScoreSheet:
    """The arbiter validates a sheet. Refused while it is empty or flagged with a sum error.

    ``expected_version``: the sheet version the arbiter saw (the live board posts it); when
    a captain changed the sheet since, :class:`StaleSheetError` carrying the current sheet
    (the view answers 409). ``None``: no check (validate-all, grid).

    ``reason``: the arbiter's decision (at most 300 characters kept). A **disputed** sheet
    is validated only with a non-blank decision (rules.md §3, art. 31–33: the arbiter
    decides a dispute; trust): without one, :class:`ArbiterError`
    (:func:`dispute_refusal`) and nothing changes. The audit entry of that validation
    keeps the decision as its reason and, beside the old state, the dispute it answers
    (``dispute_note``, ``disputed_by``). Entered and confirmed sheets need no reason.
    The checks run on the locked sheet, so a dispute arriving meanwhile is not validated
    without a decision.
    """
    sheet, rnd = _locked_sheet(table)
    if expected_version is not None and expected_version != sheet.version:
        raise stale_sheet_error(sheet, expected_version)
    if sheet.sum_error:
        raise ArbiterError(
            _("Tavolo %(table)s: errore di somma (dichiarato %(declared_ns)s/%(declared_ew)s, "
              "somma delle smazzate %(mp_ns)s/%(mp_ew)s). Correggi prima di validare.")
            % {"table": table.number, "declared_ns": sheet.declared_ns, "declared_ew": sheet.declared_ew,
               "mp_ns": sheet.mp_ns, "mp_ew": sheet.mp_ew}
        )
    reason = (reason or "").strip()[:300]
    audit_old = None
    if sheet.state == ScoreSheet.State.DISPUTED:
        if not reason:
            raise ArbiterError(dispute_refusal(table.number))
        audit_old = _dispute_record(sheet, rnd)
    # rules.md §3: the arbiter's choice to validate a captain's entry the other line has
    # not confirmed is recorded as such
    unconfirmed = sheet.state == ScoreSheet.State.ENTERED and sheet.entered_by_captain
    return _transition(
        table, by,
        allowed={ScoreSheet.State.ENTERED, ScoreSheet.State.CONFIRMED, ScoreSheet.State.DISPUTED},
        new_state=ScoreSheet.State.VALIDATED,
        action=AuditAction.SHEET_VALIDATED_UNCONFIRMED if unconfirmed else AuditAction.SHEET_VALIDATED,
        expected_version=expected_version, reason=reason, audit_old=audit_old,
    )


@write
def validate_entered_sheets(*, round: Round, by) -> list[int]:
    """Validate, in one transaction, every sheet of ``round`` without a sum error that is
    either confirmed by the other line or entered by the arbiter. Left for the arbiter:
    disputed sheets (they need his written decision, :func:`validate_sheet`), sum errors,
    and sheets a captain entered that the other line has not confirmed yet (validating
    them would take away that line's right to dispute).

    The chosen sheets are locked before they are validated, so a dispute sent at the same
    moment waits and then finds the sheet validated, instead of the dispute vanishing here.

    The sheets change as :func:`validate_sheet` changes one (state ``validated``, version
    + 1, ``updated_at``; one ``sheet_validated`` audit entry each, ``{"state": old}`` →
    ``{"state": "validated"}``, in table order), but in one ``UPDATE`` and one ``INSERT`` of
    the audit entries: the busiest minute's last 50 sheets were 400 statements in the
    arbiter's request. Raises ArbiterError as :func:`validate_sheet` when there is a sheet to
    validate and ``by`` is not the arbiter or the round is no longer in play.

    Returns the table numbers validated (ascending).
    """
    rnd = lock_round(round)  # the one order: tournament, round, tables, sheets (services.locks)
    lock_tables(rnd)
    chosen = list(ScoreSheet.objects.select_for_update(of=("self",)).filter(
        Q(state=ScoreSheet.State.CONFIRMED) | Q(state=ScoreSheet.State.ENTERED, entered_by_captain=False),
        table__round=rnd, table__bye="", sum_error=False,
    ).order_by("table__number").values_list("pk", "state", "table__number"))
    if not chosen:
        return []
    actor = as_actor(by)
    if actor.user is None:
        raise ArbiterError(_("Solo l'arbitro può farlo."))
    _check_round_in_play(rnd, actor)
    # The rows are locked above: no other write changes their state or version meanwhile.
    ScoreSheet.objects.filter(pk__in=[pk for pk, _state, _n in chosen]).update(
        state=ScoreSheet.State.VALIDATED, version=F("version") + 1, updated_at=timezone.now())
    # Neither state taken here is a captain's unconfirmed entry (rules.md §3): sheet_validated.
    tournament = rnd.tournament
    AuditEntry.objects.bulk_create([
        audit_entry(tournament=tournament, by=actor, action=AuditAction.SHEET_VALIDATED, round_number=rnd.number,
                    table_number=number, old={"state": state}, new={"state": ScoreSheet.State.VALIDATED})
        for _pk, state, number in chosen])
    return [number for _pk, _state, number in chosen]


@write
def unvalidate_sheet(*, table: Table, by, reason: str = "") -> ScoreSheet:
    """Undo a validation while the round is still open; ``reason`` is required (audit trail).

    The round's state is checked on the locked round (:func:`_transition`), so a close
    committed meanwhile refuses it with a sentence instead of leaving a closed round with an
    unvalidated sheet. Raises ArbiterError: blank reason, round closed, sheet not validated."""
    if not reason.strip():
        raise ArbiterError(_("Indica il motivo della correzione."))
    return _transition(table, by, allowed={ScoreSheet.State.VALIDATED}, new_state=ScoreSheet.State.ENTERED,
                       action=AuditAction.SHEET_UNVALIDATED, reason=reason)


@write
def accept_declared_totals(*, table: Table, by, reason: str = "") -> ScoreSheet:
    """Sum error: the arbiter decides the hands are right and drops the declared totals.

    A correction of kind ``sum_error``: refused once the next round is published
    (art. 31 ¶1, :func:`.corrections.correction_refusal`). Audited as ``sheet_corrected``."""
    sheet, _rnd = _locked_sheet(table)  # the hands as they are now, not before another correction
    hands = [HandInput(h.ns_score, h.ew_score, h.ns_base, h.ns_cards, h.ew_base, h.ew_cards)
             for h in sheet.hands.order_by("number")]
    return save_score_sheet(table=table, hands=hands, declared=None, by=by, kind=CorrectionKind.SUM_ERROR,
                            reason=reason or SUM_ERROR_REASON)


@write
def swap_sheet_lines(*, table: Table, by, reason: str) -> ScoreSheet:
    """Swapped lines (*inversione*, rules.md §3, art. 31 ¶2): N/S and E/W scores
    exchanged, at any time when the table agrees, a closed round included (applied
    directly, the sheet keeps its state; a later published pairing is not touched).
    ``reason`` is required. Audited as ``sheet_lines_swapped`` with kind
    ``swapped_lines``. Raises ArbiterError for a captain, a blank reason, an empty sheet."""
    actor = as_actor(by)
    if actor.user is None:
        raise ArbiterError(_("Solo l'arbitro può invertire le linee."))
    if not reason.strip():
        raise ArbiterError(_("Indica il motivo della correzione."))
    sheet, rnd = _locked_sheet(table)
    if sheet.state == ScoreSheet.State.EMPTY:
        raise ArbiterError(_("Lo score è vuoto."))
    check_correction(CorrectionKind.SWAPPED_LINES, rnd=rnd, sheet=sheet)
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
    audit(tournament=rnd.tournament, by=actor, action=AuditAction.SHEET_LINES_SWAPPED, round_number=rnd.number,
          table_number=table.number, old=old, new={**_sheet_snapshot(sheet), "kind": CorrectionKind.SWAPPED_LINES.value},
          reason=reason)
    return sheet


@write
def set_arbitral_score(
    *, table: Table, by, vp_ns: Decimal, vp_ew: Decimal, mp_ns: int = 0, mp_ew: int = 0, reason: str
) -> ScoreSheet:
    """Arbitral score (*punteggio arbitrale*, art. 15): the arbiter assigns VP (and MP)
    to a table directly. VP need not sum to the scale total (e.g. both lines at fault);
    each must lie between 0 and the scale maximum; MP multiples of 5. The sheet is
    validated. Allowed any time, a closed round included (applied directly, no
    reopening; a later published pairing is not touched). Audited as
    ``arbitral_score`` with kind ``arbitral``."""
    actor = as_actor(by)
    if actor.user is None:
        raise ArbiterError(_("Solo l'arbitro assegna un punteggio arbitrale."))
    reason = clean_reason(reason)  # printed on the score sheet (arbitral_note)
    if not reason:
        raise ArbiterError(_("Indica il motivo del punteggio arbitrale."))
    sheet, rnd = _locked_sheet(table)
    may_correct(rnd, actor, sheet)
    check_correction(CorrectionKind.ARBITRAL, rnd=rnd, sheet=sheet)
    scale = selectors.scales.scale_of(rnd.tournament)
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
    audit(tournament=rnd.tournament, by=actor, action=AuditAction.ARBITRAL_SCORE, round_number=rnd.number,
          table_number=table.number, old=old, new={**_sheet_snapshot(sheet), "kind": CorrectionKind.ARBITRAL.value},
          reason=reason)
    return sheet


