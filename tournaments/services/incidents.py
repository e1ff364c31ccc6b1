"""Withdrawals, late pairs and penalties (art. 23, 32–33; a team's penalties, rules.md §15)."""
from __future__ import annotations

from decimal import Decimal
from typing import Sequence

from django.utils.translation import gettext as _

from ..errors import ArbiterError
from ..kinds import kind_of
from ..models import (
    Pair,
    Penalty,
    Round,
    ScoreSheet,
    Seat,
    Table,
    Team,
    Tournament,
)
from ._common import as_actor
from .audit import audit, clean_reason
from .guard import write
from .pairs import PlayerData, add_pair
from .drafts import record_adjusted_inputs, draft_staleness
from .locks import lock_round, lock_tables, lock_tournament
from .rounds import recheck_draft


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
    audit(tournament=tournament, by=by, action="pair_withdrawn", reason=reason, round_number=from_round,
          new={"pair": pair.number, "from_round": from_round})
    return pair


def late_pair_refusal(tournament: Tournament) -> str | None:
    """Why a late pair cannot enter now, or ``None`` if it can (a read, no write).

    Seed code art. 33: only while round 1 is drawn or played and round 2 is not paired,
    and only to complete the incomplete table (an odd number of pairs: one rests).
    The late-pair and add-pair pages show the sentence before any form.
    """
    rounds = list(tournament.rounds.order_by("number"))
    if not rounds:
        return _("Il torneo non è ancora iniziato: aggiungi la coppia dalla pagina delle coppie.")
    if len(rounds) > 1 or rounds[0].state == Round.State.CLOSED:
        return _("Il turno 1 è finito: una coppia tardiva può entrare solo durante il turno 1, "
                 "per completare il tavolo zoppo (art. 33).")
    if not rounds[0].tables.filter(bye=Table.Bye.REST).exists():
        return _("Non c'è un tavolo zoppo da completare: il numero di coppie è pari (art. 33).")
    return None


@write(retry=False)
def _late_pair_in_round_robin(tournament: Tournament, req: dict, pair: Pair, resting: Pair) -> None:
    """A late pair in a round robin (rules.md §14) takes the phantom's slot: the phantom is
    the last entrant of the (odd) group, and the late pair, numbered after every other pair,
    is the last of its group in number order; so round 1 is unchanged except that the rest
    becomes the table against it, and later rounds follow the even schedule. It joins the
    resting pair's group."""
    if "groups" in req:
        pair.group = resting.group
        pair.save(update_fields=["group"])
        req["groups"] = [list(g) + ([pair.number] if resting.number in g else [])
                         for g in req["groups"]]
    else:
        req["pairs"] = list(req["pairs"]) + [pair.number]


def _renumber_round_robin_draft(rnd: Round, req: dict, late_table: Table) -> Table:
    """Give a round-robin draft's tables the numbers of the schedule with the late pair
    (the late pair's match is match 1 of its group: the schedule numbers it first). Only a
    draft: a published table list keeps its numbers (the checker then reports them).
    Returns ``late_table`` reloaded."""
    import pairing

    wanted = {frozenset((t["ns"], t["ew"])): t["table"] for t in pairing.run(req)["tables"]}
    tables = list(rnd.tables.filter(bye=Table.Bye.NONE).prefetch_related("seats__pair"))
    moves = {}
    for table in tables:
        key = frozenset(s.pair.number for s in table.seats.all())
        if key in wanted and wanted[key] != table.number:
            moves[table.pk] = wanted[key]
    if moves:
        others = rnd.tables.exclude(pk__in=list(moves)).values_list("number", flat=True)
        top = max([*others, *moves.values(), *(t.number for t in tables)], default=0)
        for offset, pk in enumerate(moves, start=1):  # out of the way first (unique numbers)
            Table.objects.filter(pk=pk).update(number=top + offset)
        for pk, number in moves.items():
            Table.objects.filter(pk=pk).update(number=number)
    return Table.objects.get(pk=late_table.pk)


