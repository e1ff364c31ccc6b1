"""Reads of a championship (rules.md §17): its evenings and its standings, always from the
tournaments' current standings (``tournaments.selectors.standings_after``), so a correction,
a penalty or a withdrawal in an evening changes the championship at the next read.

Each evening's placings (position and VP of every entrant) are stored in the database
(:class:`championships.models.EveningPlacings`) with the tournament's latest audit entry id
they were computed after: every write that changes a result goes through a service that
audits it in the same transaction (README.md, "Layout"), so a new id means "maybe changed" and
that evening alone is computed again and its row replaced. A read costs one query for the
evenings with their latest audit ids and one for their stored placings, whatever the
process (a restart computes nothing again). The players' links to members are read fresh
every time (a merge of two members changes who scored, not the evening).
``bench/season.py`` measures it.
"""
from __future__ import annotations

import logging
from collections import defaultdict
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from fractions import Fraction

from django.db import DatabaseError, transaction
from django.db.models import OuterRef, Q, Subquery
from django.utils import timezone

from clubs import access as club_access
from members.models import Member
from scoring import championship as rules
from tournaments import selectors as tournament_selectors
from tournaments.models import AuditEntry, LineMember, Player, Round, Tournament

from .models import Championship, EveningPlacings

logger = logging.getLogger(__name__)

#: What the stored placings were computed by: raise it when a release changes how an
#: evening's placings come out of its results (``standings_after``, :func:`compute_placings`),
#: so the rows an older release stored are computed again at their next read.
PLACINGS_FORMAT = 1


def championships_of(user):
    """The championships ``user`` may open and change, all of clubs he works for
    (``clubs.access.works_in_q``, rules.md §20): his own, and every one of the clubs he
    manages; every one for a superuser; none when anonymous (nor for the federation role
    alone: it reads through its own view)."""
    if user is None or not getattr(user, "is_authenticated", False) or not user.is_active:
        return Championship.objects.none()
    if user.is_superuser:
        return Championship.objects.all()
    return Championship.objects.filter(club_access.works_in_q(user)).filter(
        Q(owner=user) | club_access.manages_q(user))


def evenings(championship: Championship) -> list[Tournament]:
    """The championship's tournaments in date order (same date: the one created first)."""
    return list(championship.tournaments.order_by("date", "created_at", "id"))


def may_include(user, tournament: Tournament) -> bool:
    """Whether ``user`` may put ``tournament`` in a championship: he directs it (one of its
    arbiters, a manager of its club, or a superuser; rules.md §17, §20)."""
    return tournament_selectors.directs(user, tournament)


def may_join(club, tournament: Tournament) -> bool:
    """Whether ``tournament`` may be an evening of a championship of ``club`` (a
    :class:`~clubs.models.Club`): only a tournament of that club (rules.md §20). The one
    place the rule lives: circuits across clubs widen it here."""
    return club is not None and tournament.club_id == club.pk


@dataclass(frozen=True)
class Evening:
    """One evening as the championship shows it: its tournament's slug, name, date, how many
    entrants were ranked, ``final`` (its last planned round is closed), ``started`` (a
    round is closed: it gives points)."""

    slug: str
    name: str
    date: date
    kind: str
    entrants: int
    final: bool
    started: bool


@dataclass(frozen=True)
class Row:
    """One member's line: ``position`` (None below the minimum), ``position_label``
    (``"3="``, ``""``), ``member_id``, ``membership_number`` (None without one), ``name``
    (``"Serra Anna"``), ``total`` (points, a Fraction), ``played`` (evenings), ``counted``
    (slugs of the counted evenings, in date order), ``points`` (slug → points of every
    evening played)."""

    position: int | None
    position_label: str
    member_id: int
    membership_number: str | None
    name: str
    total: Fraction
    played: int
    counted: tuple[str, ...]
    points: dict

    @property
    def total_text(self) -> str:
        return rules.points_text(self.total)


