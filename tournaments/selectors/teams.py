"""Reads of a team tournament (rules.md §15): match results, team standings,
meetings and rests of teams, the matches of a round as pages show them.

The standings rank teams with the tie-break chain of ``scoring.standings`` (rules.md §15:
VP, then total match margin in MP, then head-to-head, then shared): one
``scoring.standings.GameResult`` per match with the two teams as the two "lines" (``mp_ns``
= MP scored by team A's two pairs, so the MP difference is the match margin), one per rest.
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from decimal import Decimal

from django.utils.translation import gettext as _

from scoring import standings as standings_rules
from scoring import teams as team_rules

from ..models import LineMember, Match, Pair, Player, Round, ScoreSheet, Seat, Team, Tournament
from .lateness import forfeit_differences, forfeit_matches
from .penalties import split_penalties
from .scales import scale_by_id, scale_of


def team_scale(tournament: Tournament):
    """The team scale of the ``"margin"`` mode (``Tournament.team_scale``), or None."""
    if tournament.team_result != Tournament.TeamResult.MARGIN or not tournament.team_scale:
        return None
    return scale_by_id(tournament.team_scale)


def team_rest_vp(tournament: Tournament) -> Decimal:
    """VP of a resting team, of the opponent of a forfeit or withdrawn team: the rest percent
    (``bye_percent``, 70 by default) of a match's maximum (rules.md §15: 28 of 40)."""
    return team_rules.team_rest_vp(scale_of(tournament), tournament.bye_percent,
                                   mode=tournament.team_result, team_scale=team_scale(tournament))


@dataclass(frozen=True)
class MatchScore:
    """A match with its result, or None while a table's sheet is still empty."""

    round: int
    number: int
    team_a: int
    team_b: int | None
    bye: str
    forfeit_by: int | None
    table_1: int | None
    table_2: int | None
    result: team_rules.MatchResult | None
    #: each team's match margin when a table was forfeited for lateness (rules.md §22: each
    #: line its own band's edge, not one MP gap); None otherwise
    margin_a: int | None = None
    margin_b: int | None = None


def match_scores(tournament: Tournament, *, rounds=None) -> list[MatchScore]:
    """Every match of ``rounds`` (Round ids or None = all rounds), with its result from the
    two tables' sheets (:func:`scoring.teams.match_result`, the tournament's mode)."""
    matches = Match.objects.filter(round__tournament=tournament).order_by("round__number", "number")
    if rounds is not None:
        matches = matches.filter(round_id__in=list(rounds))
    rows = list(matches.values_list("round__number", "number", "team_a__number", "team_b__number", "bye",
                                    "forfeit_by__number", "table_1_id", "table_2_id"))
    table_ids = [t for r in rows for t in r[6:8] if t]
    sheets = {s["table_id"]: s for s in ScoreSheet.objects.filter(table_id__in=table_ids).exclude(
        state=ScoreSheet.State.EMPTY).values("table_id", "mp_ns", "mp_ew", "vp_ns", "vp_ew")}
    mode, scale = tournament.team_result, team_scale(tournament)
    late = forfeit_differences(tournament)
    lost = forfeit_matches(tournament) if scale is not None else {}
    out = []
    for rnd, number, a, b, bye, forfeit, t1, t2 in rows:
        result = margin_a = margin_b = None
        if not bye and t1 in sheets and t2 in sheets:
            first, second = (team_rules.TableScore(s["mp_ns"], s["mp_ew"], s["vp_ns"], s["vp_ew"])
                             for s in (sheets[t1], sheets[t2]))
            result = team_rules.match_result(first, second, mode=mode, team_scale=scale)
            if t1 in lost and t2 in lost:
                # summed margin, lost for lateness (rules.md §22): VP, MP and margins read from
                # the team scale when recorded, not converted from the tables' MP
                f = lost[t1]
                at = (1, 0) if f["late"] == a else (0, 1)  # (A's, B's) index: present 0, late 1
                result = team_rules.MatchResult(mp_a=f["mp"][at[0]], mp_b=f["mp"][at[1]],
                                                vp_a=f["vp"][at[0]], vp_b=f["vp"][at[1]])
                margin_a, margin_b = f["margin"][at[0]], f["margin"][at[1]]
            elif t1 in late or t2 in late:
                # A holds N/S at table 1 and E/W at table 2 (rules.md §15)
                one = late.get(t1, (first.mp_ns - first.mp_ew, first.mp_ew - first.mp_ns))
                two = late.get(t2, (second.mp_ns - second.mp_ew, second.mp_ew - second.mp_ns))
                margin_a, margin_b = one[0] + two[1], one[1] + two[0]
        out.append(MatchScore(rnd, number, a, b, bye, forfeit, t1, t2, result, margin_a, margin_b))
    return out


