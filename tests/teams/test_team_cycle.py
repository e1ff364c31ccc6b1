"""A team tournament's round cycle (rules.md §14–§15): crossed seating,
rests, line-ups, forfeits, withdrawals, team standings computed by hand."""
from decimal import Decimal

import pytest

from tests.teams.helpers import matches, play, three_rounds
from tournaments import pages, selectors, services
from tournaments.errors import ArbiterError
from tournaments.models import CustomScale, LineMember, Match, Player, Team
from tournaments.services import HandInput


def lines(table):
    """{line: (team number, team line, [player surnames])}."""
    out = {}
    for seat in table.seats.select_related("pair__team"):
        members = LineMember.objects.filter(pair=seat.pair).order_by("seat").select_related("player")
        out[seat.line] = (seat.pair.team.number, seat.pair.team_line, [m.player.last_name for m in members])
    return out


# --------------------------------------------------------------------------- seating, rests

def test_a_match_is_two_tables_with_crossed_lines(make_teams_tournament, arbiter):
    t = make_teams_tournament(4)
    rnd = services.generate_round(tournament=t, by=arbiter)
    # pairing-io.md round robin, 4 entrants, round 1: seq 1 2 3 4 → 1 v 4, 2 v 3 (first sits N/S)
    assert matches(rnd) == [(1, 1, 4, ""), (2, 2, 3, "")]
    t1, t2 = rnd.tables.order_by("number")[:2]
    assert (t1.number, t2.number) == (1, 2)
    assert lines(t1) == {"ns": (1, 1, ["T1p1", "T1p2"]), "ew": (4, 1, ["T4p1", "T4p2"])}
    assert lines(t2) == {"ns": (4, 2, ["T4p3", "T4p4"]), "ew": (1, 2, ["T1p3", "T1p4"])}
    assert [t.number for t in rnd.tables.all()] == [1, 2, 3, 4]


def test_five_teams_one_rest_each_round_28_of_40(make_teams_tournament, arbiter):
    t = make_teams_tournament(5)
    rests = []
    for _ in range(5):
        rnd = services.generate_round(tournament=t, by=arbiter)
        assert rnd.check_messages == []
        rests += [m.team_a.number for m in rnd.matches.filter(bye="rest")]
        play(arbiter, rnd)
    assert sorted(rests) == [1, 2, 3, 4, 5]  # every team rests exactly once (phantom, rules.md §14)
    met = selectors.teams.team_meetings(t, before_round=6)[0]
    assert sorted((a, b) for a, b, _r in met) == [(a, b) for a in range(1, 6) for b in range(a + 1, 6)]
    rows = selectors.standings_after(t).rows
    assert all(r.played == 5 and r.rests == 1 for r in rows)
    assert sum(r.vp for r in rows) == 10 * 40 + 5 * 28  # ten matches of 40 VP, five rests of 28


def test_danish_for_teams_pairs_on_team_standings_without_rematch(make_teams_tournament, arbiter):
    t = make_teams_tournament(4, plan="DDD")
    r1 = services.generate_round(tournament=t, by=arbiter)
    assert r1.system == "danish"
    assert matches(r1) == [(1, 1, 2, ""), (2, 3, 4, "")]  # by number: 1 v 2, 3 v 4
    play(arbiter, r1, scores={1: (1000, 0), 2: (0, 0), 3: (500, 0), 4: (0, 0)})
    # 1 beat 2: 19+10 = 29 v 11 (table 1 diff 1000 → 15–5; table 2 level 10–10): 1 25, 2 15
    # 3 v 4: table 3 500 → 12–8, table 4 level: 3 22, 4 18. Ranking 1, 3, 4, 2
    r2 = services.generate_round(tournament=t, by=arbiter)
    assert matches(r2) == [(1, 1, 3, ""), (2, 4, 2, "")]
    play(arbiter, r2)
    r3 = services.generate_round(tournament=t, by=arbiter)
    pairs_r3 = {frozenset(m[1:3]) for m in matches(r3)}
    assert pairs_r3 == {frozenset({1, 4}), frozenset({2, 3})}  # the only rematch-free pairing left


