"""Reads of a simultaneous evening (rules.md §20): its combined standings, its prizes, what
a club's tournament has that differs from the event, the settings an attached tournament
may not change.

The combined standings are computed, never stored: every attached tournament's closed
rounds are read as ``scoring`` values (the very rows its own standings are made of,
``tournaments.selectors``), each entrant keyed ``(tournament id, number)``, and the whole
field is ranked once by ``scoring``'s tie-break chain (rules.md §8), so head-to-head applies
only among entrants who met (entrants of two clubs never did) and a place is shared only
when every tie-break is equal.
"""
from __future__ import annotations

import dataclasses
from collections import defaultdict
from decimal import Decimal

from django.utils.translation import gettext as _

from scoring import individual as individual_rules
from scoring import prizes as prize_rules
from scoring import standings as standings_rules
from tournaments import selectors as tournament_selectors
from tournaments.kinds import kind_of
from tournaments.models import LineMember, Pair, Player, Tournament
from tournaments.selectors.penalties import split_penalties, split_penalty_rows

from .models import SHARED_SETTINGS, Participation, SimultaneousEvent


def participations(event: SimultaneousEvent) -> list[Participation]:
    """The event's attached tournaments with their clubs, by club name."""
    return list(event.participations.select_related("club", "tournament").order_by("club__name", "id"))


def setting_label(key: str) -> str:
    """The Italian (translated) name of a shared setting, as the tournament form shows it."""
    return str(Tournament._meta.get_field(key).verbose_name)


def differences(event: SimultaneousEvent, tournament: Tournament) -> list[str]:
    """The names of the shared settings (:data:`models.SHARED_SETTINGS`) whose value in
    ``tournament`` is not the event's, in that order (rules.md §20); [] when all agree.
    Tie-breaks compare as key lists (spaces ignored), the plan without spaces."""
    out = []
    for key, wanted in event.settings().items():
        have = getattr(tournament, key)
        if key == "tiebreaks":
            same = tournament.tiebreak_order == tuple(k.strip() for k in wanted.split(",") if k.strip())
        elif key == "plan":
            same = "".join(str(have).split()).upper() == "".join(str(wanted).split()).upper()
        elif key == "bye_percent":
            same = Decimal(str(have)) == Decimal(str(wanted))
        else:
            same = have == wanted
        if not same:
            out.append(setting_label(key))
    return out


def locked_settings(tournament: Tournament):
    """``(field names, sentence)`` when ``tournament`` is attached to a simultaneous evening:
    its shared settings are the event's and may not change (rules.md §20); None otherwise.
    Registered with ``tournaments.services.tournament.register_settings_lock``."""
    if tournament.pk is None:
        return None
    part = Participation.objects.filter(tournament=tournament).select_related("event").first()
    if part is None:
        return None
    return SHARED_SETTINGS, _("Impostazione fissata dalla serata simultanea «%(event)s»: vale per tutti i "
                              "circoli e non si cambia nel torneo.") % {"event": part.event.name}


@dataclasses.dataclass(frozen=True)
class CombinedRow:
    """One entrant of the combined standings: ``position`` over the whole field (shared:
    ``tied``), ``club_position`` its place in its own tournament's standings (``club_tied``),
    its club and tournament, its number in that tournament, names, totals after penalties."""

    position: int
    tied: bool
    club_position: int
    club_tied: bool
    club: object
    tournament: Tournament
    entrant: int
    names: str
    vp: Decimal
    mp_difference: int
    mp_scored: int
    played: int
    withdrawn: bool

    @property
    def position_label(self) -> str:
        return f"{self.position}=" if self.tied else str(self.position)

    @property
    def club_position_label(self) -> str:
        return f"{self.club_position}=" if self.club_tied else str(self.club_position)


@dataclasses.dataclass(frozen=True)
class CombinedStandings:
    """The combined standings of an event: ``rows`` best first; ``final`` when every
    attached tournament has closed its plan's last round (and at least one is attached),
    else provisional (rules.md §20); ``pending`` the clubs whose tournament is not over;
    ``missing`` the invited clubs without a tournament yet."""

    event: SimultaneousEvent
    rows: list[CombinedRow]
    final: bool
    pending: list
    missing: list


def _field(tournament: Tournament, after_round: int | None):
    """``(numbers, withdrawn numbers, results, penalties)`` of ``tournament`` after the
    closed round ``after_round`` as its own standings count them (rules.md §8 pairs, §9
    players): results are ``GameResult`` rows (pairs) or ``PlayerResult`` rows (individual)."""
    if tournament.kind == Tournament.Kind.INDIVIDUAL:
        rows = list(Player.objects.filter(tournament=tournament, number__isnull=False).order_by("number")
                    .values_list("number", "status"))
        entrant = "player"
    else:
        rows = list(Pair.objects.filter(tournament=tournament, round__isnull=True).order_by("number")
                    .values_list("number", "status"))
        entrant = "pair"
    counted, _pending = split_penalties(tournament, entrant, after_round, None)
    results = tournament_selectors.game_results(tournament, after_round=after_round) if after_round else []
    if tournament.kind == Tournament.Kind.INDIVIDUAL and results:
        members: dict[int, list[int]] = defaultdict(list)
        for pair_number, player in (LineMember.objects.filter(round__tournament=tournament)
                                    .order_by("pair_id", "seat").values_list("pair__number", "player__number")):
            members[pair_number].append(player)
        results = individual_rules.player_results(results, members)
    return ([n for n, _s in rows], {n for n, s in rows if s == "withdrawn"}, results, counted)


