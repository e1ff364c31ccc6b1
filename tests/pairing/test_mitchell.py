"""Mitchell movement (rules.md §6, pairing-io.md): expected tables computed by hand."""

import pytest

from pairing import PairingError, run
from pairing.check import check
from pairing.mitchell import plan_warnings, repeat_period


def tables(response):
    return [(t["table"], t["ns"], t["ew"]) for t in response["tables"]]


def mitchell(pairs, rnd, **extra):
    request = {"system": "mitchell", "pairs": pairs, "round": rnd, **extra}
    response = run(request)
    assert check(request, response) == []
    return response


# 8 pairs: T = 4, N/S 1..4, E/W 5..8; E/W index i at table ((i + r - 1) mod 4) + 1.
@pytest.mark.parametrize("rnd, expected", [
    (1, [(1, 1, 5), (2, 2, 6), (3, 3, 7), (4, 4, 8)]),
    (2, [(1, 1, 8), (2, 2, 5), (3, 3, 6), (4, 4, 7)]),
    (3, [(1, 1, 7), (2, 2, 8), (3, 3, 5), (4, 4, 6)]),
])
def test_eight_pairs(rnd, expected):
    response = mitchell(list(range(1, 9)), rnd)
    assert tables(response) == expected
    assert response["bye"] is None
    assert response["forced_byes"] == [] and response["warnings"] == []


# 7 pairs: T = 4, N/S 1..3 + phantom at table 4, E/W 4..7; the pair facing the phantom rests.
@pytest.mark.parametrize("rnd, expected, bye", [
    (1, [(1, 1, 4), (2, 2, 5), (3, 3, 6)], 7),
    (2, [(1, 1, 7), (2, 2, 4), (3, 3, 5)], 6),
    (3, [(1, 1, 6), (2, 2, 7), (3, 3, 4)], 5),
])
def test_seven_pairs_phantom_stays_at_last_table(rnd, expected, bye):
    response = mitchell(list(range(1, 8)), rnd)
    assert tables(response) == expected
    assert response["bye"] == bye


def test_step_two():
    response = mitchell(list(range(1, 9)), 2, step=2)
    assert tables(response) == [(1, 1, 7), (2, 2, 8), (3, 3, 5), (4, 4, 6)]


def test_step_two_repeats_after_two_rounds_and_warns():
    assert repeat_period(8, 2) == 2
    response = run({"system": "mitchell", "pairs": list(range(1, 9)), "round": 3, "step": 2})
    assert tables(response) == [(1, 1, 5), (2, 2, 6), (3, 3, 7), (4, 4, 8)]
    assert any("turno 1" in w and "1–5" in w for w in response["warnings"])


def test_plan_longer_than_tables_warns_naming_pairs_and_rounds():
    warnings = plan_warnings(list(range(1, 9)), 5)
    assert len(warnings) == 1
    assert "Turno 5" in warnings[0] and "turno 1" in warnings[0]
    assert all(m in warnings[0] for m in ("1–5", "2–6", "3–7", "4–8"))
    assert plan_warnings(list(range(1, 9)), 4) == []
    odd = plan_warnings(list(range(1, 8)), 6)
    assert len(odd) == 2 and "riposerebbe di nuovo" in odd[0] and "7" in odd[0]


def test_plan_rounds_in_request_warns_in_advance():
    response = mitchell(list(range(1, 9)), 1, plan_rounds=6)
    assert len(response["warnings"]) == 2


def test_absent_pair_gives_forced_rest_and_keeps_table_numbers():
    response = mitchell(list(range(1, 9)), 1, absent=[6])
    assert tables(response) == [(1, 1, 5), (2, 2, None), (3, 3, 7), (4, 4, 8)]
    assert response["forced_byes"] == [2]


def test_table_with_both_seats_absent_is_the_only_gap():
    response = mitchell(list(range(1, 9)), 1, absent=[2, 6])
    assert [t["table"] for t in response["tables"]] == [1, 3, 4]
    assert response["forced_byes"] == []


def test_absent_pair_facing_phantom_nobody_rests():
    response = mitchell(list(range(1, 8)), 1, absent=[7])
    assert response["bye"] is None
    assert tables(response) == [(1, 1, 4), (2, 2, 5), (3, 3, 6)]


@pytest.mark.parametrize("n", range(2, 41))
@pytest.mark.parametrize("step", [1, 2, 3])
def test_no_repeat_and_no_second_rest_within_period(n, step):
    pairs = list(range(1, n + 1))
    seen, rested = set(), set()
    for r in range(1, repeat_period(n, step) + 1):
        response = mitchell(pairs, r, step=step)
        for t in response["tables"]:
            meeting = frozenset((t["ns"], t["ew"]))
            assert meeting not in seen
            seen.add(meeting)
        if response["bye"] is not None:
            assert response["bye"] not in rested
            rested.add(response["bye"])


@pytest.mark.parametrize("request_", [
    {"pairs": [1], "round": 1},
    {"pairs": [1, 2, 2], "round": 1},
    {"pairs": [1, 2, 3], "round": 0},
    {"pairs": [1, 2, 3], "round": 1, "step": 0},
    {"pairs": [1, 2, 3], "round": "1"},
    {"pairs": [1, 2, 3], "round": 1, "absent": [9]},
    {"pairs": [1, 2, 3], "round": 2, "plan_rounds": 1},
])
def test_bad_requests(request_):
    with pytest.raises(PairingError):
        run({"system": "mitchell", **request_})
