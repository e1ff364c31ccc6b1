"""Export: one tournament as a dict, then as the bytes of its file (issue 13 item 4).

Rows are referred to by natural keys (pair number, player number, round number, table
number, hand number, username), never by database ids, and listed in a stable order, so the same
tournament gives the same bytes on SQLite and on PostgreSQL, and export → import → export
gives the same bytes.
"""
from __future__ import annotations

import json

from ..models import AuditEntry, CustomScale, Penalty, Player, Round, Tournament
from .schema import FIELDS, FORMAT, SECRET_NOTICE, VERSION, to_json

#: Audit entries that record an event of one database, not of the tournament: they are not
#: carried to another database (so a re-export of an imported tournament is byte-identical).
LOCAL_ACTIONS = frozenset({"tournament_imported"})


def _plain(obj, model=None) -> dict:
    model = model or type(obj)
    return {name: to_json(model._meta.get_field(name), getattr(obj, name)) for name in FIELDS[model]}


def _username(user) -> str | None:
    return user.get_username() if user is not None else None


def _custom_scale(tournament: Tournament) -> dict | None:
    custom = CustomScale.objects.filter(scale_id=tournament.vp_scale).first()
    return _plain(custom) if custom is not None else None


def _number(obj) -> int | None:
    return obj.number if obj is not None else None


def _pairs(tournament: Tournament) -> list[dict]:
    """Registered pairs and (individual tournaments) the partnerships formed for one round,
    by number; ``round``: the round number of a formed partnership, else null."""
    rows = []
    for pair in tournament.pairs.select_related("round").order_by("number"):
        row = _plain(pair)
        row["round"] = _number(pair.round)
        rows.append(row)
    return rows


def _players(tournament: Tournament) -> list[dict]:
    """Players of a pair by pair number and seat, then the others (individual tournaments:
    no pair) by player number."""
    rows = []
    for player in Player.objects.filter(tournament=tournament).select_related("pair"):
        row = _plain(player)
        row["pair"] = _number(player.pair)
        rows.append(row)
    return sorted(rows, key=lambda r: (r["pair"] is None, r["pair"] or 0, r["seat"] or 0,
                                       r["number"] is None, r["number"] or 0,
                                       json.dumps(r, sort_keys=True, ensure_ascii=False)))


def _line_members(rnd: Round) -> list[dict]:
    """Who sits in each partnership formed for round ``rnd`` (individual tournaments), by
    pair number and seat: ``{"pair": 31, "player": 7, "seat": 1}``."""
    rows = []
    for member in rnd.line_members.all():
        row = _plain(member)
        row["pair"], row["player"] = member.pair.number, member.player.number
        rows.append(row)
    return sorted(rows, key=lambda r: (r["pair"], r["seat"]))


def _rounds(tournament: Tournament) -> list[dict]:
    rounds = (Round.objects.filter(tournament=tournament).order_by("number")
              .prefetch_related("tables__seats__pair", "tables__sheet__hands", "line_members__pair",
                                "line_members__player"))
    out = []
    for rnd in rounds:
        row = _plain(rnd)
        row["line_members"] = _line_members(rnd)
        row["tables"] = []
        for table in sorted(rnd.tables.all(), key=lambda t: t.number):
            t = _plain(table)
            seats = {seat.line: seat.pair.number for seat in table.seats.all()}
            t["ns"], t["ew"] = seats.get("ns"), seats.get("ew")
            sheet = getattr(table, "sheet", None)
            if sheet is not None:
                s = _plain(sheet)
                s["hands"] = [_plain(h) for h in sorted(sheet.hands.all(), key=lambda h: h.number)]
                t["sheet"] = s
            else:
                t["sheet"] = None
            row["tables"].append(t)
        out.append(row)
    return out


def _penalties(tournament: Tournament) -> list[dict]:
    out = []
    for penalty in (Penalty.objects.filter(tournament=tournament).select_related("pair", "player", "created_by")
                    .order_by("created_at", "id")):
        row = _plain(penalty)
        row["pair"], row["player"] = _number(penalty.pair), _number(penalty.player)
        row["created_by"] = _username(penalty.created_by)
        out.append(row)
    return out


def _audit(tournament: Tournament) -> list[dict]:
    out = []
    for entry in (AuditEntry.objects.filter(tournament=tournament).exclude(action__in=LOCAL_ACTIONS)
                  .select_related("user").order_by("at", "id")):
        row = _plain(entry)
        row["user"] = _username(entry.user)
        out.append(row)
    return out


def export_data(tournament: Tournament) -> dict:
    """The whole of ``tournament`` as a JSON-ready dict (format ``FORMAT``, version ``VERSION``):
    settings, arbiters (usernames), its custom VP scale if any, pairs (with the partnerships
    formed for one round of an individual tournament), players, rounds with their
    partnerships' players (``line_members``) and tables (seats, token, PIN), score sheets
    with hands (and the arbiter's draft), penalties (to a pair or a player) and the audit trail.

    Not included: wrong-PIN counters (``PinGuard``: they start afresh) and the audit entries
    of earlier imports (``LOCAL_ACTIONS``). No timestamp of the export itself. A read only.
    """
    tournament = Tournament.objects.select_related("created_by").get(pk=tournament.pk)
    head = _plain(tournament)
    head["created_by"] = _username(tournament.created_by)
    head["arbiters"] = sorted(u.get_username() for u in tournament.arbiters.all())
    return {
        "format": FORMAT,
        "version": VERSION,
        "secret": SECRET_NOTICE,
        "tournament": head,
        "custom_scale": _custom_scale(tournament),
        "pairs": _pairs(tournament),
        "players": _players(tournament),
        "rounds": _rounds(tournament),
        "penalties": _penalties(tournament),
        "audit": _audit(tournament),
    }


def dumps(data: dict) -> bytes:
    """The file's bytes: UTF-8 JSON, sorted keys, one-space indent, a final newline."""
    return (json.dumps(data, sort_keys=True, ensure_ascii=False, indent=1) + "\n").encode("utf-8")


def export_tournament(tournament: Tournament) -> bytes:
    """The bytes of ``tournament``'s file (:func:`export_data` through :func:`dumps`).

    The file is secret: it holds every table's captain link token and PIN."""
    return dumps(export_data(tournament))