def test_a_mitchell_round_is_refused_for_teams(make_teams_tournament):
    with pytest.raises(ArbiterError, match="Mitchell"):
        make_teams_tournament(4, plan="MMM")


def test_round_robin_in_groups_numbers_tables_group_after_group(make_teams_tournament, arbiter):
    t = make_teams_tournament(8, plan="RRR")
    services.split_groups(tournament=t, by=arbiter, count=2, method="snake")
    t.refresh_from_db()
    # snake: group 1 = 1, 4, 5, 8; group 2 = 2, 3, 6, 7
    rnd = services.generate_round(tournament=t, by=arbiter)
    assert matches(rnd) == [(1, 1, 8, ""), (2, 4, 5, ""), (3, 2, 7, ""), (4, 3, 6, "")]
    assert [x.number for x in rnd.tables.order_by("number")] == list(range(1, 9))
    play(arbiter, rnd)
    groups = pages.groups.standings_by_group(t)
    assert [sorted(r.pair for r in g.rows) for g in groups] == [[1, 4, 5, 8], [2, 3, 6, 7]]


# --------------------------------------------------------------------------- line-ups

def test_lineup_defaults_to_the_previous_one_and_is_fixed_once_published(make_teams_tournament, arbiter):
    t = make_teams_tournament(4, sizes={1: 5})
    team = Team.objects.get(tournament=t, number=1)
    p = {x.last_name: x.pk for x in team.members.all()}
    services.set_lineup(team=team, pairs=[[p["T1p5"], p["T1p1"]], [p["T1p2"], p["T1p3"]]], by=arbiter)
    r1 = services.generate_round(tournament=t, by=arbiter)
    t1 = r1.tables.get(number=1)
    assert lines(t1)["ns"] == (1, 1, ["T1p5", "T1p1"])
    r1 = services.publish_round(round=r1, by=arbiter)
    with pytest.raises(ArbiterError, match="già pubblicato"):
        services.set_lineup(team=team, pairs=[[p["T1p1"], p["T1p2"]], [p["T1p3"], p["T1p4"]]], by=arbiter,
                            round_number=1)
    for table in r1.tables.filter(bye=""):
        services.save_score_sheet(table=table, by=arbiter, validate=True, hands=[HandInput(0, 0)] * 4)
    services.close_round(round=r1, by=arbiter)
    r2 = services.generate_round(tournament=t, by=arbiter)  # no line-up entered: the previous one
    team_lines = {pr.team_line: [m.player.last_name for m in pr.line_members.order_by("seat")]
                  for pr in r2.formed_pairs.filter(team=team)}
    assert team_lines == {1: ["T1p5", "T1p1"], 2: ["T1p2", "T1p3"]}


def test_lineup_entered_on_a_draft_changes_its_pairs(make_teams_tournament, arbiter):
    t = make_teams_tournament(4)
    team = Team.objects.get(tournament=t, number=4)
    p = {x.last_name: x.pk for x in team.members.all()}
    rnd = services.generate_round(tournament=t, by=arbiter)
    services.set_lineup(team=team, pairs=[[p["T4p4"], p["T4p3"]], [p["T4p2"], p["T4p1"]]], by=arbiter)
    assert lines(rnd.tables.get(number=1))["ew"] == (4, 1, ["T4p4", "T4p3"])
    assert lines(rnd.tables.get(number=2))["ns"] == (4, 2, ["T4p2", "T4p1"])


def test_lineup_refuses_a_player_in_two_pairs(make_teams_tournament, arbiter):
    t = make_teams_tournament(4)
    team = Team.objects.get(tournament=t, number=1)
    ids = list(team.members.order_by("pk").values_list("pk", flat=True))
    with pytest.raises(ArbiterError, match="due coppie"):
        services.set_lineup(team=team, pairs=[[ids[0], ids[1]], [ids[1], ids[2]]], by=arbiter)


