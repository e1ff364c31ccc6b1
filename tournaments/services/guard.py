"""The last line of defence: a database refusal never reaches the arbiter as a constraint name.

Forms and services check every rule first and refuse with a sentence of their own. When
the database still refuses a write (a rule a form did not know, a race with another window
or device), the service's :class:`django.db.IntegrityError` would show up as
«Il vincolo "tournament_hands_positive" è stato violato» or a 500 page. Every public write
of ``tournaments.services`` is wrapped by :func:`refuse_integrity_errors`, which turns it
into an :class:`~tournaments.errors.ArbiterError` with a plain Italian sentence: the
constraint's own sentence when the database names it, a generic one otherwise. Nothing is
saved: the wrapped function's transaction was rolled back; the arbiter never reads a
constraint name.
"""
from __future__ import annotations

import random
import time
from contextlib import contextmanager
from functools import wraps

from django.db import DEFAULT_DB_ALIAS, DatabaseError, IntegrityError, OperationalError, connections, transaction
from django.utils.translation import gettext_lazy

from ..errors import ArbiterError

# Every CheckConstraint/UniqueConstraint of tournaments/models.py, with what it means.
CONSTRAINT_MESSAGES = {
    "tournament_hands_positive": gettext_lazy("Le smazzate per turno devono essere almeno 1."),
    "tournament_bye_percent_range": gettext_lazy("La percentuale del riposo va da 0 a 100."),
    "tournament_step_positive": gettext_lazy("Il salto Mitchell deve essere almeno 1."),
    "tournament_groups_positive": gettext_lazy("I gironi devono essere almeno 1."),
    "pair_group_positive": gettext_lazy("Il girone di una coppia è un numero da 1 in su."),
    "pair_number_unique_in_tournament": gettext_lazy("Questo numero di coppia è già usato nel torneo."),
    "pair_number_positive": gettext_lazy("Il numero di coppia deve essere almeno 1."),
    "pair_withdrawn_has_round": gettext_lazy("Una coppia ritirata deve avere il turno del ritiro."),
    "player_one_per_seat": gettext_lazy("Ogni coppia ha un solo giocatore per posto."),
    "player_membership_unique_in_tournament": gettext_lazy(
        "Un giocatore con questa tessera è già iscritto al torneo."),
    "player_seat_1_or_2": gettext_lazy("Un giocatore di una coppia occupa il posto 1 o 2."),
    "player_last_name_required": gettext_lazy("Il cognome del giocatore è obbligatorio."),
    "player_first_name_required": gettext_lazy("Il nome del giocatore è obbligatorio."),
    "round_number_unique_in_tournament": gettext_lazy(
        "Questo turno esiste già (forse creato da un'altra finestra): ricarica la pagina."),
    "round_number_positive": gettext_lazy("Il numero del turno deve essere almeno 1."),
    "table_number_unique_in_round": gettext_lazy("Questo numero di tavolo è già usato nel turno."),
    "table_number_positive": gettext_lazy("Il numero del tavolo deve essere almeno 1."),
    "seat_pair_once_per_round": gettext_lazy("Una coppia può sedere a un solo tavolo per turno."),
    "seat_one_pair_per_line": gettext_lazy("Ogni linea di un tavolo ha una sola coppia."),
    "hand_number_unique_in_sheet": gettext_lazy("Ogni smazzata compare una sola volta nello score."),
    "hand_number_positive": gettext_lazy("Il numero della smazzata deve essere almeno 1."),
    "pin_guard_one_per_tournament": gettext_lazy(
        "Il conteggio dei PIN errati del torneo esiste già (creato da un'altra richiesta): riprova."),
    "penalty_vp_or_mp": gettext_lazy("Una penalità toglie VP oppure MP: uno solo dei due, più di 0."),
    # Individual tournaments (rules.md §9).
    # Team tournaments (rules.md §15): a penalty may hit a team instead.
    "penalty_pair_player_or_team": gettext_lazy(
        "Una penalità colpisce una coppia, un giocatore oppure una squadra: uno solo dei tre."),
    "player_number_unique_in_tournament": gettext_lazy("Questo numero di giocatore è già usato nel torneo."),
    "player_member_once_per_tournament": gettext_lazy("Questo socio è già iscritto al torneo (regole §16)."),
    "player_number_positive": gettext_lazy("Il numero del giocatore deve essere almeno 1."),
    "player_withdrawn_has_round": gettext_lazy("Un giocatore ritirato deve avere il turno del ritiro."),
    "line_member_player_once_per_round": gettext_lazy("Un giocatore siede al massimo una volta per turno."),
    "line_member_one_per_seat": gettext_lazy("Ogni linea formata ha un solo giocatore per posto."),
    "arbiter_call_one_open_per_table": gettext_lazy("Questo tavolo ha già chiamato l'arbitro."),
    "arbiter_call_state_consistent": gettext_lazy("Lo stato della chiamata non è coerente."),
    "line_member_seat_1_or_2": gettext_lazy("Un giocatore di una linea occupa il posto 1 o 2."),
    # Team tournaments (rules.md §15).
    "team_number_unique_in_tournament": gettext_lazy("Questo numero di squadra è già usato nel torneo."),
    "team_number_positive": gettext_lazy("Il numero della squadra deve essere almeno 1."),
    "team_group_positive": gettext_lazy("Il girone di una squadra è un numero da 1 in su."),
    "team_withdrawn_has_round": gettext_lazy("Una squadra ritirata deve avere il turno del ritiro."),
    "team_name_required": gettext_lazy("Il nome della squadra è obbligatorio."),
    "match_number_unique_in_round": gettext_lazy("Questo numero di incontro è già usato nel turno."),
    "match_team_a_once_per_round": gettext_lazy("Una squadra gioca un solo incontro per turno."),
    "match_team_b_once_per_round": gettext_lazy("Una squadra gioca un solo incontro per turno."),
    "match_number_positive": gettext_lazy("Il numero dell'incontro deve essere almeno 1."),
    "match_bye_consistent": gettext_lazy(
        "Un incontro ha due squadre, oppure una squadra a riposo, oppure un forfait con la squadra che lo dà."),
    "lineup_once_per_team_round": gettext_lazy("La formazione di questa squadra per questo turno esiste già."),
    "lineup_round_positive": gettext_lazy("Il turno della formazione deve essere almeno 1."),
}

