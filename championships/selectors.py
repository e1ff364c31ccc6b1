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
from django.db.models import Exists, OuterRef, Q, Subquery
from django.utils import timezone

from clubs import access as club_access
from clubs.models import Club
from members.models import Member
from members.numbers import MembershipNumberError, normal_membership_number
from scoring import championship as rules
from tournaments import selectors as tournament_selectors
from tournaments.models import AuditEntry, LineMember, Player, Round, Tournament

from .models import Championship, CircuitClub, EveningPlacings

logger = logging.getLogger(__name__)

#: What the stored placings were computed by: raise it when a release changes how an
#: evening's placings come out of its results (``standings_after``, :func:`compute_placings`),
#: so the rows an older release stored are computed again at their next read.
PLACINGS_FORMAT = 1


def championships_of(user):
    """The championships ``user`` may open: of the clubs he works for (``clubs.access.works_in_q``,
    rules.md §20) his own and, for a club manager, every one of his clubs; the circuits owned by a
    club he manages or to which a club he manages is invited (to accept, choose its evenings or
    leave); every one for a superuser; none when anonymous (nor for the federation role alone: it
    reads through its own view)."""
    if user is None or not getattr(user, "is_authenticated", False) or not user.is_active:
        return Championship.objects.none()
    if user.is_superuser:
        return Championship.objects.all()
    own = Championship.objects.filter(club_access.works_in_q(user)).filter(
        Q(owner=user) | club_access.manages_q(user)).values("pk")
    managed = club_access.managed_clubs(user)
    circuits = Championship.objects.filter(
        Q(circuit_clubs__club__in=managed) | Q(club__in=managed, circuit_clubs__isnull=False)).values("pk")
    return Championship.objects.filter(Q(pk__in=own) | Q(pk__in=circuits))


def is_circuit(championship: Championship) -> bool:
    """Whether ``championship`` is a circuit: another club has been invited (rules.md §20)."""
    return championship.circuit_clubs.exists()


@dataclass(frozen=True)
class CircuitMember:
    """A club of a circuit: ``club``, ``owner`` (the owning club), ``accepted`` (the owning
    club, or an invitation accepted)."""

    club: Club
    owner: bool
    accepted: bool


def circuit_clubs(championship: Championship) -> list[CircuitMember]:
    """The clubs of ``championship`` (rules.md §20): the owning club first, then the invited
    ones by name. A championship that is no circuit lists its own club alone."""
    out = [CircuitMember(club=championship.club, owner=True, accepted=True)]
    for row in championship.circuit_clubs.select_related("club").order_by("club__name", "club_id"):
        out.append(CircuitMember(club=row.club, owner=False, accepted=row.accepted_at is not None))
    return out


def circuit_marks(user) -> dict:
    """``{"circuit_ids": …, "pending_ids": …}``: the ids of the championships that are circuits,
    and of those inviting a club ``user`` manages that has not accepted yet (rules.md §20), for
    the list of championships. Two queries at most."""
    mine = championships_of(user)
    circuit_ids = set(CircuitClub.objects.filter(championship__in=mine).values_list("championship_id", flat=True))
    pending_ids = set()
    if circuit_ids:
        pending_ids = set(CircuitClub.objects.filter(
            championship_id__in=circuit_ids, accepted_at__isnull=True,
            club__in=club_access.managed_clubs(user)).values_list("championship_id", flat=True))
    return {"circuit_ids": circuit_ids, "pending_ids": pending_ids}


def accepted_club_ids(championship: Championship) -> set[int]:
    """Ids of the clubs whose evenings may count in ``championship``: its own club and the
    invited clubs that accepted (rules.md §20)."""
    ids = set(championship.circuit_clubs.filter(accepted_at__isnull=False).values_list("club_id", flat=True))
    return ids | {championship.club_id}


def may_manage_circuit(user, championship: Championship) -> bool:
    """Whether ``user`` manages ``championship`` (its settings, its invitations): a superuser,
    its owner, or a manager of its owning club (rules.md §20). A circuit created by the
    server's operator without an owner is managed by superusers and the owning club's
    managers."""
    if user is None or not getattr(user, "is_authenticated", False) or not user.is_active:
        return False
    return (user.is_superuser or championship.owner_id == user.pk
            or club_access.may_manage(user, championship.club))


def evenings(championship: Championship) -> list[Tournament]:
    """The championship's tournaments in date order (same date: the one created first)."""
    return list(championship.tournaments.order_by("date", "created_at", "id"))


