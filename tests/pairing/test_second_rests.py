"""Second rests at the pure level: the rest the movement gives a pair that has already rested
goes to the lowest-ranked pair that has not (a forced rest too), every pair having rested
it goes round again with a warning, and the checker reports an avoidable second rest or an
adjustment to another pair.

Expected seatings are worked by hand from pairing-io.md: N pairs, T = ceil(N/2) tables;
N odd: N/S line pairs[0:T-1], phantom N/S at table T, E/W line pairs[T-1:]; the E/W pair at
index i sits at table ((i + offset) mod T) + 1, offset = sum of the moves made so far.
"""
import pytest

import pairing
from pairing import PairingError
from pairing.check import check, second_rests
from tests.pairing.helpers import mitchell, seats

FIVE = [1, 2, 3, 4, 5]


def test_movement_rest_to_a_pair_that_rested_goes_to_the_lowest_ranked_that_has_not():
    # 5 pairs, round 1 of the movement: (1,3) (2,4), pair 5 meets the phantom, but it
    # rested; ranking 1..5: the lowest not rested is 4 (table 2, E/W): 4 rests, 5 plays there.
    _, r = mitchell(pairs=FIVE, round=1, ranking=FIVE, rested=[5])
    assert seats(r) == [(1, 3), (2, 5)] and r["bye"] == 4
    assert r["adjustments"] == [{"rests": 4, "plays": 5, "table": 2, "line": "ew"}]


def test_without_rested_no_adjustment():
    _, r = mitchell(pairs=FIVE, round=1, ranking=FIVE)
    assert r["bye"] == 5 and r["adjustments"] == []


def test_ranking_decides_who_rests_instead():
    # Ranking 4, 3, 2, 1, 5: the lowest-ranked not rested is 1 (table 1, N/S).
    _, r = mitchell(pairs=FIVE, round=1, ranking=[4, 3, 2, 1, 5], rested=[5])
    assert seats(r) == [(5, 3), (2, 4)] and r["bye"] == 1
    assert r["adjustments"] == [{"rests": 1, "plays": 5, "table": 1, "line": "ns"}]


def test_every_playing_pair_rested_then_rest_again_with_a_warning():
    _, r = mitchell(pairs=FIVE, round=1, ranking=FIVE, rested=FIVE)
    assert r["bye"] == 5 and r["adjustments"] == []
    assert any("riposa di nuovo" in w for w in r["warnings"])


def test_dmmm_five_pairs_no_pair_rests_twice():
    # Round 1 Danish first round by number: 1–2, 3–4, pair 5 rests. Ranking kept 1..5.
    rested, met = {5}, [[1, 2, 1], [3, 4, 1]]
    rests = [5]
    # Round 2 (movement round 1, offset 0): bye 5 → 4 rests, 5 at table 2 E/W: (1,3) (2,5).
    # Round 3 (offset 1): 3→t2, 4→t3 (bye), 5→t1: 4 rested → 3 rests, 4 at t2 E/W:
    #   (1,5) (2,4).
    # Round 4 (offset 2): 3→t3 (bye), 4→t1, 5→t2: 3 rested → 2 rests (lowest of 1, 2
    #   not rested), 3 at t2 N/S: (1,4) (3,5).
    expected = [([(1, 3), (2, 5)], 4), ([(1, 5), (2, 4)], 3), ([(1, 4), (3, 5)], 2)]
    for k, (want_tables, want_bye) in enumerate(expected):
        _, r = mitchell(pairs=FIVE, round=k + 1, step=1, offset=k, ranking=FIVE,
                        rested=sorted(rested), met=met)
        assert (seats(r), r["bye"]) == (want_tables, want_bye)
        assert r["rematches"] == []
        rested.add(r["bye"])
        rests.append(r["bye"])
        met += [[a, b, k + 2] for a, b in seats(r)]
    assert rests == [5, 4, 3, 2]


