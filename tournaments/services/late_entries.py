"""Late entries (art. 33): an entrant who arrives during round 1 completes the incomplete
table of round 1 — a late pair takes the resting pair's table, a late player of an
individual tournament makes the fourth of the three resting players (rules.md §9), a late
team plays the resting team's match (rules.md §15 with §5)."""
from __future__ import annotations

from typing import Sequence

from django.db.models import Max
from django.utils.translation import gettext as _

import pairing

from ..errors import ArbiterError
from ..kinds.teams import build_team_request, write_match
from ..models import AuditAction, LineMember, Match, Pair, Player, Round, ScoreSheet, Seat, Table, Team, Tournament
from .audit import audit
from .drafts import draft_staleness, record_adjusted_inputs
from .entrants import (
    PlayerData,
    add_pair,
    add_player,
    check_team_players,
    clean_team_entry,
    create_team,
    next_player_number,
    require_individual,
    require_teams,
)
from .guard import write
from .locks import lock_tournament
from .rounds import recheck_draft


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


@write(retry=False)
def add_late_team(*, tournament: Tournament, name: str, players: list[PlayerData], by) -> Team:
    """A late team (rules.md §15, art. 33): registered with the next team number during round
    1, it plays the resting team (the match's two tables are created, with score sheets when the
    round is published; its line-up is its first four players). In a round robin it takes the
    phantom's slot (the highest number, last in the schedule; the resting team's group), so the
    other teams' schedule does not change; the engine decides who sits N/S.

    Raises ``ArbiterError``: :func:`late_team_refusal`, and the checks of :func:`teams.add_team`.
    """
    tournament = lock_tournament(tournament)  # who plays: the first lock (services.locks)
    require_teams(tournament)
    refusal = late_team_refusal(tournament)
    if refusal:
        raise ArbiterError(refusal)
    name, players = clean_team_entry(name, players)
    if not name.strip():
        raise ArbiterError(_("Il nome della squadra è obbligatorio."))
    check_team_players(tournament, players)
    rnd = tournament.rounds.get(number=1)
    draft_was_current = rnd.state == Round.State.DRAFT and not draft_staleness(rnd)
    match = rnd.matches.select_related("team_a").get(bye=Match.Bye.REST)
    resting = match.team_a
    number = (tournament.teams.aggregate(m=Max("number"))["m"] or 0) + 1
    team = create_team(tournament, number=number, name=name, players=players, late=True)
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
        record_adjusted_inputs(rnd)  # completed on purpose: not an outdated draft (rules.md §12)
    audit(tournament=tournament, by=by, action=AuditAction.LATE_TEAM_ADDED, round_number=1,
          new={"team": number, "name": team.name, "opponent": resting.number,
               "tables": [match.table_1.number, match.table_2.number]})
    return team


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


@write(retry=False)
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
    audit(tournament=tournament, by=by, action=AuditAction.LATE_PAIR_ADDED, round_number=1,
          table_number=rest_table.number, new={"pair": pair.number, "opponent": resting.pair.number})
    return pair


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
    number = next_player_number(tournament)
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
    require_individual(tournament)
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
    recheck_draft(rnd)
    if rnd.state == Round.State.PUBLISHED:
        ScoreSheet.objects.get_or_create(table_id=first.pk)
    else:
        record_adjusted_inputs(rnd)  # completed on purpose: not an outdated draft (rules.md §12)
    audit(tournament=tournament, by=by, action=AuditAction.LATE_PLAYER_ADDED, round_number=1, table_number=first.number,
          new={"player": created.number, "ns": [p.number for p in pair.players],
               "ew": [p.number for p in resting]})
    return created
