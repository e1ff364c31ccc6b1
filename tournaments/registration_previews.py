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

from .registrations import PlayerRow, RegistrationRow
from .services import PlayerData
from .team_registrations import TeamRow

FORMAT = "arbitro-registration-preview"


def _player(p: PlayerData) -> dict:
    return {"first_name": p.first_name, "last_name": p.last_name, "membership_number": p.membership_number,
            "club": p.club}


def dumps(kind: str, rows: list) -> bytes:
    """``rows`` (:class:`RegistrationRow`, :class:`PlayerRow` or :class:`TeamRow` of a
    tournament of ``kind`` "pairs", "individual" or "teams") as JSON bytes."""
    if kind == "teams":
        out = [{"row": r.row, "number": r.number, "name": r.name, "players": [_player(p) for p in r.players]}
               for r in rows]
    elif kind == "individual":
        out = [{"row": r.row, "number": r.number, "players": [_player(r.player)]} for r in rows]
    else:
        out = [{"row": r.row, "number": r.number, "players": [_player(p) for p in r.players]} for r in rows]
    return json.dumps({"format": FORMAT, "kind": kind, "rows": out}, ensure_ascii=False).encode("utf-8")


def loads(kind: str, data: bytes) -> list | None:
    """The rows written by :func:`dumps` for a tournament of ``kind``, or None when ``data``
    is not such a preview (another kind: the tournament's kind changed meanwhile)."""
    try:
        doc = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT or doc.get("kind") != kind:
        return None
    rows = []
    for r in doc["rows"]:
        players = [PlayerData(**p) for p in r["players"]]
        if kind == "teams":
            rows.append(TeamRow(row=r["row"], number=r["number"], name=r["name"], players=players))
        elif kind == "individual":
            rows.append(PlayerRow(row=r["row"], number=r["number"], player=players[0]))
        else:
            rows.append(RegistrationRow(row=r["row"], number=r["number"], players=(players[0], players[1])))
    return rows


def kind_of(tournament) -> str:
    return "teams" if tournament.is_teams else "individual" if tournament.is_individual else "pairs"


def changed_since_preview(tournament, rows: list) -> list[str]:
    """Refusals for ``rows`` against what ``tournament`` holds now: an entry number or a
    membership number of the file that was entered by hand after the preview. [] when none."""
    from .models import Player

    kind = kind_of(tournament)
    if kind == "teams":
        numbers = set(tournament.teams.values_list("number", flat=True))
    elif kind == "individual":
        numbers = set(Player.objects.filter(tournament=tournament, number__isnull=False)
                      .values_list("number", flat=True))
    else:
        numbers = set(tournament.pairs.values_list("number", flat=True))
    memberships = set(Player.objects.filter(tournament=tournament).exclude(membership_number="")
                      .values_list("membership_number", flat=True))
    errors = []
    for r in rows:
        players = r.players if kind != "individual" else [r.player]
        if r.number in numbers:
            errors.append(_("Riga %(row)s: il numero %(number)s è stato usato nel torneo dopo l'anteprima.")
                          % {"row": r.row, "number": r.number})
        for p in players:
            if p.membership_number and p.membership_number in memberships:
                errors.append(_("Riga %(row)s: il giocatore con tessera %(membership)s è stato iscritto al torneo "
                                "dopo l'anteprima.") % {"row": r.row, "membership": p.membership_number})
    return errors
