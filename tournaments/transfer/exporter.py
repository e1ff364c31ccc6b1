"""Export: one tournament as a dict, then as the bytes of its file.

Rows are referred to by natural keys (pair number, player number, team number, a team
player as ``[team, member]``, round number, table number, hand number, username), never by
database ids, and listed in a stable order, so the same
tournament gives the same bytes on SQLite and on PostgreSQL, and export → import → export
gives the same bytes.
"""
from __future__ import annotations

import json

from ..models import AuditAction, AuditEntry, CustomScale, LineUp, Penalty, Player, Round, Team, Tournament
from . import sections
from .schema import FIELDS, FORMAT, SECRET_NOTICE, VERSION, to_json

#: Audit entries that record an event of one database, not of the tournament: they are not
#: carried to another database (so a re-export of an imported tournament is byte-identical).
LOCAL_ACTIONS = frozenset({AuditAction.TOURNAMENT_IMPORTED})


def _plain(obj, model=None) -> dict:
    model = model or type(obj)
    return {name: to_json(model._meta.get_field(name), getattr(obj, name)) for name in FIELDS[model]}


def _username(user) -> str | None:
    return user.get_username() if user is not None else None


def _custom_scale(scale_id: str) -> dict | None:
    custom = CustomScale.objects.filter(scale_id=scale_id).first() if scale_id else None
    return _plain(custom) if custom is not None else None


def _number(obj) -> int | None:
    return obj.number if obj is not None else None


def _pairs(tournament: Tournament) -> list[dict]:
    """Registered pairs and the pairs formed for one round (an individual tournament's
    partnerships, a team's two pairs of a round), by number; ``round``: the round number of a
    formed pair, else null; ``team``: the team's number, else null."""
    rows = []
    for pair in tournament.pairs.select_related("round", "team").order_by("number"):
        row = _plain(pair)
        row["round"], row["team"] = _number(pair.round), _number(pair.team)
        rows.append(row)
    return rows


class _PlayerKeys:
    """The file's reference to each player of a tournament: his number (individual
    tournaments), or ``[team, member]`` for a team player, ``member`` being his place in the
    team in registration order (1.., the order ``selectors.teams.lineup_for`` and the prints use)."""

    def __init__(self, tournament: Tournament):
        self.member: dict[int, tuple[int, int]] = {}
        places: dict[int, int] = {}
        for pk, team in (Player.objects.filter(tournament=tournament, team__isnull=False)
                         .order_by("team__number", "pk").values_list("pk", "team__number")):
            places[team] = places.get(team, 0) + 1
            self.member[pk] = (team, places[team])

    def ref(self, player) -> int | list[int] | None:
        if player is None:
            return None
        if player.number is None and player.pk in self.member:
            return list(self.member[player.pk])
        return player.number


def _players(tournament: Tournament, keys: _PlayerKeys) -> list[dict]:
    """Players of a pair by pair number and seat, then team players by team and place in the
    team (``member``), then the others (individual tournaments) by player number."""
    rows = []
    for player in Player.objects.filter(tournament=tournament).select_related("pair"):
        row = _plain(player)
        row["pair"] = _number(player.pair)
        row["team"], row["member"] = keys.member.get(player.pk, (None, None))
        rows.append(row)
    return sorted(rows, key=lambda r: (r["pair"] is None, r["pair"] or 0, r["seat"] or 0,
                                       r["team"] is None, r["team"] or 0, r["member"] or 0,
                                       r["number"] is None, r["number"] or 0,
                                       json.dumps(r, sort_keys=True, ensure_ascii=False)))


def _teams(tournament: Tournament, keys: _PlayerKeys) -> list[dict]:
    """Teams by number; ``captain``: ``[team, member]`` or null. The token is the team
    captain's link (secret, like the tables' tokens)."""
    rows = []
    for team in Team.objects.filter(tournament=tournament).select_related("captain").order_by("number"):
        row = _plain(team)
        row["captain"] = keys.ref(team.captain)
        rows.append(row)
    return rows


def _lineups(tournament: Tournament, keys: _PlayerKeys) -> list[dict]:
    """The line-ups entered (by the arbiter or a team captain), by team number and round
    number; the four players as ``[team, member]``."""
    rows = []
    for lineup in (LineUp.objects.filter(team__tournament=tournament)
                   .select_related("team", "first_1", "first_2", "second_1", "second_2")
                   .order_by("team__number", "round_number")):
        row = _plain(lineup)
        row["team"] = lineup.team.number
        for name in ("first_1", "first_2", "second_1", "second_2"):
            row[name] = keys.ref(getattr(lineup, name))
        rows.append(row)
    return rows


