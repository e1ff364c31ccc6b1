"""Standings (rules.md §8). Every expected ranking is computed by hand in the docstrings."""

from decimal import Decimal

import pytest

from scoring.standings import TIEBREAKS, GameResult, Penalty, compute_standings
from scoring.vp import convert, rest_vp, scale_for_hands

FOUR = scale_for_hands(4)


def game(rnd, ns, ew, mp_ns, mp_ew, vp_ns, vp_ew):
    return GameResult(rnd, ns, ew, mp_ns, mp_ew, Decimal(vp_ns), Decimal(vp_ew))


# ------------------------------------------------------------------ the 6-pair worked example

WORKED = [
    # round 1
    game(1, 1, 2, 1500, 600, 14, 6),    # diff 900 → band 705–900 → 14-6
    game(1, 3, 4, 700, 550, 11, 9),     # diff 150 → band 105–300 → 11-9
    game(1, 5, 6, 1500, 1500, 10, 10),  # diff 0 → 10-10
    # round 2
    game(2, 1, 3, 600, 1000, 8, 12),    # diff 400 → band 305–500 → 12-8 to pair 3
    game(2, 2, 5, 850, 800, 10, 10),    # diff 50 → 10-10
    game(2, 4, 6, 1400, 800, 13, 7),    # diff 600 → band 505–700 → 13-7
    # round 3
    game(3, 1, 4, 500, 850, 8, 12),     # diff 350 → 12-8 to pair 4
    game(3, 2, 6, 1300, 700, 13, 7),    # diff 600 → 13-7
    game(3, 3, 5, 950, 700, 11, 9),     # diff 250 → 11-9
]


def test_worked_example_vp_match_the_scale():
    """The VP written in WORKED were read off the 4-hand table by hand; check them."""
    for g in WORKED:
        assert convert(g.mp_ns, g.mp_ew, FOUR) == (g.vp_ns, g.vp_ew)


def test_worked_example_six_pairs_three_rounds():
    """Totals by hand (VP; MP difference; MP scored):

    pair 1: 14 + 8 + 8  = 30; +900 − 400 − 350 = +150;  1500 + 600 + 500  = 2600
    pair 2: 6 + 10 + 13 = 29; −900 + 50 + 600  = −250;  600 + 850 + 1300  = 2750
    pair 3: 11 + 12 + 11 = 34; +150 + 400 + 250 = +800; 700 + 1000 + 950  = 2650
    pair 4: 9 + 13 + 12 = 34; −150 + 600 + 350 = +800;  550 + 1400 + 850  = 2800
    pair 5: 10 + 10 + 9 = 29; 0 − 50 − 250     = −300;  1500 + 800 + 700  = 3000
    pair 6: 10 + 7 + 7  = 24; 0 − 600 − 600    = −1200; 1500 + 800 + 700  = 3000
    (VP sum 180 = 9 tables × 20; MP differences sum to 0.)

    3 and 4 tie on VP (34) and MP difference (+800) and met in round 1: head-to-head 11 v 9
    → 3 first, although 4 scored more MP (2800 v 2650).
    2 and 5 tie on VP (29); MP difference −250 v −300 → 2 ahead, although 5 scored more MP
    and their head-to-head was a 10-10 draw.
    Standings: 1. pair 3 (34), 2. pair 4 (34), 3. pair 1 (30), 4. pair 2 (29),
    5. pair 5 (29), 6. pair 6 (24). No shared position.
    """
    rows = compute_standings(range(1, 7), WORKED)
    assert [r.pair for r in rows] == [3, 4, 1, 2, 5, 6]
    assert [r.position_label for r in rows] == ["1", "2", "3", "4", "5", "6"]
    assert [r.vp for r in rows] == [34, 34, 30, 29, 29, 24]
    assert [r.mp_difference for r in rows] == [800, 800, 150, -250, -300, -1200]
    assert [r.mp_scored for r in rows] == [2650, 2800, 2600, 2750, 3000, 3000]
    assert all(r.played == 3 and r.rests == 0 and r.penalty == 0 for r in rows)
    assert not any(r.tied or r.withdrawn for r in rows)


