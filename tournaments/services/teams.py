"""Teams of a team tournament (rules.md §15; issue 15 items 2–4): registration by hand and by
import, the captain, line-ups (entered by the arbiter or the team captain before the round is
published, defaulting to the previous one), withdrawals and forfeits."""
from __future__ import annotations

from typing import Iterable

from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from ..errors import ArbiterError
from ..models import LineMember, LineUp, Match, Pair, Player, Round, ScoreSheet, Team, Tournament
from .audit import _as_actor, audit
from .guard import refuse_integrity_errors
from .member_links import link_players
from .pairs import PlayerData, registration_import_refusal


def _require_teams(tournament: Tournament) -> None:
    if not tournament.is_teams:
        raise ArbiterError(_("Questo torneo non è a squadre."))


def _lock(tournament: Tournament) -> Tournament:
    return Tournament.objects.select_for_update().get(pk=tournament.pk)


def _check_players(tournament: Tournament, players: list[PlayerData]) -> None:
    low, high = tournament.team_min_players, tournament.team_max_players
    if not low <= len(players) <= high:
        raise ArbiterError(_("Una squadra ha da %(min)s a %(max)s giocatori (regole §15): qui sono %(count)s.")
                           % {"min": low, "max": high, "count": len(players)})
    seen = set()
    for p in players:
        if not p.first_name.strip() or not p.last_name.strip():
            raise ArbiterError(_("Nome e cognome del giocatore sono obbligatori."))
        membership = p.membership_number.strip()
        if not membership:
            continue
        if membership in seen:
            raise ArbiterError(_("La tessera %(membership)s compare due volte nella squadra.")
                               % {"membership": membership})
        seen.add(membership)
        clash = Player.objects.filter(tournament=tournament, membership_number=membership).first()
        if clash:
            raise ArbiterError(_("Il giocatore con tessera %(membership)s (%(name)s) è già iscritto al torneo.")
                               % {"membership": membership, "name": clash.display_name})


def _create_team(tournament: Tournament, *, number: int, name: str, players: list[PlayerData],
                 late: bool = False) -> Team:
    team = Team.objects.create(tournament=tournament, number=number, name=name.strip(), late_entry=late)
    created = [Player.objects.create(
        tournament=tournament, team=team, first_name=p.first_name.strip(), last_name=p.last_name.strip(),
        membership_number=p.membership_number.strip(), club=p.club.strip()) for p in players]
    team.captain = created[0]
    team.save(update_fields=["captain"])
    link_players(tournament)  # rules.md §16
    return team


@refuse_integrity_errors
@transaction.atomic
def add_team(*, tournament: Tournament, name: str, players: list[PlayerData], by,
             number: int | None = None) -> Team:
    """Register a team by hand (rules.md §15): ``name``, its players (``PlayerData``, 4 to 6 by
    the tournament's ``team_min_players``/``team_max_players``; the first is the captain) and a
    team number (``squadra``; default the next free one).

    Raises ``ArbiterError``: not a team tournament, the tournament already started (a late
    team: :func:`add_late_team`), a missing name, too few or too many players, a membership
    number twice or already registered, a team number already used or below 1.
    """
    tournament = _lock(tournament)
    _require_teams(tournament)
    if tournament.rounds.exists():
        raise ArbiterError(_("Il torneo è già iniziato: una squadra tardiva entra solo durante il turno 1 "
                             "al posto del riposo (regole §15, art. 33)."))
    if not name.strip():
        raise ArbiterError(_("Il nome della squadra è obbligatorio."))
    _check_players(tournament, players)
    if number is None:
        number = (tournament.teams.aggregate(m=Max("number"))["m"] or 0) + 1
    if number < 1:
        raise ArbiterError(_("Il numero della squadra deve essere almeno 1."))
    if tournament.teams.filter(number=number).exists():
        raise ArbiterError(_("La squadra %(number)s è già iscritta.") % {"number": number})
    team = _create_team(tournament, number=number, name=name, players=players)
    audit(tournament=tournament, by=by, action="team_added",
          new={"team": number, "name": team.name, "players": [p.last_name for p in players]})
    return team


@refuse_integrity_errors
@transaction.atomic
def import_teams(*, tournament: Tournament, rows: Iterable, by) -> int:
    """Save the teams of a registration file (``team_registrations.TeamRow``, already checked
    by ``team_registrations.parse_teams``) all-or-nothing; returns how many teams. Refused
    once the tournament has started or for a team the checks of :func:`add_team` refuse."""
    tournament = _lock(tournament)
    _require_teams(tournament)
    refusal = registration_import_refusal(tournament)
    if refusal:
        raise ArbiterError(refusal)
    rows = list(rows)
    for row in rows:
        _check_players(tournament, row.players)
        if tournament.teams.filter(number=row.number).exists():
            raise ArbiterError(_("La squadra %(number)s è già iscritta.") % {"number": row.number})
        _create_team(tournament, number=row.number, name=row.name, players=row.players)
    audit(tournament=tournament, by=by, action="registrations_imported",
          new={"teams": len(rows), "players": sum(len(r.players) for r in rows)})
    return len(rows)


