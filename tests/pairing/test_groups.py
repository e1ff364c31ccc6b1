"""Danish and Mitchell rounds in groups (rules.md §19, pairing-io.md "Groups"): the engine,
the checker and the random tournament generator.

Two groups of 7 pairs made by the snake of 14 pairs (README, "Round robin and groups"):
group 1 = 1, 4, 5, 8, 9, 12, 13 and group 2 = 2, 3, 6, 7, 10, 11, 14.
"""

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pairing import PairingError, run
from pairing.check import check
from pairing.round_robin import snake_groups
from pairing.rtg import play

G1 = [1, 4, 5, 8, 9, 12, 13]
G2 = [2, 3, 6, 7, 10, 11, 14]


def seats(response):
    return [(t["table"], t["ns"], t["ew"]) for t in response["tables"]]


def test_snake_of_14_in_two_groups_of_7():
    assert snake_groups(list(range(1, 15)), 2) == [G1, G2]


def test_danish_first_round_in_two_groups_of_seven():
    # By pair number within each group: 1v2, 3v4, 5v6 of the group's order, the 7th rests
    # (the lowest-ranked pair that has not rested, §5); group 2's tables follow group 1's 3.
    request = {"system": "danish", "ranking": list(range(1, 15)), "groups": [G1, G2]}
    response = run(request)
    assert seats(response) == [(1, 1, 4), (2, 5, 8), (3, 9, 12),
                               (4, 2, 3), (5, 6, 7), (6, 10, 11)]
    assert [t["group"] for t in response["tables"]] == [1, 1, 1, 2, 2, 2]
    assert response["byes"] == [13, 14]
    assert response["bye"] == 13
    assert response["groups"] == [{"group": 1, "tables": [1, 2, 3], "bye": 13},
                                  {"group": 2, "tables": [4, 5, 6], "bye": 14}]
    assert check(request, response) == []


def test_danish_second_round_in_groups_ranks_by_the_group_and_rests_a_new_pair():
    # Overall standings after round 1: 13 first, then 1 … 12, 14 last. Group 1 ranks 13 1 4 5 8 9 12: 13 rested, so the lowest pair
    # that has not rested, 12, rests; 13 v 1, then 4 v 5 (4 met 1 already, 5 is next),
    # 8 v 9. Group 2 ranks 2 3 6 7 10 11 14: 14 rested, 11 rests; 2 met 3, so 2 v 6; then
    # 3 v 7 (3 met 2; 6 taken); 10 v 14.
    ranking = [13, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 14]
    met = [[1, 4, 1], [5, 8, 1], [9, 12, 1], [2, 3, 1], [6, 7, 1], [10, 11, 1]]
    request = {"system": "danish", "ranking": ranking, "groups": [G1, G2], "met": met,
               "met_last_round": [m[:2] for m in met], "rested": [13, 14]}
    response = run(request)
    assert seats(response) == [(1, 13, 1), (2, 4, 5), (3, 8, 9),
                               (4, 2, 6), (5, 3, 7), (6, 10, 14)]
    assert response["byes"] == [12, 11]
    assert response["rematches"] == []
    assert any(e.startswith("Tavolo 4: 2 contro 6") for e in response["explanations"])
    assert check(request, response) == []


def test_mitchell_per_group_uses_each_groups_own_order_and_numbers_group_after_group():
    # Group 1's order 1 4 5 8 9 12 13: T = 4, N/S 1 4 5 at tables 1-3 and the phantom at
    # table 4; E/W 8 9 12 13. Round 2 (offset 1): 8 → table 2, 9 → 3, 12 → 4 (the phantom:
    # 12 rests), 13 → 1. Group 2's order 14 2 3 6 7 10 11 (its own Mitchell order):
    # N/S 14 2 3, E/W 6 7 10 11; 6 → 2, 7 → 3, 10 rests, 11 → 1; its tables are 4, 5, 6.
    request = {"system": "mitchell", "groups": [G1, [14, 2, 3, 6, 7, 10, 11]], "round": 2,
               "offset": 1, "rested": [], "ranking": list(range(1, 15))}
    response = run(request)
    assert seats(response) == [(1, 1, 13), (2, 4, 8), (3, 5, 9),
                               (4, 14, 11), (5, 2, 6), (6, 3, 7)]
    assert response["byes"] == [12, 10]
    assert response["adjustments"] == []
    assert check(request, response) == []


def test_mitchell_second_rest_is_exchanged_within_the_group():
    # Group 1, round 2: 12 would rest but rested already; the lowest-ranked pair of the
    # group that has not rested (ranking 1..14 restricted to group 1: 9, since 13 rested
    # too) rests instead and 12 takes its seat (table 3, E/W), rules.md §5, §6.
    request = {"system": "mitchell", "groups": [G1, G2], "round": 2, "offset": 1,
               "rested": [12, 13, 14], "ranking": list(range(1, 15))}
    response = run(request)
    assert response["byes"][0] == 9
    assert response["adjustments"] == [{"rests": 9, "plays": 12, "table": 3, "line": "ew"}]
    assert check(request, response) == []


