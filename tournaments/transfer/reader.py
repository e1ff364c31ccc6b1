"""Reading a tournament file: format and version, the upgrade of a version-1 file, and the
check of every value and every reference between rows.

Nothing here writes: :func:`read_plan` turns a file's JSON object into converted field
values and natural-key references (pair, player, team, round and table numbers, a team
player as ``[team, member]``, usernames), or raises
:class:`ArbiterError` listing every problem with its place in the file.
"""
from __future__ import annotations

import copy
import json

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from members.numbers import MembershipNumberError, legacy_membership_number
from scoring import vp as vp_rules

from ..errors import ArbiterError
from ..models import (
    AuditEntry,
    CustomScale,
    HandRow,
    LineMember,
    LineUp,
    Match,
    Pair,
    Penalty,
    Player,
    Round,
    ScoreSheet,
    Table,
    Team,
    Tournament,
)
from ..registrations import limits
from ..services.audit import actor_form
from ..services.prizes import normal_prize_list
from ..text import clean_note
from .limits_check import check_shape
from .schema import ADDED_IN_2, FIELDS, FORMAT, READABLE_VERSIONS, TEAM_KEYS_OF_2, from_json

MAX_DETAILS = 30

#: The keys each object of the file has beyond its model's ``FIELDS``.
EXTRA_KEYS = {
    "tournament": ("created_by", "arbiters"),
    "pairs": ("round", "team"),
    "players": ("pair", "team", "member"),
    "tables": ("ns", "ew", "sheet"),
    "sheet": ("hands",),
    "rounds": ("tables", "line_members", "matches"),
    "teams": ("captain",),
    "matches": ("team_a", "team_b", "forfeit_by", "table_1", "table_2"),
    "lineups": ("team", "first_1", "first_2", "second_1", "second_2"),
    "line_members": ("pair", "player"),
    "penalties": ("pair", "player", "team", "created_by"),
    "audit": ("user",),
}


class _Checker:
    """Collects every problem of a file with where it is (``rounds[2].tables[1].pin``)."""

    def __init__(self):
        self.errors: list[str] = []

    def add(self, where: str, problem) -> None:
        self.errors.append(f"{where}: {problem}")

    def obj(self, where: str, raw, model, extra=()) -> dict | None:
        """``raw`` checked as one object of ``model``: the converted field values, or None."""
        if not isinstance(raw, dict):
            self.add(where, _("atteso un oggetto"))
            return None
        expected = set(FIELDS[model]) | set(extra)
        for key in sorted(expected - raw.keys()):
            self.add(where, _("manca «%(key)s»") % {"key": key})
        for key in sorted(raw.keys() - expected):
            self.add(where, _("campo sconosciuto «%(key)s»") % {"key": key})
        values = {}
        for name in FIELDS[model]:
            if name not in raw:
                continue
            try:
                values[name] = from_json(model._meta.get_field(name), raw[name])
            except ValidationError as exc:
                self.add(f"{where}.{name}", " ".join(exc.messages))
        return values

    def items(self, where: str, raw) -> list:
        if not isinstance(raw, list):
            self.add(where, _("attesa una lista"))
            return []
        return raw

    def username(self, where: str, raw, *, null=True) -> str | None:
        if raw is None and null:
            return None
        if not isinstance(raw, str) or not raw or len(raw) > 150:
            self.add(where, _("nome utente non valido"))
            return None
        return raw

    def ref(self, where: str, raw, known: set, problem: str, *, null=True):
        """``raw`` as a reference to one of ``known`` numbers (null allowed when ``null``);
        otherwise ``problem`` (with ``%(n)s``) is reported and :data:`BAD` returned."""
        if raw is None and null:
            return None
        if isinstance(raw, bool) or not isinstance(raw, int) or raw not in known:
            self.add(where, problem % {"n": json.dumps(raw, ensure_ascii=False)})
            return BAD
        return raw

    def player(self, where: str, raw, known: set, *, null=True):
        """``raw`` as a reference to a player of the file: his number, or ``[team, member]``
        for a team player (returned as a tuple); :data:`BAD` when not one of ``known``."""
        if raw is None and null:
            return None
        key = raw
        if isinstance(raw, list) and len(raw) == 2 and all(isinstance(x, int) and not isinstance(x, bool)
                                                             for x in raw):
            key = tuple(raw)
        if isinstance(key, bool) or not isinstance(key, (int, tuple)) or key not in known:
            self.add(where, _("il giocatore %(n)s non è nel file") % {"n": json.dumps(raw, ensure_ascii=False)})
            return BAD
        return key