def _keyed(result, tid: int):
    """A result of tournament ``tid`` with its entrants keyed ``(tid, number)``."""
    if isinstance(result, individual_rules.PlayerResult):
        return dataclasses.replace(result, player=(tid, result.player))
    return dataclasses.replace(result, ns=(tid, result.ns), ew=None if result.ew is None else (tid, result.ew))


def _rank(kind: str, entrants, results, penalties, tiebreaks, withdrawn) -> list:
    """``scoring``'s ranking of one field (rules.md §8 pairs; §9 players, per-player results,
    no head-to-head): ``StandingRow`` rows best first."""
    if kind == Tournament.Kind.INDIVIDUAL:
        return individual_rules.individual_standings(entrants, results, penalties, tiebreaks, withdrawn)
    return standings_rules.compute_standings(entrants, results, penalties, tiebreaks, withdrawn)


def combined_standings(event: SimultaneousEvent) -> CombinedStandings:
    """Every entrant of every attached tournament ranked over the whole field (rules.md §20)
    by the event's tie-breaks (§8; per player without head-to-head in an individual event,
    §9), each tournament counted after its last closed round, penalties deducted.

    Head-to-head is ``scoring.standings``' own: applied to a tied group only when every
    member met every other, so never across clubs. Entrants tied on every key share the
    place (1, 2, 2, 4), listed by club name then number. ``club_position`` is the entrant's
    place in its tournament's own standings, ranked from the same rows with the tournament's
    tie-breaks (what ``tournaments.selectors.standings_after`` gives, without reading the
    results twice)."""
    parts = participations(event)
    entrants, withdrawn, results, penalties = [], set(), [], []
    own: dict[int, dict[int, object]] = {}
    names: dict[int, dict[int, str]] = {}
    pending, final = [], bool(parts)
    # a pair event's clubs are read together, one query per table for all of them
    pair_ts = [p.tournament for p in parts if p.tournament.kind == Tournament.Kind.PAIRS]
    batched = tournament_selectors.pair_fields_of(pair_ts)
    batched_names = tournament_selectors.pair_names_of(t.pk for t in pair_ts)
    for part in parts:
        t = part.tournament
        if t.pk in batched:
            after_round, pairs, rows, penalty_rows = batched[t.pk]
            numbers, out = [n for n, _s in pairs], {n for n, s in pairs if s == "withdrawn"}
            counted, _pending = split_penalty_rows(penalty_rows, after_round, None)
            names[t.id] = batched_names.get(t.pk, {})
        else:
            after_round, _last = tournament_selectors.standings_window(t, None)
            numbers, out, rows, counted = _field(t, after_round)
            names[t.id] = tournament_selectors.entrant_names(t)
        if after_round is None or after_round < t.rounds_planned:
            final = False
            pending.append(part.club)
        scored = [standings_rules.Penalty(pair=p.pair, vp=p.vp, mp=p.mp, reason=p.reason, round=p.round_number)
                  for p in counted]
        own[t.id] = {r.pair: r for r in _rank(t.kind, numbers, rows, scored,
                                                tournament_selectors.applied_tiebreaks(t), out)}
        entrants += [(t.id, n) for n in numbers]
        withdrawn |= {(t.id, n) for n in out}
        results += [_keyed(r, t.id) for r in rows]
        penalties += [dataclasses.replace(p, pair=(t.id, p.pair)) for p in scored]
    tiebreaks = tuple(k.strip() for k in event.tiebreaks.split(",") if k.strip())
    ranked = _rank(event.kind, entrants, results, penalties, tiebreaks, withdrawn)
    by_id = {p.tournament_id: p for p in parts}
    rows = []
    for r in ranked:
        tid, number = r.pair
        part = by_id[tid]
        mine = own[tid].get(number)
        rows.append(CombinedRow(
            position=r.position, tied=r.tied,
            club_position=mine.position if mine else 0, club_tied=bool(mine and mine.tied),
            club=part.club, tournament=part.tournament, entrant=number, names=names[tid].get(number, ""),
            vp=r.vp, mp_difference=r.mp_difference, mp_scored=r.mp_scored, played=r.played,
            withdrawn=r.withdrawn))
    joined = {p.club_id for p in parts}
    missing = [c for c in event.clubs.order_by("name") if c.id not in joined]
    return CombinedStandings(event=event, rows=rows, final=final, pending=pending, missing=missing)


