"""Lateness (*ritardo*, rules.md §22) in individual and team tournaments: the late line is the
partnership a late player plays in (§9), a late team's two pairs at its match's two tables
(§15). Values by hand from ``vp20-4h`` (scoring/data/vp_scales.json), four hands:

- the present line: 60 % of 20 = 12 VP, the band 305–500 where the winner takes 12: +305;
- the late line: 6 VP, the band 705–900 where the loser takes 6: −705;
- a 0–0 table: 10–10 VP, difference 0; beyond 5 minutes a penalty of 100 MP.
"""
from decimal import Decimal

import pytest
from django.urls import reverse

from tests.tournaments.individual_helpers import register, seating
from tournaments import selectors, services
from tournaments.errors import ArbiterError
from tournaments.models import CustomScale, Penalty, Player, ScoreSheet, Team, Tournament
from tournaments.public import pages
from tournaments.services import HandInput
from tournaments.services.lateness import record_lateness, undo_lateness


def _close(rnd, arbiter, played):
    for table in rnd.tables.filter(bye="", number__in=played):
        services.save_score_sheet(table=table, hands=[HandInput(0, 0)] * 4, by=arbiter, validate=True)
    services.close_round(round=rnd, by=arbiter)


# --------------------------------------------------------------------------- individual


@pytest.fixture
def individual_round(indiv, arbiter):  # noqa: F811
    """Eight players, round 1 published: table 1 is 1+2 (N/S) v 3+4 (E/O), table 2 5+6 v 7+8."""
    register(indiv, arbiter, 8)
    rnd = services.generate_round(tournament=indiv, by=arbiter)
    assert seating(rnd)[0] == {1: ([1, 2], [3, 4]), 2: ([5, 6], [7, 8])}
    return services.publish_round(round=rnd, by=arbiter, acknowledge_warnings=True)


def test_individual_forfeit_loses_the_late_players_partnership(individual_round, arbiter):
    """Player 3 is 12 minutes late: his line 3+4 loses table 1 (6 VP, −705 each), 1 and 2
    score 12 VP and +305; the penalty of player 6 (7 minutes) is his alone."""
    done = record_lateness(round=individual_round, pair_number=3, minutes=12, by=arbiter)
    assert (done["kind"], done["entrant"], done["player"], done["tables"]) == ("forfeit", 3, 3, [1])
    sheet = ScoreSheet.objects.get(table__round=individual_round, table__number=1)
    assert (sheet.vp_ns, sheet.vp_ew, sheet.mp_ns, sheet.mp_ew) == (Decimal("12"), Decimal("6"), 305, 0)
    assert sheet.arbitral_note == "ritardo 12 min: giocatore 3"
    record_lateness(round=individual_round, pair_number=6, minutes=7, by=arbiter)
    assert Penalty.objects.get().player.number == 6
    _close(individual_round, arbiter, [2])
    rows = {r.pair: r for r in selectors.standings_after(individual_round.tournament).rows}
    for n in (1, 2):
        assert (rows[n].vp, rows[n].mp_difference, rows[n].mp_scored) == (Decimal("12"), 305, 305)
    for n in (3, 4):
        assert (rows[n].vp, rows[n].mp_difference, rows[n].mp_scored) == (Decimal("6"), -705, 0)
    assert (rows[6].vp, rows[6].mp_difference) == (Decimal("10"), -100)
    assert (rows[5].vp, rows[5].mp_difference) == (Decimal("10"), 0)
    # the partner's page: round 1 lost for lateness, 0 − 705
    t = individual_round.tournament
    _next, played = pages.player_rounds(t, Player.objects.get(tournament=t, number=4))
    assert (played[0].late, played[0].vp, played[0].mp_for, played[0].mp_against) == (True, Decimal("6"), 0, 705)


def test_individual_undo_and_refusals(indiv, arbiter):  # noqa: F811
    """Nine players: player 9 rests in round 1 and cannot be late to a table."""
    register(indiv, arbiter, 9)
    rnd = services.publish_round(round=services.generate_round(tournament=indiv, by=arbiter), by=arbiter,
                                 acknowledge_warnings=True)
    with pytest.raises(ArbiterError, match="Il giocatore 9 non gioca a un tavolo"):
        record_lateness(round=rnd, pair_number=9, minutes=12, by=arbiter)
    record_lateness(round=rnd, pair_number=8, minutes=15, by=arbiter)
    with pytest.raises(ArbiterError, match="Il ritardo del giocatore 8 .* già registrato"):
        record_lateness(round=rnd, pair_number=8, minutes=15, by=arbiter)
    undo_lateness(round=rnd, pair_number=8, by=arbiter)
    assert ScoreSheet.objects.get(table__round=rnd, table__number=2).state == ScoreSheet.State.EMPTY
    with pytest.raises(ArbiterError, match="Nessun ritardo registrato per il giocatore 8"):
        undo_lateness(round=rnd, pair_number=8, by=arbiter)