#: A reference already reported as wrong (never a number of the file).
BAD = object()


def parse_file(data: bytes) -> dict:
    """The JSON object of a file, refusing what is not an Arbitro tournament file of a
    version this build reads (``READABLE_VERSIONS``), or one nested deeper or with longer
    lists than :mod:`tournaments.registrations.limits` allows (:func:`.limits_check.check_shape`).
    Raises :class:`ArbiterError`."""
    try:
        doc = json.loads(data.decode("utf-8-sig"))
    except RecursionError as exc:  # thousands of nested brackets
        raise ArbiterError(_("Il file non è un torneo di Arbitro: il JSON è annidato oltre %(n)s livelli.")
                           % {"n": limits.MAX_JSON_DEPTH}) from exc
    except (UnicodeDecodeError, ValueError) as exc:
        raise ArbiterError(_("Il file non è un torneo di Arbitro: non è un JSON leggibile.")) from exc
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise ArbiterError(_("Il file non è un torneo di Arbitro (manca «format»: «%(format)s»).")
                           % {"format": FORMAT})
    version = doc.get("version")
    if isinstance(version, bool) or version not in READABLE_VERSIONS:
        raise ArbiterError(_("Versione del file sconosciuta (%(version)s): questo Arbitro legge le versioni "
                             "%(known)s. Nulla è stato importato.")
                           # the file's value as text the page can show: a lone surrogate
                           # ("\ud800") made the refusal page a 500, 5000 characters a wall
                           % {"version": clean_note(str(version), max_length=20),
                              "known": ", ".join(map(str, READABLE_VERSIONS))})
    check_shape(doc)
    return doc


def _objects(doc: dict):
    """(part of ``ADDED_IN_2``, object) for every object of a version-1 file that version 2
    extends; objects of the wrong type are left to the checks."""
    def dicts(items):
        return [o for o in items if isinstance(o, dict)] if isinstance(items, list) else []

    if isinstance(doc.get("tournament"), dict):
        yield "tournament", doc["tournament"]
    for part in ("pairs", "players", "penalties", "audit"):
        for obj in dicts(doc.get(part)):
            yield part, obj
    for rnd in dicts(doc.get("rounds")):
        yield "rounds", rnd
        for match in dicts(rnd.get("matches")):
            yield "matches", match
        for table in dicts(rnd.get("tables")):
            if isinstance(table.get("sheet"), dict):
                yield "sheet", table["sheet"]


def add_team_keys(doc: dict) -> dict:
    """``doc`` (a version-2 object) with the team keys it lacks (``schema.TEAM_KEYS_OF_2``)
    taking the values of a tournament without teams: version 2 was written for an hour
    before team tournaments reached the export, without them. A copy."""
    doc = copy.deepcopy(doc)
    for key, default in TEAM_KEYS_OF_2["file"].items():
        doc.setdefault(key, copy.deepcopy(default))
    for part, obj in _objects(doc):
        for key, default in TEAM_KEYS_OF_2.get(part, {}).items():
            obj.setdefault(key, copy.deepcopy(default))
    return doc