def _matches(rnd: Round) -> list[dict]:
    """The matches of a team tournament's round by number: teams by number, tables by their
    number in the round (null for a rest or forfeit)."""
    rows = []
    for match in sorted(rnd.matches.all(), key=lambda m: m.number):
        row = _plain(match)
        for name in ("team_a", "team_b", "forfeit_by", "table_1", "table_2"):
            row[name] = _number(getattr(match, name))
        rows.append(row)
    return rows


def _line_members(rnd: Round, keys: _PlayerKeys) -> list[dict]:
    """Who sits in each pair formed for round ``rnd`` (individual and team tournaments), by
    pair number and seat: ``{"pair": 31, "player": 7, "seat": 1}`` (a team player:
    ``"player": [3, 2]``)."""
    rows = []
    for member in rnd.line_members.all():
        row = _plain(member)
        row["pair"], row["player"] = member.pair.number, keys.ref(member.player)
        rows.append(row)
    return sorted(rows, key=lambda r: (r["pair"], r["seat"]))


def _rounds(tournament: Tournament, keys: _PlayerKeys) -> list[dict]:
    rounds = (Round.objects.filter(tournament=tournament).order_by("number")
              .prefetch_related("tables__seats__pair", "tables__sheet__hands", "line_members__pair",
                                "line_members__player", "matches__team_a", "matches__team_b",
                                "matches__forfeit_by", "matches__table_1", "matches__table_2"))
    out = []
    for rnd in rounds:
        row = _plain(rnd)
        row["line_members"] = _line_members(rnd, keys)
        row["matches"] = _matches(rnd)
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


def _penalties(tournament: Tournament, keys: _PlayerKeys) -> list[dict]:
    out = []
    for penalty in (Penalty.objects.filter(tournament=tournament)
                    .select_related("pair", "player", "team", "created_by").order_by("created_at", "id")):
        row = _plain(penalty)
        row["pair"], row["player"] = _number(penalty.pair), keys.ref(penalty.player)
        row["team"] = _number(penalty.team)  # a team's penalty (rules.md §15)
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
    settings, arbiters (usernames), its custom VP scale and custom team scale if any, teams (with their captain's
    link) and their line-ups, pairs (with the pairs formed for one round of an individual or
    team tournament), players, rounds with their formed pairs' players (``line_members``),
    team matches (``matches``) and tables (seats, token, PIN), score sheets with hands (and
    the arbiter's draft), penalties (to a pair, a player or a team) and the audit trail. A
    tournament without teams has ``"teams": []``, ``"lineups": []``, ``"matches": []``.

    Other apps add their sections (:mod:`.sections`: ``"money"``, rules.md §21) when they
    have something for the tournament.

    Not included: wrong-PIN counters (``PinGuard``: they start afresh) and the audit entries
    of earlier imports (``LOCAL_ACTIONS``). No timestamp of the export itself. A read only.
    """
    tournament = Tournament.objects.select_related("created_by").get(pk=tournament.pk)
    head = _plain(tournament)
    head["created_by"] = _username(tournament.created_by)
    head["arbiters"] = sorted(u.get_username() for u in tournament.arbiters.all())
    keys = _PlayerKeys(tournament)
    return {
        "format": FORMAT,
        "version": VERSION,
        "secret": SECRET_NOTICE,
        "tournament": head,
        "custom_scale": _custom_scale(tournament.vp_scale),
        "custom_team_scale": _custom_scale(tournament.team_scale),
        "teams": _teams(tournament, keys),
        "lineups": _lineups(tournament, keys),
        "pairs": _pairs(tournament),
        "players": _players(tournament, keys),
        "rounds": _rounds(tournament, keys),
        "penalties": _penalties(tournament, keys),
        "audit": _audit(tournament),
        # other apps' data (the money and the bookings of rules.md §21), only when they have some
        **sections.exported(tournament),
    }


def dumps(data: dict) -> bytes:
    """The file's bytes: UTF-8 JSON, sorted keys, one-space indent, a final newline."""
    return (json.dumps(data, sort_keys=True, ensure_ascii=False, indent=1) + "\n").encode("utf-8")


def export_tournament(tournament: Tournament) -> bytes:
    """The bytes of ``tournament``'s file (:func:`export_data` through :func:`dumps`).

    The file is secret: it holds every table's captain link token and PIN."""
    return dumps(export_data(tournament))
