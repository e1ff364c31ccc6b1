"""Automatic backups when a round is closed, so a broken laptop loses at most a round.

:func:`schedule_backup` is called by ``services.close_round`` inside its transaction and
runs :func:`backup_tournament` once the close is committed (``transaction.on_commit``):

- ``<slug>-round<N>-<UTC time>.json``: the tournament's export (secret, like every export);
- on SQLite also ``arbitro-<UTC time>.sqlite3``: an online copy of the whole database made
  with :meth:`sqlite3.Connection.backup` (consistent while captains keep writing);

both into ``settings.ARBITRO_BACKUP_DIR`` (default ``var/backups/``), keeping the newest
``KEEP`` of each kind (JSON per tournament, SQLite copies overall). A failure is logged and
kept for the page that closed the round to show; it never undoes the close.

The arbiter's **Chiudi il turno** does not wait for it (:func:`deferred_backups`): the view
answers first and the backup runs once the answer is sent (``HttpResponse.close``, called
by the WSGI server), in the same worker thread; a 250-table tournament's export is a few
hundred milliseconds of CPU that the arbiter's next pages would otherwise wait for in the
busiest minute (``bench/busiest_minute.py``). A failure then reaches the page of the closed
round (:func:`take_failures`), shown once.

:func:`backup_before_delete` writes ``<slug>-deleted-<UTC time>.json`` into the same folder
before a tournament is deleted (``services.delete_tournament``); those are never pruned.
"""
from __future__ import annotations

import logging
import re
import sqlite3
import threading
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path

from django.conf import settings
from django.core.cache import cache
from django.db import connection, transaction
from django.dispatch import receiver
from django.utils.translation import gettext as _

from .. import signals
from ..models import Tournament
from .exporter import export_tournament

KEEP = 20
log = logging.getLogger("arbitro.backups")

_STAMP = re.compile(r"(\d{8}T\d{6}\d*Z)")


def backup_dir() -> Path:
    """Where backups go: ``settings.ARBITRO_BACKUP_DIR`` (a path)."""
    return Path(settings.ARBITRO_BACKUP_DIR)


def _stamp() -> str:
    return datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%S%fZ")


def _prune(folder: Path, pattern: str, keep: int = KEEP) -> list[Path]:
    """Delete all but the newest ``keep`` files matching ``pattern`` (newest by the UTC time in
    the name, then by name). Returns the deleted paths."""
    files = sorted(folder.glob(pattern), key=lambda p: (m.group(1) if (m := _STAMP.search(p.name)) else "", p.name))
    old = files[:-keep] if len(files) > keep else []
    for path in old:
        path.unlink(missing_ok=True)
    return old


def sqlite_backup(target: Path) -> Path | None:
    """An online copy of the SQLite database into ``target`` (``sqlite3.Connection.backup``:
    consistent even while other requests write). None when the database is not SQLite."""
    if connection.vendor != "sqlite":
        return None
    if connection.in_atomic_block:
        # Python's backup() retries for ever while this connection's own write transaction
        # holds the database (seen with the tests' in-memory database): refuse instead.
        raise RuntimeError("SQLite backup requested inside a transaction")
    connection.ensure_connection()
    tmp = target.with_suffix(".part")
    dest = sqlite3.connect(tmp)
    try:
        connection.connection.backup(dest)
    finally:
        dest.close()
    tmp.replace(target)
    return target


def backup_tournament(tournament: Tournament, round_number: int) -> list[Path]:
    """Write the backups of ``tournament`` after round ``round_number`` was closed and prune
    old ones. Returns the paths written. Raises ``OSError``/``sqlite3.Error`` on failure."""
    folder = backup_dir()
    folder.mkdir(parents=True, exist_ok=True)
    stamp = _stamp()
    written = []
    path = folder / f"{tournament.slug}-round{round_number}-{stamp}.json"
    tmp = path.with_suffix(".part")
    tmp.write_bytes(export_tournament(tournament))
    tmp.chmod(0o600)  # the export holds the captains' links and PINs
    tmp.replace(path)
    written.append(path)
    _prune(folder, f"{glob_escape(tournament.slug)}-round*-*.json")
    copy = sqlite_backup(folder / f"arbitro-{stamp}.sqlite3")
    if copy is not None:
        copy.chmod(0o600)
        written.append(copy)
        _prune(folder, "arbitro-*.sqlite3")
    return written


