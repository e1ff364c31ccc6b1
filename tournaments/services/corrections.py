"""Who may change a score sheet, and which corrections a sheet of a closed round takes
(rules.md §3, art. 30–31): the refusals the sheet writes (:mod:`.sheets`) and the arbiter's
correction pages ask before anything is saved. Reads only."""
from __future__ import annotations

from django.utils.translation import gettext as _

from ..errors import ArbiterError
from ..models import CorrectionKind, Round, ScoreSheet
from ._common import Actor


def round_closed_refusal(rnd: Round) -> str | None:
    """For a captain: why the sheets of round ``rnd`` can no longer be changed, confirmed or
    disputed (the round is closed, or not yet published), or ``None`` while it is in play.

    Checked before any version comparison, so a captain whose page is old hears the real
    reason ("Il turno 1 è chiuso"), not "changed on another device".
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


def may_correct(rnd: Round, actor: Actor, sheet: ScoreSheet) -> None:
    """Who may change a sheet at all. Captains: only while the round is in play and the
    sheet is neither confirmed nor validated. The arbiter: any published or closed round;
    what he may change there is decided by the correction's kind
    (:func:`correction_refusal`)."""
    if rnd.state == Round.State.DRAFT:
        raise ArbiterError(_("Il turno non è ancora pubblicato."))
    if actor.user is None:  # captain
        if rnd.state == Round.State.CLOSED:
            raise ArbiterError(round_closed_refusal(rnd))
        if sheet.state in (ScoreSheet.State.CONFIRMED, ScoreSheet.State.VALIDATED):
            raise ArbiterError(_("Lo score è già confermato: solo l'arbitro può modificarlo."))


def next_round_published(rnd: Round) -> Round | None:
    """The round after ``rnd`` when its pairing is already published (state published or
    closed), else ``None`` (no next round, or only a draft). Art. 31 ¶1 counts the time
    limit of a sum-error correction from this publication."""
    return (rnd.tournament.rounds.filter(number=rnd.number + 1)
            .exclude(state=Round.State.DRAFT).first())


def delivered_by_captains(sheet: ScoreSheet) -> bool:
    """True when the stored sheet is the one the captains delivered: a captain entered it
    and the other line confirmed it (:func:`confirm_sheet` sets ``confirmed_by``; a
    captain's new entry clears it). An arbiter's later correction keeps both marks, so a
    sheet the captains delivered stays theirs (rules.md §3)."""
    return sheet.entered_by_captain and bool(sheet.confirmed_by)


def correction_refusal(kind: str, *, rnd: Round, sheet: ScoreSheet) -> str | None:
    """Why the arbiter may not make a correction of ``kind`` to ``sheet`` (of round
    ``rnd``) now, as an Italian sentence; ``None`` when it is allowed.

    ``kind``: a :class:`~tournaments.models.CorrectionKind` value. The limits
    (rules.md §3, seed code art. 31):

    - ``transcription``: any time, but never over a sheet the captains entered and
      confirmed (:func:`delivered_by_captains`): what is stored *is* the delivered sheet;
    - ``sum_error``: only until the next round's pairing is published (art. 31 ¶1);
    - ``swapped_lines`` (art. 31 ¶2) and ``arbitral`` (art. 15): any time.

    The kinds allowed any time apply to a closed round directly: no reopening, and the
    pairing of a later published round never changes. A blank or unknown kind is refused.
    """
    if not kind:
        return _("Scegli il tipo di correzione (art. 31): trascrizione, errore di somma, "
                 "linee invertite o punteggio arbitrale.")
    if kind not in CorrectionKind.values:
        return _("Tipo di correzione sconosciuto: «%(kind)s».") % {"kind": kind}
    if kind == CorrectionKind.SUM_ERROR:
        nxt = next_round_published(rnd)
        if nxt is not None:
            return (_("Errore di somma non più correggibile: il turno %(next)s è già pubblicato. "
                      "Le correzioni di somma sono ammesse solo fino alla pubblicazione del turno "
                      "successivo (art. 31 ¶1).") % {"next": nxt.number})
    if kind == CorrectionKind.TRANSCRIPTION and delivered_by_captains(sheet):
        return (_("Tavolo %(table)s: lo score è stato inserito e confermato dai capitani, quindi è lo "
                  "score consegnato: una trascrizione non può cambiarlo (art. 31). Scegli errore di "
                  "somma, linee invertite o punteggio arbitrale.") % {"table": sheet.table.number})
    return None


def allowed_correction_kinds(sheet: ScoreSheet, rnd: Round) -> list[tuple[str, str, str | None]]:
    """Every correction kind for the page: ``[(value, label, refusal or None)]`` in the
    order of :class:`~tournaments.models.CorrectionKind` (see :func:`correction_refusal`)."""
    return [(value, label, correction_refusal(value, rnd=rnd, sheet=sheet))
            for value, label in CorrectionKind.choices]


def check_correction(kind: str, *, rnd: Round, sheet: ScoreSheet) -> None:
    """Raise ``ArbiterError`` with :func:`correction_refusal`'s sentence when a correction of
    ``kind`` (a ``CorrectionKind``) may not be made to ``sheet`` of ``rnd`` now."""
    refusal = correction_refusal(kind, rnd=rnd, sheet=sheet)
    if refusal:
        raise ArbiterError(refusal)


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
