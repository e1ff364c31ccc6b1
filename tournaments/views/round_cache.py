"""A per-round-version cache of what the arbiter's round page and live board compute from
their 250 rows, kept in this process.

A round's *version* is the last audit entry of its tournament (every write of Arbitro
writes one, in the same transaction: a captain's save or confirmation, a validation, a
correction, a rename, a PIN lock, a call to the arbiter, a clock action) with the round's
state, the language and, for the board, its stamp (which adds what time changes: tables out
of time, how long a call has waited). While the version stands, the rows are not read and
built again: during the room the round page is asked every second and the board every
3 s, by one or several arbiter windows, and between two captains' writes they reuse the
rows. The clock (seconds left) is never cached: each answer computes it.

Per process, a few entries (one per round and language in use); several server processes
each keep their own, which is correct because the key is read from the database.
"""
from __future__ import annotations

from collections import OrderedDict
from threading import Lock

from django.utils.translation import get_language

from ..models import AuditEntry, Round

_ENTRIES: "OrderedDict[tuple, object]" = OrderedDict()
_GUARD = Lock()  # protects the dict only (several threads of one process); never held over a query
MAX_ENTRIES = 16


def round_version(rnd: Round, stamp: str) -> tuple:
    """The version of ``rnd``'s rows: ``(round id, when the round was made, state, the
    tournament's last audit entry (id and time), ``stamp`` (the board's,
    ``board_stamp.board_stamp``: the sheets' versions and last change, PIN locks, the clock,
    the calls), language)``. The times make a key that a database rolled back and written
    again (tests) cannot repeat."""
    last = (AuditEntry.objects.filter(tournament_id=rnd.tournament_id).order_by("-id")
            .values_list("id", "at").first()) or (0, None)
    return (rnd.pk, rnd.created_at, rnd.state, *last, stamp, get_language() or "it")


def cached(kind: str, key: tuple, build):
    """The value of ``build()`` for ``(kind, key)``, built once per key in this process."""
    full = (kind, *key)
    with _GUARD:
        if full in _ENTRIES:
            _ENTRIES.move_to_end(full)
            return _ENTRIES[full]
    value = build()
    with _GUARD:
        _ENTRIES[full] = value
        while len(_ENTRIES) > MAX_ENTRIES:
            _ENTRIES.popitem(last=False)
    return value


def clear() -> None:
    """Forget every entry (tests)."""
    with _GUARD:
        _ENTRIES.clear()
