"""VP scales (rules.md §4) and the rest score (§5). Expected values come from the published
tables in rules.md / vp_scales.json and from hand calculation."""

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.vp import (
    Band,
    ScaleError,
    VPScale,
    builtin_scales,
    convert,
    format_vp,
    rest_mp,
    rest_vp,
    scale_for_hands,
    scale_from_csv,
    scale_from_dict,
    scale_from_rows,
    scale_to_dict,
    validate_scale,
)

FOUR = scale_for_hands(4)
THREE = scale_for_hands(3)

# (difference, winner VP) at every band edge, copied from the published tables.
FOUR_HAND_EDGES = [
    (0, 10), (100, 10), (105, 11), (300, 11), (305, 12), (500, 12), (505, 13), (700, 13),
    (705, 14), (900, 14), (905, 15), (1100, 15), (1105, 16), (1300, 16), (1305, 17),
    (1500, 17), (1505, 18), (1700, 18), (1705, 19), (2000, 19), (2005, 20), (5000, 20),
]
THREE_HAND_EDGES = [
    (0, 10), (50, 10), (55, 11), (150, 11), (155, 12), (250, 12), (255, 13), (350, 13),
    (355, 14), (500, 14), (505, 15), (650, 15), (655, 16), (800, 16), (805, 17), (825, 17),
    (1000, 17), (1005, 18), (1250, 18), (1255, 19), (1500, 19), (1505, 20), (4000, 20),
]


def test_builtin_scales_loaded():
    scales = builtin_scales()
    assert set(scales) == {"vp20-3h", "vp20-4h", "vp20-teams"}  # the team table: rules.md §15
    assert scales["vp20-4h"] is FOUR and FOUR.hands == 4 and FOUR.total == 20
    assert THREE.max_vp == 20 and len(THREE.bands) == 11


def test_unknown_hands_raises_key_and_scale_error():
    with pytest.raises(KeyError):
        scale_for_hands(2)
    with pytest.raises(ScaleError) as exc:
        scale_for_hands(2)
    assert "2 smazzate" in exc.value.messages[0]


@pytest.mark.parametrize("difference,winner", FOUR_HAND_EDGES)
def test_four_hand_edges(difference, winner):
    assert convert(1000 + difference, 1000, FOUR) == (winner, 20 - winner)
    assert convert(1000, 1000 + difference, FOUR) == (20 - winner, winner)


@pytest.mark.parametrize("difference,winner", THREE_HAND_EDGES)
def test_three_hand_edges(difference, winner):
    assert convert(difference, 0, THREE) == (winner, 20 - winner)
    assert convert(0, difference, THREE) == (20 - winner, winner)


def test_example_1620_v_1115():
    # difference 505 → band 505–700 → 13-7
    assert convert(1620, 1115, FOUR) == (13, 7)
    assert convert(1115, 1620, FOUR) == (7, 13)


def test_negative_mp():
    # 5 v −45: difference 50 → 3-hand draw band 0–50
    assert convert(5, -45, THREE) == (10, 10)
    # −200 v −510: difference 310 → 4h band 305–500 → 12-8 to the −200 line
    assert convert(-200, -510, FOUR) == (12, 8)
    assert convert(-510, -200, FOUR) == (8, 12)


def test_difference_not_multiple_of_five():
    with pytest.raises(ValueError, match="multipla di 5"):
        convert(1003, 1000, FOUR)


@given(st.integers(-800, 800), st.integers(-800, 800), st.sampled_from([3, 4]))
def test_convert_properties(a, b, hands):
    scale = scale_for_hands(hands)
    mp_ns, mp_ew = a * 5, b * 5
    vp_ns, vp_ew = convert(mp_ns, mp_ew, scale)
    assert vp_ns + vp_ew == 20
    assert convert(mp_ew, mp_ns, scale) == (vp_ew, vp_ns)
    if mp_ns > mp_ew:
        assert vp_ns >= vp_ew
    # one more step of difference never lowers the winner's VP
    assert convert(max(mp_ns, mp_ew) + 5, min(mp_ns, mp_ew), scale)[0] >= max(vp_ns, vp_ew)


# ----------------------------------------------------------------- rest

