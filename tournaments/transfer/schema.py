"""What a tournament file holds, model by model, and how each value is written.

Every model that hangs off a tournament is listed here with

- ``FIELDS[model]``: the fields written as they are (converted by :func:`to_json` /
  read back by :func:`from_json`), in the file under the same name;
- ``STRUCTURAL[model]``: the fields the file expresses otherwise: by nesting (a table
  inside its round), by a natural key (a pair's number, a user's username) or not at all
  (database ids), with the reason.

``tests/transfer/test_schema.py`` checks that the two cover every concrete field of every
model: a field added to a model but to neither list fails that test, so it is never lost
silently on the way between two databases.

Values (deterministic files: the same tournament gives the same bytes): datetimes in UTC,
ISO 8601 with microseconds and ``Z``; dates ISO; decimals as strings with the field's decimal places
(``"12.50"``); JSON fields as they are (the file is written with sorted keys); everything
else as JSON numbers, strings, booleans or null.
"""
from __future__ import annotations

import datetime as dt
from decimal import Decimal

from django.core.exceptions import ValidationError
from django.db import models as dj
from django.utils.translation import gettext as _

from ..errors import ArbiterError
from ..models import (
    ArbiterCall,
    AuditEntry,
    CustomScale,
    HandRow,
    LineMember,
    LineUp,
    Match,
    Pair,
    Penalty,
    PinGuard,
    Player,
    ResultsDownload,
    Round,
    ScoreSheet,
    Seat,
    Table,
    Team,
    Tournament,
)
from ..text import clean_line, clean_note

FORMAT = "arbitro-tournament"
#: Version 2 adds individual tournaments (players'
#: numbers and statuses, the partnerships formed each round and their ``line_members``,
#: penalties to a player), groups (``groups``, ``group_split``, ``group_seed``, a pair's
#: ``group``), the arbiter's sheet drafts and the audit's coded actor. Version-1 files are
#: still read (:data:`ADDED_IN_2` fills what they lack), see ``reader.upgrade_v1``.
#: Team tournaments (rules.md §15) are in version 2 too, as OPTIONAL keys
#: (:data:`TEAM_KEYS_OF_2`: missing = a tournament without teams), since the version-2 files
#: written before them (by unreleased builds, for an hour) are tournaments without teams.
VERSION = 2
#: Every version this build reads.
READABLE_VERSIONS = (1, 2)

#: Written into every file, so whoever opens it knows.
SECRET_NOTICE = ("SEGRETO: questo file contiene i link dei capitani e i PIN dei tavoli. "
                 "SECRET: this file holds the captains' links and the tables' PINs.")

FIELDS: dict[type[dj.Model], tuple[str, ...]] = {
    Tournament: (
        "name", "slug", "date", "venue", "kind", "hands_per_round", "vp_scale", "plan", "mitchell_step",
        "rematch_window", "bye_percent", "bye_mp", "tiebreaks", "rule_set", "first_round",
        "mitchell_order", "minutes_per_round", "groups", "group_split", "group_seed", "team_result",
        "team_scale", "team_min_players", "team_max_players", "membership_check", "public_enabled", "projector_enabled", "created_at",
        "prize_list", "prizes_cumulative", "organising_club", "arbiter_name",
        "last_round_rematches", "missing_membership",
    ),
    CustomScale: ("scale_id", "name", "data", "created_at"),
    Pair: ("number", "status", "withdrawn_from_round", "late_entry", "group", "team_line", "created_at"),
    Player: ("number", "first_name", "last_name", "membership_number", "club", "seat", "status",
             "withdrawn_from_round", "late_entry"),
    Round: (
        "number", "system", "state", "step", "seed", "pairing_request", "warnings", "explanations",
        "check_report", "drawn_from", "created_at", "published_at", "closed_at", "clock_duration",
        "clock_started_at", "clock_paused_at", "clock_paused_seconds", "clock_added_seconds",
    ),
    Table: ("number", "bye", "token", "pin", "clock_extra_seconds"),
    Seat: (),
    ScoreSheet: (
        "state", "declared_ns", "declared_ew", "mp_ns", "mp_ew", "vp_ns", "vp_ew", "sum_error",
        "arbitral", "arbitral_note", "version", "content_hash", "entered_by", "entered_by_captain",
        "confirmed_by", "dispute_note", "entry_device", "entry_agent", "confirm_device",
        "confirm_agent", "entered_clock_seconds", "draft", "updated_at",
    ),
    HandRow: ("number", "ns_base", "ns_cards", "ns_score", "ew_base", "ew_cards", "ew_score"),
    Penalty: ("round_number", "vp", "mp", "reason", "created_at"),
    AuditEntry: ("round_number", "table_number", "at", "actor", "actor_code", "actor_params", "action", "old",
                 "new", "reason"),
    LineMember: ("seat",),
    PinGuard: (),
    ArbiterCall: (),
    ResultsDownload: (),
    Team: ("number", "name", "status", "withdrawn_from_round", "late_entry", "group", "token", "created_at"),
    Match: ("number", "bye", "forfeit_snapshot"),
    LineUp: ("round_number", "entered_by", "updated_at"),
}