def backup_before_delete(tournament: Tournament) -> Path:
    """Write the export of ``tournament`` to ``<backup dir>/<slug>-deleted-<UTC time>.json``
    (owner-only, 0600: it holds the captains' links and PINs) and return its path; the file
    is never pruned. Raises ``OSError`` when it cannot be written (then nothing is deleted)."""
    folder = backup_dir()
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{tournament.slug}-deleted-{_stamp()}.json"
    tmp = path.with_suffix(".part")
    tmp.write_bytes(export_tournament(tournament))
    tmp.chmod(0o600)
    tmp.replace(path)
    return path


def glob_escape(text: str) -> str:
    return re.sub(r"([*?\[])", r"[\1]", text)


#: How long a failed backup's sentence waits for the closed round's page (seconds).
FAILURE_KEPT = 24 * 3600


def _failure_key(tournament_id: int) -> str:
    return f"backup-failed:{tournament_id}"


def _failure_sentence(error: str) -> str:
    return _("Turno chiuso, ma il backup automatico non è riuscito: %(error)s") % {"error": error}


def run_backup(tournament_id: int, round_number: int) -> list[Path]:
    """The ``on_commit`` callback: :func:`backup_tournament`, a failure logged and kept for
    :func:`take_failures` (the closed round's page, any server process: the default cache),
    never raised (the round stays closed)."""
    try:
        tournament = Tournament.objects.get(pk=tournament_id)
        return backup_tournament(tournament, round_number)
    except Exception as exc:  # noqa: BLE001 - a backup must never break closing a round
        log.exception("backup after round %s of tournament %s failed", round_number, tournament_id)
        try:
            cache.set(_failure_key(tournament_id), [str(exc)], FAILURE_KEPT)
        except Exception:  # noqa: BLE001 - the log above has it; the close stands
            log.exception("the backup's failure could not be kept for the round page")
        return []


_deferred = threading.local()


@contextmanager
def deferred_backups():
    """Inside this block, a backup due after a commit (:func:`schedule_backup`) is not run
    but collected in the list the block gets, as ``() -> None`` jobs, for the caller to run
    once its answer is sent (the close view: ``after_response``). Outside, backups run at
    the commit as before (services and scripts)."""
    jobs: list = []
    previous = getattr(_deferred, "jobs", None)
    _deferred.jobs = jobs
    try:
        yield jobs
    finally:
        _deferred.jobs = previous


def _run_or_defer(tournament_id: int, round_number: int) -> None:
    jobs = getattr(_deferred, "jobs", None)
    if jobs is None:
        run_backup(tournament_id, round_number)
    else:
        jobs.append(lambda: run_backup(tournament_id, round_number))


def schedule_backup(tournament: Tournament, round_number: int) -> None:
    """Run :func:`run_backup` once the current transaction commits (immediately outside one),
    or hand it to the enclosing :func:`deferred_backups`."""
    tournament_id = tournament.pk
    transaction.on_commit(lambda: _run_or_defer(tournament_id, round_number))


def take_failures(tournament_id: int) -> list[str]:
    """The sentences of the last failed backup of tournament ``tournament_id`` not shown yet
    (then forgotten): the page of the closed round shows them, whichever server process
    answered the close."""
    key = _failure_key(tournament_id)
    errors = cache.get(key)
    if not errors:
        return []
    cache.delete(key)
    return [_failure_sentence(error) for error in errors]


@receiver(signals.round_closed)
def _on_round_closed(sender, tournament, round_number, **kwargs) -> None:
    schedule_backup(tournament, round_number)


@receiver(signals.tournament_deleting)
def _on_tournament_deleting(sender, tournament, **kwargs) -> Path:
    return backup_before_delete(tournament)