def test_worked_example_other_tiebreak_orders():
    """Without head-to-head, 3 and 4 fall to MP scored: 4 (2800) before 3 (2650).
    With only VP: 3 and 4 share 1st ("1="), 2 and 5 share 4th ("4=")."""
    rows = compute_standings(range(1, 7), WORKED, tiebreaks=("vp", "mp_difference", "mp_scored"))
    assert [r.pair for r in rows] == [4, 3, 1, 2, 5, 6]

    rows = compute_standings(range(1, 7), WORKED, tiebreaks=("vp",))
    assert [(r.position_label, r.pair) for r in rows] == [
        ("1=", 3), ("1=", 4), ("3", 1), ("4=", 2), ("4=", 5), ("6", 6)
    ]
    # MP scored first: 5 and 6 (3000) tie; then VP: 5 (29) before 6 (24)
    rows = compute_standings(range(1, 7), WORKED, tiebreaks=("mp_scored", "vp"))
    assert [r.pair for r in rows] == [5, 6, 4, 2, 3, 1]


def test_worked_example_after_round():
    """After round 1 only: 1 has 14 (+900), 3 has 11 (+150), 5 and 6 10 (0, 1500 scored each,
    met each other: head-to-head 10 v 10 → still tied; MP scored equal → "3="),
    4 has 9 (−150), 2 has 6 (−900)."""
    rows = compute_standings(range(1, 7), WORKED, after_round=1)
    assert [(r.position_label, r.pair) for r in rows] == [
        ("1", 1), ("2", 3), ("3=", 5), ("3=", 6), ("5", 4), ("6", 2)
    ]
    assert all(r.played == 1 for r in rows)


# ------------------------------------------------------------------ 3-way tie, not all met

NOT_ALL_MET = [
    game(1, 1, 2, 900, 900, 10, 10),
    game(1, 3, 4, 700, 700, 10, 10),
    game(1, 5, 6, 1200, 800, 12, 8),    # diff 400 → 12-8
    game(2, 1, 3, 1000, 1000, 10, 10),
    game(2, 2, 5, 1000, 1000, 10, 10),
    game(2, 4, 6, 1100, 700, 12, 8),    # diff 400 → 12-8
]


def test_three_way_tie_not_all_met_skips_head_to_head():
    """Totals by hand (VP; MP difference; MP scored):

    pair 1: 20; 0; 900 + 1000 = 1900        pair 4: 10 + 12 = 22; +400; 700 + 1100 = 1800
    pair 2: 20; 0; 900 + 1000 = 1900        pair 5: 12 + 10 = 22; +400; 1200 + 1000 = 2200
    pair 3: 20; 0; 700 + 1000 = 1700        pair 6: 8 + 8 = 16; −800; 800 + 700 = 1500

    4 and 5 tie on 22 VP and +400 but never met → head-to-head skipped → MP scored: 5, 4.
    1, 2, 3 tie on 20 VP and 0; 1 met 2 and 3, but 2 and 3 never met → head-to-head skipped
    (applied, it would have put 1 first: 20 VP v 10 v 10). MP scored: 1 and 2 (1900), then 3.
    1 and 2 are still tied on every key → both "3=", next is 5th.
    Standings: 1. 5, 2. 4, 3= 1, 3= 2, 5. 3, 6. 6.
    """
    rows = compute_standings([1, 2, 3, 4, 5, 6], NOT_ALL_MET)
    assert [(r.position_label, r.pair) for r in rows] == [
        ("1", 5), ("2", 4), ("3=", 1), ("3=", 2), ("5", 3), ("6", 6)
    ]
    assert [r.position for r in rows] == [1, 2, 3, 3, 5, 6]
    assert [r.tied for r in rows] == [False, False, True, True, False, False]


def test_tied_pairs_listed_in_input_order():
    rows = compute_standings([6, 5, 4, 3, 2, 1], NOT_ALL_MET)
    assert [r.pair for r in rows] == [5, 4, 2, 1, 3, 6]


