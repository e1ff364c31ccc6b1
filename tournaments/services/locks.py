"""The one lock order of every write: the tournament, then the round, then its tables (in
table order), then a table's score sheet (docs/security.md, "Concurrent writes").

Two writes that take their row locks in the same order queue one behind the other; two that
take them in opposite orders deadlock (PostgreSQL breaks the deadlock after a second by
rolling one back). So every write of ``tournaments.services`` takes the locks it needs through
this module, in this order, leaving out the ones it does not need but never taking an earlier
one after a later one:

- writes that change who plays or a round (add, remove, withdraw an entrant and undo it, late
  entries, line-ups, forfeits, generate, redraw, publish, close, reopen) lock the tournament's
  row exclusively (:func:`lock_tournament`), so a draw reads its inputs while nobody changes
  them;
- writes of one score sheet (captains and arbiter) take the tournament's and the round's rows
  in share mode (:func:`lock_sheet`): sheets of different tables are still saved at the same
  time, but a round is never closed, nor an entrant withdrawn, in the middle of a sheet's
  write, and every state the write depends on is read again under the lock.

On SQLite ``select_for_update`` and the share locks are no-ops: every write transaction takes
the database's single write lock at ``BEGIN IMMEDIATE`` (config/settings.py), so writes are
already serialised and the state read inside the transaction is the current one.
"""
from __future__ import annotations

from django.db import connection
from django.utils.translation import gettext as _

from ..errors import ArbiterError
from ..models import Round, ScoreSheet, Table, Tournament


def lock_tournament(tournament: Tournament | int) -> Tournament:
    """The tournament's row (a ``Tournament`` or its pk), re-read and locked: the first lock of
    every write that changes who plays or a round.

    ``FOR NO KEY UPDATE`` on PostgreSQL: it queues the other writers of the tournament and the
    sheet writers (:func:`lock_sheet`'s share lock) but not the rows that merely refer to it
    (an audit entry), whose foreign-key check takes a key-share lock on this row (``FOR
    UPDATE`` would make them wait)."""
    pk = tournament if isinstance(tournament, int) else tournament.pk
    no_key = connection.features.has_select_for_no_key_update
    return Tournament.objects.select_for_update(no_key=no_key).get(pk=pk)


def lock_round(rnd: Round) -> Round:
    """Round ``rnd`` locked after its tournament (:func:`lock_tournament`), re-read from the
    database. Raises ArbiterError when it no longer exists: another window redrew it (a
    new round replaced it) or discarded it meanwhile."""
    lock_tournament(rnd.tournament_id)
    fresh = Round.objects.select_for_update().filter(pk=rnd.pk).first()
    if fresh is None:
        raise ArbiterError(_("Il turno %(round)s è stato ridisegnato o tolto nel frattempo (da un'altra finestra): "
                             "ricarica la pagina.") % {"round": rnd.number})
    return fresh


def lock_tables(rnd: Round) -> None:
    """The round's tables locked in table order (after the round: :func:`lock_round`)."""
    list(rnd.tables.select_for_update().order_by("number").values_list("pk", flat=True))


def _share_tournament_and_round(round_id: int) -> None:
    """The tournament's row, then the round's, locked ``FOR SHARE`` on PostgreSQL, in two
    statements so the order holds (Django's ORM has no share lock; the first statement locks
    only the tournament: the round is read in its subquery, not locked). Nothing on SQLite
    (the transaction already holds the database's write lock)."""
    if connection.vendor != "postgresql":
        return
    quote = connection.ops.quote_name
    tournaments, tournament_pk = quote(Tournament._meta.db_table), quote(Tournament._meta.pk.column)
    rounds, round_pk = quote(Round._meta.db_table), quote(Round._meta.pk.column)
    of_round = quote(Round._meta.get_field("tournament").column)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT 1 FROM {tournaments} WHERE {tournament_pk} = "
                       f"(SELECT {of_round} FROM {rounds} WHERE {round_pk} = %s) FOR SHARE", [round_id])
        cursor.execute(f"SELECT 1 FROM {rounds} WHERE {round_pk} = %s FOR SHARE", [round_id])


def lock_sheet(table: Table) -> tuple[ScoreSheet, Round]:
    """The score sheet of ``table`` locked in the one order: the tournament and the round in
    share mode, then the table and the sheet exclusively; the sheet, its table, round and
    tournament are read again under the locks. Returns ``(sheet, round)``.

    Raises ArbiterError when the table is gone (its round was redrawn, or the pair withdrawn
    meanwhile) or has no sheet (a rest, or a round not published)."""
    _share_tournament_and_round(table.round_id)
    locked = (Table.objects.select_for_update(of=("self",)).select_related("round__tournament")
              .filter(pk=table.pk).first())
    if locked is None:
        raise ArbiterError(_("Il tavolo %(table)s non c'è più nel turno (tolto da un'altra finestra): "
                             "ricarica la pagina.") % {"table": table.number})
    sheet = ScoreSheet.objects.select_for_update(of=("self",)).filter(table_id=locked.pk).first()
    if sheet is None:
        raise ArbiterError(_("Lo score di questo tavolo non è ancora aperto."))
    sheet.table = locked
    return sheet, locked.round
