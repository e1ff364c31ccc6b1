"""Opening a table by its 4-digit PIN, with wrong PINs counted in the database.

A captain without the QR code opens ``/t/<slug>/pin/`` and types his table number and the
PIN printed on the paper sheet. Wrong PINs are counted per table and per tournament in
:class:`~tournaments.models.PinGuard` rows (shared by every server process), never per
address: behind a proxy or a hotspot all 250 phones share one address.

- A table locks PIN entry after :data:`TABLE_MAX_WRONG` wrong PINs; the QR link keeps
  working; the live board shows the lock and the arbiter unlocks (:func:`unlock_table_pin`).
- A tournament locks its PIN page after :data:`TOURNAMENT_MAX_WRONG` wrong PINs in a window
  of :data:`TOURNAMENT_WINDOW` (to the window's end, or until the arbiter unlocks:
  :func:`unlock_tournament_pin`).

Guessing bound (README, "PIN dei tavoli"): windows do not overlap and last 15 minutes, so an
hour meets at most 5 of them: at most 5 × 18 = 90 wrong PINs per hour per tournament. Each
guess names one table and one PIN, and hits with probability at most 1/(10,000 − 90); so the
chance of opening any table in an hour is at most 90 / 9,910 ≈ 0.91 % ≤ 1 %, whatever the
number of tables (more tables do not help: the cap is per tournament).
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from ..errors import ArbiterError
from ..models import AuditAction, PinGuard, Round, Table, Tournament
from ..services import Actor
from ..services.audit import audit
from ..services.guard import write

#: Wrong PINs after which a table refuses PIN entry (until the arbiter unlocks it).
TABLE_MAX_WRONG = 5
#: Wrong PINs per tournament in one window after which the PIN page is locked.
TOURNAMENT_MAX_WRONG = 18
#: Length of the tournament's counting window (and the longest lock it causes).
TOURNAMENT_WINDOW = timedelta(minutes=15)


@dataclass(frozen=True)
class PinResult:
    """What :func:`open_table_by_pin` found.

    ``table``: the opened table, or ``None``; ``error``: the Italian message for the captain
    (empty on success); ``status``: the HTTP status the page answers (200, 400 wrong PIN,
    423 table locked, 429 tournament locked).
    """

    table: Table | None
    error: str = ""
    status: int = 200


def _tournament_guard(tournament: Tournament) -> PinGuard:
    """The tournament's counter row, locked for this transaction (created on first use)."""
    guard = PinGuard.objects.select_for_update().filter(tournament=tournament, table__isnull=True).first()
    if guard is None:
        try:
            with transaction.atomic():
                PinGuard.objects.create(tournament=tournament, table=None)
        except IntegrityError:  # another request created it first
            pass
        guard = PinGuard.objects.select_for_update().get(tournament=tournament, table__isnull=True)
    return guard


def tournament_lock_ends(guard: PinGuard | None, now=None):
    """When the tournament's PIN lock ends (a datetime), or ``None`` if the page is open."""
    now = now or timezone.now()
    if guard is None or guard.locked_at is None or guard.window_start is None:
        return None
    ends = guard.window_start + TOURNAMENT_WINDOW
    return ends if now < ends else None


def _candidate(tournament: Tournament, number: int) -> Table | None:
    """Table ``number`` of the tournament's latest published round, unless it is a rest.

    Only the latest round: a guess then names exactly one table (the bound in the module's
    docstring); captains of an earlier round still in play use the QR code.
    """
    rnd = tournament.rounds.filter(state=Round.State.PUBLISHED).order_by("-number").first()
    if rnd is None:
        return None
    return Table.objects.select_related("round").filter(round=rnd, number=number, bye="").first()