@refuse_integrity_errors
@transaction.atomic
def set_team_captain(*, team: Team, player: Player, by) -> Team:
    """Make ``player`` (one of the team's players) the team captain. Raises ``ArbiterError``
    for a player of another team."""
    team = Team.objects.select_for_update().get(pk=team.pk)
    if player.team_id != team.pk:
        raise ArbiterError(_("%(player)s non è un giocatore della squadra %(team)s.")
                           % {"player": player.display_name, "team": team.number})
    old = team.captain.display_name if team.captain else None
    team.captain = player
    team.save(update_fields=["captain"])
    audit(tournament=team.tournament, by=by, action="team_captain", old={"team": team.number, "captain": old},
          new={"team": team.number, "captain": player.display_name})
    return team


# --------------------------------------------------------------------------- line-ups

def lineup_round(tournament: Tournament) -> int:
    """The round whose line-up may still be entered: the draft round, or the round after the
    last published or closed one (1 before any round)."""
    last = tournament.rounds.order_by("-number").first()
    if last is None:
        return 1
    return last.number if last.state == Round.State.DRAFT else last.number + 1


def _active_players(team: Team, number: int) -> list[Player]:
    return [p for p in team.members.order_by("pk") if p.is_active_in(number)]


def lineup_for(team: Team, number: int) -> list[list[Player]] | None:
    """The two pairs ``team`` fields in round ``number`` (rules.md §15): the line-up entered for
    that round; else the pairs it fielded in its latest earlier match; else its first four
    active players in registration order (1+2, 3+4). A player withdrawn since is replaced by
    the next active player not in the line-up. None when the team has fewer than four active
    players (it cannot field two pairs: it forfeits)."""
    active = _active_players(team, number)
    if len(active) < 4:
        return None
    by_id = {p.pk: p for p in active}
    chosen: list[list[int]] | None = None
    entered = team.lineups.filter(round_number=number).first()
    if entered is not None:
        chosen = entered.pairs
    else:
        previous = (Pair.objects.filter(team=team, round__number__lt=number, seats__isnull=False)
                    .order_by("-round__number", "team_line").select_related("round"))
        latest = [p for p in previous if p.round.number == previous[0].round.number] if previous else []
        if len(latest) == 2:
            chosen = [list(LineMember.objects.filter(pair=p).order_by("seat").values_list("player_id", flat=True))
                      for p in latest]
    if chosen is None:
        chosen = [[active[0].pk, active[1].pk], [active[2].pk, active[3].pk]]
    used = {pk for pair in chosen for pk in pair if pk in by_id}
    spare = [p.pk for p in active if p.pk not in used]
    out = []
    for pair in chosen:
        members = []
        for pk in pair:
            if pk not in by_id:
                pk = spare.pop(0)
            members.append(by_id[pk])
        out.append(members)
    return out


def _player_name(player: Player) -> str:
    return player.display_name