def test_four_way_round_robin_head_to_head_no_split():
    """Four pairs, a round robin (4-hand scale):

    R1 a v b 1400–1000 (diff 400 → 12-8), c v d 1000–600 (12-8)
    R2 b v c 1000–600 (12-8), a v d 600–1000 (8-12)
    R3 c v a 1200–1200 (10-10), b v d 900–900 (10-10)
    a: 12 + 8 + 10 = 30 VP; +400 − 400 + 0 = 0; scored 1400 + 600 + 1200 = 3200
    b: 8 + 12 + 10 = 30;    −400 + 400 + 0 = 0; 1000 + 1000 + 900 = 2900
    c: 12 + 8 + 10 = 30;    +400 − 400 + 0 = 0; 1000 + 600 + 1200 = 2800
    d: 12 + 8 + 10 = 30;    −400 + 400 + 0 = 0; 600 + 1000 + 900 = 2500
    All four tied and all met: head-to-head = their whole score (30 each) → no split;
    MP scored decides: a, b, c, d.

    With d penalised 1 VP: {a, b, c} tied on 30 / 0, all met; head-to-head
    a 12 (v b) + 10 (v c) = 22, b 8 + 12 = 20, c 8 + 10 = 18 → a, b, c even without any
    further key (so not tied).
    """
    results = [
        GameResult(1, "a", "b", 1400, 1000, 12, 8),
        GameResult(1, "c", "d", 1000, 600, 12, 8),
        GameResult(2, "b", "c", 1000, 600, 12, 8),
        GameResult(2, "a", "d", 600, 1000, 8, 12),
        GameResult(3, "c", "a", 1200, 1200, 10, 10),
        GameResult(3, "b", "d", 900, 900, 10, 10),
    ]
    rows = compute_standings("abcd", results)
    assert [r.pair for r in rows] == ["a", "b", "c", "d"]
    assert [r.vp for r in rows] == [30, 30, 30, 30]
    assert [r.mp_difference for r in rows] == [0, 0, 0, 0]
    assert [r.mp_scored for r in rows] == [3200, 2900, 2800, 2500]

    rows = compute_standings("cbad", results, penalties=[Penalty("d", Decimal(1), "ammonizione")],
                             tiebreaks=("vp", "mp_difference", "head_to_head"))
    assert [(r.position_label, r.pair) for r in rows] == [("1", "a"), ("2", "b"), ("3", "c"), ("4", "d")]


def test_head_to_head_split_then_subgroup_continues_with_next_keys():
    """p, q, r all met; each also played one outsider (s, t, u) — 4-hand scale:

    R1 p v q 800–600 (diff 200 → 11-9)      R2 p v r 800–600 (11-9)
    R3 q v r 900–900 (10-10)                R4 p v s 600–1000 (diff 400 → 8-12),
                                               q v t 1000–800 (11-9), r v u 1000–800 (11-9)
    p: 11 + 11 + 8 = 30 VP; +200 + 200 − 400 = 0; scored 800 + 800 + 600 = 2200
    q: 9 + 10 + 11 = 30;    −200 + 0 + 200 = 0;   600 + 900 + 1000 = 2500
    r: 9 + 10 + 11 = 30;    −200 + 0 + 200 = 0;   600 + 900 + 1000 = 2500
    s: 12 VP, +400; t and u: 9 VP, −200, 800 scored, never met each other.
    {p, q, r}: head-to-head p 22, q 9 + 10 = 19, r 19 → p first (despite the lowest MP
    scored); {q, r} continue with MP scored: 2500 each → "2=", "2=".
    {t, u}: not met → skipped; MP scored equal → "5=".
    Standings: 1 p, 2= q, 2= r, 4 s, 5= t, 5= u.
    """
    results = [
        game(1, "p", "q", 800, 600, 11, 9),
        game(2, "p", "r", 800, 600, 11, 9),
        game(3, "q", "r", 900, 900, 10, 10),
        game(4, "p", "s", 600, 1000, 8, 12),
        game(4, "q", "t", 1000, 800, 11, 9),
        game(4, "r", "u", 1000, 800, 11, 9),
    ]
    for g in results:
        assert convert(g.mp_ns, g.mp_ew, FOUR) == (g.vp_ns, g.vp_ew)
    rows = compute_standings(["s", "t", "u", "r", "q", "p"], results)
    assert [(r.position_label, r.pair) for r in rows] == [
        ("1", "p"), ("2=", "r"), ("2=", "q"), ("4", "s"), ("5=", "t"), ("5=", "u")
    ]
    assert [r.position for r in rows] == [1, 2, 2, 4, 5, 5]


# ------------------------------------------------------------------ penalties, rests, withdrawn


def test_penalty_deducted_and_gives_opponents_nothing():
    """NOT_ALL_MET with pair 5 penalised 1 VP: 5 drops to 21 VP, behind 4 (22).
    Its opponents (6, 2) keep their VP. Standings: 4 (22), 5 (21), 1 and 2 "3=", 3, 6."""
    rows = compute_standings(range(1, 7), NOT_ALL_MET, penalties=[Penalty(5, Decimal(1), "ammonizione ripetuta")])
    assert [(r.position_label, r.pair, r.vp) for r in rows] == [
        ("1", 4, 22), ("2", 5, 21), ("3=", 1, 20), ("3=", 2, 20), ("5", 3, 20), ("6", 6, 16)
    ]
    by_pair = {r.pair: r for r in rows}
    assert by_pair[5].penalty == 1 and by_pair[6].penalty == 0


