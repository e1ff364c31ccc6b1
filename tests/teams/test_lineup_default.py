"""The default line-up of a team (rules.md §15, art. 2): the last one entered or played for
that team, whatever happened in the rounds between (a rest, a forfeit, a withdrawn player),
and the draft and line-up pages say which round it comes from."""
import pytest
from django.urls import reverse

from tournaments import services
from tournaments.models import Player, Team
from tournaments.selectors import teams
from tournaments.services import HandInput


def _ids(team):
    return {p.last_name: p.pk for p in team.members.all()}


def _formed(rnd, number):
    return {pr.team_line: [m.player.last_name for m in pr.line_members.order_by("seat")]
            for pr in rnd.formed_pairs.filter(team__number=number)}


@pytest.fixture
def after_rest_and_forfeit(make_teams_tournament, arbiter):
    """Five teams, round robin. Round 1 (pairing-io.md, 5 entrants + phantom 6: 1 v 6 rest,
    2 v 5, 3 v 4): team 3's line-up entered by the arbiter, team 1's by its captain; team 1
    rests, team 4 forfeits its match against team 3; round 1 closed, round 2 drafted."""
    t = make_teams_tournament(5, plan="RRRRR")
    t1, t3 = (Team.objects.get(tournament=t, number=n) for n in (1, 3))
    p1, p3 = _ids(t1), _ids(t3)
    captain = services.Actor(label="capitano squadra 1")
    services.set_lineup(team=t1, pairs=[[p1["T1p4"], p1["T1p3"]], [p1["T1p2"], p1["T1p1"]]], by=captain)
    services.set_lineup(team=t3, pairs=[[p3["T3p2"], p3["T3p4"]], [p3["T3p1"], p3["T3p3"]]], by=arbiter)
    r1 = services.publish_round(round=services.generate_round(tournament=t, by=arbiter), by=arbiter)
    assert r1.matches.get(team_a__number=1).bye == "rest"
    match = r1.matches.get(team_a__number=3)
    assert match.team_b.number == 4
    services.forfeit_match(match=match, team=Team.objects.get(tournament=t, number=4), by=arbiter,
                           reason="squadra 4 assente")
    for table in r1.tables.filter(bye=""):
        services.save_score_sheet(table=table, by=arbiter, validate=True, hands=[HandInput(0, 0)] * 4)
    services.close_round(round=r1, by=arbiter)
    r2 = services.generate_round(tournament=t, by=arbiter)
    return t, r2


def test_round_2_draft_keeps_both_chosen_lineups(after_rest_and_forfeit):
    t, r2 = after_rest_and_forfeit
    assert _formed(r2, 1) == {1: ["T1p4", "T1p3"], 2: ["T1p2", "T1p1"]}
    assert _formed(r2, 3) == {1: ["T3p2", "T3p4"], 2: ["T3p1", "T3p3"]}
    # a team without a line-up still starts from its first four players
    assert _formed(r2, 5) == {1: ["T5p1", "T5p2"], 2: ["T5p3", "T5p4"]}


def test_the_origin_names_the_round(after_rest_and_forfeit):
    t, _r2 = after_rest_and_forfeit
    choice = teams.resolve_lineup(Team.objects.get(tournament=t, number=3), 2)
    assert (choice.source, choice.from_round) == ("entered", 1)
    assert teams.lineup_origin_text(choice, 2) == (
        "Formazione inserita per il turno 1 (nessuna nuova formazione da allora).")
    played = teams.resolve_lineup(Team.objects.get(tournament=t, number=2), 2)
    assert (played.source, played.from_round) == ("played", 1)


def test_played_lineup_after_entered_one_wins(make_teams_tournament, arbiter):
    """Entered for round 1, played in round 1, then changed on round 2's draft: round 3 takes
    the one played in round 2 (the latest), not the one entered for round 1."""
    t = make_teams_tournament(4, plan="RRR")
    team = Team.objects.get(tournament=t, number=1)
    p = _ids(team)
    services.set_lineup(team=team, pairs=[[p["T1p4"], p["T1p3"]], [p["T1p2"], p["T1p1"]]], by=arbiter)
    for number in (1, 2):
        rnd = services.generate_round(tournament=t, by=arbiter)
        if number == 2:
            services.set_lineup(team=team, pairs=[[p["T1p1"], p["T1p3"]], [p["T1p2"], p["T1p4"]]], by=arbiter)
        rnd = services.publish_round(round=rnd, by=arbiter)
        for table in rnd.tables.filter(bye=""):
            services.save_score_sheet(table=table, by=arbiter, validate=True, hands=[HandInput(0, 0)] * 4)
        services.close_round(round=rnd, by=arbiter)
    r3 = services.generate_round(tournament=t, by=arbiter)
    assert _formed(r3, 1) == {1: ["T1p1", "T1p3"], 2: ["T1p2", "T1p4"]}


def test_a_withdrawn_player_is_replaced_with_a_note(make_teams_tournament, arbiter):
    t = make_teams_tournament(5, plan="RRRRR", sizes={1: 5})
    team = Team.objects.get(tournament=t, number=1)
    p = _ids(team)
    services.set_lineup(team=team, pairs=[[p["T1p4"], p["T1p3"]], [p["T1p2"], p["T1p1"]]], by=arbiter)
    Player.objects.filter(pk=p["T1p3"]).update(status="withdrawn", withdrawn_from_round=1)
    choice = teams.resolve_lineup(team, 1)
    assert [[x.last_name for x in pair] for pair in choice.pairs] == [["T1p4", "T1p5"], ["T1p2", "T1p1"]]
    assert teams.lineup_origin_text(choice, 1) == (
        "Formazione inserita per il turno 1. N3 T1p3 si è ritirato: al suo posto N5 T1p5."
        .replace("N3 T1p3", Player.objects.get(pk=p["T1p3"]).display_name)
        .replace("N5 T1p5", Player.objects.get(pk=p["T1p5"]).display_name))


def test_pages_say_where_the_lineup_comes_from(arbiter_client, client, after_rest_and_forfeit):
    t, r2 = after_rest_and_forfeit
    page = arbiter_client.get(reverse("team_lineup", args=[t.slug, 3])).content.decode()
    assert "Formazione inserita per il turno 1 (nessuna nuova formazione da allora)." in page
    assert "T3p2" in page.split('id="lineup-current"')[1].split("</p>")[0]
    captain = client.get(reverse("team_captain", args=[Team.objects.get(tournament=t, number=1).token]))
    assert "Formazione inserita per il turno 1 (nessuna nuova formazione da allora)." in captain.content.decode()
    draft = arbiter_client.get(reverse("round", args=[t.slug, 2])).content.decode()
    assert 'data-team="3">Squadra 3: Formazione inserita per il turno 1' in draft
    assert 'data-team="2">Squadra 2: Formazione giocata nel turno 1.' in draft