@write(retry=False)
def open_table_by_pin(*, tournament: Tournament, table_number: str, pin: str, now=None) -> PinResult:
    """Open table ``table_number`` of ``tournament``'s latest published round with ``pin``.

    ``table_number``, ``pin``: as typed (strings). A right PIN returns the table (and clears
    that table's wrong count); a wrong PIN, an unknown table or a malformed entry counts one
    wrong try on the tournament and, when the table exists, on the table; both counts are
    conditional updates of :class:`PinGuard` rows locked with ``select_for_update``. A locked
    table (:data:`TABLE_MAX_WRONG`) or tournament (:data:`TOURNAMENT_MAX_WRONG` in
    :data:`TOURNAMENT_WINDOW`) refuses even the right PIN. A lock is audited when it starts.
    Never raises for a wrong PIN (the count must be committed): see :class:`PinResult`.
    """
    now = now or timezone.now()
    guard = _tournament_guard(tournament)
    if tournament_lock_ends(guard, now):
        return PinResult(None, _("Troppi PIN errati in questo torneo: l'inserimento del PIN è sospeso per "
                                 "qualche minuto. Inquadra il codice QR dello score o chiama l'arbitro."), 429)
    number = table_number.strip()
    pin = pin.strip()
    table = _candidate(tournament, int(number)) if number.isdecimal() and len(number) < 5 else None
    table_guard = PinGuard.objects.select_for_update().filter(table=table).first() if table else None
    if table_guard is not None and table_guard.locked_at is not None:
        return PinResult(None, _("PIN bloccato per questo tavolo dopo troppi tentativi errati: inquadra il "
                                 "codice QR dello score o chiama l'arbitro."), 423)
    if table is not None and len(pin) == 4 and pin == table.pin:
        if table_guard is not None and table_guard.wrong:
            PinGuard.objects.filter(pk=table_guard.pk).update(wrong=0)
        return PinResult(table)
    # a wrong try: the tournament's window, then the table
    if guard.window_start is None or now >= guard.window_start + TOURNAMENT_WINDOW:
        PinGuard.objects.filter(pk=guard.pk).update(wrong=1, window_start=now, locked_at=None)
    else:
        PinGuard.objects.filter(pk=guard.pk).update(wrong=F("wrong") + 1)
    if PinGuard.objects.filter(pk=guard.pk, locked_at__isnull=True,
                               wrong__gte=TOURNAMENT_MAX_WRONG).update(locked_at=now):
        audit(tournament=tournament, by=Actor.system(), action=AuditAction.PIN_TOURNAMENT_LOCKED,
              new={"wrong": TOURNAMENT_MAX_WRONG})
    if table is not None:
        if table_guard is None:
            table_guard = PinGuard.objects.create(tournament=tournament, table=table, wrong=0)
        PinGuard.objects.filter(pk=table_guard.pk).update(wrong=F("wrong") + 1)
        if PinGuard.objects.filter(pk=table_guard.pk, locked_at__isnull=True,
                                   wrong__gte=TABLE_MAX_WRONG).update(locked_at=now):
            audit(tournament=tournament, by=Actor.system(), action=AuditAction.PIN_TABLE_LOCKED,
                  round_number=table.round.number, table_number=table.number, new={"wrong": TABLE_MAX_WRONG})
            return PinResult(None, _("PIN bloccato per questo tavolo dopo troppi tentativi errati: inquadra il "
                                     "codice QR dello score o chiama l'arbitro."), 423)
    return PinResult(None, _("Tavolo o PIN non corretti."), 400)


@write(retry=False)
def unlock_table_pin(*, table: Table, by) -> None:
    """The arbiter unlocks PIN entry of ``table`` (locked after :data:`TABLE_MAX_WRONG` wrong PINs)
    and clears its count; audited. Raises ArbiterError when the table is not locked."""
    guard = PinGuard.objects.select_for_update().filter(table=table).first()
    if guard is None or guard.locked_at is None:
        raise ArbiterError(_("Il PIN del tavolo %(t)s non è bloccato.") % {"t": table.number})
    PinGuard.objects.filter(pk=guard.pk).update(wrong=0, locked_at=None)
    rnd = table.round
    audit(tournament=rnd.tournament, by=by, action=AuditAction.PIN_TABLE_UNLOCKED, round_number=rnd.number,
          table_number=table.number, old={"wrong": guard.wrong})


@write(retry=False)
def unlock_tournament_pin(*, tournament: Tournament, by) -> None:
    """The arbiter reopens the tournament's PIN page before its lock ends and clears the window's
    count; audited. Raises ArbiterError when the page is not locked."""
    guard = PinGuard.objects.select_for_update().filter(tournament=tournament, table__isnull=True).first()
    if not tournament_lock_ends(guard):
        raise ArbiterError(_("La pagina del PIN non è bloccata."))
    PinGuard.objects.filter(pk=guard.pk).update(wrong=0, locked_at=None, window_start=None)
    audit(tournament=tournament, by=by, action=AuditAction.PIN_TOURNAMENT_UNLOCKED, old={"wrong": guard.wrong})


def locked_tables(round: Round) -> set[int]:
    """Numbers of the tables of ``round`` whose PIN entry is locked (read only)."""
    return set(PinGuard.objects.filter(table__round=round, locked_at__isnull=False)
               .values_list("table__number", flat=True))


def tournament_pin_lock(tournament: Tournament):
    """When the tournament's PIN-page lock ends (datetime), or ``None`` (read only)."""
    return tournament_lock_ends(PinGuard.objects.filter(tournament=tournament, table__isnull=True).first())
