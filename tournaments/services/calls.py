"""«Chiama l'arbitro»: a table calls the arbiter from the captain's phone; the arbiter answers
«Arrivo» (he is on his way) and «Risolto» (done). Every step is audited.

One open call per table: the database holds it (``arbiter_call_one_open_per_table``, a
partial unique constraint) and :func:`call_arbiter` inserts only when no call is open, under
the table's row lock, so a repeated tap, a re-sent request or the other line's phone tapping
at the same moment changes nothing and answers the call already open.
"""
from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from ..errors import ArbiterError
from ..models import ArbiterCall, AuditAction, Round, Table
from ..server import timesource
from ._common import Actor, as_actor
from .audit import audit
from .guard import write

REASONS = tuple(value for value, _label in ArbiterCall.Reason.choices)


def open_call(table: Table) -> ArbiterCall | None:
    """The table's call not yet resolved (open or taken), or None."""
    return ArbiterCall.objects.filter(table=table).exclude(state=ArbiterCall.State.RESOLVED).first()


def call_refusal(table: Table, rnd: Round) -> str | None:
    """Why ``table`` of ``rnd`` may not call the arbiter now (a sentence), or None: the round
    must be in play (published, not closed) and the table must be playing (a rest table has
    nobody to arbitrate)."""
    if rnd.state == Round.State.CLOSED:
        return _("Il turno %(n)s è chiuso: per un problema rivolgiti all'arbitro di persona.") % {"n": rnd.number}
    if rnd.state != Round.State.PUBLISHED:
        return _("Il turno %(n)s non è ancora pubblicato.") % {"n": rnd.number}
    if table.bye:
        return _("Questo tavolo riposa: non c'è niente da arbitrare.")
    return None


@write
def call_arbiter(*, table: Table, by: Actor, reason: str = "") -> tuple[ArbiterCall, bool]:
    """Store a call of ``table`` (its captain's link) with an optional ``reason`` (one of
    :data:`REASONS`: ``""``, ``"dispute"``, ``"card"``, ``"time"``, ``"other"``).

    Returns ``(call, created)``: when a call of the table is still open (or taken), that call
    and ``False``, with nothing written (a repeated tap changes nothing, not even the reason).
    Raises ``ArbiterError`` for an unknown reason, a closed or unpublished round, a rest table.
    """
    if reason not in REASONS:
        raise ArbiterError(_("Motivo della chiamata non valido."))
    # the table's row only (of=self): a call takes no earlier lock of the one order
    # (tournament, round, table: services.locks) after it
    locked = (Table.objects.select_for_update(of=("self",)).select_related("round__tournament")
              .get(pk=table.pk))
    rnd = locked.round
    refusal = call_refusal(locked, rnd)
    if refusal:
        raise ArbiterError(refusal)
    current = open_call(locked)
    if current is not None:
        return current, False
    try:
        with transaction.atomic():  # the constraint is the last word if two inserts race
            call = ArbiterCall.objects.create(round=rnd, table=locked, reason=reason,
                                              called_by=by.label[:60], called_at=timesource.now())
    except IntegrityError:
        return open_call(locked), False
    audit(tournament=rnd.tournament, by=by, action=AuditAction.ARBITER_CALLED, round_number=rnd.number,
          table_number=locked.number, new={"reason": reason})
    return call, True


def _answer(call_id: int, *, rnd: Round, by, state: str) -> ArbiterCall:
    """Set call ``call_id`` of ``rnd`` to ``state`` inside the caller's write (its transaction)."""
    actor = as_actor(by)
    call = (ArbiterCall.objects.select_for_update().select_related("table")
            .filter(pk=call_id, round=rnd).first())
    if call is None:
        raise ArbiterError(_("Chiamata non trovata."))
    if call.state == ArbiterCall.State.RESOLVED or call.state == state:
        return call  # already answered (a second click, another arbiter's window)
    old = call.state
    now = timesource.now()
    if state == ArbiterCall.State.TAKEN:
        call.taken_at, call.taken_by = now, actor.label[:80]
    else:
        call.resolved_at, call.resolved_by = now, actor.label[:80]
    call.state = state
    call.save()
    action = (AuditAction.ARBITER_CALL_TAKEN if state == ArbiterCall.State.TAKEN
              else AuditAction.ARBITER_CALL_RESOLVED)
    audit(tournament=rnd.tournament, by=actor, action=action, round_number=rnd.number,
          table_number=call.table.number, old={"state": old}, new={"state": state})
    return call


@write
def take_call(*, call_id: int, rnd: Round, by) -> ArbiterCall:
    """The arbiter answers «Arrivo» to call ``call_id`` of round ``rnd``: the phone shows that
    the call was taken. A call already taken or resolved is left as it is (returned).
    Raises ``ArbiterError`` when the round has no such call."""
    return _answer(call_id, rnd=rnd, by=by, state=ArbiterCall.State.TAKEN)


@write
def resolve_call(*, call_id: int, rnd: Round, by) -> ArbiterCall:
    """The arbiter marks call ``call_id`` of round ``rnd`` «Risolto» (from open or taken); the
    table may call again afterwards. Raises ``ArbiterError`` when the round has no such call."""
    return _answer(call_id, rnd=rnd, by=by, state=ArbiterCall.State.RESOLVED)

