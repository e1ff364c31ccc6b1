"""Caches shared by every server process.

The captain pages' rate limits must count the same in every process that serves the room.
With PostgreSQL (a hosted server, several processes behind a proxy: docs/hosting.md)
``config/settings.py`` uses :class:`SharedDatabaseCache`, a table in the same database
(created by ``manage.py createcachetable``, which ``make setup`` and ``make serve-prod``
run, and Django's test runner runs for the test database). With SQLite, the workers of
``manage.py serve --workers`` (two by default on Linux) use :class:`SharedFileCache`, files
under var/ (a counter written per captain's write must not queue on the database's single
write lock behind the saves); one process alone (tests, ``--workers 1``) keeps a
local-memory cache.
"""
from __future__ import annotations

import base64
import os
import pickle
from contextlib import contextmanager

from django.core.cache.backends.db import DatabaseCache
from django.core.cache.backends.filebased import FileBasedCache
from django.db import connections, router, transaction
from django.utils.timezone import now as tz_now


class SharedDatabaseCache(DatabaseCache):
    """Django's database cache with an atomic :meth:`incr`.

    Django's ``incr`` reads the value and writes it back: two processes counting the same
    key at the same moment would both write ``n + 1`` and lose one count (a rate limit
    would let more through than it says). Here the read takes a row lock
    (``SELECT … FOR UPDATE``, on databases that have it; SQLite serialises writers anyway)
    in the same transaction as the write, so concurrent increments queue.
    """

    def incr(self, key, delta=1, version=None):
        """Add ``delta`` (an int) to ``key``'s integer value and return the new value.

        Raises ``ValueError`` when the key is missing or expired (as every Django cache does).
        """
        key = self.make_and_validate_key(key, version=version)
        db = router.db_for_write(self.cache_model_class)
        connection = connections[db]
        quote = connection.ops.quote_name
        table = quote(self._table)
        lock = " FOR UPDATE" if connection.features.has_select_for_update else ""
        now = tz_now().replace(microsecond=0, tzinfo=None)
        with transaction.atomic(using=db), connection.cursor() as cursor:
            cursor.execute(
                f"SELECT {quote('value')} FROM {table} WHERE {quote('cache_key')} = %s "
                f"AND {quote('expires')} > %s{lock}",
                [key, connection.ops.adapt_datetimefield_value(now)],
            )
            row = cursor.fetchone()
            if row is None:
                raise ValueError(f"Key '{key}' not found")
            value = pickle.loads(base64.b64decode(row[0].encode())) + delta
            encoded = base64.b64encode(pickle.dumps(value, self.pickle_protocol)).decode("latin1")
            cursor.execute(f"UPDATE {table} SET {quote('value')} = %s WHERE {quote('cache_key')} = %s",
                           [encoded, key])
        return value

    def decr(self, key, delta=1, version=None):
        """Subtract ``delta``; see :meth:`incr`."""
        return self.incr(key, -delta, version)


class SharedFileCache(FileBasedCache):
    """Django's file cache whose :meth:`add` and :meth:`incr` hold an exclusive ``flock`` on
    one lock file of the cache's directory, so the processes of one machine count together:
    Django's ``incr`` reads the value and writes it back, and two processes counting the same
    key at once would both write ``n + 1``. The limits take a lock for a few file operations
    per captain's write or unknown link, never per poll (Linux and macOS: ``fcntl``)."""

    @contextmanager
    def _counting(self):
        import fcntl  # here, not at the top: the PostgreSQL cache above must import on Windows too

        os.makedirs(self._dir, 0o700, exist_ok=True)
        with open(os.path.join(self._dir, "counters.lock"), "a") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(lock, fcntl.LOCK_UN)

    def add(self, key, value, timeout=None, version=None):
        """Set ``key`` only when it is missing or expired; True when it was set."""
        with self._counting():
            return super().add(key, value, timeout, version)

    def incr(self, key, delta=1, version=None):
        """Add ``delta`` to ``key``'s integer value and return it; ``ValueError`` when the key
        is missing or expired (as every Django cache does)."""
        with self._counting():
            return super().incr(key, delta, version)