def team_results(tournament: Tournament, *, after_round: int | None = None) -> list[standings_rules.GameResult]:
    """The closed rounds' matches (≤ ``after_round``) as ``GameResult`` rows with team numbers:
    a played match (A as ``ns``), a rest or forced rest (the team alone, the rest VP), a
    forfeit (the opponent alone with the rest VP; the forfeiting team scores nothing)."""
    rounds = Round.objects.filter(tournament=tournament, state=Round.State.CLOSED)
    if after_round is not None:
        rounds = rounds.filter(number__lte=after_round)
    rest = team_rest_vp(tournament)
    out = []
    for m in match_scores(tournament, rounds=rounds.values_list("id", flat=True)):
        if m.bye in (Match.Bye.REST, Match.Bye.FORCED):
            out.append(standings_rules.GameResult(m.round, m.team_a, None, 0, 0, rest, 0))
        elif m.bye == Match.Bye.FORFEIT:
            winner = m.team_b if m.forfeit_by == m.team_a else m.team_a
            if winner is not None:
                out.append(standings_rules.GameResult(m.round, winner, None, 0, 0, rest, 0))
        elif m.result is not None:
            r = m.result
            out.append(standings_rules.GameResult(m.round, m.team_a, m.team_b, r.mp_a, r.mp_b, r.vp_a, r.vp_b,
                                                  m.margin_a, m.margin_b))
    return out


def team_standings_rows(tournament: Tournament, after_round: int | None, *, penalties=None) -> list:
    """``scoring.standings.StandingRow`` per team (``row.pair`` = team number), best first.

    The team penalties of rounds ≤ ``after_round`` are deducted (rules.md §3, §15): VP off
    the team's total VP (``row.penalty``), MP off its total match margin
    (``row.mp_difference``, the team tie-break) and MP scored (``row.penalty_mp``), from the
    penalty's round on, as for pairs. ``penalties``: the ``selectors.PenaltyEntry`` rows to
    deduct (team numbers), read here when None (the Danish ranking of teams counts them
    too, like the pairs' one)."""
    teams = list(tournament.teams.order_by("number").values_list("number", "status"))
    results = team_results(tournament, after_round=after_round) if after_round is not None else []
    if penalties is None:
        penalties = split_penalties(tournament, "team", after_round, None)[0]
    return standings_rules.compute_standings(
        [n for n, _s in teams], results, tiebreaks=tournament.tiebreak_order,
        penalties=[standings_rules.Penalty(pair=p.pair, vp=p.vp, mp=p.mp, reason=p.reason, round=p.round_number)
                   for p in penalties],
        withdrawn=[n for n, s in teams if s == Team.Status.WITHDRAWN])


def team_meetings(tournament: Tournament, *, before_round: int) -> tuple[list[list], list[list]]:
    """(every match ``[a, b, round]`` before ``before_round`` (a < b, team numbers), the previous
    round's ``[a, b]``), forfeits included (the teams were paired)."""
    met, last = [], []
    for rnd, a, b in (Match.objects.filter(round__tournament=tournament, round__number__lt=before_round,
                                           team_b__isnull=False)
                      .order_by("round__number", "number").values_list("round__number", "team_a__number",
                                                                         "team_b__number")):
        x, y = sorted((a, b))
        met.append([x, y, rnd])
        if rnd == before_round - 1:
            last.append([x, y])
    return met, sorted(last)


