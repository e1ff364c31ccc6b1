"""First Danish round: by lot, by pair number, by hand (rules.md §7)."""

import pytest

from pairing import PairingError, run
from pairing.check import check


def first(method, pairs, **extra):
    request = {"system": "first_round", "method": method, "pairs": pairs, **extra}
    response = run(request)
    assert check(request, response) == []
    return response


def test_lot_is_reproducible_from_the_seed():
    a = first("lot", list(range(1, 12)), seed=42)
    b = first("lot", list(range(1, 12)), seed=42)
    c = first("lot", list(range(1, 12)), seed=43)
    assert a == b and a["seed"] == 42
    assert a["tables"] != c["tables"]
    assert a["bye"] is not None and len(a["tables"]) == 5


def test_lot_without_seed_reports_the_seed_it_used():
    a = first("lot", list(range(1, 9)))
    again = first("lot", list(range(1, 9)), seed=a["seed"])
    assert again["tables"] == a["tables"]


def test_by_pair_number():
    response = first("number", [1, 2, 3, 4, 5])
    assert [(t["ns"], t["ew"]) for t in response["tables"]] == [(1, 2), (3, 4)]
    assert response["bye"] == 5


def test_by_hand_is_validated_and_sorted():
    tables = [{"table": 2, "ns": 3, "ew": 1}, {"table": 1, "ns": 2, "ew": 5}]
    response = first("hand", [1, 2, 3, 4, 5], tables=tables, bye=4)
    assert [t["table"] for t in response["tables"]] == [1, 2]
    assert response["bye"] == 4


@pytest.mark.parametrize("tables, bye", [
    ([{"table": 1, "ns": 1, "ew": 2}, {"table": 2, "ns": 2, "ew": 3}], 4),   # 2 twice
    ([{"table": 1, "ns": 1, "ew": 2}], 3),                                  # 4 missing
    ([{"table": 1, "ns": 1, "ew": 2}], None),                               # two without seat
    ([{"table": 1, "ns": 1, "ew": 2}, {"table": 3, "ns": 3, "ew": 9}], None),  # unknown 9
    ([{"table": 1, "ns": 1, "ew": 2}, {"table": 3, "ns": 3, "ew": 4}], None),  # gap
])
def test_by_hand_rejects_bad_tables(tables, bye):
    with pytest.raises(PairingError):
        run({"system": "first_round", "method": "hand", "pairs": [1, 2, 3, 4],
             "tables": tables, "bye": bye})


def test_unknown_method():
    with pytest.raises(PairingError):
        run({"system": "first_round", "method": "dice", "pairs": [1, 2]})
