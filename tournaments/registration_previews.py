"""The checked rows of a registration file, kept between the preview and the confirmation.

A file is parsed once, at the preview (an XLSX of a million rows, or a slow one, is never
read twice): its rows, as :mod:`tournaments.registrations` and
:mod:`tournaments.team_registrations` checked them, are written as JSON under
``var/imports/`` (``registrations.store_upload``: a random name, the only thing the
session keeps) and read back on confirmation. The confirmation checks them again only
against what the tournament gained meanwhile (:func:`changed_since_preview`): a number or a
membership number entered by hand after the preview.
"""
from __future__ import annotations

import json

from django.utils.translation import gettext as _

from .kinds import Kind, kind_of
from .player_data import PlayerData

FORMAT = "arbitro-registration-preview"


def dumps(kind: Kind, rows: list) -> bytes:
    """``rows`` (the parsed rows of ``kind``'s reader: :class:`RegistrationRow`,
    :class:`PlayerRow` or :class:`TeamRow`) as JSON bytes, marked with the kind's name."""
    out = [kind.row_json(r) for r in rows]
    return json.dumps({"format": FORMAT, "kind": kind.data.name, "rows": out}, ensure_ascii=False).encode("utf-8")


def loads(kind: Kind, data: bytes) -> list | None:
    """The rows written by :func:`dumps` for a tournament of ``kind``, or None when ``data``
    is not such a preview (another kind: the tournament's kind changed meanwhile)."""
    try:
        doc = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT or doc.get("kind") != kind.data.name:
        return None
    return [kind.row_from_json(r, [PlayerData(**p) for p in r["players"]]) for r in doc["rows"]]


def changed_since_preview(tournament, rows: list) -> list[str]:
    """Refusals for ``rows`` against what ``tournament`` holds now: an entry number or a
    membership number of the file that was entered by hand after the preview. [] when none."""
    from .models import Player

    kind = kind_of(tournament)
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