def rested_teams(tournament: Tournament, *, before_round: int, since_round: int = 1) -> set[int]:
    """Teams that rested (or had a forced rest) in rounds ``since_round`` .. ``before_round - 1``
    (rules.md §15, §5: no second rest in a session)."""
    return set(Match.objects.filter(
        round__tournament=tournament, round__number__lt=before_round, round__number__gte=since_round,
        bye__in=[Match.Bye.REST, Match.Bye.FORCED]).values_list("team_a__number", flat=True))


def team_names(tournament: Tournament) -> dict[int, str]:
    """Team number → name."""
    return dict(tournament.teams.values_list("number", "name"))


def player_information(tournament: Tournament, *, after_round: int | None = None) -> list[dict]:
    """Per player, as information (rules.md §15): the VP and MP difference
    of the tables he played in closed rounds (≤ ``after_round``), and how many. Rows
    ``{"team", "player", "name", "tables", "vp", "mp_difference"}``, by VP then MP difference,
    best first."""
    rounds = Round.objects.filter(tournament=tournament, state=Round.State.CLOSED)
    if after_round is not None:
        rounds = rounds.filter(number__lte=after_round)
    round_ids = list(rounds.values_list("id", flat=True))
    line_of = {}
    for pair_id, line, table_id in Seat.objects.filter(round_id__in=round_ids, table__bye="").values_list(
            "pair_id", "line", "table_id"):
        line_of[pair_id] = (line, table_id)
    sheets = {s["table_id"]: s for s in ScoreSheet.objects.filter(
        table__round_id__in=round_ids).exclude(state=ScoreSheet.State.EMPTY).values(
        "table_id", "mp_ns", "mp_ew", "vp_ns", "vp_ew")}
    totals: dict[int, dict] = {}
    for player in tournament.players.filter(team__isnull=False).select_related("team"):
        totals[player.pk] = {"team": player.team.number, "player": player.pk, "name": player.display_name,
                             "tables": 0, "vp": Decimal(0), "mp_difference": 0}
    for pair_id, player_id in LineMember.objects.filter(round_id__in=round_ids).values_list("pair_id", "player_id"):
        seat = line_of.get(pair_id)
        sheet = sheets.get(seat[1]) if seat else None
        if sheet is None or player_id not in totals:
            continue
        own, other = ("ns", "ew") if seat[0] == "ns" else ("ew", "ns")
        row = totals[player_id]
        row["tables"] += 1
        row["vp"] += Decimal(str(sheet[f"vp_{own}"]))
        row["mp_difference"] += sheet[f"mp_{own}"] - sheet[f"mp_{other}"]
    return sorted(totals.values(), key=lambda r: (-r["vp"], -r["mp_difference"], r["team"], r["name"]))


def round_matches(rnd: Round) -> list[dict]:
    """The matches of ``rnd`` for the round page, table list and live board: per match
    ``{"number", "team_a": {"number", "name"}, "team_b": … | None, "bye", "forfeit_by",
    "tables": [table 1 number, table 2 number] | [], "vp": [vA, vB] | None}``."""
    tournament = rnd.tournament
    scores = {(m.round, m.number): m for m in match_scores(tournament, rounds=[rnd.pk])}
    out = []
    for match in rnd.matches.select_related("team_a", "team_b", "table_1", "table_2", "forfeit_by").order_by("number"):
        score = scores.get((rnd.number, match.number))
        result = score.result if score else None
        out.append({
            "number": match.number,
            "team_a": {"number": match.team_a.number, "name": match.team_a.name},
            "team_b": {"number": match.team_b.number, "name": match.team_b.name} if match.team_b else None,
            "bye": match.bye,
            "forfeit_by": match.forfeit_by.number if match.forfeit_by else None,
            "tables": [t.number for t in (match.table_1, match.table_2) if t is not None],
            "vp": [result.vp_a, result.vp_b] if result else None,
            "margin": result.margin if result else None,
            "has_snapshot": bool(match.forfeit_snapshot),
            "forfeit_name": match.forfeit_by.name if match.forfeit_by else "",
        })
    return out


def team_of_pairs(rnd: Round) -> dict[int, tuple[int, int]]:
    """Pair id → (team number, team line 1/2) for the formed pairs of ``rnd``."""
    return {pk: (team, line) for pk, team, line in rnd.formed_pairs.filter(team__isnull=False).values_list(
        "pk", "team__number", "team_line")}


