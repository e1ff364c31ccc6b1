"""Players of an individual tournament (rules.md §9): registration by hand and by
import, withdrawal (the partner and the opponents get a forced rest), a late player in
round 1, penalties per player."""
from __future__ import annotations

from decimal import Decimal
from typing import Iterable

from django.db.models import Max
from django.utils.translation import gettext as _

from ..errors import ArbiterError
from ..kinds import kind_of
from ..models import LineMember, Pair, Penalty, Player, Round, ScoreSheet, Seat, Table, Tournament
from ._common import as_actor
from .audit import audit, clean_reason
from .guard import write
from .locks import lock_round, lock_tables, lock_tournament
from .member_links import assign_members, link_players
from .pairs import PlayerData, clean_player, registration_import_refusal
from .removal import refuse_removal


def _require_individual(tournament: Tournament) -> None:
    refusal = kind_of(tournament).registration_refusal("player")
    if refusal:
        raise ArbiterError(refusal)


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


def _next_number(tournament: Tournament) -> int:
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
    _require_individual(tournament)
    if not late and tournament.rounds.exists():
        raise ArbiterError(_("Il torneo è già iniziato: un giocatore tardivo può entrare solo durante il "
                             "turno 1 per completare un tavolo incompleto (regole §9)."))
    player = clean_player(player)
    _check_player(tournament, player)
    if number is None:
        number = _next_number(tournament)
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
    audit(tournament=tournament, by=by, action="player_added",
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
    audit(tournament=tournament, by=by, action="player_removed", old=old)


@write(retry=False)
def import_players(*, tournament: Tournament, rows: Iterable, by) -> int:
    """Save the rows of a player registration file (``registrations.PlayerRow``, already
    validated by ``registrations.parse_players``) all-or-nothing; returns how many players."""
    tournament = lock_tournament(tournament)
    _require_individual(tournament)
    refusal = registration_import_refusal(tournament)
    if refusal:
        raise ArbiterError(refusal)
    rows = list(rows)
    # the file's reader refuses control characters; bidirectional overrides go here
    cleaned = [clean_player(row.player) for row in rows]
    players = [
        Player(tournament=tournament, number=row.number, first_name=p.first_name,
               last_name=p.last_name, membership_number=p.membership_number, club=p.club)
        for row, p in zip(rows, cleaned)
    ]
    assign_members(tournament, players)  # rules.md §16
    Player.objects.bulk_create(players, batch_size=500)
    audit(tournament=tournament, by=by, action="registrations_imported", new={"players": len(rows)})
    return len(rows)


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
    audit(tournament=tournament, by=by, action="player_withdrawn", reason=reason, round_number=from_round,
          new={"player": player.number, "from_round": from_round, "forced_rest": forced})
    return player


def late_player_refusal(tournament: Tournament) -> str | None:
    """Why a late player cannot enter now, or ``None`` (rules.md §9: only during round 1 and
    only to fill an incomplete table: three players rest in round 1, the late one makes the
    fourth of their table)."""
    rounds = list(tournament.rounds.order_by("number"))
    if not rounds:
        return _("Il torneo non è ancora iniziato: iscrivi il giocatore dalla pagina dei giocatori.")
    if len(rounds) > 1 or rounds[0].state == Round.State.CLOSED:
        return _("Il turno 1 è finito: un giocatore tardivo può entrare solo durante il turno 1, "
                 "per completare un tavolo incompleto (regole §9).")
    if rounds[0].tables.filter(bye=Table.Bye.REST).count() != 3:
        return _("Non c'è un tavolo incompleto da completare: un giocatore tardivo entra solo quando "
                 "nel turno 1 riposano tre giocatori, e ne diventa il quarto (regole §9).")
    return None


def late_player_preview(tournament: Tournament) -> dict | None:
    """Where a late player would sit now (rules.md §9, :func:`add_late_player`), for the
    arbiter's confirmation: ``{"number": his number, "table": table number, "ns": [r1, r2],
    "ew": [r3, number], "round": 1}`` (player numbers); ``None`` when
    :func:`late_player_refusal` refuses."""
    if late_player_refusal(tournament):
        return None
    rnd = tournament.rounds.get(number=1)
    rests = list(rnd.tables.filter(bye=Table.Bye.REST).order_by("number"))
    resting = [LineMember.objects.filter(pair__seats__table=t).values_list("player__number", flat=True).get()
               for t in rests]
    number = _next_number(tournament)
    return {"number": number, "table": rests[0].number, "ns": resting[:2], "ew": [resting[2], number],
            "round": 1, "published": rnd.state == Round.State.PUBLISHED}


@write(retry=False)
def add_late_player(*, tournament: Tournament, player: PlayerData, by) -> Player:
    """A late player (rules.md §9, art. 33): only during round 1 and only to fill the
    incomplete table, i.e. when three players rest in round 1 (:func:`late_player_refusal`).
    With resting players r1, r2, r3 (rest tables in order) and the late player L last, the
    four sit as a first round seats them: r1+r2 (N/S) v r3+L (E/W) at r1's rest table (by
    number: 9+10 v 11+12); the other two rest tables go; on a published round the table's
    score sheet opens and the checker re-reads the round."""
    tournament = lock_tournament(tournament)
    _require_individual(tournament)
    refusal = late_player_refusal(tournament)
    if refusal:
        raise ArbiterError(refusal)
    rnd = tournament.rounds.get(number=1)
    created = add_player(tournament=tournament, player=player, by=by, late=True)
    first, second, third = list(rnd.tables.filter(bye=Table.Bye.REST).order_by("number"))
    pair = first.seats.get().pair  # r1's one-player partnership takes r2: N/S r1+r2
    others = []
    for table in (second, third):
        old_pair = table.seats.get().pair
        others.append(old_pair.line_members.get().player)
        table.delete()
        old_pair.delete()
    LineMember.objects.create(round=rnd, pair=pair, player=others[0], seat=2)
    resting = [others[1], created]
    next_pair = (Pair.objects.filter(tournament=tournament).aggregate(m=Max("number"))["m"] or 0) + 1
    ew = Pair.objects.create(tournament=tournament, number=next_pair, round=rnd)
    for seat, p in enumerate(resting, start=1):
        LineMember.objects.create(round=rnd, pair=ew, player=p, seat=seat)
    Seat.objects.create(round=rnd, table=first, pair=ew, line=Seat.Line.EW)
    Table.objects.filter(pk=first.pk).update(bye=Table.Bye.NONE)
    req = dict(rnd.pairing_request)
    for key in ("players", "ranking"):  # the late player joins the request the checker reads
        if key in req:
            req[key] = list(req[key]) + [created.number]
    rnd.pairing_request = req
    rnd.save(update_fields=["pairing_request"])
    from .rounds import recheck_draft
    recheck_draft(rnd)
    if rnd.state == Round.State.PUBLISHED:
        ScoreSheet.objects.get_or_create(table_id=first.pk)
    else:
        from .drafts import record_adjusted_inputs
        record_adjusted_inputs(rnd)  # completed on purpose: not an outdated draft (rules.md §12)
    audit(tournament=tournament, by=by, action="late_player_added", round_number=1, table_number=first.number,
          new={"player": created.number, "ns": [p.number for p in pair.players],
               "ew": [p.number for p in resting]})
    return created


@write(retry=False)
def add_player_penalty(*, player: Player, reason: str, by, vp: Decimal | int = 0, mp: int = 0,
                       round_number: int | None = None) -> Penalty:
    """A penalty to one player of an individual tournament (rules.md §3, art. 23; §9): VP
    (``vp`` > 0) or MP (``mp`` > 0, whole), exactly one; his partner and opponents are not
    touched. ``round_number`` as for pairs (``services.penalty_round`` when None). Raises
    ``ArbiterError`` like ``services.add_penalty``, and outside individual tournaments (a team's
    penalty goes to the team, rules.md §15, a pair's to the pair: ``services.add_penalty``; a
    player's penalty there would count in no standings)."""
    from .incidents import penalty_amount, penalty_round

    tournament = player.tournament
    # a team's penalty goes to the team (rules.md §15), a pair's to the pair: the standings
    # count a player's penalty only in an individual tournament
    refusal = kind_of(tournament).penalty_refusal("player")
    if refusal:
        raise ArbiterError(refusal)
    reason = clean_reason(reason, max_length=Penalty._meta.get_field("reason").max_length)
    vp, mp = penalty_amount(vp, mp, reason)
    if round_number is None:
        round_number = penalty_round(tournament, lock=True)
    actor = as_actor(by)
    penalty = Penalty.objects.create(tournament=tournament, player=player, vp=vp, mp=mp,
                                     reason=reason, round_number=round_number, created_by=actor.user)
    new = {"player": player.number, "mp": mp} if mp else {"player": player.number, "vp": str(vp)}
    audit(tournament=tournament, by=actor, action="penalty_added", round_number=round_number, new=new,
          reason=reason)
    return penalty