def test_checker_reports_a_table_across_groups_and_two_rests_in_one_group():
    request = {"system": "danish", "ranking": list(range(1, 15)), "groups": [G1, G2]}
    response = run(request)
    crossed = dict(response, tables=[dict(t) for t in response["tables"]])
    crossed["tables"][0]["ew"], crossed["tables"][3]["ew"] = 3, 4
    report = check(request, crossed)
    assert "tavolo 1: 1 (girone 1) e 3 (girone 2) sono di gironi diversi" in report
    two = dict(response, byes=[13, 12], tables=response["tables"][:2] + response["tables"][3:])
    assert "girone 1: riposa una coppia sola per girone, non 13, 12" in check(request, two)


def test_checker_reports_tables_outside_the_groups_range():
    request = {"system": "danish", "ranking": list(range(1, 15)), "groups": [G1, G2]}
    response = run(request)
    moved = dict(response, tables=[dict(t) for t in response["tables"]])
    moved["tables"][3]["table"] = 7
    assert "tavolo 7: i tavoli del girone 2 vanno dal 4 al 6" in check(request, moved)


def test_malformed_groups_are_refused_with_a_sentence():
    with pytest.raises(PairingError, match="in due gironi"):
        run({"system": "danish", "ranking": [1, 2, 3], "groups": [[1, 2], [2, 3]]})
    with pytest.raises(PairingError, match="in nessun girone"):
        run({"system": "danish", "ranking": [1, 2, 3], "groups": [[1, 2]]})
    with pytest.raises(PairingError, match="al posto di 'pairs'"):
        run({"system": "mitchell", "pairs": [1, 2], "groups": [[1, 2]], "round": 1})
    with pytest.raises(PairingError, match="servono almeno 2"):
        run({"system": "mitchell", "groups": [[1, 2], [3]], "round": 1})


@st.composite
def grouped_session(draw):
    n = draw(st.integers(6, 30))
    count = draw(st.integers(2, max(2, n // 3)))
    plan = draw(st.text(alphabet="DM", min_size=1, max_size=5))
    return n, count, plan, draw(st.integers(0, 10 ** 6))


def _play_session(n, count, plan, seed):
    """Play one session of ``plan`` in ``count`` snake groups with random results; yield
    every (request, response)."""
    rnd = random.Random(seed)
    ids = list(range(1, n + 1))
    groups = snake_groups(ids, count)
    vp = dict.fromkeys(ids, 0)
    met, rested, offset = [], [], 0
    mitchell = 0
    for r, letter in enumerate(plan, start=1):
        ranking = sorted(ids, key=lambda p: (-vp[p], p))
        if letter == "M":
            mitchell += 1
            offset += 1 if mitchell > 1 else 0
            request = {"system": "mitchell", "groups": groups, "round": mitchell,
                       "offset": offset, "ranking": ranking, "rested": list(rested),
                       "met": list(met)}
        else:
            request = {"system": "danish", "ranking": ranking, "groups": groups,
                       "met": list(met), "rested": list(rested)}
        response = run(request)
        yield request, response
        for t in response["tables"]:
            share = rnd.randint(0, 20)
            vp[t["ns"]] += share
            vp[t["ew"]] += 20 - share
            met.append([t["ns"], t["ew"], r])
        for p in response["byes"]:
            vp[p] += 14
            rested.append(p)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(grouped_session())
def test_groups_never_cross_never_rematch_avoidably_and_rest_once(session):
    n, count, plan, seed = session
    groups = snake_groups(list(range(1, n + 1)), count)
    group_of = {p: g for g, members in enumerate(groups, start=1) for p in members}
    smallest = min(len(g) for g in groups)
    rests: dict = {}
    for request, response in _play_session(n, count, plan, seed):
        assert check(request, response) == []
        for t in response["tables"]:  # no table across groups, labelled with its group
            assert group_of[t["ns"]] == group_of[t["ew"]] == t["group"]
        resting_groups = [group_of[p] for p in response["byes"]]
        assert len(resting_groups) == len(set(resting_groups))  # one rest per group
        assert sorted(resting_groups) == [g for g, members in enumerate(groups, start=1)
                                          if len(members) % 2]
        for p in response["byes"]:
            rests[p] = rests.get(p, 0) + 1
        if request["system"] == "danish" and request.get("avoid_rematches", "all") == "all":
            # a rematch within a group only when the checker found it unavoidable (listed)
            earlier = {frozenset(m[:2]) for m in request["met"]}
            again = [[t["ns"], t["ew"]] for t in response["tables"]
                     if frozenset((t["ns"], t["ew"])) in earlier]
            assert sorted(map(sorted, again)) == sorted(map(sorted, response["rematches"]))
    if len(plan) <= smallest:  # no second rest in the session within a group (§5)
        assert all(c == 1 for c in rests.values())


def test_first_two_danish_rounds_in_groups_never_rematch():
    for seed in range(30):
        sessions = list(_play_session(14 + seed % 9, 2 + seed % 3, "DD", seed))
        assert sessions[1][1]["rematches"] == []


@pytest.mark.parametrize("plan,groups", [("DDDMMM|DDMM", 2), ("MMMDDD|DMD", 3), ("MDMD", 4)])
def test_random_tournaments_in_groups_pass_every_check(plan, groups):
    for seed in range(8):
        result = play(seed, 17 + 5 * seed, plan, groups=groups)
        assert result["violations"] == []
        assert result["second_rests_avoidable"] == 0
