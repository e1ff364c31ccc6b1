"""Team Danish in groups (rules.md §19 with §15): each group paired on its team standings,
matches numbered group after group (match m = tables 2m − 1 and 2m), one rest per odd group.

7 teams split by the snake into 2 groups: group 1 = 1, 4, 5; group 2 = 2, 3, 6, 7.
4 hands, vp20-4h: 0–100 MP → 10–10, 305–500 → 12–8, 905–1100 → 15–5; a team's VP is the
sum of its two tables'; a rest is 28 of 40 (§15).
"""
from tests.teams.helpers import matches, play
from tournaments import pages, selectors, services
from tournaments.services.groups import groups_frozen


def test_team_danish_in_two_groups_with_a_rest(make_teams_tournament, arbiter):
    t = make_teams_tournament(7, plan="DD")
    assert services.split_groups(tournament=t, by=arbiter, count=2, method="snake") == [
        [1, 4, 5], [2, 3, 6, 7]]
    t.refresh_from_db()
    r1 = services.generate_round(tournament=t, by=arbiter)
    assert r1.pairing_request["groups"] == [[1, 4, 5], [2, 3, 6, 7]]
    # Round 1 by number within each group: group 1 1 v 4 (match 1), 5 rests; group 2
    # 2 v 3, 6 v 7 (matches 2, 3: they follow group 1's ⌊3/2⌋ = 1 match); the rest after.
    assert matches(r1) == [(1, 1, 4, ""), (2, 2, 3, ""), (3, 6, 7, ""), (4, 5, None, "rest")]
    assert r1.check_messages == []
    # Table 1 (1's first pair N/S v 4's): 1000 → 1 15–5; table 2 level; so 1 25, 4 15.
    # Table 3 (2's first pair N/S v 3's) 0–1000 → 3 wins 15–5; table 4 level: 3 25, 2 15.
    # Table 5 (6 N/S v 7): 500 → 12–8; table 6 level: 6 22, 7 18. Team 5 rests: 28.
    play(arbiter, r1, scores={1: (1000, 0), 2: (0, 0), 3: (0, 1000), 4: (0, 0),
                              5: (500, 0), 6: (0, 0)})
    # Group 1 ranks 5 (28), 1 (25), 4 (15): 5 rested, so 4 (the lowest not rested) rests;
    # 5 v 1. Group 2 ranks 3 (25), 6 (22), 7 (18), 2 (15): 3 v 6, 7 v 2 (no rematch).
    r2 = services.generate_round(tournament=t, by=arbiter)
    assert matches(r2) == [(1, 5, 1, ""), (2, 3, 6, ""), (3, 7, 2, ""), (4, 4, None, "rest")]
    assert r2.check_messages == []
    by_group = pages.groups.standings_by_group(t)
    assert [r.pair for r in by_group[0].rows] == [5, 1, 4]
    assert [r.pair for r in by_group[1].rows] == [3, 6, 7, 2]
    assert groups_frozen(t)


def test_team_round_tables_know_their_group(make_teams_tournament, arbiter):
    """Match m = tables 2m − 1 and 2m: match 1 (1 v 4) in group 1, matches 2 and 3 in group 2
    (the groups of the request are team numbers, rules.md §19)."""
    t = make_teams_tournament(7, plan="DD")
    services.split_groups(tournament=t, by=arbiter, count=2, method="snake")
    t.refresh_from_db()
    r1 = services.generate_round(tournament=t, by=arbiter)
    groups = selectors.table_groups(r1)
    assert {n: groups[n] for n in (1, 2, 3, 4, 5, 6)} == {1: 1, 2: 1, 3: 2, 4: 2, 5: 2, 6: 2}