#: The fields people typed (names, reasons): read through ``text.clean_line`` like at every
#: other door, so a file written before that rule, or edited by hand, brings no control
#: character or bidirectional override into the documents (a name with ``\x1b`` made the
#: standings XLSX answer 500). Clean text is read unchanged: a file still imports to the same
#: bytes. A NUL is refused before (:mod:`.limits_check`).
TYPED_LINES: dict[type[dj.Model], tuple[str, ...]] = {
    Tournament: ("name", "venue", "organising_club", "arbiter_name"),
    CustomScale: ("name",),
    Player: ("first_name", "last_name", "membership_number", "club"),
    Team: ("name",),
    Penalty: ("reason",),
    AuditEntry: ("reason",),
    ScoreSheet: ("arbitral_note",),
}
#: Typed notes of several lines (``text.clean_note``: new lines kept).
TYPED_NOTES: dict[type[dj.Model], tuple[str, ...]] = {ScoreSheet: ("dispute_note",)}

STRUCTURAL: dict[type[dj.Model], dict[str, str]] = {
    Tournament: {
        "id": "database id",
        "created_by": "username (users are matched by username)",
        "arbiters": "list of usernames",
        "club": "not carried: the importing server's club owns the copy (the uploader's current "
                "club, --club on the command line; rules.md §20)",
    },
    CustomScale: {"id": "database id",
                  "club": "not carried: a scale an import creates belongs to the club importing the "
                          "tournament (rules.md §20)"},
    Pair: {"id": "database id", "tournament": "nesting",
           "round": "the round's number ('round'; null for a registered pair): a partnership formed "
                    "for that round of an individual tournament, or a team's pair of that round",
           "team": "the team's number ('team'; null but in a team tournament)"},
    Player: {"id": "database id", "tournament": "nesting", "pair": "the pair's number",
             "team": "the team's number ('team'), with the player's place in it ('member', 1.., in "
                     "registration order): a team player is referred to as [team, member]",
             "member": "the club member (rules.md §16): carried by the membership number, the "
                       "importing server links or creates its own member"},
    Round: {"id": "database id", "tournament": "nesting"},
    Table: {"id": "database id", "round": "nested in its round"},
    Seat: {
        "id": "database id",
        "round": "the table's round",
        "table": "nested in its table",
        "pair": "the pair's number under the line's key",
        "line": "key 'ns' or 'ew' of the table",
    },
    ScoreSheet: {"id": "database id", "table": "nested in its table ('sheet')"},
    HandRow: {"id": "database id", "sheet": "nested in its sheet ('hands')"},
    Penalty: {"id": "database id", "tournament": "nesting", "pair": "the pair's number (or null)",
              "player": "the player's number (or null): individual tournaments",
              "team": "the team's number (or null): team tournaments", "created_by": "username"},
    AuditEntry: {"id": "database id", "tournament": "nesting", "user": "username"},
    LineMember: {
        "id": "database id",
        "round": "nested in its round ('line_members')",
        "pair": "the formed partnership's pair number",
        "player": "the player's number",
    },
    # Wrong-PIN counters and lockouts are about the minutes they were typed in, not the
    # tournament: an imported tournament starts with none (the arbiter's unlock, in effect).
    PinGuard: {
        "id": "database id", "tournament": "not exported: lockouts start afresh",
        "table": "not exported", "wrong": "not exported", "window_start": "not exported",
        "locked_at": "not exported",
    },
    # Calls to the arbiter are room logistics of the minutes they were made, not results:
    # an imported tournament starts with none (their steps stay in the exported audit trail).
    ArbiterCall: {name: "not exported: calls are room logistics" for name in (
        "id", "round", "table", "reason", "state", "called_by", "called_at", "taken_at", "taken_by",
        "resolved_at", "resolved_by")},
    # The first download of the results file is the federation's record of this server's
    # copy (clubs' view, rules.md §20): an imported tournament has not been sent from here.
    ResultsDownload: {name: "not exported: the federation's record of this server's download" for name in (
        "id", "tournament", "downloaded_by", "downloaded_at", "file_format")},
    Team: {"id": "database id", "tournament": "nesting",
           "captain": "the captain as [team, member] (or null)"},
    Match: {"id": "database id", "round": "nested in its round ('matches')",
            "team_a": "team number", "team_b": "team number (or null: a rest)",
            "forfeit_by": "team number (or null)",
            "table_1": "the table's number in the round (or null)",
            "table_2": "the table's number in the round (or null)"},
    LineUp: {"id": "database id", "team": "the team's number",
             "first_1": "[team, member]", "first_2": "[team, member]",
             "second_1": "[team, member]", "second_2": "[team, member]"},
}