@refuse_integrity_errors
@transaction.atomic
def set_lineup(*, team: Team, pairs: list[list[int]], by, round_number: int | None = None) -> LineUp:
    """Enter the line-up of ``team`` for a round (rules.md §15, art. 2: "modificabili prima
    dell'inizio della partita"): two pairs of its players.

    Args:
        team: the team (its tournament row is locked).
        pairs: ``[[a, b], [c, d]]``: player ids, the first pair first (it sits N/S at the
            match's first table when the team is team A, E/W there when team B).
        by: the arbiter or the team captain (an ``Actor``).
        round_number: the round; default :func:`lineup_round` (the draft or the next round).
    Returns the ``LineUp``. When the round is a draft already, the team's pairs in it are
    changed at once (seats unchanged; the table list shows the new names).
    Raises ``ArbiterError``: the round already published or closed (the line-up is fixed),
    not two pairs of two players, a player in two pairs, a player of another team, a
    withdrawn player.
    """
    tournament = _lock(team.tournament)
    team = Team.objects.get(pk=team.pk)
    number = round_number if round_number is not None else lineup_round(tournament)
    rnd = tournament.rounds.filter(number=number).first()
    if rnd is not None and rnd.state != Round.State.DRAFT:
        raise ArbiterError(_("Il turno %(round)s è già pubblicato: la formazione è fissata (regole §15).")
                           % {"round": number})
    if len(pairs) != 2 or any(len(p) != 2 for p in pairs):
        raise ArbiterError(_("La formazione è di due coppie di due giocatori."))
    ids = [int(pk) for pair in pairs for pk in pair]
    if len(set(ids)) != 4:
        raise ArbiterError(_("Un giocatore non può stare in due coppie della stessa formazione."))
    players = {p.pk: p for p in Player.objects.filter(pk__in=ids, tournament=tournament)}
    for pk in ids:
        player = players.get(pk)
        if player is None or player.team_id != team.pk:
            name = _player_name(player) if player else str(pk)
            raise ArbiterError(_("%(player)s non è un giocatore della squadra %(team)s.")
                               % {"player": name, "team": team.number})
        if not player.is_active_in(number):
            raise ArbiterError(_("%(player)s si è ritirato: non può giocare il turno %(round)s.")
                               % {"player": _player_name(player), "round": number})
    old = team.lineups.filter(round_number=number).first()
    old_value = [[_player_name(p) for p in (old.first_1, old.first_2)],
                 [_player_name(p) for p in (old.second_1, old.second_2)]] if old else None
    lineup, _created = LineUp.objects.update_or_create(
        team=team, round_number=number,
        defaults={"first_1_id": ids[0], "first_2_id": ids[1], "second_1_id": ids[2], "second_2_id": ids[3],
                  "entered_by": _as_actor(by).label[:80]})
    if rnd is not None:
        formed = {p.team_line: p for p in rnd.formed_pairs.filter(team=team)}
        if formed:
            LineMember.objects.filter(round=rnd, pair__team=team).delete()
            for line, members in ((1, ids[:2]), (2, ids[2:])):
                for seat, pk in enumerate(members, start=1):
                    LineMember.objects.create(round=rnd, pair=formed[line], player_id=pk, seat=seat)
    audit(tournament=tournament, by=by, action="lineup_set", round_number=number, old=old_value and {
        "team": team.number, "pairs": old_value},
        new={"team": team.number, "pairs": [[_player_name(players[pk]) for pk in ids[:2]],
                                            [_player_name(players[pk]) for pk in ids[2:]]]})
    return lineup


# --------------------------------------------------------------------------- withdrawals, forfeits

@refuse_integrity_errors
@transaction.atomic
def withdraw_team(*, team: Team, from_round: int, by, reason: str = "") -> Team:
    """Withdraw ``team`` from round ``from_round`` on (rules.md §15, art. 32): it keeps its
    results; a round-robin opponent gets the forced rest (28 of 40 by default), a Danish round
    no longer pairs it. Refused for a round already published (forfeit that match instead:
    :func:`forfeit_match`) or a team already withdrawn."""
    tournament = _lock(team.tournament)
    team = Team.objects.get(pk=team.pk)
    if team.status == Team.Status.WITHDRAWN:
        raise ArbiterError(_("La squadra %(team)s è già ritirata.") % {"team": team.number})
    if tournament.rounds.filter(number__gte=from_round).exclude(state=Round.State.DRAFT).exists():
        raise ArbiterError(_("Il turno %(round)s è già pubblicato: la squadra può solo dare forfait in "
                             "quell'incontro.") % {"round": from_round})
    team.status, team.withdrawn_from_round = Team.Status.WITHDRAWN, from_round
    team.save(update_fields=["status", "withdrawn_from_round"])
    audit(tournament=tournament, by=by, action="team_withdrawn", round_number=from_round, reason=reason,
          new={"team": team.number, "from_round": from_round})
    return team


def remove_match_tables(match: Match) -> None:
    """Delete the two tables of ``match`` (seats and sheets with them) and the pairs its teams
    fielded in that round (with their line members)."""
    tables = [t for t in (match.table_1, match.table_2) if t is not None]
    for table in tables:
        table.delete()
    Pair.objects.filter(round=match.round, team__in=match.teams).delete()