def test_penalty_breaks_a_tie_and_negative_amount():
    """Pair 1 penalised 1 VP (written as −1): 19 VP, 5th. {2, 3} tied on 20 / 0 and never
    met → MP scored: 2 (1900), 3 (1700). Standings: 5, 4, 2, 3, 1, 6. Two penalties add up."""
    rows = compute_standings(range(1, 7), NOT_ALL_MET, penalties=[Penalty(1, Decimal(-1), "ritardo")])
    assert [r.pair for r in rows] == [5, 4, 2, 3, 1, 6]
    assert rows[4].vp == 19 and rows[4].penalty == 1
    rows = compute_standings(range(1, 7), NOT_ALL_MET, penalties=[Penalty(1, 1, "a"), Penalty(1, Decimal("0.5"), "b")])
    assert next(r for r in rows if r.pair == 1).vp == Decimal("18.5")


def test_penalty_after_round_filter():
    p = Penalty(5, 1, "r2", round=2)
    rows = compute_standings(range(1, 7), NOT_ALL_MET, penalties=[p], after_round=1)
    assert next(r for r in rows if r.pair == 5).penalty == 0
    rows = compute_standings(range(1, 7), NOT_ALL_MET, penalties=[p], after_round=2)
    assert next(r for r in rows if r.pair == 5).penalty == 1


def test_rest_counts_vp_and_credited_mp():
    """5 pairs, 2 rounds (4-hand scale, rest 70 % = 14 VP, MP credited 705 on "band_lower_edge").

    R1: 1 v 2 1000–800 (diff 200 → 11-9), 3 v 4 900–900 (10-10), 5 rests: 14 VP, 705 MP.
    R2: 1 v 5 700–1000 (diff 300 → 9-11 to 5), 2 v 3 800–800 (10-10), 4 rests: 14 VP, 705 MP.
    pair 5: 14 + 11 = 25 VP, difference 705 + 300 = 1005, scored 705 + 1000 = 1705, rests 1
    pair 4: 10 + 14 = 24 VP, difference 0 + 705 = 705, scored 900 + 705 = 1605
    pair 1: 11 + 9 = 20 VP, difference 200 − 300 = −100, scored 1700
    pair 3: 10 + 10 = 20 VP, difference 0, scored 1700
    pair 2: 9 + 10 = 19 VP, difference −200, scored 1600
    Standings: 5, 4, 3 (20, 0), 1 (20, −100), 2.
    """
    vp = rest_vp(FOUR)
    results = [
        game(1, 1, 2, 1000, 800, 11, 9),
        game(1, 3, 4, 900, 900, 10, 10),
        GameResult(1, 5, None, 705, 0, vp, Decimal(0)),
        game(2, 1, 5, 700, 1000, 9, 11),
        game(2, 2, 3, 800, 800, 10, 10),
        GameResult(2, 4, None, 705, 0, vp, Decimal(0)),
    ]
    rows = compute_standings(range(1, 6), results)
    assert [(r.pair, r.vp, r.mp_difference, r.mp_scored) for r in rows] == [
        (5, 25, 1005, 1705), (4, 24, 705, 1605), (3, 20, 0, 1700), (1, 20, -100, 1700), (2, 19, -200, 1600)
    ]
    assert [(r.played, r.rests) for r in rows] == [(2, 1), (2, 1), (2, 0), (2, 0), (2, 0)]


def test_withdrawn_pair_keeps_results_and_is_marked():
    rows = compute_standings(range(1, 7), WORKED, withdrawn=[6])
    six = rows[-1]
    assert six.pair == 6 and six.withdrawn and six.vp == 24 and six.played == 3
    assert sum(r.withdrawn for r in rows) == 1


def test_no_results_everybody_shares_first():
    rows = compute_standings([1, 2, 3], [])
    assert [r.position_label for r in rows] == ["1=", "1=", "1="]
    assert [r.pair for r in rows] == [1, 2, 3]