def may_include(user, tournament: Tournament, championship: Championship | None = None) -> bool:
    """Whether ``user`` may put ``tournament`` in ``championship`` (rules.md §17, §20).

    A championship that is no circuit (or None, a new one): he directs the tournament (one
    of its arbiters), or he is a superuser. A circuit: the tournament's club must be the
    owning club or an invited club that accepted, and ``user`` must manage that club, or
    direct the tournament when it is the owning club's; ``user`` None is the server's
    operator (the ``championship`` command), who may add an evening of any club invited,
    accepted or not: he sets circuits up without waiting for acceptance."""
    if championship is None or not is_circuit(championship):
        return user is not None and tournament_selectors.directs(user, tournament)
    if user is None:
        return (tournament.club_id == championship.club_id
                or championship.circuit_clubs.filter(club_id=tournament.club_id).exists())
    if tournament.club_id not in accepted_club_ids(championship):
        return False
    if club_access.may_manage(user, tournament.club):
        return True
    return tournament.club_id == championship.club_id and tournament_selectors.directs(user, tournament)


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
    club_slug: str = ""
    club_name: str = ""


@dataclass(frozen=True)
class Row:
    """One member's line: ``position`` (None below the minimum), ``position_label``
    (``"3="``, ``""``), ``member_id``, ``membership_number`` (None without one), ``name``
    (``"Serra Anna"``), ``total`` (points, a Fraction), ``played`` (evenings), ``counted``
    (slugs of the counted evenings, in date order), ``points`` (slug → points of every
    evening played), ``club_slug`` / ``club_name`` (the club shown beside him: in a circuit
    the club of his latest counted evening, rules.md §20; else the evenings' club),
    ``member_ids`` (every member behind the row: several in a circuit, one a club)."""

    position: int | None
    position_label: str
    member_id: int
    membership_number: str | None
    name: str
    total: Fraction
    played: int
    counted: tuple[str, ...]
    points: dict
    club_slug: str = ""
    club_name: str = ""
    member_ids: tuple[int, ...] = ()

    @property
    def total_text(self) -> str:
        return rules.points_text(self.total)


@dataclass(frozen=True)
class ChampionshipStandings:
    """The championship's standings: ``evenings`` (date order), ``rows`` (ranked members
    first, then those below the minimum), ``rule`` (the points rule's text), ``circuit``
    (evenings of several clubs may count, rules.md §20: the rows show each member's club)."""

    championship: Championship
    evenings: list[Evening]
    rows: list[Row]
    rule: str
    circuit: bool = False

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
    return _placings_of(tournament_selectors.standings_after(tournament))


def compute_placings_of(tournaments: list[Tournament]) -> dict[int, tuple[list[rules.Placing], bool]]:
    """Tournament id → :func:`compute_placings` of each of ``tournaments``, their standings
    read together (``tournaments.selectors.latest_standings_of``: a circuit's first read of
    many clubs' evenings, rules.md §20)."""
    views = tournament_selectors.latest_standings_of(tournaments)
    return {t.pk: _placings_of(views[t.pk]) for t in tournaments}


def _current(row: EveningPlacings | None, tournament: Tournament) -> bool:
    """Whether the stored ``row`` is ``tournament``'s placings after its latest audit entry
    (``last_audit``) by this :data:`PLACINGS_FORMAT`."""
    return row is not None and row.computed_from == (tournament.last_audit or 0) and row.format == PLACINGS_FORMAT


def _placings_of(view) -> tuple[list[rules.Placing], bool]:
    """:func:`compute_placings` of standings ``view`` already read."""
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
    computed = compute_placings_of([t for t in tournaments if not _current(stored.get(t.pk), t)])
    for t in tournaments:
        version = t.last_audit or 0
        row = stored.get(t.pk)
        if _current(row, t):
            out[t.pk] = (_decoded(row.placings), row.final)
            continue
        placings, final = out[t.pk] = computed[t.pk]
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


def person_key(member: dict, circuit: bool):
    """Who a member is in a championship's standings: in a circuit (rules.md §20) the same
    *tessera* in two clubs is one person, so a member with a membership number is
    ``("n", number)`` (its normal form, ``members.numbers``) and one without is
    ``("m", member id)``, counted only as himself, within his own club; in a championship that
    is no circuit every member is ``("m", member id)``. ``member``: a dict with ``id`` and
    ``membership_number``."""
    number = member.get("membership_number")
    if circuit and number:
        try:
            return ("n", normal_membership_number(number))
        except MembershipNumberError:  # stored before the rule: matched as stored
            return ("n", number)
    return ("m", member["id"])


