"""The round clock (rules.md §11): start, pause, resume, minutes for the room,
extra time for one table. Every action is one transaction with an audit entry; the
instants are stored on the round (``Round.clock_*``), so a server restart or a page reload
computes the same remaining time (``tournaments.clock``; what the screens read of it:
``selectors.clock``)."""
from __future__ import annotations

from django.utils.translation import gettext as _

from .. import clock
from ..errors import ArbiterError
from ..models import AuditAction, Round, Table
from ..selectors.clock import clock_state, round_duration
from ..server import timesource
from .audit import audit
from .guard import write
from .locks import lock_round

_REFUSALS = {
    "started": lambda: _("L'orologio del turno è già partito."),
    "not_running": lambda: _("L'orologio non è in corsa: niente da mettere in pausa."),
    "not_paused": lambda: _("L'orologio non è in pausa: niente da riprendere."),
    "minutes": lambda: _("Indica un numero di minuti tra 1 e %(max)s.") % {"max": clock.MAX_ADD_MINUTES},
}


def _locked_round(rnd: Round) -> Round:
    rnd = lock_round(rnd)  # the tournament, then the round (services.locks)
    if rnd.state != Round.State.PUBLISHED:
        raise ArbiterError(_("L'orologio si usa solo in un turno pubblicato e non chiuso."))
    return rnd


def _apply(rnd: Round, new: clock.ClockState) -> None:
    rnd.clock_duration = new.duration
    rnd.clock_started_at = new.started_at
    rnd.clock_paused_at = new.paused_at
    rnd.clock_paused_seconds = new.paused_total
    rnd.clock_added_seconds = new.added
    rnd.save(update_fields=["clock_duration", "clock_started_at", "clock_paused_at",
                            "clock_paused_seconds", "clock_added_seconds"])


def _act(rnd: Round, by, action: str, change, **extra) -> Round:
    rnd = _locked_round(rnd)
    now = timesource.now()
    before = clock_state(rnd)
    try:
        after = change(rnd, before, now)
    except clock.ClockError as exc:
        raise ArbiterError(_REFUSALS[exc.code]()) from exc
    _apply(rnd, after)
    audit(tournament=rnd.tournament, by=by, action=action, round_number=rnd.number,
          old={"remaining": clock.remaining(before, now) if before.started else None},
          new={"remaining": clock.remaining(after, now), "duration": after.duration, "at": now.isoformat(),
               **extra})
    return rnd


@write(retry=False)
def start_clock(*, round: Round, by) -> Round:  # noqa: A002 (the field's term)
    """Start round ``round``'s clock with the tournament's time per round (seconds =
    60 × minutes, default 10 × hands + 2: rules.md §11). Audited
    ``clock_started``. Raises ArbiterError: round not published (draft or closed), clock
    already started."""
    return _act(round, by, AuditAction.CLOCK_STARTED, lambda rnd, s, now: clock.start(s, now, round_duration(rnd)))


@write(retry=False)
def pause_clock(*, round: Round, by) -> Round:  # noqa: A002
    """Pause the running clock (every screen stops counting). Audited ``clock_paused``.
    Raises ArbiterError: round not published, clock not running."""
    return _act(round, by, AuditAction.CLOCK_PAUSED, lambda rnd, s, now: clock.pause(s, now))


@write(retry=False)
def resume_clock(*, round: Round, by) -> Round:  # noqa: A002
    """Resume a paused clock. Audited ``clock_resumed``. Raises ArbiterError: round not
    published, clock not paused."""
    return _act(round, by, AuditAction.CLOCK_RESUMED, lambda rnd, s, now: clock.resume(s, now))


@write(retry=False)
def add_clock_minutes(*, round: Round, minutes: int, by) -> Round:  # noqa: A002
    """Give ``minutes`` (1..120; a negative number down to −120 corrects a slip) to every
    table of the round. Audited ``clock_minutes_added``. Raises ArbiterError: round not
    published, minutes 0 or out of range."""
    return _act(round, by, AuditAction.CLOCK_MINUTES_ADDED, lambda rnd, s, now: clock.add_minutes(s, minutes),
                minutes=minutes)


@write(retry=False)
def give_table_extra_time(*, table: Table, round: Round, minutes: int, by) -> Table:  # noqa: A002
    """Give ``minutes`` (1..120) to table ``table`` of round ``round`` only (a late start):
    its clock ends that much later. Audited ``clock_table_extra``. Raises ArbiterError:
    the table is of another round, is a rest, round not published, minutes out of range."""
    rnd = _locked_round(round)
    table = Table.objects.select_for_update().get(pk=table.pk)
    if table.round_id != rnd.pk:
        raise ArbiterError(_("Il tavolo %(t)s non è del turno %(r)s.") % {"t": table.number, "r": rnd.number})
    if table.bye:
        raise ArbiterError(_("Il tavolo %(t)s è un riposo: non gioca, niente tempo da aggiungere.")
                           % {"t": table.number})
    try:
        clock.check_minutes(minutes)
    except clock.ClockError as exc:
        raise ArbiterError(_REFUSALS[exc.code]()) from exc
    old = table.clock_extra_seconds
    table.clock_extra_seconds = old + 60 * minutes
    table.save(update_fields=["clock_extra_seconds"])
    audit(tournament=rnd.tournament, by=by, action=AuditAction.CLOCK_TABLE_EXTRA, round_number=rnd.number,
          table_number=table.number, old={"extra_seconds": old},
          new={"extra_seconds": table.clock_extra_seconds, "minutes": minutes})
    return table
