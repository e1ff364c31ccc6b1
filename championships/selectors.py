"""Reads of a championship (rules.md §17): its evenings and its standings, always from the
tournaments' current standings (``tournaments.selectors.standings_after``), so a correction,
a penalty or a withdrawal in an evening changes the championship at the next read.

Each evening's placings (position and VP of every entrant) are cached under the tournament's
latest audit entry id: every write that changes a result goes through a service that audits
it in the same transaction (architecture.md), so a new id means "maybe changed" and the
evening is read again; the players' links to members are read fresh every time (a merge of
two members changes who scored, not the evening). ``bench/season.py`` measures it.
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import date
from fractions import Fraction

from django.core.cache import cache
from django.db.models import Max

from members.models import Member
from scoring import championship as rules
from tournaments import selectors as tournament_selectors
from tournaments.models import AuditEntry, LineMember, Player, Round, Tournament

from .models import Championship

CACHE_SECONDS = 24 * 3600


def championships_of(user):
    """The championships ``user`` may open: his own, every one for a superuser, none when
    anonymous."""
    if user is None or not getattr(user, "is_authenticated", False) or not user.is_active:
        return Championship.objects.none()
    if user.is_superuser:
        return Championship.objects.all()
    return Championship.objects.filter(owner=user)


def evenings(championship: Championship) -> list[Tournament]:
    """The championship's tournaments in date order (same date: the one created first)."""
    return list(championship.tournaments.order_by("date", "created_at", "id"))


def may_include(user, tournament: Tournament) -> bool:
    """Whether ``user`` may put ``tournament`` in a championship: he directs it (one of its
    arbiters), or he is a superuser (rules.md §17)."""
    return tournament_selectors.directs(user, tournament)


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


def _versions(ids: list[int]) -> dict[int, int]:
    """Tournament id → id of its latest audit entry (0 without any): one query."""
    return dict(AuditEntry.objects.filter(tournament_id__in=ids).order_by().values("tournament_id")
                .annotate(last=Max("id")).values_list("tournament_id", "last"))


def evening_placings(tournament: Tournament, version: int | None = None) -> tuple[list[rules.Placing], bool]:
    """(every ranked entrant's :class:`scoring.championship.Placing`, final?) of ``tournament``
    after its last closed round ([] before any), from ``tournaments.selectors.standings_after``;
    withdrawn entrants are included at their position (rules.md §17). Cached under
    ``version`` (the tournament's latest audit id) when given."""
    key = (f"championship-evening:v1:{tournament.pk}:{tournament.created_at.timestamp()}:{version}"
           if version is not None else None)
    if key is not None:
        hit = cache.get(key)
        if hit is not None:
            return hit
    view = tournament_selectors.standings_after(tournament)
    placings = [] if view.after_round is None else [
        rules.Placing(entrant=r.pair, position=r.position, vp=r.vp) for r in view.rows]
    value = (placings, view.final)
    if key is not None:
        cache.set(key, value, CACHE_SECONDS)
    return value


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
    tournaments = evenings(championship)
    versions = _versions([t.pk for t in tournaments])
    members_of = entrant_members(tournaments)
    results: dict[int, list[rules.MemberEvening]] = defaultdict(list)
    shown = []
    for index, t in enumerate(tournaments):
        placings, final = evening_placings(t, versions.get(t.pk, 0))
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