# --------------------------------------------------------------------------- teams


@pytest.fixture
def team_round(make_teams_tournament, arbiter):
    """Four teams, round robin round 1 published: match 1 is 1 v 4 at tables 1 (1A N/S – 4A
    E/O) and 2 (4B N/S – 1B E/O), match 2 is 2 v 3 at tables 3–4 (rules.md §15)."""
    t = make_teams_tournament(4, plan="RR")
    return services.publish_round(round=services.generate_round(tournament=t, by=arbiter), by=arbiter)


def test_a_late_team_loses_both_tables_of_its_match(team_round, arbiter):
    """Team 4 is 12 minutes late: 4A (E/O at table 1) and 4B (N/S at table 2) are the late
    lines. Team 1: 12 + 12 = 24 VP, margin +305 + 305 = +610; team 4: 6 + 6 = 12 VP, margin
    −705 − 705 = −1410; match 2 at 0–0: 20 VP each, margin 0."""
    done = record_lateness(round=team_round, pair_number=4, minutes=12, by=arbiter)
    assert (done["team"], done["tables"]) == (4, [1, 2])
    one, two = (ScoreSheet.objects.get(table__round=team_round, table__number=n) for n in (1, 2))
    assert (one.vp_ns, one.vp_ew, one.mp_ns, one.mp_ew) == (Decimal("12"), Decimal("6"), 305, 0)
    assert (two.vp_ns, two.vp_ew, two.mp_ns, two.mp_ew) == (Decimal("6"), Decimal("12"), 0, 305)
    _close(team_round, arbiter, [3, 4])
    t = team_round.tournament
    rows = {r.pair: r for r in selectors.standings_after(t).rows}
    assert (rows[1].vp, rows[1].mp_difference) == (Decimal("24"), 610)
    assert (rows[4].vp, rows[4].mp_difference) == (Decimal("12"), -1410)
    assert (rows[2].vp, rows[2].mp_difference) == (rows[3].vp, rows[3].mp_difference) == (Decimal("20"), 0)
    _next, played = pages.team_rounds(t, Team.objects.get(tournament=t, number=4))
    assert (played[0].late, played[0].vp, played[0].mp_for, played[0].mp_against) == (True, Decimal("12"), 0, 1410)
    assert [(x["mp_for"], x["mp_against"]) for x in played[0].tables] == [(0, 705), (0, 705)]
    _next, played = pages.team_rounds(t, Team.objects.get(tournament=t, number=2))
    assert played[0].late is False


def test_a_team_penalty_and_its_undo(team_round, arbiter, arbiter_client):
    record_lateness(round=team_round, pair_number=3, minutes=8, by=arbiter)
    assert (Penalty.objects.get().team.number, Penalty.objects.get().mp) == (3, 100)
    undo_lateness(round=team_round, pair_number=3, by=arbiter)
    assert not Penalty.objects.exists()
    record_lateness(round=team_round, pair_number=2, minutes=9, by=arbiter)
    _close(team_round, arbiter, [1, 2, 3, 4])
    rows = {r.pair: r for r in selectors.standings_after(team_round.tournament).rows}
    assert (rows[2].vp, rows[2].mp_difference, rows[3].mp_difference) == (Decimal("20"), -100, 0)
    page = arbiter_client.get(reverse("standings", kwargs={"slug": team_round.tournament.slug})).content.decode()
    assert "Turno 1, squadra 2: ritardo di 9 minuti, penalità di 100 MP" in page
    with pytest.raises(ArbiterError, match="chiuso"):
        undo_lateness(round=team_round, pair_number=2, by=arbiter)