def test_bad_inputs():
    with pytest.raises(ValueError):
        compute_standings([1, 2], [], tiebreaks=("vp", "buchholz"))
    with pytest.raises(ValueError):
        compute_standings([1, 2], [game(1, 1, 3, 0, 0, 10, 10)])
    with pytest.raises(ValueError):
        compute_standings([1, 2], [], penalties=[Penalty(9, 1, "x")])
    with pytest.raises(ValueError):
        compute_standings([1, 1], [])
    assert TIEBREAKS == ("vp", "mp_difference", "head_to_head", "mp_scored")


# ------------------------------------------------------------------ penalties in MP

MP_PENALTY_ROUND = [
    game(1, 1, 2, 1500, 1200, 11, 9),   # diff 300 → band 105–300 → 11-9
    game(1, 3, 4, 1000, 900, 10, 10),   # diff 100 → band 0–100 → 10-10
]


def test_mp_penalty_lowers_mp_difference_and_mp_scored_not_the_opponents():
    """Art. 23 "1 V.P. o equivalente": pair 1 has MP difference +300 and MP scored 1500;
    a 100 MP penalty leaves +300 − 100 = +200 and 1500 − 100 = 1400, its 11 VP untouched.
    Its opponent, pair 2, keeps −300, 1200 MP and 9 VP: it gains nothing."""
    rows = {r.pair: r for r in compute_standings([1, 2, 3, 4], MP_PENALTY_ROUND,
                                                 penalties=[Penalty(1, mp=100, reason="ritardo")])}
    assert (rows[1].mp_difference, rows[1].mp_scored, rows[1].vp) == (200, 1400, Decimal(11))
    assert (rows[1].penalty_mp, rows[1].penalty) == (100, Decimal(0))
    assert (rows[2].mp_difference, rows[2].mp_scored, rows[2].vp, rows[2].penalty_mp) == (-300, 1200, Decimal(9), 0)
    for g in MP_PENALTY_ROUND:  # the table's result is not touched
        assert convert(g.mp_ns, g.mp_ew, FOUR) == (g.vp_ns, g.vp_ew)


def test_negative_mp_penalty_is_read_as_the_same_deduction():
    rows = {r.pair: r for r in compute_standings([1, 2, 3, 4], MP_PENALTY_ROUND, penalties=[Penalty(1, mp=-100)])}
    assert (rows[1].mp_difference, rows[1].mp_scored, rows[1].penalty_mp) == (200, 1400, 100)


TIED_ON_VP = [
    game(1, 1, 2, 900, 700, 11, 9),     # diff 200 → 11-9
    game(1, 3, 4, 850, 700, 11, 9),     # diff 150 → 11-9
]


def test_mp_penalty_changes_the_mp_difference_tie_break():
    """Pairs 1 and 3 both have 11 VP and did not meet (head-to-head skipped).
    Without penalty: 1 (+200) before 3 (+150); then 4 (−150) before 2 (−200).
    With 100 MP off pair 1: +200 − 100 = +100 < +150, so 3 comes first; pair 2 (pair 1's
    opponent) stays at −200, still behind 4."""
    plain = compute_standings([1, 2, 3, 4], TIED_ON_VP)
    assert [r.pair for r in plain] == [1, 3, 4, 2]
    rows = compute_standings([1, 2, 3, 4], TIED_ON_VP, penalties=[Penalty(1, mp=100, reason="x")])
    assert [(r.pair, r.mp_difference) for r in rows] == [(3, 150), (1, 100), (4, -150), (2, -200)]


def test_mp_penalty_changes_the_mp_scored_tie_break():
    """Chain VP then MP scored: pair 1 scored 900, pair 3 850 → 1 first; with 100 MP off
    pair 1, 800 < 850 → 3 first."""
    chain = ("vp", "mp_scored")
    assert [r.pair for r in compute_standings([1, 2, 3, 4], TIED_ON_VP, tiebreaks=chain)][:2] == [1, 3]
    rows = compute_standings([1, 2, 3, 4], TIED_ON_VP, tiebreaks=chain, penalties=[Penalty(1, mp=100)])
    assert [(r.pair, r.mp_scored) for r in rows][:2] == [(3, 850), (1, 800)]


def test_mp_penalty_of_a_later_round_is_ignored_after_an_earlier_one():
    rows = {r.pair: r for r in compute_standings([1, 2, 3, 4], MP_PENALTY_ROUND, after_round=1,
                                                 penalties=[Penalty(1, mp=100, round=2)])}
    assert (rows[1].mp_difference, rows[1].mp_scored, rows[1].penalty_mp) == (300, 1500, 0)
