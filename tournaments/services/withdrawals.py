"""Withdrawals (rules.md §5, art. 32) of a pair, an individual player (§9) or a team (§15),
and their undo.

An entrant withdrawn from round k keeps its results of earlier rounds; if round k is
published its opponents get a forced rest there. The withdrawal is undone while round k is
not published: nothing was played or seated without the entrant yet. A draft of round k
drawn after the withdrawal becomes outdated again (``services.draft_staleness`` compares the
inputs it was drawn from) and is drawn again before publishing (rules.md §12). Once round k
is published the withdrawal stands: its tables were changed (forced rests) and may already
be played.
"""
from __future__ import annotations

from django.db.models import Max
from django.utils.translation import gettext as _

from ..errors import ArbiterError
from ..models import AuditAction, LineMember, Pair, Player, Round, ScoreSheet, Seat, Table, Team, Tournament
from .audit import audit
from .guard import write
from .locks import lock_round, lock_tables, lock_tournament

_ACTIONS = {Pair: AuditAction.PAIR_WITHDRAWAL_UNDONE, Player: AuditAction.PLAYER_WITHDRAWAL_UNDONE,
            Team: AuditAction.TEAM_WITHDRAWAL_UNDONE}
_KEYS = {Pair: "pair", Player: "player", Team: "team"}


def withdrawal_undo_refusal(entrant: Pair | Player | Team) -> str | None:
    """Why the withdrawal of ``entrant`` (a ``Pair``, ``Player`` or ``Team``) cannot be undone
    now, or None: it is not withdrawn, or the round it withdrew from is already published or
    closed."""
    if entrant.status != "withdrawn" or entrant.withdrawn_from_round is None:
        return _("Non è ritirato: non c'è un ritiro da annullare.")
    tournament: Tournament = entrant.tournament
    drawn = (tournament.rounds.filter(number__gte=entrant.withdrawn_from_round)
             .exclude(state=Round.State.DRAFT).order_by("number").first())
    if drawn is not None:
        return _("Il turno %(round)s è già pubblicato: il ritiro non si annulla più (i tavoli sono "
                 "stati cambiati senza di lui).") % {"round": drawn.number}
    return None


@write
def undo_withdrawal(*, entrant: Pair | Player | Team, by, reason: str = "") -> Pair | Player | Team:
    """Put a withdrawn ``entrant`` (``Pair``, ``Player`` or ``Team``) back in play from the round
    it withdrew from (audited, with ``reason``). Raises ``ArbiterError``:
    :func:`withdrawal_undo_refusal`."""
    model = type(entrant)
    lock_tournament(entrant.tournament_id)  # who plays: services.locks
    entrant = model.objects.select_for_update().get(pk=entrant.pk)
    refusal = withdrawal_undo_refusal(entrant)
    if refusal:
        raise ArbiterError(refusal)
    from_round = entrant.withdrawn_from_round
    entrant.status, entrant.withdrawn_from_round = "active", None
    entrant.save(update_fields=["status", "withdrawn_from_round"])
    audit(tournament=entrant.tournament, by=by, action=_ACTIONS[model], round_number=from_round, reason=reason,
          old={_KEYS[model]: entrant.number, "from_round": from_round}, new={_KEYS[model]: entrant.number})
    return entrant


@write
def withdraw_pair(*, pair: Pair, from_round: int, by, reason: str = "") -> Pair:
    """Withdraw a pair from round ``from_round`` on (rules.md §5–6, art. 32).

    It keeps its results of earlier rounds. If round ``from_round`` is published, its
    opponent gets the forced rest (*riposo forzato*) there; if it is a draft, the
    draft becomes outdated (``services.draft_staleness``) and must be drawn again
    without the pair before it can be published (rules.md §12). Refused for a round
    already closed or before a round whose sheet the pair already played.
    """
    # the tournament first (services.locks): a draw in progress finishes with the pair in
    # play, or starts after the withdrawal; never reads the pairs in between
    tournament = lock_tournament(pair.tournament)
    pair = Pair.objects.select_for_update().get(pk=pair.pk)
    if pair.status == Pair.Status.WITHDRAWN:
        raise ArbiterError(_("La coppia %(pair)s è già ritirata dal turno %(round)s.")
                           % {"pair": pair.number, "round": pair.withdrawn_from_round})
    closed = tournament.rounds.filter(number__gte=from_round, state=Round.State.CLOSED).exists()
    if closed or from_round < 1:
        raise ArbiterError(_("Il turno %(round)s è già chiuso: il ritiro vale dal primo turno non chiuso.")
                           % {"round": from_round})
    rnd = tournament.rounds.filter(number=from_round).first()
    if rnd is not None and rnd.state == Round.State.DRAFT:
        # Drawn with the pair in it: the draft stays as it was drawn and is now outdated
        # (rules.md §12); publishing refuses it until the arbiter draws it again.
        rnd = None
    if rnd is not None:
        rnd = lock_round(rnd)
        lock_tables(rnd)
        seat = rnd.seats.select_related("table").filter(pair=pair).first()
        if seat is not None:
            table = seat.table
            sheet = ScoreSheet.objects.filter(table=table).first()
            if sheet is not None and sheet.state != ScoreSheet.State.EMPTY:
                raise ArbiterError(
                    _("Al tavolo %(table)s del turno %(round)s lo score è già inserito: "
                      "ritira la coppia dal turno successivo.") % {"table": table.number, "round": from_round}
                )
            if sheet is not None:
                sheet.delete()
            seat.delete()
            if table.bye:
                table.delete()
            else:
                table.bye = Table.Bye.FORCED  # the opponent keeps its seat and line
                table.save(update_fields=["bye"])
    pair.status = Pair.Status.WITHDRAWN
    pair.withdrawn_from_round = from_round
    pair.save(update_fields=["status", "withdrawn_from_round"])
    audit(tournament=tournament, by=by, action=AuditAction.PAIR_WITHDRAWN, reason=reason, round_number=from_round,
          new={"pair": pair.number, "from_round": from_round})
    return pair