def add_late_pair(*, tournament: Tournament, players: Sequence[PlayerData], by) -> Pair:
    """A late pair (art. 33): only while round 1 is drawn or played and round 2 is not
    paired, and only to complete the incomplete table — it takes the resting pair's
    table as its opponent (in a Mitchell round, the phantom's N/S seat)."""
    tournament = lock_tournament(tournament)
    refusal = late_pair_refusal(tournament)
    if refusal:
        raise ArbiterError(refusal)
    rnd = tournament.rounds.get(number=1)
    rest_table = rnd.tables.filter(bye=Table.Bye.REST).first()
    draft_was_current = rnd.state == Round.State.DRAFT and not draft_staleness(rnd)
    pair = add_pair(tournament=tournament, players=players, by=by, late=True)
    resting = rest_table.seats.get()
    grouped = "groups" in (rnd.pairing_request or {}) and rnd.system != Round.System.ROUND_ROBIN
    if rnd.system == Round.System.MITCHELL:
        order = list(tournament.mitchell_order)
        if grouped:  # rules.md §19: the phantom's seat of the resting pair's group
            group = next(g for g in rnd.pairing_request["groups"] if resting.pair.number in g)
            order.insert(order.index(group[(len(group) + 1) // 2 - 1]), pair.number)
        else:
            t = (len(order) + 1) // 2
            order.insert(t - 1, pair.number)  # the phantom's N/S seat of table T (pairing-io.md)
        tournament.mitchell_order = order
        tournament.save(update_fields=["mitchell_order"])
        if resting.line != Seat.Line.EW:
            resting.line = Seat.Line.EW
            resting.save(update_fields=["line"])
        Seat.objects.create(round=rnd, table=rest_table, pair=pair, line=Seat.Line.NS)
    else:
        resting.line = Seat.Line.NS
        resting.save(update_fields=["line"])
        Seat.objects.create(round=rnd, table=rest_table, pair=pair, line=Seat.Line.EW)
    rest_table.bye = Table.Bye.NONE
    rest_table.save(update_fields=["bye"])
    if rnd.state == Round.State.PUBLISHED:
        ScoreSheet.objects.get_or_create(table=rest_table)
    req = dict(rnd.pairing_request)
    if grouped:  # rules.md §19: the late pair joins the resting pair's group
        pair.group = resting.pair.group
        pair.save(update_fields=["group"])
        if req.get("system") == "mitchell":
            where = {n: k for k, g in enumerate(req["groups"]) for n in g}
            where[pair.number] = where[resting.pair.number]
            req["groups"] = [[n for n in tournament.mitchell_order if where.get(n) == k]
                             for k in range(len(req["groups"]))]
        else:
            req["groups"] = [list(g) + ([pair.number] if resting.pair.number in g else [])
                             for g in req["groups"]]
    elif req.get("system") == "mitchell":
        req["pairs"] = list(tournament.mitchell_order)
    if req.get("system") == "round-robin":
        _late_pair_in_round_robin(tournament, req, pair, resting.pair)
    if "ranking" in req or req.get("system") != "mitchell":
        req["ranking"] = list(req.get("ranking", [])) + [pair.number]  # the late pair ranks last
    rnd.pairing_request = req
    rnd.save(update_fields=["pairing_request"])
    if (req.get("system") == "round-robin" or grouped) and rnd.state == Round.State.DRAFT:
        # in groups (rules.md §14, §19) the late pair's group has one table more: the later
        # groups' tables move up one number, as the engine numbers them
        rest_table = _renumber_round_robin_draft(rnd, req, rest_table)
    recheck_draft(rnd)
    if draft_was_current:
        record_adjusted_inputs(rnd)  # completed on purpose: not an outdated draft (rules.md §12)
    audit(tournament=tournament, by=by, action="late_pair_added", round_number=1, table_number=rest_table.number,
          new={"pair": pair.number, "opponent": resting.pair.number})
    return pair


def penalty_round(tournament: Tournament, *, lock: bool = False) -> int:
    """The round a penalty given now without a round belongs to (so the
    standings after each round know whether to count it): the round
    in play (published), else the last closed round, else round 1 (nothing posted yet).

    A draft is not in play: with round 2 closed and round 3 a draft, the answer is 2.
    ``lock``: lock the tournament's rounds (inside a transaction) so that publishing or
    closing a round at the same moment waits, and the answer stays true until commit.
    """
    rounds = Round.objects.filter(tournament=tournament).order_by("-number")
    if lock:
        lock_tournament(tournament)  # the one order: the tournament before its rounds (services.locks)
        rounds = rounds.select_for_update()
    states = list(rounds.values_list("number", "state"))
    for number, state in states:
        if state == Round.State.PUBLISHED:
            return number
    for number, state in states:
        if state == Round.State.CLOSED:
            return number
    return 1


def penalty_amount(vp: Decimal | int, mp: Decimal | int, reason: str) -> tuple[Decimal, int]:
    """``(VP, MP)`` of a penalty, checked (rules.md §3, art. 23): exactly one of them > 0,
    MP whole, a reason given. Raises ``ArbiterError`` otherwise."""
    vp = Decimal(vp or 0)
    mp_amount = Decimal(mp or 0)
    if vp < 0 or mp_amount < 0:
        raise ArbiterError(_("La penalità è un numero positivo di VP o di MP da togliere."))
    if (vp > 0) == (mp_amount > 0):
        raise ArbiterError(_("Indica la penalità in VP oppure in MP (uno solo dei due)."))
    if mp_amount != mp_amount.to_integral_value():
        raise ArbiterError(_("Una penalità in MP è un numero intero di punti."))
    if not reason.strip():
        raise ArbiterError(_("Indica il motivo della penalità."))
    return vp, int(mp_amount)


@write(retry=False)
def add_penalty(*, reason: str, by, pair: Pair | None = None, team: Team | None = None,
                vp: Decimal | int = 0, mp: int = 0, round_number: int | None = None) -> Penalty:
    """A penalty in the overall standings (rules.md §3, art. 23: "1 V.P. o equivalente");
    the opponents gain nothing.

    ``pair``: the penalised pair (a pair or Mitchell/Danish tournament), or ``team``: the
    penalised team (a team tournament, rules.md §15: it comes off the team's total VP, an
    MP penalty off its total match margin; the VP of its players are not touched); exactly
    one of them. ``vp``: VP deducted (a positive number, e.g. 1 for "−1 VP"), or ``mp``:
    MP deducted (a positive integer, taken off the pair's MP difference and MP scored,
    never off the table's result); exactly one of them. ``round_number``: the round it
    belongs to; when None it is fixed now (:func:`penalty_round`: the round in play, else
    the last closed one) and stored, so standings "after round k" count it from round k on.

    Raises ``ArbiterError`` for no amount or both kinds, a negative amount, an MP amount
    that is not whole, an empty reason or one with a NUL (``audit.clean_reason``), a round outside the plan, a pair in a team
    tournament or a team in another kind of tournament.
    """
    if (pair is None) == (team is None):
        raise ArbiterError(_("Una penalità colpisce una coppia oppure una squadra: indicane una sola."))
    tournament = (pair or team).tournament
    refusal = kind_of(tournament).penalty_refusal("pair" if pair is not None else "team")
    if refusal:
        raise ArbiterError(refusal)
    reason = clean_reason(reason, max_length=Penalty._meta.get_field("reason").max_length)
    vp, mp = penalty_amount(vp, mp, reason)
    if round_number is not None and not 1 <= round_number <= tournament.rounds_planned:
        raise ArbiterError(_("Turno %(round)s inesistente: il piano ha %(rounds)s turni.")
                           % {"round": round_number, "rounds": tournament.rounds_planned})
    if round_number is None:
        round_number = penalty_round(tournament, lock=True)  # stored: never recomputed later
    actor = as_actor(by)
    penalty = Penalty.objects.create(tournament=tournament, pair=pair, team=team, vp=vp, mp=mp, reason=reason,
                                     round_number=round_number, created_by=actor.user)
    who = {"pair": pair.number} if pair is not None else {"team": team.number}
    new = {**who, "mp": mp} if mp else {**who, "vp": str(vp)}
    audit(tournament=tournament, by=actor, action="penalty_added", round_number=round_number,
          new=new, reason=reason)
    return penalty


@write(retry=False)
def remove_penalty(*, penalty: Penalty, by, reason: str = "") -> None:
    """Cancel a penalty of a pair, of a player (rules.md §9) or of a team (rules.md §15); the
    audit trail keeps it."""
    if penalty.team_id:
        who = {"team": penalty.team.number}
    elif penalty.pair_id:
        who = {"pair": penalty.pair.number}
    else:
        who = {"player": penalty.player.number}
    old = {**who, "vp": str(penalty.vp), "reason": penalty.reason}
    if penalty.mp:
        old = {**who, "mp": penalty.mp, "reason": penalty.reason}
    audit(tournament=penalty.tournament, by=by, action="penalty_removed", round_number=penalty.round_number,
          old=old, reason=reason)
    penalty.delete()