SCALE_25 = scale_from_rows(
    "vp25", "25 VP", 25,
    [(0, 100, Decimal("12.5"), Decimal("12.5")), (105, 500, 15, 10), (505, 1000, 20, 5), (1005, None, 25, 0)],
)


def test_rest_vp_20_and_25():
    assert rest_vp(FOUR) == 14
    assert rest_vp(THREE) == Decimal(14)
    assert format_vp(rest_vp(FOUR)) == "14"
    assert rest_vp(SCALE_25) == Decimal("17.5")  # 25 × 0.70
    assert format_vp(rest_vp(SCALE_25)) == "17.5"
    assert rest_vp(FOUR, 60) == 12
    assert rest_vp(FOUR, Decimal("72.5")) == Decimal("14.5")
    with pytest.raises(ValueError):
        rest_vp(FOUR, 120)


def test_format_vp():
    assert format_vp(14) == "14"
    assert format_vp(Decimal("14.00")) == "14"
    assert format_vp(Decimal("17.5")) == "17.5"
    assert format_vp(Decimal("13.25")) == "13.3"
    assert format_vp(Decimal("-1")) == "-1"


def test_rest_mp_modes():
    assert rest_mp(FOUR) == 0
    assert rest_mp(FOUR, "zero") == 0
    # 14 VP = winner of the 4h band 705–900, of the 3h band 355–500
    assert rest_mp(FOUR, "band_lower_edge") == 705
    assert rest_mp(THREE, "band_lower_edge") == 355
    # 17.5 rounded down = 17; the 25-VP scale has no 17 → last band below it (15: 105)
    assert rest_mp(SCALE_25, "band_lower_edge") == 105
    with pytest.raises(ValueError):
        rest_mp(FOUR, "half")


# ----------------------------------------------------------------- validation

GOOD_ROWS = [(0, 100, 10, 10), (105, 300, 11, 9), (305, None, 12, 8)]


def messages_for(rows, total=20):
    with pytest.raises(ScaleError) as exc:
        scale_from_rows("c", "custom", total, rows)
    return exc.value.messages


def test_good_custom_scale():
    scale = scale_from_rows("c", "custom", 20, GOOD_ROWS)
    assert convert(400, 0, scale) == (12, 8)
    assert convert(10_000, 0, scale) == (12, 8)


def test_gap():
    msgs = messages_for([(0, 100, 10, 10), (110, 300, 11, 9), (305, None, 12, 8)])
    assert len(msgs) == 1 and msgs[0].startswith("Buco tra 100 e 110")


def test_overlap():
    msgs = messages_for([(0, 100, 10, 10), (100, 300, 11, 9), (305, None, 12, 8)])
    assert len(msgs) == 1 and msgs[0].startswith("Sovrapposizione tra 100 e 100")


def test_boundaries_not_multiple_of_five():
    msgs = messages_for([(0, 102, 10, 10), (107, 300, 11, 9), (305, None, 12, 8)])
    assert "Fascia 1: il limite superiore 102 non è multiplo di 5" in msgs
    assert "Fascia 2: il limite inferiore 107 non è multiplo di 5" in msgs


def test_first_band_not_at_zero():
    msgs = messages_for([(5, 100, 10, 10), (105, None, 11, 9)])
    assert msgs == ["La prima fascia deve iniziare da 0, non da 5"]


def test_first_band_not_a_draw():
    msgs = messages_for([(0, 100, 11, 9), (105, None, 12, 8)])
    assert len(msgs) == 1 and "stesso punteggio" in msgs[0]


def test_last_band_not_open():
    msgs = messages_for([(0, 100, 10, 10), (105, 300, 11, 9)])
    assert msgs == ["L'ultima fascia deve essere aperta (senza limite superiore), invece finisce a 300"]


def test_open_band_not_last():
    msgs = messages_for([(0, 100, 10, 10), (105, None, 11, 9), (305, None, 12, 8)])
    assert any("Fascia 2: solo l'ultima fascia" in m for m in msgs)


def test_split_not_summing_to_total():
    msgs = messages_for([(0, 100, 10, 10), (105, 300, 11, 8), (305, None, 12, 8)])
    assert msgs == ["Fascia 2: 11 + 8 = 19, non 20 (il totale della tabella)"]


