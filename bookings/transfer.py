"""The bookings in a tournament's file (export, import, backups: tournaments/transfer/sections.py).

A purged contact is not in the file (the booking carries ``contact_purged``); a booking's
private link is its token's hash, so a file never holds a working link's secret, and a copy
imported elsewhere keeps the links working."""
from __future__ import annotations

import datetime as dt
import secrets

from django.utils.translation import gettext as _

from tournaments.errors import ArbiterError
from tournaments.text import clean_line

from .models import Booking, BookingWindow
from .services import token_hash

FIELDS = ("code", "token_hash", "seq", "single", "state", "last_name_1", "first_name_1", "membership_1",
          "last_name_2", "first_name_2", "membership_2", "contact", "contact_purged", "present",
          "entrant_numbers", "team_name")
#: fields a file written before they existed may lack (their default then)
OPTIONAL = {"team_name": ""}
LENGTHS = {"team_name": 120, "code": 12, "token_hash": 64, "last_name_1": 80, "first_name_1": 80, "membership_1": 30,
           "last_name_2": 80, "first_name_2": 80, "membership_2": 30, "contact": 200}
MAX_ROWS = 5000


def export_rows(tournament) -> list[dict]:
    """The window (first row, ``{"window": {...}}``) and every booking in arrival order;
    ``[]`` when bookings were never opened."""
    window = BookingWindow.objects.filter(tournament=tournament).first()
    if window is None:
        return []
    rows = [{"window": {"is_open": window.is_open, "cap": window.cap, "message": window.message,
                        "next_seq": window.next_seq,
                        "until": window.until.isoformat() if window.until else None,
                        "opens_at": window.opens_at.isoformat() if window.opens_at else None}}]
    for b in tournament.bookings.order_by("seq"):
        row = {name: getattr(b, name) for name in FIELDS}
        row["contact"] = "" if b.contact_purged else b.contact
        row["partner"] = b.partner.seq if b.partner_id else None
        row["registered_at"] = b.registered_at.isoformat() if b.registered_at else None
        rows.append(row)
    return rows


def _when(raw):
    if raw is None:
        return None
    try:
        return dt.datetime.fromisoformat(str(raw))
    except ValueError:
        raise ArbiterError(_("Prenotazioni: data non valida nel file.")) from None


def load_rows(tournament, rows) -> None:
    """Create the file's bookings for the imported ``tournament``. Raises ArbiterError (one
    sentence) for rows of the wrong shape."""
    if not isinstance(rows, list) or not rows or len(rows) > MAX_ROWS or not isinstance(rows[0], dict) \
            or not isinstance(rows[0].get("window"), dict):
        raise ArbiterError(_("Prenotazioni: elenco non valido nel file."))
    w = rows[0]["window"]
    try:
        BookingWindow.objects.create(tournament=tournament, is_open=bool(w.get("is_open")), cap=int(w.get("cap", 0)),
                                     message=clean_line(w.get("message", ""), label="message", max_length=1000),
                                     next_seq=int(w.get("next_seq", 1)), until=_when(w.get("until")),
                                     opens_at=_when(w.get("opens_at")))
        created, partners = {}, {}
        for row in rows[1:]:
            values = {}
            for name in FIELDS:
                value = row.get(name, OPTIONAL[name]) if name in OPTIONAL else row[name]
                if name in LENGTHS:
                    value = clean_line(value, label=name, max_length=LENGTHS[name])
                values[name] = value
            if Booking.objects.filter(token_hash=values["token_hash"]).exists():
                # the same file imported twice: the copy's private links are new (dead)
                values["token_hash"] = token_hash(secrets.token_urlsafe(24))
            if values["state"] not in Booking.State.values:
                raise ArbiterError(_("Prenotazioni: stato non valido nel file."))
            booking = Booking.objects.create(tournament=tournament, registered_at=_when(row.get("registered_at")),
                                             **values)
            created[booking.seq] = booking
            if row.get("partner") is not None:
                partners[booking] = row["partner"]
        for booking, seq in partners.items():
            booking.partner = created[seq]
            booking.save(update_fields=["partner"])
    except (KeyError, TypeError, ValueError) as exc:
        raise ArbiterError(_("Prenotazioni: elenco non valido nel file.")) from exc
