"""The round cycle of a team tournament (rules.md §14–§15).

The pairing engines pair teams as entrants (pairing-io.md: the round robin with team
numbers; the Danish system on the team standings, no rematch), and each answered "table"
becomes a **match** of two tables with crossed lines: team A's first pair N/S at the first
table against team B's first pair, team A's second pair E/W at the second table against
team B's second pair. Match m (the engine's table m) takes tables 2m − 1 and 2m, so groups
stay numbered group after group. The pairs are formed for the round from the line-ups
(:func:`tournaments.selectors.teams.lineup_for`); a team that cannot field two pairs
forfeits at once; rests and forced rests are matches without tables.
"""
from __future__ import annotations

import random

from django.utils.translation import gettext as _

from ... import selectors
from ...errors import ArbiterError
from ...models import LineMember, Match, Pair, Round, Seat, Table, Team, Tournament
from ...plans import last_round_rematch
from ...selectors.teams import lineup_for
from .._groups import in_groups


def active_teams(tournament: Tournament, number: int) -> list[int]:
    """Numbers of the teams in play in round ``number`` (not withdrawn before it)."""
    return [t.number for t in tournament.teams.order_by("number") if t.is_active_in(number)]


def _ranking(tournament: Tournament, number: int, members: set[int]) -> list[int]:
    ranking = []
    if tournament.rounds.filter(number__lt=number).exists():
        ranking = [r.pair for r in selectors.teams.team_standings_rows(tournament, number - 1) if r.pair in members]
    seen = set(ranking)
    return ranking + sorted(n for n in members if n not in seen)


def build_team_request(tournament: Tournament, number: int, *, seed: int | None = None) -> dict:
    """The pairing request (pairing-io.md) of round ``number`` with teams as the entrants.

    ``R`` (rules.md §14): the round robin of the team numbers (one list per group when the
    field is split), withdrawn teams ``absent`` (their opponent gets a forced rest), ``round`` =
    the number of earlier ``R`` rounds + 1. ``D`` (rules.md §7 applied to teams, §15): the
    teams ranked by the team standings after the previous round (round 1: by number, or by
    lot with ``seed``), every earlier match in ``met``, the teams that rested in the session.
    Raises ``ArbiterError`` for ``M``: a Mitchell movement has no meaning for teams.
    """
    letter = tournament.system_of_round(number)
    since = tournament.session_start(number)
    rested = selectors.teams.rested_teams(tournament, before_round=number, since_round=since)
    met, met_last = selectors.teams.team_meetings(tournament, before_round=number)
    if letter == Round.System.ROUND_ROBIN:
        groups = selectors.teams.group_lists(tournament)
        everyone = [n for g in groups for n in g]
        before = tournament.rounds.filter(number__lt=number, system=Round.System.ROUND_ROBIN).count()
        request: dict = {"system": "round-robin", "round": before + 1}
        if tournament.groups > 1:
            request["groups"] = groups
        else:
            request["pairs"] = everyone
        absent = sorted(set(everyone) - set(active_teams(tournament, number)))
        if absent:
            request["absent"] = absent
        request["rested"] = sorted(rested & set(everyone))
        request["met"] = met
        return request
    if letter == Round.System.MITCHELL:
        raise ArbiterError(_("Un torneo a squadre si accoppia con il girone all'italiana (R) o il danese (D): "
                             "il Mitchell (M) non vale per le squadre."))
    active = active_teams(tournament, number)
    if number == 1 or not tournament.rounds.filter(number__lt=number).exists():
        ranking = list(active)
        if tournament.first_round == Tournament.FirstRound.LOT and seed is not None:
            random.Random(seed).shuffle(ranking)
    else:
        ranking = _ranking(tournament, number, set(active))
    return in_groups(tournament, {  # rules.md §19: Danish for teams within each group
        "system": "danish", "ranking": ranking, "met": met, "met_last_round": met_last,
        "rested": sorted(rested & set(active)), "avoid_rematches": tournament.rematch_window,
        **last_round_rematch(tournament, number)}, selectors.teams.group_lists)


def _form(rnd: Round, team: Team, line: int, players: list, number: int) -> Pair:
    pair = Pair.objects.create(tournament=rnd.tournament, number=number, round=rnd, team=team, team_line=line)
    for seat, player in enumerate(players, start=1):
        LineMember.objects.create(round=rnd, pair=pair, player=player, seat=seat)
    return pair