@refuse_integrity_errors
@transaction.atomic
def forfeit_match(*, match: Match, team: Team, by, reason: str = "") -> Match:
    """``team`` cannot field two pairs in ``match``: it forfeits (rules.md §15); its opponent
    scores the rest VP (28 of 40 by default) and the forfeiting team nothing. The match's two
    tables are removed. Refused once a sheet of the match is entered, for a closed round, or
    for a team not in the match."""
    # of=self: PostgreSQL refuses FOR UPDATE on the nullable side of the tables' outer joins
    match = (Match.objects.select_for_update(of=("self",)).select_related("round", "table_1", "table_2")
             .get(pk=match.pk))
    if match.round.state == Round.State.CLOSED:
        raise ArbiterError(_("Il turno è chiuso: l'incontro non si cambia più."))
    if team.pk not in (match.team_a_id, match.team_b_id) or match.team_b_id is None:
        raise ArbiterError(_("La squadra %(team)s non gioca questo incontro.") % {"team": team.number})
    tables = [t for t in (match.table_1_id, match.table_2_id) if t]
    if ScoreSheet.objects.filter(table_id__in=tables).exclude(state=ScoreSheet.State.EMPTY).exists():
        raise ArbiterError(_("Uno score dell'incontro è già inserito: il forfait non è più possibile."))
    remove_match_tables(match)
    Match.objects.filter(pk=match.pk).update(bye=Match.Bye.FORFEIT, forfeit_by=team, table_1=None, table_2=None)
    match.refresh_from_db()
    audit(tournament=match.round.tournament, by=by, action="match_forfeit", round_number=match.round.number,
          reason=reason, new={"match": match.number, "team": team.number})
    return match


# --------------------------------------------------------------------------- a late team

def late_team_refusal(tournament: Tournament) -> str | None:
    """Why a late team cannot enter now, or None (rules.md §15 with §5, art. 33 applied to
    teams): only while round 1 is drawn or played (not closed, round 2 not paired) and only to
    complete the match of the resting team."""
    rnd = tournament.rounds.filter(number=1).first()
    if rnd is None:
        return _("Il torneo non è iniziato: iscrivi la squadra normalmente.")
    if rnd.state == Round.State.CLOSED or tournament.rounds.filter(number__gt=1).exists():
        return _("Una squadra tardiva entra solo durante il turno 1 (regole §15, art. 33).")
    if not rnd.matches.filter(bye=Match.Bye.REST).exists():
        return _("Nel turno 1 non riposa nessuna squadra: una squadra tardiva non può entrare (art. 33).")
    return None


@refuse_integrity_errors
@transaction.atomic
def add_late_team(*, tournament: Tournament, name: str, players: list[PlayerData], by) -> Team:
    """A late team (rules.md §15, art. 33): registered with the next team number during round
    1, it plays the resting team (the match's two tables are created, with score sheets when the
    round is published; its line-up is its first four players). In a round robin it takes the
    phantom's slot (the highest number, last in the schedule; the resting team's group), so the
    other teams' schedule does not change; the engine decides who sits N/S.

    Raises ``ArbiterError``: :func:`late_team_refusal`, and the checks of :func:`add_team`.
    """
    import pairing

    from .drafts import _record_adjusted_inputs, draft_staleness
    from .team_rounds import build_team_request, write_match

    tournament = _lock(tournament)
    _require_teams(tournament)
    refusal = late_team_refusal(tournament)
    if refusal:
        raise ArbiterError(refusal)
    if not name.strip():
        raise ArbiterError(_("Il nome della squadra è obbligatorio."))
    _check_players(tournament, players)
    rnd = tournament.rounds.get(number=1)
    draft_was_current = rnd.state == Round.State.DRAFT and not draft_staleness(rnd)
    match = rnd.matches.select_related("team_a").get(bye=Match.Bye.REST)
    resting = match.team_a
    number = (tournament.teams.aggregate(m=Max("number"))["m"] or 0) + 1
    team = _create_team(tournament, number=number, name=name, players=players, late=True)
    if resting.group is not None:
        team.group = resting.group
        team.save(update_fields=["group"])
    request = build_team_request(tournament, 1, seed=rnd.seed)
    try:
        answer = pairing.run(request)
    except pairing.PairingError:
        answer = {"tables": []}
    late_first = any(t.get("ns") == number and t.get("ew") == resting.number for t in answer.get("tables", []))
    match.team_a, match.team_b = (team, resting) if late_first else (resting, team)
    match.bye = Match.Bye.NONE
    match.save(update_fields=["team_a", "team_b", "bye"])
    next_pair = (Pair.objects.filter(tournament=tournament).aggregate(m=Max("number"))["m"] or 0) + 1
    write_match(rnd, match, next_pair)
    if rnd.state == Round.State.PUBLISHED:
        for table in (match.table_1, match.table_2):
            ScoreSheet.objects.get_or_create(table=table)
    rnd.pairing_request = request
    rnd.save(update_fields=["pairing_request"])
    if draft_was_current:
        _record_adjusted_inputs(rnd)  # completed on purpose: not an outdated draft (rules.md §12)
    audit(tournament=tournament, by=by, action="late_team_added", round_number=1,
          new={"team": number, "name": team.name, "opponent": resting.number,
               "tables": [match.table_1.number, match.table_2.number]})
    return team