def standings_json(view: CombinedStandings) -> dict:
    """``{"final": bool, "rows": [{"club", "tournament", "entrant", "names", "vp", "mp_diff",
    "position", "club_position"}, …]}`` in standings order (slugs for club and tournament,
    VP a float)."""
    return {"final": view.final, "rows": [
        {"club": r.club.slug, "tournament": r.tournament.slug, "entrant": r.entrant, "names": r.names,
         "vp": float(r.vp), "mp_diff": r.mp_difference, "position": r.position, "club_position": r.club_position}
        for r in view.rows]}


def _club_scopes(event: SimultaneousEvent) -> dict[str, int]:
    """Club slug → the number standing for it as a prize scope (its order among the invited
    clubs by name): a per-club prize is a ``scoring.prizes`` group prize of that number."""
    return {slug: i for i, slug in enumerate(event.clubs.order_by("name").values_list("slug", flat=True), start=1)}


def prize_specs(event: SimultaneousEvent, prize_list=None) -> list[prize_rules.PrizeSpec]:
    """The event's prize list (or ``prize_list``) as ``scoring.prizes.PrizeSpec`` rows: scopes
    ``overall``/``assoluto`` over the combined field, ``club:SLUG``/``circolo:SLUG`` within an
    invited club's entrants (rules.md §18, §20). Raises ``prize_rules.PrizeError`` with a
    sentence for a bad list or a club not invited."""
    data = event.prize_list if prize_list is None else prize_list
    scopes = _club_scopes(event)
    if not isinstance(data, list):
        return prize_rules.parse_prize_list(data)
    mapped = []
    for i, item in enumerate(data, start=1):
        if isinstance(item, dict) and isinstance(item.get("scope"), str):
            kind, sep, value = item["scope"].partition(":")
            if sep and kind.strip().lower() in ("club", "circolo"):
                if value.strip() not in scopes:
                    raise prize_rules.PrizeError(_("Premio %(n)s: il circolo «%(club)s» non è invitato.")
                                                 % {"n": i, "club": value.strip()})
                item = dict(item, scope=f"group:{scopes[value.strip()]}")
            elif kind.strip().lower() in ("group", "girone", "category", "categoria"):
                raise prize_rules.PrizeError(_("Premio %(n)s: in un simultaneo i premi sono assoluti (overall) "
                                               "o di un circolo (club:SLUG).") % {"n": i})
        mapped.append(item)
    return prize_rules.parse_prize_list(mapped)


@dataclasses.dataclass(frozen=True)
class CombinedAward:
    """A prize and its winner (a :class:`CombinedRow`, None when nobody is entitled)."""

    name: str
    scope: str
    row: CombinedRow | None
    ex_aequo: bool


def prize_awards(event: SimultaneousEvent, view: CombinedStandings | None = None) -> list[CombinedAward]:
    """Who wins each prize of the event (rules.md §18 over the combined field, a ``club:``
    prize within the club's entrants ranked by the combined standings; one prize at most per
    entrant, withdrawn entrants win nothing), from the current standings."""
    view = view or combined_standings(event)
    specs = prize_specs(event)
    scopes = _club_scopes(event)
    names = {v: k for k, v in scopes.items()}
    contenders = [prize_rules.Contender(entrant=i, position=r.position, withdrawn=r.withdrawn,
                                        group=scopes.get(r.club.slug)) for i, r in enumerate(view.rows)]
    out = []
    for award in prize_rules.award_prizes(specs, contenders):
        scope = award.prize.scope
        label = _("assoluto") if scope.kind == prize_rules.OVERALL else f"club:{names.get(scope.value, '')}"
        row = view.rows[award.entrant] if award.entrant is not None else None
        out.append(CombinedAward(award.prize.name, label, row, award.ex_aequo))
    return out


def federation_rows(event: SimultaneousEvent, view: CombinedStandings | None = None) -> list[list]:
    """The federation file of the whole event (rules.md §20): one row per player in combined
    standings order — membership number, surname, name, the club that played the event (its
    name), combined position, «=» when shared, the place in the club's standings, the
    tournament's slug and the entrant's number there, VP (``Decimal``), MP difference, the
    number of entrants, the event's name and date (ISO)."""
    view = view or combined_standings(event)
    players: dict[int, dict[int, list]] = {}
    for part in participations(event):
        per: dict[int, list] = {}
        for p in kind_of(part.tournament).entrant_players(part.tournament):
            per.setdefault(p.entrant_number, []).append(p)
        players[part.tournament_id] = per
    total = len(view.rows)
    out = []
    for r in view.rows:
        for p in players[r.tournament.id].get(r.entrant, []):
            number = p.membership_number or (p.member.membership_number if p.member else "") or ""
            out.append([number, p.last_name, p.first_name, r.club.name, r.position, "=" if r.tied else "",
                        r.club_position, r.tournament.slug, r.entrant, r.vp, r.mp_difference, total,
                        event.name, event.date.isoformat()])
    return out


def federation_headings() -> list[str]:
    """The headings of :func:`federation_rows`."""
    return [_("Tessera"), _("Cognome"), _("Nome"), _("Circolo"), _("Posizione"), _("Pari merito"),
            _("Posizione nel circolo"), _("Torneo"), _("Numero"), "VP", _("Scarto MP"), _("Partecipanti"),
            _("Simultaneo"), _("Data")]
