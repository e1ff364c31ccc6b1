"""The Registro's filters (read only): round, table, entrant, kind of action, who.

An entry concerns an entrant when it names it (``pair``, ``player`` or ``team`` in its old or
new value; ``number`` in the entrant's own actions: added, changed, removed) or when it was
written at a table where the entrant sat in that round (its score sheets, its clock time).
The choices offered are those present in the tournament's trail, so a filter never lists an
action or a person the trail does not hold.
"""
from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Q, QuerySet
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy

from ..kinds import kind_of
from ..models import AuditAction, AuditEntry, Seat, Tournament

# The actions whose ``number`` key is the entrant's own number (services.entrants).
NUMBER_ACTIONS = (AuditAction.PAIR_ADDED, AuditAction.PAIR_UPDATED, AuditAction.PAIR_REMOVED,
                  AuditAction.PLAYER_ADDED, AuditAction.PLAYER_REMOVED, AuditAction.TEAM_ADDED)
MAX_NUMBER = 32767  # PositiveSmallIntegerField


@dataclass(frozen=True)
class AuditFilters:
    """The filters read from the query string; ``None`` / "" = not filtered.

    ``round`` and ``table``: numbers 1..32767; ``entrant``: the pair's, player's or team's
    number; ``action_kind``: a kind of action (a key of :data:`ACTION_KINDS`) present in the trail; ``who``: "arbiter:<username>",
    "captain" (any table's captain) or "system"."""

    round: int | None = None
    table: int | None = None
    entrant: int | None = None
    action_kind: str = ""
    who: str = ""

    @property
    def active(self) -> bool:
        return any(v not in (None, "") for v in (self.round, self.table, self.entrant, self.action_kind, self.who))


def _number(raw) -> int | None:
    text = str(raw or "").strip()
    if not text.isdecimal() or len(text) > 5:
        return None
    value = int(text)
    return value if 1 <= value <= MAX_NUMBER else None


def read_filters(tournament: Tournament, query) -> AuditFilters:
    """The filters of ``query`` (a GET QueryDict or dict). A value that is not a number in
    range, an unknown action or an unknown person is dropped (the filter is ignored, never
    a 500)."""
    action = str(query.get("action") or "").strip()
    who = str(query.get("who") or "").strip()
    return AuditFilters(
        round=_number(query.get("round")), table=_number(query.get("table")),
        entrant=_number(query.get("entrant")),
        action_kind=action if action in dict(action_choices(tournament)) else "",
        who=who if who in dict(who_choices(tournament)) else "",
    )


def entrant_q(tournament: Tournament, number: int) -> Q:
    """The entries about entrant ``number`` of ``tournament`` (a pair, a player or a team by
    the tournament's kind): those naming it and those of the tables where it sat."""
    kind = kind_of(tournament)
    key = kind.data.audit_key
    q = Q(**{f"new__{key}": number}) | Q(**{f"old__{key}": number})
    q |= Q(action__in=NUMBER_ACTIONS) & (Q(new__number=number) | Q(old__number=number))
    seats = kind.seats_of_entrant(Seat.objects.filter(round__tournament=tournament), number)
    for round_number, table_number in seats.values_list("round__number", "table__number").distinct():
        q |= Q(round_number=round_number, table_number=table_number)
    return q


def filtered_entries(tournament: Tournament, filters: AuditFilters) -> QuerySet:
    """The tournament's audit entries (newest first) that pass every filter."""
    entries = AuditEntry.objects.filter(tournament=tournament)
    if filters.round is not None:
        entries = entries.filter(round_number=filters.round)
    if filters.table is not None:
        entries = entries.filter(table_number=filters.table)
    if filters.entrant is not None:
        entries = entries.filter(entrant_q(tournament, filters.entrant))
    if filters.action_kind:
        entries = entries.filter(action__in=_codes_of(tournament, filters.action_kind))
    if filters.who == "captain":  # a table's call sent before its captain chose a line counts too
        entries = entries.filter(actor_code__in=("captain", "table"))
    elif filters.who == "system":
        entries = entries.filter(actor_code="system")
    elif filters.who.startswith("arbiter:"):
        entries = entries.filter(actor_code="arbiter", actor_params__name=filters.who[len("arbiter:"):])
    return entries