GENERIC_MESSAGE = gettext_lazy(
    "Salvataggio non riuscito: i dati sono in conflitto con altri già salvati (forse da un'altra "
    "finestra o da un altro dispositivo). Non è stato salvato nulla: ricarica la pagina e riprova."
)


def _unique_signatures() -> dict[str, str]:
    """SQLite names a failed unique constraint by its columns ("UNIQUE constraint failed:
    tournaments_pair.tournament_id, tournaments_pair.number"), not by its name: map those
    column lists to the constraint names."""
    from django.apps import apps
    from django.db.models import UniqueConstraint

    signatures = {}
    for model in apps.get_app_config("tournaments").get_models():
        table = model._meta.db_table
        for constraint in model._meta.constraints:
            if isinstance(constraint, UniqueConstraint) and constraint.fields:
                columns = [model._meta.get_field(f).column for f in constraint.fields]
                signatures[", ".join(f"{table}.{c}" for c in columns)] = constraint.name
    return signatures


def integrity_message(exc: IntegrityError) -> str:
    """The plain Italian sentence for a database refusal (translated to the active language).

    Looks for a known constraint name (PostgreSQL and SQLite CHECK messages name it) or the
    columns of a unique constraint (SQLite UNIQUE messages); otherwise the generic sentence.
    """
    text = str(exc)
    for name, message in CONSTRAINT_MESSAGES.items():
        if name in text:
            return str(message)
    for signature, name in _unique_signatures().items():
        if text.rstrip().endswith(signature) and name in CONSTRAINT_MESSAGES:
            return str(CONSTRAINT_MESSAGES[name])
    return str(GENERIC_MESSAGE)


def refuse_integrity_errors(func):
    """Decorator for a service write (outside its ``@transaction.atomic``): an
    :class:`IntegrityError` becomes an :class:`ArbiterError` with :func:`integrity_message`.
    The transaction has already rolled back when the error is raised."""

    @wraps(func)
    def wrapper(*args, **kwargs):
        try:
            return func(*args, **kwargs)
        except IntegrityError as exc:
            raise ArbiterError(integrity_message(exc)) from exc

    return wrapper


#: Seconds of quick retries of a busy SQLite database before the connection's own busy
#: timeout (``OPTIONS["timeout"]``, whose growing sleeps reach 100 ms a try) takes over.
RETRY_SECONDS = 2.0
#: First pause between two tries, seconds; it doubles up to RETRY_MAX_PAUSE (±50 % jitter).
RETRY_FIRST_PAUSE = 0.0005
RETRY_MAX_PAUSE = 0.004


_RETRYING = "_arbitro_retrying_busy"  # set on the connection (one per thread) while retrying


#: PostgreSQL's SQLSTATEs of a transaction it rolled back to break a conflict with another:
#: ``deadlock_detected`` and ``serialization_failure``. Running it again is safe and right.
RETRY_SQLSTATES = frozenset({"40P01", "40001"})
#: Tries of a write PostgreSQL rolled back for a conflict (the first and the retries).
CONFLICT_TRIES = 5


def conflict_to_retry(exc: BaseException) -> bool:
    """Whether ``exc`` (a Django database error) is a deadlock or a serialisation failure
    the database broke by rolling this transaction back (:data:`RETRY_SQLSTATES`)."""
    cause = exc.__cause__ or exc.__context__
    return getattr(cause, "sqlstate", None) in RETRY_SQLSTATES or getattr(cause, "pgcode", None) in RETRY_SQLSTATES