def _forced_rest_table(rnd: Round, player: Player, number: int) -> Table:
    table = Table.objects.create(round=rnd, number=number, bye=Table.Bye.FORCED)
    next_pair = (Pair.objects.filter(tournament=rnd.tournament).aggregate(m=Max("number"))["m"] or 0) + 1
    pair = Pair.objects.create(tournament=rnd.tournament, number=next_pair, round=rnd)
    LineMember.objects.create(round=rnd, pair=pair, player=player, seat=1)
    Seat.objects.create(round=rnd, table=table, pair=pair, line=Seat.Line.NS)
    return table


@write
def withdraw_player(*, player: Player, from_round: int, by, reason: str = "") -> Player:
    """Withdraw a player of an individual tournament from round ``from_round`` on
    (rules.md §5, §9, art. 32).

    He keeps his results of earlier rounds. If round ``from_round`` is published and his
    table has no sheet entered yet, his table is broken up: his partner and both opponents
    each get a forced rest (*riposo forzato*, scored as a rest, rules.md §5) at a table of
    their own after the last one; if he was resting, his rest table goes. A draft of that
    round becomes outdated (rules.md §12) and must be drawn again. Refused for a closed
    round, for a player already withdrawn, or when his sheet is already entered.
    """
    tournament = lock_tournament(player.tournament)  # who plays: services.locks
    player = Player.objects.select_for_update().get(pk=player.pk)
    if player.status == Player.Status.WITHDRAWN:
        raise ArbiterError(_("Il giocatore %(player)s è già ritirato dal turno %(round)s.")
                           % {"player": player.number, "round": player.withdrawn_from_round})
    if from_round < 1 or tournament.rounds.filter(number__gte=from_round, state=Round.State.CLOSED).exists():
        raise ArbiterError(_("Il turno %(round)s è già chiuso: il ritiro vale dal primo turno non chiuso.")
                           % {"round": from_round})
    rnd = tournament.rounds.filter(number=from_round, state=Round.State.PUBLISHED).first()
    forced: list[int] = []
    if rnd is not None:
        rnd = lock_round(rnd)
        lock_tables(rnd)
        member = LineMember.objects.filter(round=rnd, player=player).select_related("pair").first()
        if member is not None:
            seat = member.pair.seats.select_related("table").get()
            table = seat.table
            sheet = ScoreSheet.objects.filter(table=table).first()
            if sheet is not None and sheet.state != ScoreSheet.State.EMPTY:
                raise ArbiterError(
                    _("Al tavolo %(table)s del turno %(round)s lo score è già inserito: "
                      "ritira il giocatore dal turno successivo.") % {"table": table.number, "round": from_round})
            others = [m.player for m in LineMember.objects.filter(pair__seats__table=table)
                      .exclude(player=player).select_related("player").order_by("player__number")]
            pairs = list(Pair.objects.filter(seats__table=table))
            table.delete()  # sheet and seats go with it
            for pair in pairs:
                pair.delete()  # line members go with it
            last = rnd.tables.aggregate(m=Max("number"))["m"] or 0
            for i, other in enumerate(others, start=1):
                _forced_rest_table(rnd, other, last + i)
                forced.append(other.number)
    player.status = Player.Status.WITHDRAWN
    player.withdrawn_from_round = from_round
    player.save(update_fields=["status", "withdrawn_from_round"])
    audit(tournament=tournament, by=by, action=AuditAction.PLAYER_WITHDRAWN, reason=reason, round_number=from_round,
          new={"player": player.number, "from_round": from_round, "forced_rest": forced})
    return player


@write
def withdraw_team(*, team: Team, from_round: int, by, reason: str = "") -> Team:
    """Withdraw ``team`` from round ``from_round`` on (rules.md §15, art. 32): it keeps its
    results; a round-robin opponent gets the forced rest (28 of 40 by default), a Danish round
    no longer pairs it. Refused for a round already published (forfeit that match instead:
    :func:`forfeit_match`) or a team already withdrawn."""
    tournament = lock_tournament(team.tournament)
    team = Team.objects.get(pk=team.pk)
    if team.status == Team.Status.WITHDRAWN:
        raise ArbiterError(_("La squadra %(team)s è già ritirata.") % {"team": team.number})
    if tournament.rounds.filter(number__gte=from_round).exclude(state=Round.State.DRAFT).exists():
        raise ArbiterError(_("Il turno %(round)s è già pubblicato: la squadra può solo dare forfait in "
                             "quell'incontro.") % {"round": from_round})
    team.status, team.withdrawn_from_round = Team.Status.WITHDRAWN, from_round
    team.save(update_fields=["status", "withdrawn_from_round"])
    audit(tournament=tournament, by=by, action=AuditAction.TEAM_WITHDRAWN, round_number=from_round, reason=reason,
          new={"team": team.number, "from_round": from_round})
    return team
