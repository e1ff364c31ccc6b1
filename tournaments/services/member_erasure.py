"""A member erased on request (personal data, rules.md §16): every record of the tournaments
that names him then says «Socio cancellato #id» instead of his name and number.

Listens to ``members.signals.member_erasing`` (sent inside the erasure's transaction):

- each player linked to the member, in every tournament (closed ones too): names become
  «Socio cancellato» / «#id», membership number and club blank; the link stays, so the
  results, standings and championships keep counting the evening under that name;
- the audit entries of those tournaments: the player's full name (both orders), his surname
  where a pair's name shows it («Rossi – Bianchi»), and his membership number become the label,
  except in a membership-number field, where his number becomes blank;
- the backups under ``ARBITRO_BACKUP_DIR`` (``var/backups``): every JSON export is rewritten
  the same way, and every SQLite copy has the same rows updated;
- the registration previews waiting for a confirmation under ``var/imports/`` that name him
  are removed (:func:`erase_from_previews`; the arbiter uploads the file again); the print
  packs cached for his tournaments are removed by ``tournaments.printing.pack``'s own
  receiver (this layer does not import printing);
- on SQLite, once the erasure is committed, the write-ahead log is checkpointed and emptied
  (:func:`checkpoint_sqlite`): with ``secure_delete`` on (``config/settings.py``) the old
  texts are then in neither the database file nor its ``-wal``.

Other people's records are untouched, except a surname shared inside a pair's name in the
audit (over-erasing an audit text is preferred to leaving the person in it).
"""
from __future__ import annotations

import json
import re
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings
from django.db import connection, transaction
from django.dispatch import receiver

from members.names import ERASED_LAST_NAME, erased_first_name
from members.signals import member_erasing

from ..models import AuditEntry, Player
from ..registrations import previews

#: Keys of an audit entry's or a backup's values that hold membership numbers (a pair's entries:
#: ``services.entrants``; a player's record).
NUMBER_KEYS = ("membership_number", "membership_numbers")


@dataclass(frozen=True)
class Scrubber:
    """The texts naming one person and what replaces them."""

    names: tuple[tuple[str, str], ...]  # (last, first) as registered
    numbers: tuple[str, ...]
    label: str

    def text(self, value: str) -> str:
        """``value`` with every full name, pair-name surname and number replaced by the label."""
        for last, first in self.names:
            for form in (f"{last} {first}", f"{first} {last}"):
                value = value.replace(form, self.label)
        for last, _first in self.names:
            surname = re.escape(last)
            value = re.sub(rf"(?<=[–+] ){surname}(?![\w])", self.label, value)
            value = re.sub(rf"(?<![\w]){surname}(?= [–+] )", self.label, value)
        for number in self.numbers:
            value = re.sub(rf"(?<![0-9A-Za-z]){re.escape(number)}(?![0-9A-Za-z])", self.label, value)
        return value

    def json(self, data):
        """A JSON value with :meth:`text` applied to every string, and every player record
        (a mapping with ``last_name`` and ``first_name`` of this person) blanked."""
        if isinstance(data, str):
            return self.text(data)
        if isinstance(data, list):
            return [self.json(v) for v in data]
        if isinstance(data, dict):
            if (data.get("last_name"), data.get("first_name")) in self.names and isinstance(data.get("last_name"), str):
                number = data.get("membership_number") or ""
                if not number or number in self.numbers:
                    data = {**data, "last_name": ERASED_LAST_NAME, "first_name": self.label.split(" ")[-1]}
                    if "membership_number" in data:
                        data["membership_number"] = ""
                    if "club" in data:
                        data["club"] = ""
            return {k: self.number_field(v) if k in NUMBER_KEYS else self.json(v) for k, v in data.items()}
        return data

    def number_field(self, value):
        """A value stored under a membership-number key (:data:`NUMBER_KEYS`): this person's
        number becomes blank, not the label (the field holds numbers: «tessere: Socio
        cancellato #73, 510016» read as a name where a number belongs); other values as
        :meth:`json`."""
        if isinstance(value, str) and value in self.numbers:
            return ""
        if isinstance(value, list):
            return [self.number_field(v) for v in value]
        return self.json(value)


@receiver(member_erasing, dispatch_uid="tournaments.member_erasure")
def erase_from_tournaments(sender, *, member, label, by=None, **kwargs) -> None:
    """The receiver: players, audit entries and backups (see the module's docstring)."""
    players = list(Player.objects.filter(member=member))
    names = {(p.last_name, p.first_name) for p in players} | {(member.last_name, member.first_name)}
    numbers = {p.membership_number for p in players if p.membership_number}
    if member.membership_number:
        numbers.add(member.membership_number)
    scrub = Scrubber(names=tuple(sorted(names, key=lambda n: -len(n[0] + n[1]))), numbers=tuple(sorted(numbers)),
                     label=label)
    tournament_ids = {p.tournament_id for p in players}
    for entry in AuditEntry.objects.filter(tournament_id__in=tournament_ids):
        old, new, reason = scrub.json(entry.old), scrub.json(entry.new), scrub.text(entry.reason)
        if (old, new, reason) != (entry.old, entry.new, entry.reason):
            entry.old, entry.new, entry.reason = old, new, reason[:300]
            entry.save(update_fields=["old", "new", "reason"])
    Player.objects.filter(member=member).update(last_name=ERASED_LAST_NAME, first_name=erased_first_name(member.pk),
                                                membership_number="", club="")
    erase_from_backups(scrub, member_id=member.pk, tournament_ids=tournament_ids)
    transaction.on_commit(lambda: erase_from_previews(scrub))
    transaction.on_commit(checkpoint_sqlite)