def test_lineup_refuses_a_player_of_another_team(make_teams_tournament, arbiter):
    t = make_teams_tournament(4)
    team = Team.objects.get(tournament=t, number=1)
    ids = list(team.members.order_by("pk").values_list("pk", flat=True))
    stranger = Player.objects.get(tournament=t, last_name="T2p1")
    with pytest.raises(ArbiterError, match="non è un giocatore della squadra 1"):
        services.set_lineup(team=team, pairs=[[ids[0], ids[1]], [ids[2], stranger.pk]], by=arbiter)
    assert not team.lineups.exists()


def test_lineup_refused_after_publish_by_the_captain_too(make_teams_tournament, arbiter):
    from tournaments.services import Actor

    t = make_teams_tournament(4)
    team = Team.objects.get(tournament=t, number=2)
    ids = list(team.members.order_by("pk").values_list("pk", flat=True))
    services.publish_round(round=services.generate_round(tournament=t, by=arbiter), by=arbiter)
    captain = Actor(label="capitano squadra 2")
    with pytest.raises(ArbiterError, match="fissata"):
        services.set_lineup(team=team, pairs=[[ids[3], ids[2]], [ids[1], ids[0]]], by=captain, round_number=1)
    # the next round's line-up is still open to the captain
    lineup = services.set_lineup(team=team, pairs=[[ids[3], ids[2]], [ids[1], ids[0]]], by=captain)
    assert lineup.round_number == 2


# --------------------------------------------------------------------------- registration refusals

def test_a_team_has_four_to_six_players(make_teams_tournament, arbiter):
    from tests.teams.helpers import players

    t = make_teams_tournament(2)
    with pytest.raises(ArbiterError, match="da 4 a 6"):
        services.add_team(tournament=t, name="Tre", players=players("X", 3), by=arbiter)
    with pytest.raises(ArbiterError, match="da 4 a 6"):
        services.add_team(tournament=t, name="Sette", players=players("Y", 7), by=arbiter)
    team = services.add_team(tournament=t, name="Sei", players=players("Z", 6), by=arbiter)
    assert team.number == 3 and team.members.count() == 6 and team.captain.last_name == "Z1"


# --------------------------------------------------------------------------- forfeits, withdrawals

def test_forfeit_gives_the_opponent_the_rest_score(make_teams_tournament, arbiter):
    t = make_teams_tournament(4, plan="R")
    rnd = services.publish_round(round=services.generate_round(tournament=t, by=arbiter), by=arbiter)
    m1 = rnd.matches.get(number=1)  # 1 v 4
    services.forfeit_match(match=m1, team=Team.objects.get(tournament=t, number=4), by=arbiter)
    assert sorted(rnd.tables.values_list("number", flat=True)) == [3, 4]
    for table in rnd.tables.filter(bye=""):
        services.save_score_sheet(table=table, by=arbiter, validate=True, hands=[HandInput(0, 0)] * 4)
    services.close_round(round=rnd, by=arbiter)
    vp = {r.pair: r.vp for r in selectors.standings_after(t).rows}
    assert vp == {1: 28, 2: 20, 3: 20, 4: 0}


def test_forfeit_refused_once_a_sheet_is_entered(make_teams_tournament, arbiter):
    t = make_teams_tournament(4, plan="R")
    rnd = services.publish_round(round=services.generate_round(tournament=t, by=arbiter), by=arbiter)
    services.save_score_sheet(table=rnd.tables.get(number=1), by=arbiter, hands=[HandInput(0, 0)] * 4)
    with pytest.raises(ArbiterError, match="già inserito"):
        services.forfeit_match(match=rnd.matches.get(number=1), team=Team.objects.get(tournament=t, number=1),
                               by=arbiter)


def test_a_team_that_cannot_field_two_pairs_forfeits_at_the_draw(make_teams_tournament, arbiter):
    t = make_teams_tournament(4, plan="RR")
    play(arbiter, services.generate_round(tournament=t, by=arbiter))
    Player.objects.filter(tournament=t, last_name="T3p1").update(status="withdrawn", withdrawn_from_round=2)
    r2 = services.generate_round(tournament=t, by=arbiter)
    forfeit = r2.matches.get(bye="forfeit")
    assert forfeit.forfeit_by.number == 3
    assert forfeit.table_1 is None and r2.tables.count() == 2