def write_match(rnd: Round, match: Match, next_pair: int) -> int:
    """Seat a played match: tables 2m − 1 and 2m (m = ``match.number``), crossed lines
    (rules.md §15), the pairs formed from both teams' line-ups. A team that cannot field two
    pairs forfeits instead (no tables). Returns the next free pair number."""
    a, b = match.team_a, match.team_b
    lineups = {a.pk: lineup_for(a, rnd.number), b.pk: lineup_for(b, rnd.number)}
    short = [t for t in (a, b) if lineups[t.pk] is None]
    if short:
        match.bye, match.forfeit_by = Match.Bye.FORFEIT, short[0]
        match.save(update_fields=["bye", "forfeit_by"])
        return next_pair
    first = Table.objects.create(round=rnd, number=2 * match.number - 1)
    second = Table.objects.create(round=rnd, number=2 * match.number)
    a1 = _form(rnd, a, 1, lineups[a.pk][0], next_pair)
    a2 = _form(rnd, a, 2, lineups[a.pk][1], next_pair + 1)
    b1 = _form(rnd, b, 1, lineups[b.pk][0], next_pair + 2)
    b2 = _form(rnd, b, 2, lineups[b.pk][1], next_pair + 3)
    Seat.objects.bulk_create([
        Seat(round=rnd, table=first, pair=a1, line=Seat.Line.NS),
        Seat(round=rnd, table=first, pair=b1, line=Seat.Line.EW),
        Seat(round=rnd, table=second, pair=b2, line=Seat.Line.NS),
        Seat(round=rnd, table=second, pair=a2, line=Seat.Line.EW),
    ])
    match.table_1, match.table_2 = first, second
    match.save(update_fields=["table_1", "table_2"])
    return next_pair + 4


def write_team_matches(rnd: Round, response: dict) -> None:
    """Create the round's matches from a team pairing response (``tables`` with team numbers,
    ``bye`` or ``byes``, ``forced_byes``): played matches with their tables and pairs, then a
    match without tables for each rest and forced rest, numbered after the last."""
    from django.db.models import Max

    teams = {t.number: t for t in rnd.tournament.teams.all()}
    next_pair = (Pair.objects.filter(tournament=rnd.tournament).aggregate(m=Max("number"))["m"] or 0) + 1
    last = 0
    forced = list(response.get("forced_byes") or [])
    for t in sorted(response.get("tables", []), key=lambda t: t["table"]):
        last = max(last, t["table"])
        if t.get("ns") is None or t.get("ew") is None:
            alone = t.get("ns") if t.get("ns") is not None else t.get("ew")
            if alone is not None and alone not in forced:
                forced.append(alone)
            continue
        match = Match.objects.create(round=rnd, number=t["table"], team_a=teams[t["ns"]], team_b=teams[t["ew"]])
        next_pair = write_match(rnd, match, next_pair)
    byes = response.get("byes") or ([response["bye"]] if response.get("bye") is not None else [])
    for team, kind in [(n, Match.Bye.REST) for n in byes] + [(n, Match.Bye.FORCED) for n in forced]:
        last += 1
        Match.objects.create(round=rnd, number=last, team_a=teams[team], bye=kind)


def team_response_from_round(rnd: Round) -> dict:
    """The round's matches in the pairing response shape (for the checker): one "table" per
    match between two teams (forfeits included: the teams were paired), ``bye`` the resting
    team (``byes`` for groups), ``forced_byes``."""
    tables, byes, forced = [], [], []
    for m in rnd.matches.select_related("team_a", "team_b").order_by("number"):
        if m.team_b is not None:
            tables.append({"table": m.number, "ns": m.team_a.number, "ew": m.team_b.number})
        elif m.bye == Match.Bye.FORCED:
            forced.append(m.team_a.number)
        else:
            byes.append(m.team_a.number)
    response = {"tables": tables, "bye": byes[0] if byes else None, "rematches": [], "warnings": [],
                "forced_byes": forced}
    if "groups" in (rnd.pairing_request or {}):
        where = {p: k for k, members in enumerate(rnd.pairing_request["groups"]) for p in members}
        response["byes"] = sorted(byes, key=lambda p: (where.get(p, 99), p))
    return response


def seated_teams(rnd: Round) -> list[int]:
    """Team numbers with a match (played, rest, forced rest or forfeit) in ``rnd``."""
    out = []
    for a, b in rnd.matches.values_list("team_a__number", "team_b__number"):
        out += [n for n in (a, b) if n is not None]
    return out


def clear_round(rnd: Round) -> None:
    """Remove the matches, tables and formed pairs of the draft ``rnd``."""
    rnd.matches.all().delete()
    rnd.tables.all().delete()
    rnd.formed_pairs.all().delete()


def swap_teams_in_draft(rnd: Round, a: int, b: int) -> dict:
    """Exchange the places of teams ``a`` and ``b`` (numbers) in the draft ``rnd`` (pairing by
    hand): each takes the other's match and side, or rest. The tables are written again from
    the exchanged response. Returns the old response. Raises ``ArbiterError`` for a team not
    in the round."""
    old = team_response_from_round(rnd)
    seated = set(seated_teams(rnd))
    for n in (a, b):
        if n not in seated:
            raise ArbiterError(_("La squadra %(team)s non è in questo turno.") % {"team": n})
    swap = {a: b, b: a}

    def s(n):
        return swap.get(n, n)

    new = {"tables": [{"table": t["table"], "ns": s(t["ns"]), "ew": s(t["ew"])} for t in old["tables"]],
           "bye": s(old["bye"]) if old["bye"] is not None else None,
           "forced_byes": [s(n) for n in old["forced_byes"]]}
    if "byes" in old:
        new["byes"] = [s(n) for n in old["byes"]]
    clear_round(rnd)  # a forfeit is decided again from the line-ups when the match is written
    write_team_matches(rnd, new)
    return old