def standings(championship: Championship) -> ChampionshipStandings:
    """The championship's standings (rules.md §17), computed now from the evenings' current
    results: points per evening by the championship's rule, best N, minimum evenings, order
    (total, best single evening, evenings played, shared). Members are identified by the
    member their players are linked to (rules.md §16), whatever their partners; in a circuit
    (rules.md §20) members of different clubs with the same membership number are one person
    (:func:`person_key`), shown with the club of his latest counted evening (by date, then by
    tournament id) and the name of his member there.

    Raises :class:`scoring.championship.RuleError` when the stored rule is unusable (the
    services never store one).
    """
    rule = rules.parse_points_rule(championship.points_rule)
    # whether it is a circuit rides on the evenings' query (each row says it): one query less
    tournaments = _with_versions(championship.tournaments.select_related("club").annotate(
        in_circuit=Exists(CircuitClub.objects.filter(championship_id=championship.pk))))
    circuit = tournaments[0].in_circuit if tournaments else is_circuit(championship)
    placed = evenings_placings(tournaments)
    members_of = entrant_members(tournaments)
    people = {m["id"]: m for m in Member.objects.filter(
        id__in={m for ids in members_of.values() for m in ids}).values(
        "id", "membership_number", "last_name", "first_name")}
    results: dict[tuple, list[rules.MemberEvening]] = defaultdict(list)
    #: person → {evening index: member id}: which of his members played each evening
    members_by_evening: dict[tuple, dict[int, int]] = defaultdict(dict)
    shown = []
    keys: dict[int, tuple] = {}  # member id → person_key, worked out once a member (not once an evening)
    for index, t in enumerate(tournaments):
        placings, final = placed[t.pk]
        shown.append(Evening(slug=t.slug, name=t.name, date=t.date, kind=t.kind, entrants=len(placings),
                             final=final, started=bool(placings), club_slug=t.club.slug, club_name=t.club.name))
        for entrant, points in rules.evening_points(rule, placings).items():
            for member in members_of.get((t.pk, entrant), ()):
                person = keys.get(member)
                if person is None:
                    person = keys[member] = person_key(people.get(member) or {"id": member}, circuit)
                if index in members_by_evening[person]:
                    continue  # one evening counts once per person (scoring.championship.rank_members)
                members_by_evening[person][index] = member
                results[person].append(rules.MemberEvening(index, points))

    def name_of_member(member_id: int) -> str:
        p = people.get(member_id)
        return f"{p['last_name']} {p['first_name']}" if p else f"#{member_id}"

    def shown_evening(person, counted) -> int:
        # rules.md §20: the club of his latest counted evening, by date then by tournament id
        chosen = counted or tuple(members_by_evening[person])
        return max(chosen, key=lambda i: (tournaments[i].date, tournaments[i].pk))

    def shown_member(person) -> int:
        evenings_played = members_by_evening[person]
        return evenings_played[max(evenings_played, key=lambda i: (tournaments[i].date, tournaments[i].pk))]

    ranked = rules.rank_members(results, best=championship.best, min_evenings=championship.min_evenings,
                                listing_key=lambda p: (name_of_member(shown_member(p)).casefold(), p))
    slugs = [t.slug for t in tournaments]
    rows = []
    for r in ranked:
        evening = shown_evening(r.member, r.counted)
        member = members_by_evening[r.member][evening]
        club = tournaments[evening].club
        rows.append(Row(position=r.position, position_label=r.position_label, member_id=member,
                        membership_number=(people.get(member) or {}).get("membership_number"),
                        name=name_of_member(member), total=r.total, played=r.played,
                        counted=tuple(slugs[i] for i in r.counted),
                        points={slugs[e.evening]: e.points for e in r.evenings},
                        club_slug=club.slug, club_name=club.name,
                        member_ids=tuple(sorted(set(members_by_evening[r.member].values())))))
    return ChampionshipStandings(championship=championship, evenings=shown, rows=rows, rule=rule.text,
                                 circuit=circuit)


def standings_json(view: ChampionshipStandings) -> dict:
    """``{"rows": [{"membership_number", "name", "points", "evenings", "counted", "position"}, …]}``
    in standings order, ``points`` rounded to 2 decimals (a JSON number), ``position`` null
    below the minimum, ``membership_number`` null for a member without one; in a circuit
    (rules.md §20) each row also has ``"club"``: the slug of the club shown beside him."""
    rows = []
    for r in view.rows:
        row = {"membership_number": r.membership_number, "name": r.name, "points": float(rules.rounded(r.total)),
               "evenings": r.played, "counted": list(r.counted), "position": r.position}
        if view.circuit:
            row["club"] = r.club_slug
        rows.append(row)
    return {"rows": rows}
