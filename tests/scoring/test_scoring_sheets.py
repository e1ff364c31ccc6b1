"""Score-sheet totals, sum check and swapped lines (rules.md §3–4). Expected values by hand."""

import pytest

from scoring.sheets import HandScore, SheetError, sheet_totals, swap_declared, swap_lines
from scoring.vp import scale_for_hands

FOUR = scale_for_hands(4)
THREE = scale_for_hands(3)

# N/S: 845 + (−155) + 420 + 510 = 1620; E/W: 100 + 635 + 265 + 115 = 1115
HANDS = [HandScore(845, 100), HandScore(-155, 635), HandScore(420, 265), HandScore(510, 115)]


def test_totals_and_vp():
    t = sheet_totals(HANDS, FOUR, expected_hands=4)
    assert (t.mp_ns, t.mp_ew, t.difference) == (1620, 1115, 505)
    assert (t.vp_ns, t.vp_ew) == (13, 7)  # 505 → band 505–700
    assert not t.sum_error
    assert (t.declared_ns, t.declared_ew) == (None, None)


def test_totals_negative_line_wins_on_three_hands():
    # N/S: −100 + 50 + 55 = 5; E/W: −200 + 160 − 5 = −45; difference 50 → draw band
    hands = [HandScore(-100, -200), HandScore(50, 160), HandScore(55, -5)]
    t = sheet_totals(hands, THREE, expected_hands=3)
    assert (t.mp_ns, t.mp_ew, t.difference) == (5, -45, 50)
    assert (t.vp_ns, t.vp_ew) == (10, 10)


def test_from_parts():
    h = HandScore.from_parts(ns_base=600, ns_cards=245, ew_base=-100, ew_cards=200)
    assert (h.ns, h.ew) == (845, 100)
    assert h == HandScore(845, 100)
    assert (h.ns_base, h.ns_cards, h.ew_base, h.ew_cards) == (600, 245, -100, 200)


def test_not_multiple_of_five_refused_with_hand_number():
    hands = [HandScore(845, 100), HandScore(-155, 635), HandScore(420, 123), HandScore(511, 115)]
    with pytest.raises(SheetError) as exc:
        sheet_totals(hands, FOUR)
    assert exc.value.messages == [
        "Smazzata 3, linea E/O: 123 non è multiplo di 5",
        "Smazzata 4, linea N/S: 511 non è multiplo di 5",
    ]


def test_wrong_number_of_hands():
    with pytest.raises(SheetError, match="Lo score ha 3 smazzate, ne sono previste 4"):
        sheet_totals(HANDS[:3], FOUR, expected_hands=4)
    with pytest.raises(SheetError, match="non ha smazzate"):
        sheet_totals([], FOUR)


def test_declared_totals_match():
    t = sheet_totals(HANDS, FOUR, declared=(1620, 1115))
    assert not t.sum_error
    assert t.sum_error_messages() == []


def test_sum_error_keeps_both_figures():
    # the captain wrote 1720 for N/S (sum is 1620); E/W written correctly
    t = sheet_totals(HANDS, FOUR, declared=(1720, 1115))
    assert t.sum_error
    assert (t.declared_ns, t.mp_ns) == (1720, 1620)
    assert (t.vp_ns, t.vp_ew) == (13, 7)  # the sum of the hands is used
    assert t.sum_error_messages() == ["Errore di somma, linea N/S: dichiarato 1720, somma delle smazzate 1620"]


def test_sum_error_one_side_declared():
    t = sheet_totals(HANDS, FOUR, declared=(None, 1110))
    assert t.sum_error
    assert t.sum_error_messages() == ["Errore di somma, linea E/O: dichiarato 1110, somma delle smazzate 1115"]


def test_swapped_lines():
    swapped = swap_lines(HANDS)
    assert swapped == [HandScore(100, 845), HandScore(635, -155), HandScore(265, 420), HandScore(115, 510)]
    t = sheet_totals(swapped, FOUR, declared=swap_declared((1620, 1115)))
    assert (t.mp_ns, t.mp_ew, t.difference) == (1115, 1620, -505)
    assert (t.vp_ns, t.vp_ew) == (7, 13)
    assert not t.sum_error
    assert swap_lines(swapped) == HANDS
    assert swap_declared(None) is None


def test_swapped_lines_keep_parts():
    h = HandScore.from_parts(600, 245, -100, 200).swapped()
    assert (h.ns_base, h.ns_cards, h.ew_base, h.ew_cards) == (-100, 200, 600, 245)