def erase_from_previews(scrub: Scrubber) -> int:
    """Remove the registration previews stored under ``var/imports/``
    (``registrations.store_upload``) whose text holds one of the person's surnames or
    membership numbers: a preview waits up to an hour for its confirmation, and an abandoned
    one would name an erased member until then. Removed, not rewritten: the confirmation then
    asks for the file again (over-removing another person's preview that shares the surname is
    preferred to leaving this one in it). Runs after the erasure's commit. Returns how many."""
    needles = [last for last, _first in scrub.names if last] + [n for n in scrub.numbers if n]
    removed = 0
    for path in previews.upload_dir().iterdir():
        try:
            text = path.read_bytes().decode("utf-8", "replace")
        except FileNotFoundError:  # imported or expired meanwhile
            continue
        if any(needle in text for needle in needles):
            path.unlink(missing_ok=True)
            removed += 1
    return removed


def checkpoint_sqlite() -> bool:
    """On SQLite, copy the write-ahead log into the database file and empty it
    (``PRAGMA wal_checkpoint(TRUNCATE)``), so the pages written before an erasure, which hold
    the erased texts, leave the ``-wal`` file; with ``secure_delete`` the replaced content of
    the database file is zeroed. Runs outside any transaction (after the erasure's commit).
    Returns True when the checkpoint completed, False when a reader kept it from finishing
    (the next checkpoint finishes it: SQLite checkpoints by itself every 1000 pages) or the
    database is not SQLite (PostgreSQL: nothing to do, its files are not the server's to
    scrub, docs/security.md)."""
    if connection.vendor != "sqlite" or connection.in_atomic_block:
        return False
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        busy, _log, _done = cursor.fetchone()
    return busy == 0


def erase_from_backups(scrub: Scrubber, *, member_id: int, tournament_ids: set[int],
                       folder: Path | None = None) -> list[Path]:
    """Rewrite the backups of ``folder`` (default the backup directory) that name the
    person: JSON exports through :meth:`Scrubber.json`, SQLite copies by SQL on the same rows
    (players of the member, the member's row, audit entries of ``tournament_ids``).
    Returns the files rewritten. Raises ``OSError``/``sqlite3.Error`` (the erasure fails
    and rolls back rather than leave a backup naming the person)."""
    folder = folder or backup_dir()
    if not folder.exists():
        return []
    rewritten = []
    for path in sorted(folder.glob("*.json")):
        raw = path.read_text(encoding="utf-8")
        if not any(last in raw for last, _first in scrub.names) and not any(n in raw for n in scrub.numbers):
            continue
        cleaned = json.dumps(scrub.json(json.loads(raw)), ensure_ascii=False, indent=1)
        if cleaned != raw:
            tmp = path.with_suffix(".part")
            tmp.write_text(cleaned, encoding="utf-8")
            tmp.chmod(0o600)
            tmp.replace(path)
            rewritten.append(path)
    for path in sorted(folder.glob("*.sqlite3")):
        if _erase_from_sqlite(path, scrub, member_id=member_id, tournament_ids=tournament_ids):
            rewritten.append(path)
    return rewritten


def _erase_from_sqlite(path: Path, scrub: Scrubber, *, member_id: int, tournament_ids: set[int]) -> bool:
    db = sqlite3.connect(path)
    try:
        db.execute("PRAGMA secure_delete=ON")  # the copy keeps no freed page naming the person either
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        changed = 0
        if "tournaments_player" in tables:
            columns = {r[1] for r in db.execute("PRAGMA table_info(tournaments_player)")}
            where, args = ("member_id = ?", [member_id]) if "member_id" in columns else ("0", [])
            changed += db.execute(
                f"UPDATE tournaments_player SET last_name = ?, first_name = ?, membership_number = '', club = '' "
                f"WHERE {where}", [ERASED_LAST_NAME, erased_first_name(member_id), *args]).rowcount
        if "members_member" in tables:
            changed += db.execute(
                "UPDATE members_member SET last_name = ?, first_name = ?, name_key = '', membership_number = NULL, "
                "club = '', category = '', expires_on = NULL WHERE id = ?",
                [ERASED_LAST_NAME, erased_first_name(member_id), member_id]).rowcount
        if "tournaments_auditentry" in tables and tournament_ids:
            marks = ",".join("?" * len(tournament_ids))
            rows = db.execute(f"SELECT id, old, new, reason FROM tournaments_auditentry WHERE tournament_id IN ({marks})",
                              sorted(tournament_ids)).fetchall()
            for pk, old, new, reason in rows:
                values = [json.dumps(scrub.json(json.loads(v))) if v else v for v in (old, new)]
                text = scrub.text(reason or "")
                if values != [old, new] or text != (reason or ""):
                    db.execute("UPDATE tournaments_auditentry SET old = ?, new = ?, reason = ? WHERE id = ?",
                               [*values, text, pk])
                    changed += 1
        db.commit()
        return changed > 0
    finally:
        db.close()


def backup_dir() -> Path:
    """The backups' folder, ``settings.ARBITRO_BACKUP_DIR`` (as ``transfer.backups`` writes
    them; read here without importing the tournament-file package, which imports services)."""
    return Path(settings.ARBITRO_BACKUP_DIR)