def test_the_round_page_form_names_the_team(team_round, arbiter_client):
    slug = team_round.tournament.slug
    page = arbiter_client.get(reverse("round", kwargs={"slug": slug, "number": 1})).content.decode()
    assert 'id="lateness-form"' in page and "Squadra <input name=\"pair\"" in page
    url = reverse("round_lateness", kwargs={"slug": slug, "number": 1})
    r = arbiter_client.post(url, {"pair": "4", "minutes": "11"}, follow=True)
    assert "Ritardo della squadra 4 oltre 10 minuti: partita persa a tavolino ai tavoli 1, 2." in r.content.decode()


# --------------------------------------------------------------------------- teams, summed margin


def _margin_round(make_teams, arbiter, hands):
    """Four teams scored by the summed margin (``vp20-teams``), round 1 published: match 1 is
    1 v 4 at tables 1–2, match 2 is 2 v 3 at tables 3–4."""
    t = make_teams(4, plan="RR", team_result="margin", team_scale="vp20-teams")
    if hands == 3:
        Tournament.objects.filter(pk=t.pk).update(hands_per_round=3, vp_scale="vp20-3h")
        t.refresh_from_db()
    return services.publish_round(round=services.generate_round(tournament=t, by=arbiter), by=arbiter)


def _close_three(rnd, arbiter, played):
    for table in rnd.tables.filter(bye="", number__in=played):
        services.save_score_sheet(table=table, hands=[HandInput(0, 0)] * 3, by=arbiter, validate=True)
    services.close_round(round=rnd, by=arbiter)


def test_summed_margin_forfeit_in_a_four_hand_round(make_teams_tournament, arbiter, arbiter_client):
    """Team 4 is 12 minutes late in a four-hand round; values by hand from ``vp20-teams``:
    team 1, present, 60 % of 20 = 12 VP, the band 355–550 where the winner takes 12: margin
    +355 (and 355 MP scored, as a present line scores its edge); team 4, 6 VP, the band
    805–1050 where the loser takes 6: margin −805, 0 MP. Match 2 at 0–0: margin 0 → 10–10.
    The tables keep the pairs' forfeit of ``vp20-4h``: 12–6, 305–0."""
    rnd = _margin_round(make_teams_tournament, arbiter, 4)
    done = record_lateness(round=rnd, pair_number=4, minutes=12, by=arbiter)
    assert (done["kind"], done["tables"]) == ("forfeit", [1, 2])
    assert done["match"] == {"vp": ["12", "6"], "mp": [355, 0], "margin": [355, -805]}
    one = ScoreSheet.objects.get(table__round=rnd, table__number=1)
    assert (one.vp_ns, one.vp_ew, one.mp_ns, one.mp_ew) == (Decimal("12"), Decimal("6"), 305, 0)
    _close(rnd, arbiter, [3, 4])
    t = rnd.tournament
    rows = {r.pair: r for r in selectors.standings_after(t).rows}
    assert (rows[1].vp, rows[1].mp_difference, rows[1].mp_scored) == (Decimal("12"), 355, 355)
    assert (rows[4].vp, rows[4].mp_difference, rows[4].mp_scored) == (Decimal("6"), -805, 0)
    assert (rows[2].vp, rows[2].mp_difference) == (rows[3].vp, rows[3].mp_difference) == (Decimal("10"), 0)
    match = selectors.teams.round_matches(rnd)[0]
    assert (match["vp"], match["margin"]) == ([Decimal("12"), Decimal("6")], 355)
    _next, played = pages.team_rounds(t, Team.objects.get(tournament=t, number=4))
    assert (played[0].late, played[0].vp, played[0].mp_for, played[0].mp_against) == (True, Decimal("6"), 0, 805)
    _next, played = pages.team_rounds(t, Team.objects.get(tournament=t, number=1))
    assert (played[0].late, played[0].vp, played[0].mp_for, played[0].mp_against) == (True, Decimal("12"), 355, 0)
    page = arbiter_client.get(reverse("standings", kwargs={"slug": t.slug})).content.decode()
    assert "Turno 1, squadra 4: ritardo di 12 minuti, partita persa a tavolino" in page
    page = arbiter_client.get(reverse("audit", kwargs={"slug": t.slug})).content.decode()
    assert ("incontro (scarto sommato): squadra presente 12 VP, scarto +355; squadra in ritardo 6 VP, "
            "scarto −805") in page