def upgrade_v1(doc: dict) -> tuple[dict, list[str]]:
    """A version-1 file (written by the first export, before individual and team tournaments,
    groups, sheet drafts and the audit's coded actor reached it)
    as a version-2 object, and sentences for the arbiter.

    Each key version 2 added (``schema.ADDED_IN_2``) takes its model's default: right for a
    pair tournament without groups, the only kind version 1 carried whole; an audit entry's
    coded actor is read from its label (``services.audit.actor_form``, as the services
    write it). Refused
    (:class:`ArbiterError`) when the file lost data: an individual tournament (its round
    partnerships and players' numbers were not written) or one in groups (a round drawn in
    groups: the pairs' groups were not written); the tournament's own database still has
    them, so exporting it again with this version is the way. A plan with round-robin
    rounds but none drawn in groups imports with a warning.
    """
    head = doc.get("tournament") if isinstance(doc.get("tournament"), dict) else {}
    rounds = [r for r in doc.get("rounds") or [] if isinstance(r, dict)] if isinstance(doc.get("rounds"), list) else []
    again = _("Esportalo di nuovo con questa versione di Arbitro dal database di origine. Nulla è stato importato.")
    if head.get("kind") == Tournament.Kind.INDIVIDUAL:
        raise ArbiterError(_("File della versione 1 di un torneo individuale: non contiene i numeri dei "
                             "giocatori né le coppie formate a ogni turno.") + " " + again)
    if any(isinstance(r.get("pairing_request"), dict) and "groups" in r["pairing_request"] for r in rounds):
        raise ArbiterError(_("File della versione 1 di un torneo diviso in gironi: non contiene i gironi "
                             "delle coppie.") + " " + again)
    doc = copy.deepcopy(doc)
    for part, obj in _objects(doc):
        if part == "audit" and "actor_code" not in obj and isinstance(obj.get("actor"), str):
            # who, in machine form, read from the stored label as the services write it
            # (and as migration 0010 filled it in for older entries)
            obj["actor_code"], obj["actor_params"] = actor_form(obj["actor"])
        for key, default in ADDED_IN_2[part].items():
            obj.setdefault(key, copy.deepcopy(default))
    notes = []
    if isinstance(head.get("plan"), str) and "R" in head["plan"].upper():
        notes.append(_("File della versione 1: i gironi non ci sono, il torneo è importato in un girone "
                       "solo. Controlla i gironi prima di sorteggiare un turno all'italiana."))
    return doc, notes