def test_withdrawn_team_gives_its_round_robin_opponent_a_forced_rest(make_teams_tournament, arbiter):
    t = make_teams_tournament(4, plan="RRR")
    services.withdraw_team(team=Team.objects.get(tournament=t, number=4), from_round=1, by=arbiter)
    rnd = services.generate_round(tournament=t, by=arbiter)
    # 1 v 4 keeps its slot (match 1, tables 1–2, stay empty): 2 v 3 is match 2 at tables 3–4
    assert matches(rnd) == [(2, 2, 3, ""), (3, 1, None, "forced")]
    play(arbiter, rnd, scores={3: (0, 0), 4: (0, 0)})
    assert {r.pair: r.vp for r in selectors.standings_after(t).rows} == {1: 28, 2: 20, 3: 20, 4: 0}


def test_withdrawal_refused_for_a_published_round(make_teams_tournament, arbiter):
    t = make_teams_tournament(4)
    services.publish_round(round=services.generate_round(tournament=t, by=arbiter), by=arbiter)
    with pytest.raises(ArbiterError, match="forfait"):
        services.withdraw_team(team=Team.objects.get(tournament=t, number=1), from_round=1, by=arbiter)


# --------------------------------------------------------------------------- standings by hand


def test_team_standings_by_hand_in_the_default_mode(make_teams_tournament, arbiter):
    t = make_teams_tournament(3, plan="RRR")
    three_rounds(t, arbiter)
    rows = selectors.standings_after(t).rows
    # team 1: 28 + 25 + 10 = 63, margin 0 + 1100 − 2100 = −1000
    # team 2: 22 + 28 + 30 = 80, margin 305 + 0 + 2100 = 2405
    # team 3: 18 + 15 + 28 = 61, margin −305 − 1100 = −1405
    assert [(r.position, r.pair, r.vp, r.mp_difference) for r in rows] == [
        (1, 2, 80, 2405), (2, 1, 63, -1000), (3, 3, 61, -1405)]
    assert selectors.entrant_names(t)[2] == "Squadra 2"


def test_team_standings_by_hand_in_the_margin_mode(make_teams_tournament, arbiter):
    CustomScale.objects.create(scale_id="team40", name="Squadre 40", data={
        "id": "team40", "name": "Squadre 40", "total": 40, "bands": [
            {"min": 0, "max": 200, "winner": 20, "loser": 20},
            {"min": 205, "max": 1000, "winner": 25, "loser": 15},
            {"min": 1005, "max": None, "winner": 32, "loser": 8}]})
    t = make_teams_tournament(3, plan="RRR", team_result="margin", team_scale="team40")
    three_rounds(t, arbiter)
    rows = selectors.standings_after(t).rows
    # rest 70 % of 32 = 22.4; team 2: 25 (+305) + 22.4 + 32 (+2100) = 79.4;
    # team 1: 22.4 + 32 (+1100) + 8 = 62.4; team 3: 15 + 8 + 22.4 = 45.4
    assert [(r.pair, r.vp) for r in rows] == [(2, Decimal("79.4")), (1, Decimal("62.4")), (3, Decimal("45.4"))]


def test_head_to_head_then_shared_position(make_teams_tournament, arbiter):
    t = make_teams_tournament(4, plan="R")
    # round 1: 1 v 4, 2 v 3; every table level → all 20, margin 0, nobody met the others
    play(arbiter, services.generate_round(tournament=t, by=arbiter),
         scores={n: (0, 0) for n in range(1, 5)})
    rows = selectors.standings_after(t).rows
    assert [r.position_label for r in rows] == ["1=", "1=", "1=", "1="]