def test_summed_margin_forfeit_in_a_three_hand_round(make_teams_tournament, arbiter):
    """Three hands, 70 %: team 1 (present) 14 VP of 20, the band 805–1050 where the winner
    takes 14: margin +805; team 4 (late) 6 VP, the same band's loser: margin −805. Without
    the lateness record the tables' MP (355–0 twice, ``vp20-3h``) would make a margin of 710
    → 13–7: the forfeit is not that conversion."""
    rnd = _margin_round(make_teams_tournament, arbiter, 3)
    record_lateness(round=rnd, pair_number=4, minutes=11, by=arbiter)
    one = ScoreSheet.objects.get(table__round=rnd, table__number=1)
    assert (one.vp_ns, one.vp_ew, one.mp_ns, one.mp_ew) == (Decimal("14"), Decimal("6"), 355, 0)
    _close_three(rnd, arbiter, [3, 4])
    rows = {r.pair: r for r in selectors.standings_after(rnd.tournament).rows}
    assert (rows[1].vp, rows[1].mp_difference, rows[1].mp_scored) == (Decimal("14"), 805, 805)
    assert (rows[4].vp, rows[4].mp_difference, rows[4].mp_scored) == (Decimal("6"), -805, 0)


def test_summed_margin_forfeit_undone_and_changed_by_hand(make_teams_tournament, arbiter):
    """The undo empties both tables and the match has no result until they are entered; a
    forfeit whose table the arbiter changes by hand leaves the match to the ordinary
    conversion (0–0 at table 1, 305–0 to team 1 at table 2: margin +305 → 11–9 on
    ``vp20-teams``, band 155–350)."""
    rnd = _margin_round(make_teams_tournament, arbiter, 4)
    record_lateness(round=rnd, pair_number=4, minutes=12, by=arbiter)
    undo_lateness(round=rnd, pair_number=4, by=arbiter)
    assert {s.state for s in ScoreSheet.objects.filter(table__round=rnd, table__number__in=[1, 2])} == {
        ScoreSheet.State.EMPTY}
    assert selectors.teams.round_matches(rnd)[0]["vp"] is None
    record_lateness(round=rnd, pair_number=4, minutes=12, by=arbiter)
    table = rnd.tables.get(number=1)
    services.set_arbitral_score(table=table, by=arbiter, vp_ns=Decimal(10), vp_ew=Decimal(10), mp_ns=0, mp_ew=0,
                                reason="deciso dall'arbitro")
    match = selectors.teams.round_matches(rnd)[0]
    assert (match["vp"], match["margin"]) == ([Decimal("11"), Decimal("9")], 305)


def test_summed_margin_forfeit_reads_a_custom_team_scale(make_teams_tournament, arbiter, arbiter_client):
    """A team scale whose maximum is 30 (bands 0–200 15–15, 205–600 18–12, 605–1000 21–9,
    1005–1500 24–6, 1505+ 30–0), four hands: the present team 60 % of 30 = 18 VP, the band
    205–600: +205; the late team 6 VP, the band 1005–1500 where the loser takes 6: −1005. The
    round page's help says 18 VP (not the pair scale's 12)."""
    CustomScale.objects.create(scale_id="team30", name="Squadre 30", data={
        "id": "team30", "name": "Squadre 30", "total": 30, "bands": [
            {"min": 0, "max": 200, "winner": 15, "loser": 15},
            {"min": 205, "max": 600, "winner": 18, "loser": 12},
            {"min": 605, "max": 1000, "winner": 21, "loser": 9},
            {"min": 1005, "max": 1500, "winner": 24, "loser": 6},
            {"min": 1505, "max": None, "winner": 30, "loser": 0}]})
    t = make_teams_tournament(4, plan="RR", team_result="margin", team_scale="team30")
    rnd = services.publish_round(round=services.generate_round(tournament=t, by=arbiter), by=arbiter)
    page = arbiter_client.get(reverse("round", kwargs={"slug": t.slug, "number": 1})).content.decode()
    assert "(18 VP ai presenti, 6 VP al ritardatario, §22)" in page
    done = record_lateness(round=rnd, pair_number=1, minutes=20, by=arbiter)
    assert done["match"] == {"vp": ["18", "6"], "mp": [205, 0], "margin": [205, -1005]}
    _close(rnd, arbiter, [3, 4])
    rows = {r.pair: r for r in selectors.standings_after(t).rows}
    assert (rows[4].vp, rows[4].mp_difference, rows[4].mp_scored) == (Decimal("18"), 205, 205)
    assert (rows[1].vp, rows[1].mp_difference, rows[1].mp_scored) == (Decimal("6"), -1005, 0)