def test_mmdm_five_pairs_rests_all_different():
    # Round 1 (offset 0): (1,3) (2,4), 5 rests. Round 2 (offset 1): (1,5) (2,3), 4 rests.
    # Round 3 Danish, ranking 1..5, rested {4, 5}: the bye walks up from 5: 3 (1–2 and
    #   4–5 have not met) → 1–2, 4–5. Round 4 (movement round 3, offset 2): (1,4) (2,5),
    #   bye 3, who rested → 2 rests, 3 at table 2 N/S: (3,5).
    _, r1 = mitchell(pairs=FIVE, round=1, offset=0, ranking=FIVE, rested=[])
    _, r2 = mitchell(pairs=FIVE, round=2, offset=1, ranking=FIVE, rested=[5])
    assert (seats(r1), r1["bye"], seats(r2), r2["bye"]) == ([(1, 3), (2, 4)], 5,
                                                            [(1, 5), (2, 3)], 4)
    met = [[1, 3, 1], [2, 4, 1], [1, 5, 2], [2, 3, 2]]
    d_req = {"system": "danish", "ranking": FIVE, "met": met, "met_last_round": [[1, 5], [2, 3]],
             "rested": [4, 5]}
    r3 = pairing.run(d_req)
    assert (seats(r3), r3["bye"]) == ([(1, 2), (4, 5)], 3) and check(d_req, r3) == []
    met += [[1, 2, 3], [4, 5, 3]]
    _, r4 = mitchell(pairs=FIVE, round=3, offset=2, ranking=FIVE, rested=[3, 4, 5], met=met)
    assert (seats(r4), r4["bye"]) == ([(1, 4), (3, 5)], 2)
    assert r4["adjustments"] == [{"rests": 2, "plays": 3, "table": 2, "line": "ns"}]
    assert [r1["bye"], r2["bye"], r3["bye"], r4["bye"]] == [5, 4, 3, 2]


def test_forced_rest_to_a_pair_that_rested_is_exchanged_too():
    # 6 pairs, pair 6 withdrawn, offset 1: 4→t2, 5→t3, 6→t1: table 1 holds 1 alone
    # (forced rest), (2,4), (3,5). Pair 1 rested: 5, the lowest not rested, takes the
    # empty table; 1 plays at table 3 E/W.
    _, r = mitchell(pairs=[1, 2, 3, 4, 5, 6], round=2, offset=1, absent=[6],
                    ranking=[1, 2, 3, 4, 5, 6], rested=[1])
    assert r["tables"] == [{"table": 1, "ns": 5, "ew": None}, {"table": 2, "ns": 2, "ew": 4},
                           {"table": 3, "ns": 3, "ew": 1}]
    assert r["forced_byes"] == [5] and r["bye"] is None
    assert r["adjustments"] == [{"rests": 5, "plays": 1, "table": 3, "line": "ew"}]


def test_checker_reports_a_second_rest_the_engine_should_have_avoided():
    request = {"system": "mitchell", "pairs": FIVE, "round": 1, "ranking": FIVE,
               "rested": [5]}
    plain = pairing.run({"system": "mitchell", "pairs": FIVE, "round": 1})
    report = check(request, plain)
    assert "la coppia 5 riposa di nuovo mentre la coppia 4 non ha ancora riposato (art. 33)" \
        in report
    assert any("scambi per il secondo riposo (chi riposa → chi gioca al suo posto, tavolo) attesi 4 → 5 (" in v
               for v in report)
    assert second_rests(request, plain) == [(5, 4)]


def test_checker_rejects_an_adjustment_that_is_not_the_lowest_ranked():
    request = {"system": "mitchell", "pairs": FIVE, "round": 1, "ranking": FIVE,
               "rested": [5]}
    wrong = {"tables": [{"table": 1, "ns": 1, "ew": 5}, {"table": 2, "ns": 2, "ew": 4}],
             "bye": 3, "forced_byes": [],
             "adjustments": [{"rests": 3, "plays": 5, "table": 1, "line": "ew"}],
             "rematches": [], "warnings": []}
    assert any("riposa 4 secondo il movimento, non 3" in v for v in check(request, wrong))


def test_ranking_and_rested_are_validated():
    with pytest.raises(PairingError, match="ranking"):
        pairing.run({"system": "mitchell", "pairs": FIVE, "round": 1, "ranking": [1, 2, 3]})
    with pytest.raises(PairingError, match="ranking"):
        pairing.run({"system": "mitchell", "pairs": FIVE, "round": 1, "ranking": FIVE + [9]})
    with pytest.raises(PairingError, match="rested"):
        pairing.run({"system": "mitchell", "pairs": FIVE, "round": 1, "rested": [9]})
