"""Teams of a team tournament (rules.md §15): registration by hand and by
import, the captain, line-ups (entered by the arbiter or the team captain before the round is
published, defaulting to the last one entered or played), withdrawals; forfeits: forfeits.py."""
from __future__ import annotations

from typing import Iterable

from django.db.models import Max
from django.utils.translation import gettext as _

from ..errors import ArbiterError
from ..kinds import kind_of
from ..models import LineMember, LineUp, Player, Round, Team, Tournament
from ..selectors.teams import LineupChoice, lineup_for, resolve_lineup  # noqa: F401  (read here before)
from ..text import clean_line
from ._common import as_actor
from .audit import audit
from .guard import write
from .locks import lock_tournament
from .member_links import link_players
from .pairs import PlayerData, clean_player, registration_import_refusal


def require_teams(tournament: Tournament) -> None:
    refusal = kind_of(tournament).registration_refusal("team")
    if refusal:
        raise ArbiterError(refusal)


def clean_team_entry(name: str, players: list[PlayerData]) -> tuple[str, list[PlayerData]]:
    """The team's name and players made storable (``clean_player``; the name at most 120
    characters, control characters removed, NUL refused)."""
    name = clean_line(name, label=_("Nome della squadra"), max_length=Team._meta.get_field("name").max_length)
    return name, [clean_player(p) for p in players]


def check_team_players(tournament: Tournament, players: list[PlayerData]) -> None:
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


def create_team(tournament: Tournament, *, number: int, name: str, players: list[PlayerData],
                 late: bool = False) -> Team:
    team = Team.objects.create(tournament=tournament, number=number, name=name.strip(), late_entry=late)
    created = [Player.objects.create(
        tournament=tournament, team=team, first_name=p.first_name.strip(), last_name=p.last_name.strip(),
        membership_number=p.membership_number.strip(), club=p.club.strip()) for p in players]
    team.captain = created[0]
    team.save(update_fields=["captain"])
    link_players(tournament)  # rules.md §16
    return team


@write(retry=False)
def add_team(*, tournament: Tournament, name: str, players: list[PlayerData], by,
             number: int | None = None) -> Team:
    """Register a team by hand (rules.md §15): ``name``, its players (``PlayerData``, 4 to 6 by
    the tournament's ``team_min_players``/``team_max_players``; the first is the captain) and a
    team number (``squadra``; default the next free one).

    Raises ``ArbiterError``: not a team tournament, the tournament already started (a late
    team: :func:`add_late_team`), a missing name, too few or too many players, a membership
    number twice or already registered, a team number already used or below 1.
    """
    tournament = lock_tournament(tournament)  # who plays: the first lock (services.locks)
    require_teams(tournament)
    if tournament.rounds.exists():
        raise ArbiterError(_("Il torneo è già iniziato: una squadra tardiva entra solo durante il turno 1 "
                             "al posto del riposo (regole §15, art. 33)."))
    name, players = clean_team_entry(name, players)
    if not name.strip():
        raise ArbiterError(_("Il nome della squadra è obbligatorio."))
    check_team_players(tournament, players)
    if number is None:
        number = (tournament.teams.aggregate(m=Max("number"))["m"] or 0) + 1
    if number < 1:
        raise ArbiterError(_("Il numero della squadra deve essere almeno 1."))
    if tournament.teams.filter(number=number).exists():
        raise ArbiterError(_("La squadra %(number)s è già iscritta.") % {"number": number})
    team = create_team(tournament, number=number, name=name, players=players)
    audit(tournament=tournament, by=by, action="team_added",
          new={"team": number, "name": team.name, "players": [p.last_name for p in players]})
    return team


@write(retry=False)
def import_teams(*, tournament: Tournament, rows: Iterable, by) -> int:
    """Save the teams of a registration file (``team_registrations.TeamRow``, already checked
    by ``team_registrations.parse_teams``) all-or-nothing; returns how many teams. Refused
    once the tournament has started or for a team the checks of :func:`add_team` refuse."""
    tournament = lock_tournament(tournament)  # who plays: the first lock (services.locks)
    require_teams(tournament)
    refusal = registration_import_refusal(tournament)
    if refusal:
        raise ArbiterError(refusal)
    rows = list(rows)
    for row in rows:
        name, players = clean_team_entry(row.name, row.players)
        check_team_players(tournament, players)
        if tournament.teams.filter(number=row.number).exists():
            raise ArbiterError(_("La squadra %(number)s è già iscritta.") % {"number": row.number})
        create_team(tournament, number=row.number, name=name, players=players)
    audit(tournament=tournament, by=by, action="registrations_imported",
          new={"teams": len(rows), "players": sum(len(r.players) for r in rows)})
    return len(rows)


@write(retry=False)
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


def lineup_origin_text(choice: LineupChoice | None, number: int) -> str:
    """A sentence saying where the line-up of round ``number`` comes from (the draft and the
    line-up pages), with the withdrawn players replaced; "" for None."""
    if choice is None:
        return ""
    if choice.source == "entered" and choice.from_round == number:
        text = _("Formazione inserita per il turno %(round)s.") % {"round": number}
    elif choice.source == "entered":
        text = _("Formazione inserita per il turno %(round)s (nessuna nuova formazione da allora).") % {
            "round": choice.from_round}
    elif choice.source == "played":
        text = _("Formazione giocata nel turno %(round)s.") % {"round": choice.from_round}
    else:
        text = _("Nessuna formazione inserita: i primi quattro giocatori iscritti.")
    for gone, substitute in choice.replaced:
        text += " " + _("%(gone)s si è ritirato: al suo posto %(substitute)s.") % {
            "gone": gone.display_name, "substitute": substitute.display_name}
    return text


def _player_name(player: Player) -> str:
    return player.display_name


@write(retry=False)
def set_lineup(*, team: Team, pairs: list[list[int]], by, round_number: int | None = None) -> LineUp:
    """Enter the line-up of ``team`` for a round (rules.md §15, art. 2: "modificabili prima
    dell'inizio della partita"): two pairs of its players.

    Args:
        team: the team (its tournament row is locked).
        pairs: ``[[a, b], [c, d]]``: player ids, the first pair first (it sits N/S at the
            match's first table when the team is team A, E/W there when team B).
        by: the arbiter or the team captain (an ``Actor``).
        round_number: the round; default :func:`lineup_round` (the draft or the next round),
            the only round accepted.
    Returns the ``LineUp``. When the round is a draft already, the team's pairs in it are
    changed at once (seats unchanged; the table list shows the new names).
    Raises ``ArbiterError``: the round already published or closed (the line-up is fixed),
    any other round than :func:`lineup_round`, not two pairs of two players, a player in two pairs, a player of another team, a
    withdrawn player.
    """
    tournament = lock_tournament(team.tournament)
    team = Team.objects.get(pk=team.pk)
    number = round_number if round_number is not None else lineup_round(tournament)
    rnd = tournament.rounds.filter(number=number).first()
    if rnd is not None and rnd.state != Round.State.DRAFT:
        raise ArbiterError(_("Il turno %(round)s è già pubblicato: la formazione è fissata (regole §15).")
                           % {"round": number})
    if number != lineup_round(tournament):  # a later round's line-up is chosen after this one
        raise ArbiterError(_("La formazione si inserisce solo per il prossimo turno, il %(next)s (non il "
                             "turno %(round)s).") % {"next": lineup_round(tournament), "round": number})
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
                  "entered_by": as_actor(by).label[:80]})
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


# --------------------------------------------------------------------------- withdrawals
# (forfeits: services/forfeits.py)
