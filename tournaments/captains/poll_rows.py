"""The captains' polls of a round, answered from one read of the round kept a moment in the
process.

A 250-table room has 500 captains' phones asking every 4–6 s whether their table changed
(about 100 polls a second). Each poll used to cost one narrow query of its own table (about
1 ms of the server's single Python thread, most of it building the SQL). Here one query reads
the same columns for every table of the round, and the polls of the next
``ARBITRO_POLL_ROWS_SECONDS`` (default 1 s) are answered from it.

What may be stale and what may not: a row read up to a second ago only ever lets a poll
answer ``304`` when the phone's tag *equals* the row's tag; a phone whose tag differs (it
just saved, or the row is out of date) is answered by the exact query as before. So a
change reaches a phone at most one second later (the room's target is 10 s), and a phone is
never shown an older sheet than the one it has. Writes do not clear these rows: several
server processes each keep their own, and each is at most a second behind the database.

Which round a token belongs to is learnt from the exact query (a token that was never found
in the database is never remembered). Per process, no lock: two threads that rebuild the
same round at once both store a correct read.
"""
from __future__ import annotations

import time

from django.conf import settings

from ..models import Table
from .call_status import latest_call_columns

#: The columns of a poll's tag (``views._stamp``), read by the exact query and the round's.
COLUMNS = ("pk", "token", "round_id", "call_id", "call_state", "bye", "round__state", "round__published_at",
           "round__closed_at", "sheet__version", "sheet__state", "sheet__updated_at", "clock_extra_seconds",
           "round__clock_started_at", "round__clock_paused_at", "round__clock_paused_seconds",
           "round__clock_added_seconds", "round__clock_duration")

_ROUND_OF: dict[str, int] = {}                      # token -> round id (found in the database)
_ROWS: dict[int, tuple[float, dict[str, dict]]] = {}  # round id -> (read at, {token: row})
MAX_TOKENS = 20_000
MAX_ROUNDS = 16


def ttl() -> float:
    """Seconds a round's rows answer polls (``ARBITRO_POLL_ROWS_SECONDS``; 0 turns it off)."""
    return float(getattr(settings, "ARBITRO_POLL_ROWS_SECONDS", 1.0))


def exact_row(token: str) -> dict | None:
    """The poll columns (:data:`COLUMNS`) of ``token``'s table read now, or None for an
    unknown token. Remembers the token's round for :func:`recent_row`."""
    row = Table.objects.filter(token=token).order_by().annotate(**latest_call_columns()).values(*COLUMNS).first()
    if row is not None:
        remember(token, row["round_id"])
    return row


def remember(token: str, round_id: int) -> None:
    """Note that ``token`` (read from the database just now) is a table of round ``round_id``."""
    if ttl() > 0 and _ROUND_OF.get(token) != round_id:
        if len(_ROUND_OF) >= MAX_TOKENS:
            _ROUND_OF.clear()
        _ROUND_OF[token] = round_id


def recent_row(token: str, *, refresh: bool = True) -> dict | None:
    """The poll columns of ``token``'s table from its round's read of at most :func:`ttl`
    seconds ago (read again when older; with ``refresh=False`` never read: None then, so a
    caller outside Django's request cycle makes no query), or None when the token's round is
    not known here yet or the token is no longer among the round's tables. Never a token the
    database did not give (see :func:`exact_row`)."""
    seconds = ttl()
    round_id = _ROUND_OF.get(token)
    if round_id is None or seconds <= 0:
        return None
    now = time.monotonic()
    held = _ROWS.get(round_id)
    if held is None or now - held[0] >= seconds:
        if not refresh:
            return None
        rows = (Table.objects.filter(round_id=round_id).order_by().annotate(**latest_call_columns())
                .values(*COLUMNS))
        held = (now, {row["token"]: row for row in rows})
        if len(_ROWS) >= MAX_ROUNDS and round_id not in _ROWS:
            _ROWS.clear()
        _ROWS[round_id] = held
    return held[1].get(token)


def clear() -> None:
    """Forget every round and token (tests)."""
    _ROUND_OF.clear()
    _ROWS.clear()
