"""Players of an individual tournament (rules.md §9): registration by hand and by
import (their withdrawal: ``withdrawals``; a late player: ``late_entries``; a player's
penalty: ``penalties``)."""
from __future__ import annotations

from typing import Iterable

from django.db.models import Max
from django.utils.translation import gettext as _

from ..errors import ArbiterError
from ..kinds import kind_of
from ..models import AuditAction, Player, Round, Tournament
from .audit import audit
from .guard import write
from .locks import lock_tournament
from .member_links import assign_members, link_players
from .pairs import PlayerData, clean_player, registration_import_refusal
from .removal import refuse_removal


def require_individual(tournament: Tournament) -> None:
    """Raise ``ArbiterError`` unless ``tournament`` registers single players (an individual
    tournament, rules.md §9): the kind's own sentence."""
    refusal = kind_of(tournament).data.registration_refusals["player"]
    if refusal:
        raise ArbiterError(str(refusal))


def _check_player(tournament: Tournament, player: PlayerData, *, exclude: Player | None = None) -> None:
    if not player.first_name.strip() or not player.last_name.strip():
        raise ArbiterError(_("Nome e cognome del giocatore sono obbligatori."))
    membership = player.membership_number.strip()
    if membership:
        clash = Player.objects.filter(tournament=tournament, membership_number=membership)
        if exclude is not None:
            clash = clash.exclude(pk=exclude.pk)
        clash = clash.first()
        if clash:
            raise ArbiterError(
                _("Il giocatore con tessera %(membership)s (%(name)s) è già iscritto al torneo.")
                % {"membership": membership, "name": clash.display_name})


def next_player_number(tournament: Tournament) -> int:
    """The number the next player registered in ``tournament`` gets: one after the highest."""
    return (Player.objects.filter(tournament=tournament).aggregate(m=Max("number"))["m"] or 0) + 1


@write(retry=False)
def add_player(*, tournament: Tournament, player: PlayerData, by, number: int | None = None,
               late: bool = False) -> Player:
    """Register a single player of an individual tournament (rules.md §9).

    Args:
        tournament: an individual tournament.
        player: names (required), membership number and club.
        number: the player's number (default: the next free one).
        late: only through :func:`add_late_player` (round 1, art. 33).
    Raises:
        ArbiterError: a pair tournament, a missing name, a membership number already
            registered, a number already used, or the tournament already started.
    """
    tournament = lock_tournament(tournament)
    require_individual(tournament)
    if not late and tournament.rounds.exists():
        raise ArbiterError(_("Il torneo è già iniziato: un giocatore tardivo può entrare solo durante il "
                             "turno 1 per completare un tavolo incompleto (regole §9)."))
    player = clean_player(player)
    _check_player(tournament, player)
    if number is None:
        number = next_player_number(tournament)
    if number < 1:
        raise ArbiterError(_("Il numero del giocatore deve essere almeno 1."))
    if Player.objects.filter(tournament=tournament, number=number).exists():
        raise ArbiterError(_("Il numero di giocatore %(number)s è già usato.") % {"number": number})
    created = Player.objects.create(
        tournament=tournament, number=number, late_entry=late,
        first_name=player.first_name.strip(), last_name=player.last_name.strip(),
        membership_number=player.membership_number.strip(), club=player.club.strip(),
    )
    link_players(tournament)  # rules.md §16
    audit(tournament=tournament, by=by, action=AuditAction.PLAYER_ADDED,
          new={"number": number, "player": created.display_name, "late": late})
    return created


def player_has_played(player: Player) -> bool:
    """Whether ``player`` sits in a published or closed round (art. 32)."""
    return player.lines.exclude(round__state=Round.State.DRAFT).exists()


@write(retry=False)
def remove_player(*, player: Player, by) -> None:
    """Delete a registered player. Refused once he is in a round (use withdrawal), or when
    another app's check refuses (:mod:`.removal`: a fee paid)."""
    lock_tournament(player.tournament)  # who plays: services.locks
    player = Player.objects.filter(pk=player.pk).first()
    if player is None:
        raise ArbiterError(_("Il giocatore è già stato cancellato (da un'altra finestra)."))
    if player.lines.exists():
        raise ArbiterError(_("Il giocatore %(player)s è già in un turno: non si può cancellare, si può solo "
                             "ritirare.") % {"player": player.number})
    refuse_removal([player])  # e.g. a fee paid at the door (money, rules.md §21)
    tournament = player.tournament
    old = {"number": player.number, "player": player.display_name}
    player.delete()
    audit(tournament=tournament, by=by, action=AuditAction.PLAYER_REMOVED, old=old)


@write(retry=False)
def import_players(*, tournament: Tournament, rows: Iterable, by) -> int:
    """Save the rows of a player registration file (``registrations.PlayerRow``, already
    validated by ``registrations.parse_players``) all-or-nothing; returns how many players."""
    tournament = lock_tournament(tournament)
    require_individual(tournament)
    refusal = registration_import_refusal(tournament)
    if refusal:
        raise ArbiterError(refusal)
    rows = list(rows)
    # the file's reader refuses control characters; bidirectional overrides go here
    cleaned = [clean_player(row.player) for row in rows]
    players = [
        Player(tournament=tournament, number=row.number, first_name=p.first_name,
               last_name=p.last_name, membership_number=p.membership_number, club=p.club)
        for row, p in zip(rows, cleaned, strict=True)
    ]
    assign_members(tournament, players)  # rules.md §16
    Player.objects.bulk_create(players, batch_size=500)
    audit(tournament=tournament, by=by, action=AuditAction.REGISTRATIONS_IMPORTED, new={"players": len(rows)})
    return len(rows)
