"""Issue 9 items 2 and 5 at the pure level: Mitchell offset, second rests, repeated meetings.

Expected seatings are worked by hand from pairing-io.md: N pairs, T = ceil(N/2) tables;
N odd: N/S line pairs[0:T-1], phantom N/S at table T, E/W line pairs[T-1:]; the E/W pair at
index i sits at table ((i + offset) mod T) + 1, offset = sum of the moves made so far.
"""
import pytest

import pairing
from pairing import PairingError
from pairing.check import check, repeated_meetings, second_rests

TEN = list(range(1, 11))
FIVE = [1, 2, 3, 4, 5]


def seats(response):
    return [(t["ns"], t["ew"]) for t in response["tables"]]


def mitchell(**kw):
    request = {"system": "mitchell", **kw}
    response = pairing.run(request)
    assert check(request, response) == []
    return request, response


# -- item 2: a step changed mid-movement ----------------------------------------------------
def test_step_changed_to_3_after_two_rounds_of_step_1_moves_on_from_round_2():
    # 10 pairs, T = 5, N/S 1..5, E/W 6..10. Moves: round 1→2 step 1, round 2→3 step 3:
    # offset 1 + 3 = 4, so pair 6 (index 0) sits at table 5, pair 7 at table 1, ...
    _, r3 = mitchell(pairs=TEN, round=3, step=3, offset=4)
    assert seats(r3) == [(1, 7), (2, 8), (3, 9), (4, 10), (5, 6)]


def test_step_1_throughout_round_3_offset_2():
    _, r3 = mitchell(pairs=TEN, round=3, step=1, offset=2)
    assert seats(r3) == [(1, 9), (2, 10), (3, 6), (4, 7), (5, 8)]


def test_step_change_without_offset_repeated_round_2_and_the_checker_says_so():
    # The old formula (r-1)*s = 6 ≡ 1 (mod 5): round 3 equal to round 2, (1,10) (2,6) ...
    old = pairing.run({"system": "mitchell", "pairs": TEN, "round": 3, "step": 3})
    assert seats(old) == [(1, 10), (2, 6), (3, 7), (4, 8), (5, 9)]
    met = [[1, 6, 1], [2, 7, 1], [3, 8, 1], [4, 9, 1], [5, 10, 1],
           [1, 10, 2], [2, 6, 2], [3, 7, 2], [4, 8, 2], [5, 9, 2]]
    request = {"system": "mitchell", "pairs": TEN, "round": 3, "step": 3, "offset": 4,
               "met": met}
    report = check(request, old)
    assert any("al tavolo 1 il movimento prevede N/S 1, E/O 7" in v for v in report)
    assert sum("incontro ripetuto non segnalato" in v for v in report) == 5


def test_offset_must_be_a_non_negative_integer():
    for bad in (-1, "2", 1.5, True):
        with pytest.raises(PairingError, match="offset"):
            pairing.run({"system": "mitchell", "pairs": TEN, "round": 2, "offset": bad})


def test_m_d_m_repeats_the_danish_meetings_and_lists_them():
    # 6 pairs, T = 3: round 1 (offset 0) (1,4) (2,5) (3,6); the Danish round 2 paired
    # 1–6, 2–4, 3–5; the movement's next round (offset 1): 4→t2, 5→t3, 6→t1 =
    # (1,6) (2,4) (3,5): all three Danish meetings again.
    met = [[1, 4, 1], [2, 5, 1], [3, 6, 1], [1, 6, 2], [2, 4, 2], [3, 5, 2]]
    request, r3 = mitchell(pairs=[1, 2, 3, 4, 5, 6], round=2, step=1, offset=1, met=met)
    assert seats(r3) == [(1, 6), (2, 4), (3, 5)]
    assert r3["rematches"] == [[1, 6], [2, 4], [3, 5]]
    assert "Incontro ripetuto al tavolo 1: le coppie 1 e 6 si sono già incontrate (turno 2)." \
        in r3["warnings"]
    silent = dict(r3, rematches=[], warnings=[])
    assert check(request, silent) == [
        "incontro ripetuto non segnalato al tavolo 1: 1–6 (già incontrate al turno 2)",
        "incontro ripetuto non segnalato al tavolo 2: 2–4 (già incontrate al turno 2)",
        "incontro ripetuto non segnalato al tavolo 3: 3–5 (già incontrate al turno 2)",
    ]
    assert repeated_meetings(request, silent) == [(1, 1, 6, 2), (2, 2, 4, 2), (3, 3, 5, 2)]


def test_first_round_checker_reports_repeats_given_a_history():
    request = {"system": "first_round", "method": "number", "pairs": [1, 2, 3, 4],
               "met": [[1, 2, 1]]}
    response = pairing.run(request)
    assert check(request, response) == [
        "incontro ripetuto non segnalato al tavolo 1: 1–2 (già incontrate al turno 1)"]


# -- item 5: a pair rests twice --------------------------------------------------------------
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
