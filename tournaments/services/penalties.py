"""Penalties (rules.md §3, art. 23): of a pair, of a player of an individual tournament
(rules.md §9) or of a team (rules.md §15), and their removal."""
from __future__ import annotations

from decimal import Decimal

from django.utils.translation import gettext as _

from ..errors import ArbiterError
from ..kinds import kind_of
from ..models import (
    AuditAction,
    Pair,
    Penalty,
    Player,
    Round,
    Team,
    Tournament,
)
from ._common import as_actor
from .audit import audit, clean_reason
from .guard import write
from .locks import lock_tournament


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
    refusal = kind_of(tournament).data.penalty_refusals["pair" if pair is not None else "team"]
    if refusal:
        raise ArbiterError(str(refusal))
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
    audit(tournament=tournament, by=actor, action=AuditAction.PENALTY_ADDED, round_number=round_number,
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
    audit(tournament=penalty.tournament, by=by, action=AuditAction.PENALTY_REMOVED, round_number=penalty.round_number,
          old=old, reason=reason)
    penalty.delete()


@write(retry=False)
def add_player_penalty(*, player: Player, reason: str, by, vp: Decimal | int = 0, mp: int = 0,
                       round_number: int | None = None) -> Penalty:
    """A penalty to one player of an individual tournament (rules.md §3, art. 23; §9): VP
    (``vp`` > 0) or MP (``mp`` > 0, whole), exactly one; his partner and opponents are not
    touched. ``round_number`` as for pairs (:func:`penalty_round` when None). Raises
    ``ArbiterError`` like ``services.add_penalty``, and outside individual tournaments (a team's
    penalty goes to the team, rules.md §15, a pair's to the pair: ``services.add_penalty``; a
    player's penalty there would count in no standings)."""
    tournament = player.tournament
    # a team's penalty goes to the team (rules.md §15), a pair's to the pair: the standings
    # count a player's penalty only in an individual tournament
    refusal = kind_of(tournament).data.penalty_refusals["player"]
    if refusal:
        raise ArbiterError(str(refusal))
    reason = clean_reason(reason, max_length=Penalty._meta.get_field("reason").max_length)
    vp, mp = penalty_amount(vp, mp, reason)
    if round_number is None:
        round_number = penalty_round(tournament, lock=True)
    actor = as_actor(by)
    penalty = Penalty.objects.create(tournament=tournament, player=player, vp=vp, mp=mp,
                                     reason=reason, round_number=round_number, created_by=actor.user)
    new = {"player": player.number, "mp": mp} if mp else {"player": player.number, "vp": str(vp)}
    audit(tournament=tournament, by=actor, action=AuditAction.PENALTY_ADDED, round_number=round_number, new=new,
          reason=reason)
    return penalty