def group_lists(tournament: Tournament) -> list[list[int]]:
    """The team numbers of each group (rules.md §14), group 1 first; ``[[all teams]]`` when the
    field is not split."""
    teams = list(tournament.teams.order_by("number").values_list("number", "group"))
    if tournament.groups <= 1:
        return [[n for n, _g in teams]]
    grouped = defaultdict(list)
    for n, g in teams:
        grouped[g].append(n)
    return [grouped[k] for k in range(1, tournament.groups + 1)]


# The line-up a team fields (rules.md §15): a read, used to write a team round's tables and
# by the line-up pages.

def _active_players(team: Team, number: int) -> list[Player]:
    return [p for p in team.members.order_by("pk") if p.is_active_in(number)]


@dataclass(frozen=True)
class LineupChoice:
    """The line-up a team fields in a round (:func:`resolve_lineup`).

    ``pairs``: its two pairs of ``Player``; ``source``: ``"entered"`` (entered for round
    ``from_round`` by the arbiter or the captain), ``"played"`` (fielded in round
    ``from_round``) or ``"registration"`` (no line-up yet: the first four players,
    ``from_round`` None); ``replaced``: ``(withdrawn player, the player taking his seat)``."""

    pairs: list[list[Player]]
    source: str
    from_round: int | None
    replaced: list[tuple[Player, Player]] = field(default_factory=list)


def _latest_entered(team: Team, number: int):
    return team.lineups.filter(round_number__lte=number).order_by("-round_number").first()


def _latest_played(team: Team, number: int) -> tuple[int, list[list[int]]] | None:
    previous = list(Pair.objects.filter(team=team, round__number__lt=number, seats__isnull=False)
                    .order_by("-round__number", "team_line").select_related("round").distinct())
    if not previous:
        return None
    last = previous[0].round.number
    latest = [p for p in previous if p.round.number == last]
    if len(latest) != 2:
        return None
    return last, [list(LineMember.objects.filter(pair=p).order_by("seat").values_list("player_id", flat=True))
                  for p in latest]


def resolve_lineup(team: Team, number: int) -> LineupChoice | None:
    """The line-up ``team`` fields in round ``number`` (rules.md §15, art. 2 "formazioni"):
    the **latest** line-up entered (for a round ≤ ``number``) or played (in a round before
    ``number``), whichever round is later, whatever happened in the rounds between (a rest,
    a forfeit, a round without a match keep the chosen line-up); on the same round the played
    one wins (it is what sat at the table). Without either: the first four active players in
    registration order (1+2, 3+4). A player withdrawn since is replaced by the next active
    player not in the line-up (``replaced`` says who). None when the team has fewer than four
    active players (it cannot field two pairs: it forfeits)."""
    active = _active_players(team, number)
    if len(active) < 4:
        return None
    by_id = {p.pk: p for p in active}
    entered = _latest_entered(team, number)
    played = _latest_played(team, number)
    if played is not None and (entered is None or played[0] >= entered.round_number):
        chosen, source, from_round = played[1], "played", played[0]
    elif entered is not None:
        chosen, source, from_round = entered.pairs, "entered", entered.round_number
    else:
        chosen = [[active[0].pk, active[1].pk], [active[2].pk, active[3].pk]]
        source, from_round = "registration", None
    used = {pk for pair in chosen for pk in pair if pk in by_id}
    spare = [p.pk for p in active if p.pk not in used]
    out, replaced = [], []
    gone = {p.pk: p for p in team.members.all()}
    for pair in chosen:
        members = []
        for pk in pair:
            if pk not in by_id:
                substitute = spare.pop(0)
                if pk in gone:
                    replaced.append((gone[pk], by_id[substitute]))
                pk = substitute
            members.append(by_id[pk])
        out.append(members)
    return LineupChoice(out, source, from_round, replaced)


def lineup_for(team: Team, number: int) -> list[list[Player]] | None:
    """The two pairs of :func:`resolve_lineup` (``[[Player, Player], [Player, Player]]``), or
    None when the team cannot field two pairs."""
    choice = resolve_lineup(team, number)
    return choice.pairs if choice is not None else None


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
