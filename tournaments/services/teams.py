"""Teams of a team tournament (rules.md §15): registration by hand and by import, the
captain (their line-ups: ``lineups``; withdrawals: ``withdrawals``; a late team:
``late_entries``; forfeits: ``forfeits``)."""
from __future__ import annotations

from typing import Iterable

from django.db.models import Max
from django.utils.translation import gettext as _

from ..errors import ArbiterError
from ..kinds import kind_of
from ..models import AuditAction, Player, Team, Tournament
from ..text import clean_line
from .audit import audit
from .guard import write
from .locks import lock_tournament
from .member_links import link_players
from .pairs import PlayerData, clean_player, registration_import_refusal


def require_teams(tournament: Tournament) -> None:
    """Raise ``ArbiterError`` unless ``tournament`` registers teams (rules.md §15): the
    kind's own sentence."""
    refusal = kind_of(tournament).data.registration_refusals["team"]
    if refusal:
        raise ArbiterError(str(refusal))


def clean_team_entry(name: str, players: list[PlayerData]) -> tuple[str, list[PlayerData]]:
    """The team's name and players made storable (``clean_player``; the name at most 120
    characters, control characters removed, NUL refused)."""
    name = clean_line(name, label=_("Nome della squadra"), max_length=Team._meta.get_field("name").max_length)
    return name, [clean_player(p) for p in players]


def check_team_players(tournament: Tournament, players: list[PlayerData]) -> None:
    """Raise ``ArbiterError`` when ``players`` (already cleaned) cannot make a team of
    ``tournament``: fewer or more than its team size allows (rules.md §15), a name missing,
    the same membership number twice or one already registered in the tournament."""
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
    """Store team ``number`` with its ``players`` (checked by the caller), the first one its
    captain, and link the players to the member registry (rules.md §16). Inside a write's
    transaction (``add_team``, ``import_teams``, ``late_entries.add_late_team``); no audit."""
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
    audit(tournament=tournament, by=by, action=AuditAction.TEAM_ADDED,
          new={"team": number, "name": team.name, "players": [p.last_name for p in players]})
    return team


@write(retry=False)
def import_teams(*, tournament: Tournament, rows: Iterable, by) -> int:
    """Save the teams of a registration file (``registrations.teams.TeamRow``, already checked
    by ``registrations.teams.parse_teams``) all-or-nothing; returns how many teams. Refused
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
    audit(tournament=tournament, by=by, action=AuditAction.REGISTRATIONS_IMPORTED,
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
    audit(tournament=team.tournament, by=by, action=AuditAction.TEAM_CAPTAIN, old={"team": team.number, "captain": old},
          new={"team": team.number, "captain": player.display_name})
    return team
