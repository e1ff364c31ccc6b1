"""The checker catches each kind of broken response (pairing/check.py)."""

import copy

from pairing import run
from pairing.check import check

DANISH = {"system": "danish", "ranking": [1, 2, 3, 4, 5, 6]}
DANISH_ODD = {"system": "danish", "ranking": [1, 2, 3, 4, 5], "rested": [5]}
MITCHELL = {"system": "mitchell", "pairs": list(range(1, 9)), "round": 2}


def broken(request, change):
    response = copy.deepcopy(run(request))
    assert check(request, response) == []
    change(response)
    return check(request, response)


def has(violations, text):
    assert any(text in v for v in violations), violations


def test_pair_missing():
    has(broken(DANISH, lambda r: r["tables"].pop()), "manca")


def test_pair_twice():
    def twice(r):
        r["tables"][1]["ew"] = r["tables"][0]["ew"]
    has(broken(DANISH, twice), "compare 2 volte")


def test_unknown_pair():
    def unknown(r):
        r["tables"][2]["ew"] = 99
    has(broken(DANISH, unknown), "sconosciuta")


def test_table_numbering():
    def gap(r):
        r["tables"][2]["table"] = 5
    has(broken(DANISH, gap), "numerati da 1")


def test_avoidable_rematch():
    request = dict(DANISH, met=[[1, 2]])

    def natural(r):
        r["tables"] = [{"table": 1, "ns": 1, "ew": 2}, {"table": 2, "ns": 3, "ew": 4},
                       {"table": 3, "ns": 5, "ew": 6}]
        r["rematches"] = [[1, 2]]
        r["warnings"] = ["incontro ripetuto"]
    has(broken(request, natural), "evitabile")


def test_unlisted_rematch():
    """1 v 2 already met: the engine plays 1 v 3; a response seating 1 v 2 without listing it
    (a hand change) is named with its table, and it was avoidable."""
    request = dict(DANISH, met=[[1, 2]])

    def natural(r):
        r["tables"] = [{"table": 1, "ns": 1, "ew": 2}, {"table": 2, "ns": 3, "ew": 4},
                       {"table": 3, "ns": 5, "ew": 6}]
    violations = broken(request, natural)
    has(violations, "incontro ripetuto non segnalato al tavolo 1: 1–2 (già incontrate)")
    has(violations, "incontro ripetuto evitabile: 1–2")
    assert not any("'rematches'" in v for v in violations)


def test_rematch_listed_but_not_played_is_the_engines_fault():
    def invented(r):
        r["rematches"] = [[1, 2]]
    has(broken(DANISH, invented), "'rematches'")


def test_bye_to_a_pair_that_already_rested():
    def rest_5(r):
        r["bye"] = 5
        r["tables"] = [{"table": 1, "ns": 1, "ew": 2}, {"table": 2, "ns": 3, "ew": 4}]
    has(broken(DANISH_ODD, rest_5), "art. 33")


def test_bye_to_a_pair_above_the_entitled_one():
    def rest_3(r):
        r["bye"] = 3
        r["tables"] = [{"table": 1, "ns": 1, "ew": 2}, {"table": 2, "ns": 4, "ew": 5}]
    has(broken(DANISH_ODD, rest_3), "il riposo spetta a 4")


def test_top_down_choice_not_the_best():
    def skip_2(r):
        r["tables"] = [{"table": 1, "ns": 1, "ew": 3}, {"table": 2, "ns": 2, "ew": 4},
                       {"table": 3, "ns": 5, "ew": 6}]
    has(broken(DANISH, skip_2), "doveva giocare contro 2")


def test_seating_and_table_order():
    def swap_seats(r):
        t = r["tables"][0]
        t["ns"], t["ew"] = t["ew"], t["ns"]
    has(broken(DANISH, swap_seats), "N/S")

    def swap_tables(r):
        a, b = r["tables"][0], r["tables"][1]
        a["table"], b["table"] = 2, 1
        r["tables"].sort(key=lambda t: t["table"])
    has(broken(DANISH, swap_tables), "classifica")


def test_mitchell_tables_not_matching_the_movement():
    def swap_ew(r):
        r["tables"][0]["ew"], r["tables"][1]["ew"] = r["tables"][1]["ew"], r["tables"][0]["ew"]
    has(broken(MITCHELL, swap_ew), "movimento prevede")


def test_mitchell_wrong_bye_and_forced_bye():
    odd = {"system": "mitchell", "pairs": list(range(1, 8)), "round": 1, "absent": [5]}

    def wrong(r):
        r["bye"] = None
        r["forced_byes"] = []
    violations = broken(odd, wrong)
    has(violations, "riposa 7")
    has(violations, "riposi forzati")


def test_first_round_lot_not_matching_the_seed():
    request = {"system": "first_round", "method": "lot", "pairs": list(range(1, 9)),
               "seed": 3}

    def other(r):
        r["seed"] = 4
    has(broken(request, other), "seme")


def test_bad_request_is_reported():
    assert check({"system": "danish", "ranking": [1, 1]}, {"tables": []})[0].startswith(
        "richiesta non valida")
    assert check({"system": "danish", "ranking": [1, 2]}, "nope") == [
        "risposta non valida: non è un oggetto"]


def test_regression_forced_rest_is_counted_once():
    # The forced-rest pair sits at its half-empty table and is listed in forced_byes.
    request = {"system": "mitchell", "pairs": list(range(1, 9)), "round": 1, "absent": [6]}
    assert check(request, run(request)) == []