def test_per_player_information_counts_the_tables_he_played(make_teams_tournament, arbiter):
    t = make_teams_tournament(3, plan="RRR")
    three_rounds(t, arbiter)
    info = {r["name"]: r for r in selectors.teams.player_information(t)}
    # T2p1 (team 2, first pair): round 1 table 1 N/S 13 VP (+505), round 3 table 1 E/W 20 VP (+2100)
    assert (info["T2p1 N1"]["tables"], info["T2p1 N1"]["vp"], info["T2p1 N1"]["mp_difference"]) == (2, 33, 2605)


# --------------------------------------------------------------------------- late team, Danish rests

def test_a_late_team_plays_the_resting_team_in_round_1(make_teams_tournament, arbiter):
    from tests.teams.helpers import players

    t = make_teams_tournament(5, plan="RRRRR")
    rnd = services.publish_round(round=services.generate_round(tournament=t, by=arbiter), by=arbiter)
    assert matches(rnd)[-1] == (3, 1, None, "rest")
    late = services.add_late_team(tournament=t, name="Tardi", players=players("L"), by=arbiter)
    assert late.number == 6 and late.late_entry
    # 6 takes the phantom's slot: round robin of 6, round 1 is 1–6 (1 N/S), 2–5, 3–4
    assert matches(rnd)[-1] == (3, 1, 6, "")
    assert sorted(rnd.tables.values_list("number", flat=True)) == [1, 2, 3, 4, 5, 6]
    assert rnd.tables.get(number=5).sheet.state == "empty"
    for table in rnd.tables.filter(bye=""):
        services.save_score_sheet(table=table, by=arbiter, validate=True, hands=[HandInput(0, 0)] * 4)
    services.close_round(round=rnd, by=arbiter)
    r2 = services.generate_round(tournament=t, by=arbiter)
    assert not r2.matches.filter(bye="rest").exists() and r2.check_messages == []
    with pytest.raises(ArbiterError, match="turno 1"):
        services.add_late_team(tournament=t, name="Troppo tardi", players=players("X"), by=arbiter)


def test_late_team_refused_without_a_rest(make_teams_tournament, arbiter):
    from tests.teams.helpers import players

    t = make_teams_tournament(4)
    services.generate_round(tournament=t, by=arbiter)
    with pytest.raises(ArbiterError, match="non riposa nessuna squadra"):
        services.add_late_team(tournament=t, name="Tardi", players=players("L"), by=arbiter)


def test_danish_for_teams_gives_no_second_rest_in_a_session(make_teams_tournament, arbiter):
    t = make_teams_tournament(5, plan="DDDDD")
    rests = []
    for k in range(5):
        rnd = services.generate_round(tournament=t, by=arbiter)
        rests += [m.team_a.number for m in rnd.matches.filter(bye="rest")]
        play(arbiter, rnd, seed=k + 1)
    assert sorted(rests) == [1, 2, 3, 4, 5]
    assert rests[0] == 5  # round 1 by number: the highest number rests (§5, lowest ranked)


def test_a_withdrawal_outdates_the_draft_and_redraw_gives_the_forced_rest(make_teams_tournament, arbiter):
    t = make_teams_tournament(4, plan="RRR")
    rnd = services.generate_round(tournament=t, by=arbiter)
    services.withdraw_team(team=Team.objects.get(tournament=t, number=4), from_round=1, by=arbiter)
    # the reason names a team, not a pair (rules.md §12: the arbiter is told what changed)
    assert "Non è più in gara la squadra 4 (ritiro)." in services.draft_staleness(rnd)
    rnd = services.redraw_round(round=rnd, by=arbiter)
    assert matches(rnd) == [(2, 2, 3, ""), (3, 1, None, "forced")]


def test_a_played_team_tournament_can_be_deleted(make_teams_tournament, arbiter):
    from tournaments.models import Tournament

    t = make_teams_tournament(3, plan="RRR")
    play(arbiter, services.generate_round(tournament=t, by=arbiter))
    Tournament.objects.get(pk=t.pk).delete()
    assert not Team.objects.exists() and not Match.objects.exists()