#: What a version-1 file lacks, per object of the file, with the value it takes on import:
#: the models' defaults, i.e. what a pair tournament without groups has (a version-1 file of
#: an individual tournament or of one in groups is refused instead: it lost data).
ADDED_IN_2: dict[str, dict] = {
    "tournament": {"groups": 1, "group_split": "", "group_seed": None},
    "pairs": {"group": None, "round": None},
    "players": {"number": None, "status": "active", "withdrawn_from_round": None, "late_entry": False},
    "rounds": {"line_members": []},
    "sheet": {"draft": None},
    "penalties": {"player": None},
    # (an entry's coded actor is first read from its label: reader.upgrade_v1)
    "audit": {"actor_code": "", "actor_params": None},
}


#: The keys of team tournaments (rules.md §15) in a version-2 file, per object of the file, with
#: the value a missing one takes: what a tournament without teams has. They are optional in
#: version 2 (the files written before teams reached the export have none of them); the
#: exporter always writes them. ``"file"``: keys of the file's top object.
TEAM_KEYS_OF_2: dict[str, dict] = {
    "file": {"teams": [], "lineups": [], "custom_team_scale": None},
    "tournament": {"team_result": "sum", "team_scale": "", "team_min_players": 4, "team_max_players": 6,
                   # prizes (rules.md §18) and the federation file's two settings: absent from
                   # files written before them
                   "prize_list": [], "prizes_cumulative": False, "organising_club": "", "arbiter_name": "",
                   # the modified Danish's last-round setting (rules.md §7): off in older files
                   "last_round_rematches": False,
                   # players without a membership number (rules.md §16): flagged, the default
                   "missing_membership": "flag"},
    "pairs": {"team": None, "team_line": None},
    "players": {"team": None, "member": None},
    "rounds": {"matches": []},
    "matches": {"forfeit_snapshot": None},  # an undoable forfeit's tables: absent from older files
    "penalties": {"team": None},  # a team's penalty (rules.md §15): absent from older files
}


def model_field_names(model: type[dj.Model]) -> set[str]:
    """Every concrete field and many-to-many field of ``model`` (what the guard compares)."""
    names = {f.name for f in model._meta.concrete_fields}
    names |= {f.name for f in model._meta.many_to_many}
    return names


def format_datetime(value: dt.datetime | None) -> str | None:
    """``2026-11-30T21:05:03.000120Z``: UTC, microseconds, the same on every database."""
    if value is None:
        return None
    if value.tzinfo is None:  # USE_TZ is on; a naive value is taken as UTC
        value = value.replace(tzinfo=dt.timezone.utc)
    return value.astimezone(dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def to_json(field: dj.Field, value):
    """The file's value of model field ``field`` holding ``value``."""
    if value is None:
        return None
    if isinstance(field, dj.DateTimeField):
        return format_datetime(value)
    if isinstance(field, dj.DateField):
        return value.isoformat()
    if isinstance(field, dj.DecimalField):
        quantum = Decimal(1).scaleb(-field.decimal_places)
        return format(Decimal(value).quantize(quantum), "f")
    return value


def from_json(field: dj.Field, raw):
    """The Python value of ``raw`` (from a file) for model field ``field``, validated like a
    form would (type, choices, length, null); a typed text (:data:`TYPED_LINES`,
    :data:`TYPED_NOTES`) is cleaned first. Raises :class:`ValidationError`."""
    if isinstance(field, (dj.DecimalField, dj.DateField, dj.DateTimeField)) and raw is not None \
            and not isinstance(raw, str):
        raise ValidationError(_("atteso un testo"))
    if isinstance(field, (dj.IntegerField,)) and raw is not None and (
            isinstance(raw, bool) or not isinstance(raw, int)):
        raise ValidationError(_("atteso un numero intero"))
    if isinstance(field, dj.BooleanField) and not isinstance(raw, bool):
        raise ValidationError(_("atteso true o false"))
    if isinstance(field, (dj.CharField, dj.TextField)) and not isinstance(raw, str):
        raise ValidationError(_("atteso un testo"))
    if isinstance(raw, str) and field.name in TYPED_NOTES.get(field.model, ()):
        raw = clean_note(raw, max_length=len(raw))
    elif isinstance(raw, str) and field.name in TYPED_LINES.get(field.model, ()):
        try:  # the field's length is checked below, by its validators
            raw = clean_line(raw, label=field.name, max_length=len(raw))
        except ArbiterError as exc:
            raise ValidationError(exc.message) from None
    value = field.to_python(raw)
    if isinstance(field, dj.DateTimeField) and value is not None and value.tzinfo is None:
        raise ValidationError(_("data e ora senza fuso orario"))
    if isinstance(field, dj.CharField) and value == "" and not field.blank:
        raise ValidationError(_("vuoto"))
    if value is None and not field.null:
        raise ValidationError(_("manca il valore"))
    if value is not None:
        # as Django's Field.validate: a blank value of a field allowed blank is no choice
        # (Tournament.group_split "" = not split)
        if field.choices and value not in field.empty_values \
                and value not in {c for c, _label in field.flatchoices}:
            raise ValidationError(_("valore non ammesso: %(value)s") % {"value": repr(value)})
        field.run_validators(value)
    return value