def read_plan(doc: dict) -> dict:
    """Every value and reference of ``doc`` (a version-2 object; missing team keys are
    added by :func:`add_team_keys`) checked; the converted plan of what to create::

        {"head": {...}, "created_by": str|None, "arbiters": [str], "scale": {...}|None,
         "team_scale": {...}|None, "teams": [(values, captain key|None)],
         "lineups": [(values, team number, [4 player keys])],
         "pairs": [(values, round number|None, team number|None)],
         "players": [(values, pair number|None, team number|None, player key|None)],
         "rounds": [(values, [(table values, {"ns": n, "ew": n}, (sheet values, [hands])|None)],
                     [(line member values, pair number, player key)],
                     [(match values, {"team_a"|"team_b"|"forfeit_by": team number|None},
                       {"table_1"|"table_2": table number|None})])],
         "penalties": [(values, pair number|None, player key|None, team number|None, username|None)],
         "audit": [(values, username|None)], "users": [str]}

    A player key is the player's number, or ``(team, member)`` for a team player (the file's
    ``[team, member]``). Raises :class:`ArbiterError` listing every problem (``details``),
    each with its place (``lineups[2].first_1``).
    """
    doc = add_team_keys(doc)
    c = _Checker()
    head = c.obj("tournament", doc.get("tournament"), Tournament, EXTRA_KEYS["tournament"]) or {}
    if "prize_list" in head:  # checked and its names cleaned as the prize page does (rules.md §18)
        try:
            head["prize_list"] = normal_prize_list(head["prize_list"])
        except ArbiterError as exc:
            c.add("tournament.prize_list", exc.message)
    raw_head = doc.get("tournament") if isinstance(doc.get("tournament"), dict) else {}
    users = set()
    created_by = c.username("tournament.created_by", raw_head.get("created_by"))
    arbiters = [c.username(f"tournament.arbiters[{i}]", u, null=False)
                for i, u in enumerate(c.items("tournament.arbiters", raw_head.get("arbiters", [])))]
    users |= {u for u in [created_by, *arbiters] if u}

    scale = None
    if doc.get("custom_scale") is not None:
        scale = c.obj("custom_scale", doc["custom_scale"], CustomScale)
        if scale:
            try:
                vp_rules.scale_from_dict(scale.get("data") or {})
            except (vp_rules.ScaleError, TypeError, AttributeError) as exc:
                c.add("custom_scale.data", " ".join(getattr(exc, "messages", [str(exc)])))
            if scale.get("scale_id") != head.get("vp_scale"):
                c.add("custom_scale.scale_id", _("non è la tabella VP del torneo"))
    team_scale = None
    if doc.get("custom_team_scale") is not None:   # a team tournament's custom team scale (rules.md §15)
        team_scale = c.obj("custom_team_scale", doc["custom_team_scale"], CustomScale)
        if team_scale:
            try:
                vp_rules.scale_from_dict(team_scale.get("data") or {})
            except (vp_rules.ScaleError, TypeError, AttributeError) as exc:
                c.add("custom_team_scale.data", " ".join(getattr(exc, "messages", [str(exc)])))
            if team_scale.get("scale_id") != head.get("team_scale"):
                c.add("custom_team_scale.scale_id", _("non è la tabella VP a squadre del torneo"))

    no_pair = _("la coppia %(n)s non è nel file")

    no_team = _("la squadra %(n)s non è nel file")

    teams, team_numbers = [], set()
    for i, raw in enumerate(c.items("teams", doc.get("teams"))):
        values = c.obj(f"teams[{i}]", raw, Team, EXTRA_KEYS["teams"])
        if values is None:
            continue
        if values.get("number") in team_numbers:
            c.add(f"teams[{i}].number", _("squadra ripetuta"))
        team_numbers.add(values.get("number"))
        teams.append((values, raw.get("captain"), i))

    pairs, numbers, pair_team = [], set(), {}
    for i, raw in enumerate(c.items("pairs", doc.get("pairs"))):
        values = c.obj(f"pairs[{i}]", raw, Pair, EXTRA_KEYS["pairs"])
        if values is None:
            continue
        if values.get("number") in numbers:
            c.add(f"pairs[{i}].number", _("coppia ripetuta"))
        numbers.add(values.get("number"))
        team = c.ref(f"pairs[{i}].team", raw.get("team"), team_numbers, no_team)
        pair_team[values.get("number")] = team
        pairs.append((values, raw.get("round"), team, i))

    players, player_keys, places = [], set(), {}
    for i, raw in enumerate(c.items("players", doc.get("players"))):
        values = c.obj(f"players[{i}]", raw, Player, EXTRA_KEYS["players"])
        if values is None:
            continue
        if isinstance(values.get("membership_number"), str):
            # one rule for every door (members.numbers): «８８０００７» is 880007, «①②» refused;
            # a backup written before the rule («402 616») reads as the migrated database holds it
            try:
                values["membership_number"] = legacy_membership_number(values["membership_number"])
            except MembershipNumberError as exc:
                c.add(f"players[{i}].membership_number", exc.message)
        number = values.get("number")
        if number is not None and number in player_keys:
            c.add(f"players[{i}].number", _("giocatore ripetuto"))
        key = number
        team = c.ref(f"players[{i}].team", raw.get("team"), team_numbers, no_team)
        member = raw.get("member")
        if team is None and member is not None:
            c.add(f"players[{i}].member", _("solo un giocatore di una squadra ha un posto nella squadra"))
        elif team is not None and team is not BAD:
            # a team's players in registration order: members 1, 2, 3… as the file lists them
            places[team] = places.get(team, 0) + 1
            if member != places[team]:
                c.add(f"players[{i}].member", _("atteso %(n)s: i giocatori di una squadra sono numerati 1, 2, 3… "
                                                "nell'ordine del file") % {"n": places[team]})
            elif number is None:
                key = (team, member)
        if key is not None:
            player_keys.add(key)
        players.append((values, c.ref(f"players[{i}].pair", raw.get("pair"), numbers, no_pair), team, key))
    player_numbers = player_keys  # numbers and (team, member) keys

    captains = []
    for values, raw_captain, i in teams:
        captain = c.player(f"teams[{i}].captain", raw_captain, player_keys)
        if isinstance(captain, tuple) and captain[0] != values.get("number"):
            c.add(f"teams[{i}].captain", _("il giocatore %(n)s non è della squadra %(team)s")
                  % {"n": json.dumps(raw_captain), "team": values.get("number")})
        captains.append((values, captain))

    raw_rounds = [(i, raw, c.obj(f"rounds[{i}]", raw, Round, EXTRA_KEYS["rounds"]))
                  for i, raw in enumerate(c.items("rounds", doc.get("rounds")))]
    round_numbers = set()
    for i, _raw, values in raw_rounds:
        if values is not None:
            if values.get("number") in round_numbers:
                c.add(f"rounds[{i}].number", _("turno ripetuto"))
            round_numbers.add(values.get("number"))
    formed = {}   # pair number → the round it was formed for
    for values, rnd, _team, i in pairs:
        c.ref(f"pairs[{i}].round", rnd, round_numbers, _("il turno %(n)s non è nel file"))
        if rnd is not None:
            formed[values.get("number")] = rnd

    rounds = []
    for i, raw, values in raw_rounds:
        if values is None:
            continue
        tables = []
        for j, raw_t in enumerate(c.items(f"rounds[{i}].tables", raw.get("tables", []))):
            where = f"rounds[{i}].tables[{j}]"
            t = c.obj(where, raw_t, Table, EXTRA_KEYS["tables"])
            if t is None:
                continue
            seats = {line: c.ref(f"{where}.{line}", raw_t.get(line), numbers, no_pair) for line in ("ns", "ew")}
            sheet = None
            if raw_t.get("sheet") is not None:
                sheet = c.obj(f"{where}.sheet", raw_t["sheet"], ScoreSheet, EXTRA_KEYS["sheet"])
                raw_sheet = raw_t["sheet"] if isinstance(raw_t["sheet"], dict) else {}
                hands = [c.obj(f"{where}.sheet.hands[{k}]", h, HandRow)
                         for k, h in enumerate(c.items(f"{where}.sheet.hands", raw_sheet.get("hands", [])))]
                if sheet is not None:
                    sheet = (sheet, [h for h in hands if h is not None])
            tables.append((t, seats, sheet))
        members = _line_members(c, i, raw, values.get("number"), numbers, player_numbers, formed, pair_team)
        rounds.append((values, tables, members,
                       _matches(c, i, raw, team_numbers, {t.get("number") for t, _s, _sh in tables})))

    lineups, entered = [], set()
    for i, raw in enumerate(c.items("lineups", doc.get("lineups"))):
        where = f"lineups[{i}]"
        values = c.obj(where, raw, LineUp, EXTRA_KEYS["lineups"])
        if values is None:
            continue
        team = c.ref(f"{where}.team", raw.get("team"), team_numbers, no_team, null=False)
        if (team, values.get("round_number")) in entered:
            c.add(where, _("formazione ripetuta per la squadra %(team)s nel turno %(round)s")
                  % {"team": team, "round": values.get("round_number")})
        entered.add((team, values.get("round_number")))
        four = []
        for name in ("first_1", "first_2", "second_1", "second_2"):
            key = c.player(f"{where}.{name}", raw.get(name), player_keys, null=False)
            if key is not BAD and team is not BAD and (not isinstance(key, tuple) or key[0] != team):
                c.add(f"{where}.{name}", _("il giocatore %(n)s non è della squadra %(team)s")
                      % {"n": json.dumps(raw.get(name)), "team": team})
            elif key is not BAD and key in four:
                c.add(f"{where}.{name}", _("il giocatore %(n)s è due volte nella formazione")
                      % {"n": json.dumps(raw.get(name))})
            four.append(key)
        lineups.append((values, team, four))

    penalties = []
    for i, raw in enumerate(c.items("penalties", doc.get("penalties"))):
        values = c.obj(f"penalties[{i}]", raw, Penalty, EXTRA_KEYS["penalties"])
        if values is None:
            continue
        by = c.username(f"penalties[{i}].created_by", raw.get("created_by"))
        users |= {by} if by else set()
        pair = c.ref(f"penalties[{i}].pair", raw.get("pair"), numbers, no_pair)
        player = c.player(f"penalties[{i}].player", raw.get("player"), player_keys)
        team = c.ref(f"penalties[{i}].team", raw.get("team"), team_numbers, no_team)
        if [pair, player, team].count(None) != 2:
            c.add(f"penalties[{i}]", _("una penalità va a una coppia, a un giocatore o a una squadra "
                                       "(uno solo dei tre)"))
        penalties.append((values, pair, player, team, by))

    entries = []
    for i, raw in enumerate(c.items("audit", doc.get("audit"))):
        values = c.obj(f"audit[{i}]", raw, AuditEntry, EXTRA_KEYS["audit"])
        if values is None:
            continue
        user = c.username(f"audit[{i}].user", raw.get("user"))
        users |= {user} if user else set()
        entries.append((values, user))

    if c.errors:
        details = c.errors[:MAX_DETAILS]
        if len(c.errors) > MAX_DETAILS:
            details.append(_("… e altri %(n)s errori.") % {"n": len(c.errors) - MAX_DETAILS})
        raise ArbiterError(_("Il file del torneo contiene errori: nulla è stato importato."), details=details)
    return {"head": head, "created_by": created_by, "arbiters": arbiters, "scale": scale,
            "team_scale": team_scale, "teams": captains, "lineups": lineups,
            "pairs": [(values, rnd, team) for values, rnd, team, _i in pairs],
            "players": players, "rounds": rounds, "penalties": penalties, "audit": entries,
            "users": sorted(users)}