# Kinds of action offered by the filter: a key (never a stored code, so the page shows no
# code), a label and the action codes it gathers; a code listed nowhere falls in "altro".
ACTION_KINDS = (
    ("score", _lazy("Score"), (
        AuditAction.SHEET_SAVED, AuditAction.SHEET_CORRECTED, AuditAction.SHEET_CONFIRMED,
        AuditAction.SHEET_DISPUTED, AuditAction.SHEET_VALIDATED, AuditAction.SHEET_VALIDATED_UNCONFIRMED,
        AuditAction.SHEET_DRAFT_SAVED, AuditAction.SHEET_DRAFT_DISCARDED, AuditAction.SHEET_UNVALIDATED,
        AuditAction.SHEET_LINES_SWAPPED, AuditAction.ARBITRAL_SCORE,
    )),
    ("turni", _lazy("Turni e bozze"), (
        AuditAction.ROUND_GENERATED, AuditAction.ROUND_REDRAWN, AuditAction.DRAFT_SWAP, AuditAction.DRAFT_BY_HAND,
        AuditAction.IDLE_PAIRS_SEATED, AuditAction.ROUND_PUBLISHED, AuditAction.ROUND_CLOSED,
        AuditAction.ROUND_REOPENED, AuditAction.GROUPS_SPLIT,
    )),
    ("penalita", _lazy("Penalità"), (
        AuditAction.PENALTY_ADDED, AuditAction.PENALTY_REMOVED,
    )),
    ("iscrizioni", _lazy("Iscrizioni e tardivi"), (
        AuditAction.PAIR_ADDED, AuditAction.PAIR_UPDATED, AuditAction.PAIR_REMOVED, AuditAction.PLAYER_ADDED,
        AuditAction.PLAYER_REMOVED, AuditAction.TEAM_ADDED, AuditAction.TEAM_CAPTAIN,
        AuditAction.REGISTRATIONS_IMPORTED, AuditAction.LATE_PAIR_ADDED, AuditAction.LATE_PLAYER_ADDED,
        AuditAction.LATE_TEAM_ADDED,
    )),
    ("ritiri", _lazy("Ritiri e forfait"), (
        AuditAction.PAIR_WITHDRAWN, AuditAction.PLAYER_WITHDRAWN, AuditAction.TEAM_WITHDRAWN,
        AuditAction.MATCH_FORFEIT,
    )),
    ("formazioni", _lazy("Formazioni"), (
        AuditAction.LINEUP_SET,
    )),
    ("orologio", _lazy("Orologio"), (
        AuditAction.CLOCK_STARTED, AuditAction.CLOCK_PAUSED, AuditAction.CLOCK_RESUMED,
        AuditAction.CLOCK_MINUTES_ADDED, AuditAction.CLOCK_TABLE_EXTRA,
    )),
    ("torneo", _lazy("Impostazioni e arbitri"), (
        AuditAction.TOURNAMENT_CREATED, AuditAction.TOURNAMENT_UPDATED, AuditAction.TOURNAMENT_IMPORTED,
        AuditAction.ARBITER_ADDED, AuditAction.ARBITER_CALLED, AuditAction.ARBITER_CALL_TAKEN,
        AuditAction.ARBITER_CALL_RESOLVED,
    )),
    ("pin", _lazy("PIN e codici"), (
        AuditAction.PIN_TOURNAMENT_LOCKED, AuditAction.PIN_TABLE_LOCKED, AuditAction.PIN_TABLE_UNLOCKED,
        AuditAction.PIN_TOURNAMENT_UNLOCKED,
    )),
)
OTHER_KIND = "altro"


_KIND_OF = {code: key for key, _label, codes in ACTION_KINDS for code in codes}


def action_kind(code: str) -> str:
    """The key of :data:`ACTION_KINDS` an action code (an :class:`AuditAction` value) belongs
    to, :data:`OTHER_KIND` for any other."""
    return _KIND_OF.get(code, OTHER_KIND)


def action_choices(tournament: Tournament) -> list[tuple[str, str]]:
    """``(key, label)`` of the kinds of action in the tournament's trail, in the order of
    :data:`ACTION_KINDS` ("altro" last)."""
    present = {action_kind(c) for c in
               AuditEntry.objects.filter(tournament=tournament).order_by().values_list("action", flat=True).distinct()}
    choices = [(key, str(label)) for key, label, _codes in ACTION_KINDS if key in present]
    if OTHER_KIND in present:
        choices.append((OTHER_KIND, _("Altro")))
    return choices


def _codes_of(tournament: Tournament, kind: str) -> list[str]:
    codes = AuditEntry.objects.filter(tournament=tournament).order_by().values_list("action", flat=True).distinct()
    return [c for c in set(codes) if action_kind(c) == kind]


def who_choices(tournament: Tournament) -> list[tuple[str, str]]:
    """``(value, label)`` of the people in the trail: each arbiter by name, the captains
    together, the software."""
    rows = (AuditEntry.objects.filter(tournament=tournament).order_by().values_list("actor_code", "actor_params__name")
            .distinct())
    arbiters, captains, system = set(), False, False
    for code, name in rows:
        if code == "arbiter" and name:
            arbiters.add(str(name))
        captains |= code in ("captain", "table")
        system |= code == "system"
    choices = [(f"arbiter:{n}", _("%(name)s (arbitro)") % {"name": n}) for n in sorted(arbiters)]
    if captains:
        choices.append(("captain", _("capitani dei tavoli")))
    if system:
        choices.append(("system", _("sistema")))
    return choices


def round_choices(tournament: Tournament) -> list[int]:
    """The round numbers in the trail, in order."""
    # order_by(): the model's default ordering (time) would keep one row per entry in DISTINCT
    return sorted(AuditEntry.objects.filter(tournament=tournament, round_number__isnull=False).order_by()
                  .values_list("round_number", flat=True).distinct())