def test_winner_decreasing():
    msgs = messages_for([(0, 100, 10, 10), (105, 300, 12, 8), (305, None, 11, 9)])
    assert msgs == ["Fascia 3: i VP del vincente scendono da 12 a 11 mentre la differenza cresce"]


def test_winner_below_loser():
    msgs = messages_for([(0, 100, 10, 10), (105, 300, 10, 10), (305, None, 9, 11)])
    assert "Fascia 3: il vincente prende meno VP del perdente (9 contro 11)" in msgs


def test_every_problem_listed_at_once():
    msgs = messages_for([(5, 102, 11, 9), (110, 300, 10, 9), (305, 600, 12, 8)])
    # first band: not at 0 + max 102; gap 102→110; band 2 sum 19 and winner drops 11→10;
    # last band closed
    assert len(msgs) == 6


def test_empty_scale():
    with pytest.raises(ScaleError, match="non ha fasce"):
        validate_scale(VPScale("x", "x", None, 20, ()))


def test_builtin_scales_valid():
    for scale in builtin_scales().values():
        validate_scale(scale)


# ----------------------------------------------------------------- CSV and dict

def test_csv_comma_with_header():
    text = "min,max,winner,loser\n0,100,10,10\n105,300,11,9\n305,,12,8\n"
    scale = scale_from_csv(text, "club", "Tabella del circolo")
    assert scale.total == 20 and scale.bands[-1] == Band(305, None, 12, 8)
    assert scale.name == "Tabella del circolo"


def test_csv_semicolon_decimal_comma_no_header():
    text = "0;100;12,5;12,5\n\n105;500;15;10\n505;;25;0\n"
    scale = scale_from_csv(text, "c25", "25 VP")
    assert scale.total == 25
    assert scale.bands[0].winner == Decimal("12.5")
    assert rest_vp(scale) == Decimal("17.5")


def test_csv_parse_errors_name_the_row():
    text = "min;max;winner;loser\n0;100;10;10\n105;abc;11;9\n305;;12\n"
    with pytest.raises(ScaleError) as exc:
        scale_from_csv(text, "c", "c")
    assert exc.value.messages == [
        "Riga 3: colonna max: «abc» non è un numero intero di MP",
        "Riga 4: servono 4 colonne (min, max, vincente, perdente), trovate 3",
    ]


def test_csv_validation_errors_name_the_row():
    text = "min,max,winner,loser\n0,100,10,10\n\n110,300,11,9\n305,,12,7\n"
    with pytest.raises(ScaleError) as exc:
        scale_from_csv(text, "c", "c")
    assert exc.value.messages == [
        "Riga 5: 12 + 7 = 19, non 20 (il totale della tabella)",
        "Buco tra 100 e 110 (riga 2 e riga 4): manca la differenza da 105",
    ]


def test_csv_empty():
    with pytest.raises(ScaleError, match="non contiene fasce"):
        scale_from_csv("min,max,winner,loser\n", "c", "c")


def test_dict_round_trip():
    for scale in [FOUR, THREE, SCALE_25]:
        data = scale_to_dict(scale)
        assert scale_from_dict(data) == scale
    assert scale_to_dict(SCALE_25)["bands"][0]["winner"] == "12.5"
    import json

    json.dumps(scale_to_dict(SCALE_25))  # JSON-serialisable


def test_dict_invalid():
    with pytest.raises(ScaleError):
        scale_from_dict({"id": "x"})
    bad = scale_to_dict(FOUR)
    bad["bands"][3]["min"] = 510
    with pytest.raises(ScaleError, match="Buco tra 500 e 510"):
        scale_from_dict(bad)


def test_dict_accepts_float_and_string_vp():
    data = scale_to_dict(SCALE_25)
    data["bands"][0]["winner"] = 12.5
    data["bands"][0]["loser"] = "12.5"
    assert scale_from_dict(data) == SCALE_25


def test_convert_on_unvalidated_scale_with_gap():
    broken = VPScale("b", "rotta", None, 20, (Band(0, 100, 10, 10), Band(200, None, 11, 9)))
    with pytest.raises(ScaleError, match="Nessuna fascia"):
        convert(150, 0, broken)
    assert convert(200, 0, broken) == (11, 9)