def _line_members(c: _Checker, i: int, raw: dict, round_number, numbers: set, player_numbers: set,
                  formed: dict, pair_team: dict) -> list[tuple]:
    """The players of round ``i``'s formed pairs (individual and team tournaments), checked:
    the pair is one formed for this round, the player is in the file (a team's pair: of that
    team) and sits once in the round, each seat (1 or 2) of a pair once."""
    members, seated, seats = [], set(), set()
    for k, raw_m in enumerate(c.items(f"rounds[{i}].line_members", raw.get("line_members", []))):
        where = f"rounds[{i}].line_members[{k}]"
        values = c.obj(where, raw_m, LineMember, EXTRA_KEYS["line_members"])
        if values is None:
            continue
        pair = c.ref(f"{where}.pair", raw_m.get("pair"), numbers, _("la coppia %(n)s non è nel file"), null=False)
        if pair in numbers and formed.get(pair) != round_number:
            c.add(f"{where}.pair", _("la coppia %(n)s non è formata per questo turno") % {"n": pair})
        player = c.player(f"{where}.player", raw_m.get("player"), player_numbers, null=False)
        team = pair_team.get(pair) if pair is not BAD else None
        if team is not None and team is not BAD and player is not BAD and (
                not isinstance(player, tuple) or player[0] != team):
            c.add(f"{where}.player", _("il giocatore %(n)s non è della squadra %(team)s")
                  % {"n": json.dumps(raw_m.get("player")), "team": team})
        if player is not BAD and player in seated:
            c.add(f"{where}.player", _("il giocatore %(n)s siede due volte in questo turno")
                  % {"n": json.dumps(raw_m.get("player"))})
        seated.add(player)
        seat = values.get("seat", 1)
        if seat not in (1, 2):
            c.add(f"{where}.seat", _("atteso 1 o 2"))
        elif pair is not BAD and (pair, seat) in seats:
            c.add(f"{where}.seat", _("posto ripetuto nella coppia %(n)s") % {"n": pair})
        seats.add((pair, seat))
        members.append((values, pair, player))
    return members