@dataclass(frozen=True)
class ChampionshipStandings:
    """The championship's standings: ``evenings`` (date order), ``rows`` (ranked members
    first, then those below the minimum), ``rule`` (the points rule's text)."""

    championship: Championship
    evenings: list[Evening]
    rows: list[Row]
    rule: str

    @property
    def has_ties(self) -> bool:
        return any(r.position_label.endswith("=") for r in self.rows)


def _with_versions(tournaments) -> list[Tournament]:
    """``tournaments`` (a queryset) in date order, each with ``last_audit``: the id of its
    latest audit entry (None without any), one index lookup a tournament, in the same query."""
    latest = AuditEntry.objects.filter(tournament=OuterRef("pk")).order_by("-id").values("id")[:1]
    return list(tournaments.order_by("date", "created_at", "id").annotate(last_audit=Subquery(latest)))


def compute_placings(tournament: Tournament) -> tuple[list[rules.Placing], bool]:
    """(every ranked entrant's :class:`scoring.championship.Placing`, final?) of ``tournament``
    after its last closed round ([] before any), computed now from
    ``tournaments.selectors.standings_after``; withdrawn entrants are included at their
    position (rules.md §17)."""
    view = tournament_selectors.standings_after(tournament)
    placings = [] if view.after_round is None else [
        rules.Placing(entrant=r.pair, position=r.position, vp=Decimal(r.vp)) for r in view.rows]
    return placings, view.final


def _encoded(placings: list[rules.Placing]) -> list:
    return [[p.entrant, p.position, str(p.vp)] for p in placings]


def _decoded(rows: list) -> list[rules.Placing]:
    return [rules.Placing(entrant=entrant, position=position, vp=Decimal(vp)) for entrant, position, vp in rows]


def evenings_placings(tournaments: list[Tournament]) -> dict[int, tuple[list[rules.Placing], bool]]:
    """Tournament id → (placings, final?) as :func:`compute_placings` gives them, for
    ``tournaments`` (each with ``last_audit``, as :func:`_with_versions` reads them).

    The stored rows are read in one query; an evening without a row, or whose row was
    computed after another audit entry (a correction since) or by another
    :data:`PLACINGS_FORMAT`, is computed now and its row written (one upsert for all of
    them, in tournament order). A write that fails (the database busy or read-only) is
    logged and the computed placings are returned all the same: the next read tries again."""
    stored = {row.tournament_id: row for row in EveningPlacings.objects.filter(
        tournament_id__in=[t.pk for t in tournaments])}
    out: dict[int, tuple[list[rules.Placing], bool]] = {}
    fresh = []
    for t in tournaments:
        version = t.last_audit or 0
        row = stored.get(t.pk)
        if row is not None and row.computed_from == version and row.format == PLACINGS_FORMAT:
            out[t.pk] = (_decoded(row.placings), row.final)
            continue
        placings, final = compute_placings(t)
        out[t.pk] = (placings, final)
        fresh.append(EveningPlacings(tournament_id=t.pk, computed_from=version, format=PLACINGS_FORMAT,
                                     final=final, placings=_encoded(placings), computed_at=timezone.now()))
    if fresh:
        _store(sorted(fresh, key=lambda row: row.tournament_id))
    return out


def _store(rows: list[EveningPlacings]) -> None:
    """Insert or replace ``rows`` (by tournament). Two readers storing the same evening at
    once both write what they computed; a row computed before a correction keeps the older
    audit id and is computed again at the next read, so the last writer never hides one."""
    try:
        with transaction.atomic():
            EveningPlacings.objects.bulk_create(
                rows, batch_size=200, update_conflicts=True, unique_fields=["tournament"],
                update_fields=["computed_from", "format", "final", "placings", "computed_at"])
    except DatabaseError:
        logger.warning("championship placings of tournaments %s not stored", [r.tournament_id for r in rows],
                       exc_info=True)


