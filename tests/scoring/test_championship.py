"""The championship's points and ranking (rules.md §17), values computed by hand."""
from decimal import Decimal
from fractions import Fraction

import pytest

from scoring.championship import (
    MemberEvening,
    Placing,
    RuleError,
    evening_points,
    parse_points_rule,
    points_text,
    rank_members,
    rounded,
)


def ten_pairs_two_tied_third():
    # positions 1, 2, 3=, 3=, 5 … 10
    positions = [1, 2, 3, 3, 5, 6, 7, 8, 9, 10]
    return [Placing(entrant=k + 1, position=p, vp=Decimal(40 - 2 * k)) for k, p in enumerate(positions)]


def test_field_gives_two_tied_third_of_ten_seven_and_a_half():
    points = evening_points(parse_points_rule("field"), ten_pairs_two_tied_third())
    assert points[1] == 10 and points[2] == 9
    assert points[3] == points[4] == Fraction(15, 2)  # (8 + 7) / 2
    assert points[5] == 6 and points[10] == 1


def test_three_way_tie_gives_thirds():
    placings = [Placing(1, 1, Decimal(0)), Placing(2, 2, Decimal(0)), Placing(3, 2, Decimal(0)),
                Placing(4, 2, Decimal(0)), Placing(5, 5, Decimal(0))]
    points = evening_points(parse_points_rule("table:10,8,6,5"), placings)
    # positions 2, 3, 4 shared: (8 + 6 + 5) / 3 = 19/3 = 6.33; the 5th is beyond the table: 0
    assert points[2] == Fraction(19, 3) and rounded(points[2]) == Decimal("6.33")
    assert points[1] == 10 and points[5] == 0


def test_table_beyond_its_length_is_zero_and_tie_straddling_the_end_averages():
    placings = [Placing(1, 1, Decimal(0)), Placing(2, 2, Decimal(0)), Placing(3, 2, Decimal(0))]
    points = evening_points(parse_points_rule("table:5,3"), placings)
    assert points[2] == points[3] == Fraction(3, 2)  # (3 + 0) / 2


def test_vp_rule_takes_final_vp():
    placings = [Placing(1, 1, Decimal("31.5")), Placing(2, 2, Decimal("12"))]
    points = evening_points(parse_points_rule("vp"), placings)
    assert points == {1: Fraction(63, 2), 2: 12}


@pytest.mark.parametrize("text", ["", "points", "table:", "table:5,,3", "table:a,b", "table:-1", "table:1e9"])
def test_bad_rules_are_sentences(text):
    with pytest.raises(RuleError) as exc:
        parse_points_rule(text)
    assert str(exc.value).endswith((".", "…."))


def test_best_two_of_three_and_of_two_equal_evenings_the_earlier_counts():
    rows = rank_members({
        "anna": [MemberEvening(0, Fraction(10)), MemberEvening(1, Fraction(4)), MemberEvening(2, Fraction(8))],
        "bea": [MemberEvening(0, Fraction(7)), MemberEvening(1, Fraction(9)), MemberEvening(2, Fraction(7))],
    }, best=2)
    anna, bea = rows
    assert (anna.member, anna.total, anna.counted, anna.played) == ("anna", 18, (0, 2), 3)
    # bea: 9 counts, and of her two 7s the earlier (evening 0)
    assert (bea.member, bea.total, bea.counted) == ("bea", 16, (0, 1))
    assert [r.position for r in rows] == [1, 2]


def test_order_total_then_best_single_then_evenings_then_shared():
    rows = rank_members({
        "a": [MemberEvening(0, Fraction(6)), MemberEvening(1, Fraction(6))],   # 12, best 6, 2 ev
        "b": [MemberEvening(0, Fraction(10)), MemberEvening(1, Fraction(2))],  # 12, best 10
        "c": [MemberEvening(0, Fraction(12))],                                 # 12, best 12, 1 ev
        "d": [MemberEvening(1, Fraction(6)), MemberEvening(2, Fraction(6))],   # same as a
        "e": [MemberEvening(0, Fraction(1))],
    })
    assert [r.member for r in rows] == ["c", "b", "a", "d", "e"]
    assert [r.position_label for r in rows] == ["1", "2", "3=", "3=", "5"]


def test_shared_places_give_positions_1_2_2_4():
    rows = rank_members({m: [MemberEvening(0, Fraction(p))] for m, p in
                         [("w", 9), ("x", 5), ("y", 5), ("z", 1)]})
    assert [r.position for r in rows] == [1, 2, 2, 4]


def test_minimum_evenings_lists_the_others_after_without_position():
    rows = rank_members({
        "once": [MemberEvening(0, Fraction(20))],
        "twice": [MemberEvening(0, Fraction(3)), MemberEvening(1, Fraction(3))],
        "thrice": [MemberEvening(0, Fraction(1)), MemberEvening(1, Fraction(1)), MemberEvening(2, Fraction(1))],
    }, min_evenings=2)
    assert [(r.member, r.position) for r in rows] == [("twice", 1), ("thrice", 2), ("once", None)]
    assert rows[2].position_label == ""


def test_bad_best_and_minimum_refused():
    with pytest.raises(RuleError):
        rank_members({}, best=0)
    with pytest.raises(RuleError):
        rank_members({}, min_evenings=0)


def test_points_text_italian():
    assert points_text(Fraction(15, 2)) == "7,5"
    assert points_text(Fraction(19, 3)) == "6,33"
    assert points_text(Fraction(12)) == "12"