def _matches(c: _Checker, i: int, raw: dict, team_numbers: set, table_numbers: set) -> list[tuple]:
    """The matches of round ``i`` (team tournaments), checked: numbers once, teams in the
    file and in one match of the round, tables of this round and in one match."""
    matches, seen, playing, used = [], set(), set(), set()
    no_team = _("la squadra %(n)s non è nel file")
    for k, raw_m in enumerate(c.items(f"rounds[{i}].matches", raw.get("matches", []))):
        where = f"rounds[{i}].matches[{k}]"
        values = c.obj(where, raw_m, Match, EXTRA_KEYS["matches"])
        if values is None:
            continue
        if values.get("number") in seen:
            c.add(f"{where}.number", _("incontro ripetuto"))
        seen.add(values.get("number"))
        teams = {name: c.ref(f"{where}.{name}", raw_m.get(name), team_numbers, no_team, null=name != "team_a")
                 for name in ("team_a", "team_b", "forfeit_by")}
        for name in ("team_a", "team_b"):
            team = teams[name]
            if team is not None and team is not BAD:
                if team in playing:
                    c.add(f"{where}.{name}", _("la squadra %(n)s ha due incontri in questo turno") % {"n": team})
                playing.add(team)
        tables = {name: c.ref(f"{where}.{name}", raw_m.get(name), table_numbers,
                              _("il tavolo %(n)s non è in questo turno")) for name in ("table_1", "table_2")}
        played = values.get("bye", "") == ""   # rules.md §15: a match is played on two tables
        for name, table in tables.items():
            if table is None and played:
                c.add(f"{where}.{name}", _("un incontro giocato ha due tavoli"))
            elif table is not None and table is not BAD:
                if not played:
                    c.add(f"{where}.{name}", _("un incontro senza avversario (riposo o forfait) non ha tavoli"))
                if table in used:
                    c.add(f"{where}.{name}", _("il tavolo %(n)s è già in un altro incontro") % {"n": table})
                used.add(table)
        matches.append((values, teams, tables))
    if team_numbers:   # a team tournament: every table of the round belongs to a match
        for number in sorted(n for n in table_numbers - used if isinstance(n, int)):
            c.add(f"rounds[{i}].tables", _("il tavolo %(n)s non è in nessun incontro") % {"n": number})
    return matches
