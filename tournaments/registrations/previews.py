"""The checked rows of a registration file, kept between the preview and the confirmation.

A file is parsed once, at the preview (an XLSX of a million rows, or a slow one, is never
read twice): its rows, as :mod:`.reading` and :mod:`.teams` checked them, are written as
JSON under ``var/imports/`` (:func:`store_upload`: a random name, the only thing the session
keeps) and read back on confirmation; a stored file not confirmed is removed after
:data:`UPLOAD_MAX_AGE` seconds. The confirmation checks them again only
against what the tournament gained meanwhile (:func:`changed_since_preview`): a number or a
membership number entered by hand after the preview.
"""
from __future__ import annotations

import json
import re
import secrets
import time
from pathlib import Path

from django.utils.translation import gettext as _

from ..models import Player
from .player_data import PlayerData

FORMAT = "arbitro-registration-preview"
#: Seconds a preview waits on disk for its confirmation.
UPLOAD_MAX_AGE = 3600
_UPLOAD_NAME = re.compile(r"^[0-9a-f]{32}$")


def dumps(kind, rows: list) -> bytes:
    """``rows`` (the parsed rows of ``kind``'s reader: :class:`RegistrationRow`,
    :class:`PlayerRow` or :class:`TeamRow`) as JSON bytes, marked with the kind's name.
    ``kind`` is the tournament's :class:`tournaments.kinds.base.Kind`, handed in: this package
    sits below the kinds, which read the files with it."""
    out = [kind.row_json(r) for r in rows]
    return json.dumps({"format": FORMAT, "kind": kind.data.name, "rows": out}, ensure_ascii=False).encode("utf-8")


def loads(kind, data: bytes) -> list | None:
    """The rows written by :func:`dumps` for a tournament of ``kind``, or None when ``data``
    is not such a preview (another kind: the tournament's kind changed meanwhile)."""
    try:
        doc = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT or doc.get("kind") != kind.data.name:
        return None
    return [kind.row_from_json(r, [PlayerData(**p) for p in r["players"]]) for r in doc["rows"]]


def changed_since_preview(kind, tournament, rows: list) -> list[str]:
    """Refusals for ``rows`` (read by ``kind``, the tournament's kind) against what
    ``tournament`` holds now: an entry number or a membership number of the file that was
    entered by hand after the preview. [] when none."""
    numbers = kind.registered_numbers(tournament)
    memberships = set(Player.objects.filter(tournament=tournament).exclude(membership_number="")
                      .values_list("membership_number", flat=True))
    errors = []
    for r in rows:
        players = kind.row_json(r)["players"]
        if r.number in numbers:
            errors.append(_("Riga %(row)s: il numero %(number)s è stato usato nel torneo dopo l'anteprima.")
                          % {"row": r.row, "number": r.number})
        for p in players:
            if p["membership_number"] and p["membership_number"] in memberships:
                errors.append(_("Riga %(row)s: il giocatore con tessera %(membership)s è stato iscritto al torneo "
                                "dopo l'anteprima.") % {"row": r.row, "membership": p["membership_number"]})
    return errors


# --------------------------------------------------------------------------- uploads on disk


def upload_dir() -> Path:
    """``var/imports/`` (``settings.VAR_DIR``), created on first use."""
    from django.conf import settings

    path = Path(settings.VAR_DIR) / "imports"
    path.mkdir(parents=True, exist_ok=True)
    return path


def store_upload(data: bytes) -> str:
    """Write an uploaded registration file to ``var/imports/<random name>`` and return the
    name (32 hex digits), the only thing the session keeps. Files older than
    :data:`UPLOAD_MAX_AGE` are removed first."""
    purge_uploads()
    name = secrets.token_hex(16)
    target = upload_dir() / name
    tmp = target.with_suffix(".part")
    tmp.write_bytes(data)
    tmp.replace(target)
    return name


def _upload_path(name) -> Path | None:
    if not isinstance(name, str) or not _UPLOAD_NAME.match(name):
        return None  # never a path from outside (the session is signed, but be strict)
    return upload_dir() / name


def load_upload(name) -> bytes | None:
    """The bytes stored by :func:`store_upload`, or ``None`` if gone (expired, imported)."""
    path = _upload_path(name)
    if path is None or not path.exists():
        return None
    if time.time() - path.stat().st_mtime > UPLOAD_MAX_AGE:
        discard_upload(name)
        return None
    return path.read_bytes()


def discard_upload(name) -> None:
    """Remove a stored upload (after the import, or when replaced by a new one)."""
    path = _upload_path(name)
    if path is not None:
        path.unlink(missing_ok=True)


def purge_uploads(max_age: int = UPLOAD_MAX_AGE) -> int:
    """Remove uploads older than ``max_age`` seconds; returns how many."""
    removed = 0
    limit = time.time() - max_age
    for path in upload_dir().iterdir():
        try:
            if path.stat().st_mtime < limit:
                path.unlink(missing_ok=True)
                removed += 1
        except FileNotFoundError:
            continue
    return removed
