"""Line-ups of a team tournament (rules.md §15, art. 2): the two pairs a team fields in a
round, entered by the arbiter or the team captain before the round is published (the
default when none is entered: ``selectors.teams.resolve_lineup``)."""
from __future__ import annotations

from django.utils.translation import gettext as _

from ..errors import ArbiterError
from ..models import AuditAction, LineMember, LineUp, Player, Round, Team
from ..selectors.teams import lineup_round
from ._common import as_actor
from .audit import audit
from .guard import write
from .locks import lock_tournament


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
    audit(tournament=tournament, by=by, action=AuditAction.LINEUP_SET, round_number=number, old=old_value and {
        "team": team.number, "pairs": old_value},
        new={"team": team.number, "pairs": [[_player_name(players[pk]) for pk in ids[:2]],
                                            [_player_name(players[pk]) for pk in ids[2:]]]})
    return lineup