def _retry_conflicts(connection, func, args, kwargs):
    """PostgreSQL (several server processes): run the one-transaction write ``func`` again,
    after a short random pause, when the database rolled it back for a deadlock or a
    serialisation failure; at most :data:`CONFLICT_TRIES` times, then the error passes."""
    setattr(connection, _RETRYING, True)
    try:
        for attempt in range(1, CONFLICT_TRIES + 1):
            try:
                return func(*args, **kwargs)
            except (OperationalError, DatabaseError) as exc:
                if attempt == CONFLICT_TRIES or connection.in_atomic_block or not conflict_to_retry(exc):
                    raise
            time.sleep(random.uniform(0.005, 0.05) * attempt)
    finally:
        setattr(connection, _RETRYING, False)


def _locked(exc: OperationalError) -> bool:
    text = str(exc).lower()
    return "database is locked" in text or "database table is locked" in text


@contextmanager
def _busy_timeout(connection, milliseconds: int):
    """Set SQLite's busy timeout of ``connection`` for the block, then the settings' one again."""
    restore = int(float(connection.settings_dict.get("OPTIONS", {}).get("timeout", 5)) * 1000)
    with connection.cursor() as cursor:
        cursor.execute(f"PRAGMA busy_timeout = {int(milliseconds)}")
    try:
        yield
    finally:
        if connection.connection is not None:
            with connection.cursor() as cursor:
                cursor.execute(f"PRAGMA busy_timeout = {restore}")


def retry_when_busy(func):
    """Decorator for a write that is one whole transaction (place it above
    :func:`refuse_integrity_errors`): on SQLite, wait for the write lock by retrying quickly
    instead of in SQLite's busy handler (captains' saves under contention in a 250-table room).

    Why: with ``transaction_mode = "IMMEDIATE"`` (config/settings.py) a write transaction
    takes SQLite's write lock at ``BEGIN``; a second writer then waits in the busy handler
    of Python's ``sqlite3``, which sleeps 1, 2, 5, 10, 15, 20, 25, 25, 25, 50, 50, 100, 100 …
    ms between tries however soon the lock is free (a save holds it a few milliseconds), so
    a burst of saves waited hundreds of milliseconds. Here the busy timeout is 0 for the
    call, and ``database is locked`` (raised by ``BEGIN IMMEDIATE``, before anything is
    written; or later, after the transaction rolled back) is retried after a pause of
    0.5 ms doubling to 4 ms, with jitter, for at most :data:`RETRY_SECONDS`; then one last
    call with the settings' busy timeout. The database still serialises the writes (the
    same code is right with several server processes); nothing here is a Python lock.

    On PostgreSQL a write the database rolled back to break a deadlock or a serialisation
    failure (two server processes, :data:`RETRY_SQLSTATES`) is run again instead
    (:func:`_retry_conflicts`), a few times.

    Only the outermost transaction is retried: inside another ``atomic`` block the call
    goes straight through. Other errors pass
    unchanged. Must wrap a function without effects outside the database (it may run
    again).
    """

    @wraps(func)
    def wrapper(*args, **kwargs):
        connection = connections[DEFAULT_DB_ALIAS]
        if connection.in_atomic_block or getattr(connection, _RETRYING, False):
            return func(*args, **kwargs)
        if connection.vendor != "sqlite":
            return _retry_conflicts(connection, func, args, kwargs)
        connection.ensure_connection()
        deadline = time.monotonic() + RETRY_SECONDS
        pause = RETRY_FIRST_PAUSE
        setattr(connection, _RETRYING, True)
        try:
            with _busy_timeout(connection, 0):
                while True:
                    try:
                        return func(*args, **kwargs)
                    except OperationalError as exc:
                        if not _locked(exc) or connection.in_atomic_block:
                            raise
                    if time.monotonic() + pause >= deadline:
                        break
                    time.sleep(pause * random.uniform(0.5, 1.5))
                    pause = min(pause * 2, RETRY_MAX_PAUSE)
        finally:
            setattr(connection, _RETRYING, False)
        return func(*args, **kwargs)

    return wrapper


def write(func=None, *, retry: bool = True):
    """Decorator for a service write: one transaction (``transaction.atomic``), a database
    refusal turned into an ``ArbiterError`` (:func:`refuse_integrity_errors`) and, unless
    ``retry=False``, the whole transaction run again while SQLite's write lock is taken or
    after PostgreSQL broke a deadlock or serialisation failure (:func:`retry_when_busy`).

    ``@write`` or ``@write(retry=False)``; the latter for a write with effects outside the
    database (a file written, a mail sent) or one never run under contention, which must not
    run twice."""

    def decorate(function):
        wrapped = refuse_integrity_errors(transaction.atomic(function))
        return retry_when_busy(wrapped) if retry else wrapped

    return decorate(func) if func is not None else decorate


__all__ = ["CONSTRAINT_MESSAGES", "GENERIC_MESSAGE", "RETRY_SECONDS", "integrity_message",
           "refuse_integrity_errors", "retry_when_busy", "write"]
