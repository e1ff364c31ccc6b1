"""Erasing bookers' contact details after the retention (rules.md §21, docs/security.md):
from the database, then from the backups already written (the JSON exports and the SQLite
copies in the backup folder), so no copy keeps a phone number or an e-mail address past
``settings.BOOKINGS_CONTACT_DAYS`` days after the tournament."""
from __future__ import annotations

import datetime
import json
import logging
import sqlite3
from pathlib import Path

from django.conf import settings
from django.utils import timezone

from tournaments.transfer.backups import backup_dir
from tournaments.transfer.exporter import dumps

from .models import Booking

log = logging.getLogger(__name__)


def limit_date(today: datetime.date | None = None, days: int | None = None) -> datetime.date:
    """The latest tournament date whose contacts are erased: ``today`` − ``days``."""
    today = today or timezone.localdate()
    days = settings.BOOKINGS_CONTACT_DAYS if days is None else days
    return today - datetime.timedelta(days=days)


def _scrub_json(path: Path, limit: datetime.date) -> bool:
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
        date = datetime.date.fromisoformat(doc["tournament"]["date"])
    except (OSError, ValueError, KeyError, TypeError):
        return False
    rows = doc.get("bookings") or []
    if date > limit or not any(isinstance(r, dict) and r.get("contact") for r in rows[1:]):
        return False
    for row in rows[1:]:
        if isinstance(row, dict):
            row["contact"], row["contact_purged"] = "", True
    tmp = path.with_suffix(".part")
    tmp.write_bytes(dumps(doc))
    tmp.chmod(0o600)
    tmp.replace(path)
    return True


def _scrub_sqlite(path: Path, limit: datetime.date) -> bool:
    table, tournaments = Booking._meta.db_table, Booking._meta.get_field("tournament").related_model._meta.db_table
    try:
        db = sqlite3.connect(path)
    except sqlite3.Error:
        return False
    try:
        done = db.execute(f'UPDATE "{table}" SET contact = \'\', contact_purged = 1 WHERE contact <> \'\' '
                          f'AND tournament_id IN (SELECT id FROM "{tournaments}" WHERE date <= ?)',
                          (limit.isoformat(),)).rowcount
        db.commit()
        if done:
            db.execute("VACUUM")  # the erased text must not stay in the file's free pages
        return bool(done)
    except sqlite3.Error:  # a copy made before the bookings existed has no such table
        return False
    finally:
        db.close()


def purge_contacts(*, today: datetime.date | None = None, days: int | None = None) -> dict:
    """Erase the contacts of bookings of tournaments dated ``days`` (default the setting, 30)
    or more before ``today``, in the database and in the backup folder's files.
    Returns ``{"bookings": N, "backups": M}`` (bookings and backup files changed)."""
    limit = limit_date(today, days)
    n = (Booking.objects.filter(tournament__date__lte=limit, contact_purged=False)
         .update(contact="", contact_purged=True))
    changed = 0
    folder = backup_dir()
    if folder.is_dir():
        for path in sorted(folder.glob("*.json")):
            changed += _scrub_json(path, limit)
        for path in sorted(folder.glob("*.sqlite3")):
            changed += _scrub_sqlite(path, limit)
    return {"bookings": n, "backups": changed}