def entrant_members(tournaments: list[Tournament]) -> dict[tuple[int, int], list[int]]:
    """(tournament id, entrant number) → member ids whose points these are (rules.md §17):
    a pair's two players, an individual tournament's player, and in a team tournament every
    player of the team who played at least one match (sat in a line of a closed round).
    Players not linked to a member score for nobody. Three queries at most."""
    out: dict[tuple[int, int], list[int]] = defaultdict(list)
    by_kind = defaultdict(list)
    for t in tournaments:
        by_kind[t.kind].append(t.pk)
    if by_kind[Tournament.Kind.PAIRS]:
        for tid, number, member in (Player.objects.filter(
                tournament_id__in=by_kind[Tournament.Kind.PAIRS], pair__isnull=False, pair__round__isnull=True,
                member__isnull=False).order_by().values_list("tournament_id", "pair__number", "member_id")):
            out[(tid, number)].append(member)
    if by_kind[Tournament.Kind.INDIVIDUAL]:
        for tid, number, member in (Player.objects.filter(
                tournament_id__in=by_kind[Tournament.Kind.INDIVIDUAL], number__isnull=False,
                member__isnull=False).order_by().values_list("tournament_id", "number", "member_id")):
            out[(tid, number)].append(member)
    if by_kind[Tournament.Kind.TEAMS]:
        seen = set()
        for tid, number, member in (LineMember.objects.filter(
                round__tournament_id__in=by_kind[Tournament.Kind.TEAMS], round__state=Round.State.CLOSED,
                pair__team__isnull=False, player__member__isnull=False).order_by()
                .values_list("round__tournament_id", "pair__team__number", "player__member_id")):
            if (tid, number, member) not in seen:
                seen.add((tid, number, member))
                out[(tid, number)].append(member)
    return out


def standings(championship: Championship) -> ChampionshipStandings:
    """The championship's standings (rules.md §17), computed now from the evenings' current
    results: points per evening by the championship's rule, best N, minimum evenings, order
    (total, best single evening, evenings played, shared). Members are identified by the
    member their players are linked to (rules.md §16), whatever their partners.

    Raises :class:`scoring.championship.RuleError` when the stored rule is unusable (the
    services never store one).
    """
    rule = rules.parse_points_rule(championship.points_rule)
    tournaments = _with_versions(championship.tournaments.all())
    placed = evenings_placings(tournaments)
    members_of = entrant_members(tournaments)
    results: dict[int, list[rules.MemberEvening]] = defaultdict(list)
    shown = []
    for index, t in enumerate(tournaments):
        placings, final = placed[t.pk]
        shown.append(Evening(slug=t.slug, name=t.name, date=t.date, kind=t.kind, entrants=len(placings),
                             final=final, started=bool(placings)))
        for entrant, points in rules.evening_points(rule, placings).items():
            for member in members_of.get((t.pk, entrant), ()):
                results[member].append(rules.MemberEvening(index, points))
    people = {m["id"]: m for m in Member.objects.filter(id__in=list(results)).values(
        "id", "membership_number", "last_name", "first_name")}

    def name_of(member_id: int) -> str:
        p = people.get(member_id)
        return f"{p['last_name']} {p['first_name']}" if p else f"#{member_id}"

    ranked = rules.rank_members(results, best=championship.best, min_evenings=championship.min_evenings,
                                listing_key=lambda m: (name_of(m).casefold(), m))
    slugs = [t.slug for t in tournaments]
    rows = [Row(position=r.position, position_label=r.position_label, member_id=r.member,
                membership_number=(people.get(r.member) or {}).get("membership_number"),
                name=name_of(r.member), total=r.total, played=r.played,
                counted=tuple(slugs[i] for i in r.counted),
                points={slugs[e.evening]: e.points for e in r.evenings})
            for r in ranked]
    return ChampionshipStandings(championship=championship, evenings=shown, rows=rows, rule=rule.text)


def standings_json(view: ChampionshipStandings) -> dict:
    """``{"rows": [{"membership_number", "name", "points", "evenings", "counted", "position"}, …]}``
    in standings order, ``points`` rounded to 2 decimals (a JSON number), ``position`` null
    below the minimum, ``membership_number`` null for a member without one."""
    return {"rows": [{
        "membership_number": r.membership_number, "name": r.name, "points": float(rules.rounded(r.total)),
        "evenings": r.played, "counted": list(r.counted), "position": r.position,
    } for r in view.rows]}
