"""Danish individual pairing and the individual first round (rules.md §9; pairing-io.md
"Danish individual"). Every expected value is worked out by hand in the comments."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from pairing import PairingError, run

ROOT = Path(__file__).resolve().parents[2]


def danish(ranking, partners=(), rested=(), **extra):
    request = {"system": "danish-individual", "ranking": list(ranking),
               "partners": [list(p) for p in partners], "rested": list(rested), **extra}
    return run(request)


def seats(response):
    return [(t["table"], t["ns"], t["ew"]) for t in response["tables"]]


def test_8_players_no_history_is_1_2_v_3_4():
    # No rest (8 mod 4 = 0); 1 takes 2, 3 takes 4, ...; partnership 1 v 2, 3 v 4.
    response = danish(range(1, 9))
    assert seats(response) == [(1, [1, 2], [3, 4]), (2, [5, 6], [7, 8])]
    assert response["rest"] == [] and response["repeated_partners"] == []
    assert response["warnings"] == [] and response["explanations"] == []


def test_9_players_contract_example():
    # pairing-io.md: 9 mod 4 = 1 rests; 9 rested, so 8 does. 1 partnered 2 -> 1+3;
    # 2 takes 4 (3 is taken); then 5+6 and 7+9. Partnerships 1,2 at table 1, 3,4 at table 2.
    response = danish(range(1, 10), partners=[[1, 2], [3, 4]], rested=[9])
    assert response["tables"] == [{"table": 1, "ns": [1, 3], "ew": [2, 4]},
                                  {"table": 2, "ns": [5, 6], "ew": [7, 9]}]
    assert response["rest"] == [8]
    assert response["repeated_partners"] == [] and response["warnings"] == []
    assert response["explanations"] == [
        "Riposo: 8 — 9 ha già riposato in questa sessione.",
        "Tavolo 1 N/S: 1 con 3 — 1 e 2 sono già stati compagni."]


def test_10_players_round_where_1_and_2_already_partnered():
    # 10 mod 4 = 2: 10 and 9 rest. 1+2 partnered at round 1 -> 1+3, 2+4, 5+6, 7+8.
    response = danish(range(1, 11), partners=[[2, 1, 1]])
    assert seats(response) == [(1, [1, 3], [2, 4]), (2, [5, 6], [7, 8])]
    assert response["rest"] == [9, 10]
    assert response["explanations"] == [
        "Tavolo 1 N/S: 1 con 3 — 1 e 2 sono già stati compagni al turno 1."]


def test_11_players_rests_skip_those_who_rested():
    # 11 mod 4 = 3. From the bottom: 11 rested, 10 rests, 9 rested, 8 and 7 rest.
    # Playing: 1..6, 9, 11 -> 1+2 v 3+4, 5+6 v 9+11.
    response = danish(range(1, 12), rested=[11, 9])
    assert response["rest"] == [7, 8, 10]
    assert seats(response) == [(1, [1, 2], [3, 4]), (2, [5, 6], [9, 11])]
    assert response["warnings"] == []
    assert response["explanations"] == [
        "Riposo: 7, 8, 10 — 11, 9 hanno già riposato in questa sessione."]


def test_look_ahead_gives_1_the_only_partner_left_for_8():
    # 8 has partnered 2..7: only 1 can still partner him. 1 + 2 would leave 8 without a
    # new partner, so 1 takes 8 (look-ahead), then 2+3, 4+5, 6+7.
    partners = [[8, p] for p in range(2, 8)]
    response = danish(range(1, 9), partners=partners)
    assert seats(response) == [(1, [1, 8], [2, 3]), (2, [4, 5], [6, 7])]
    assert response["repeated_partners"] == []
    assert response["explanations"][0].startswith(
        "Tavolo 1 N/S: 1 con 8 — con 1 e 2 compagni i giocatori restanti non si potrebbero "
        "accoppiare senza compagni ripetuti;")


def test_look_ahead_4_players():
    # 3+4 partnered: 1+2 would force 3+4 again, so 1+3, then 2+4.
    response = danish("ABCD", partners=[["C", "D"]])
    assert seats(response) == [(1, ["A", "C"], ["B", "D"])]


def test_unavoidable_repeats_are_fewest_and_reported():
    # 4 players who all partnered each other: any round repeats 2 partnerships; top-down
    # keeps 1+2 and 3+4.
    partners = [[1, 2], [1, 3], [1, 4], [2, 3], [2, 4], [3, 4]]
    response = danish([1, 2, 3, 4], partners=partners)
    assert seats(response) == [(1, [1, 2], [3, 4])]
    assert response["repeated_partners"] == [[1, 2], [3, 4]]
    assert "2 compagni ripetuti (il minimo)" in response["warnings"][0]


def test_one_repeat_when_one_suffices():
    # 1..4 with 1 having partnered 2, 3 and 4: 1 must repeat once; top-down 1+2 (the
    # repeat), then 3+4 is new.
    response = danish([1, 2, 3, 4], partners=[[1, 2], [1, 3], [1, 4]])
    assert seats(response) == [(1, [1, 2], [3, 4])]
    assert response["repeated_partners"] == [[1, 2]]


def test_everyone_rested_lowest_ranked_of_fewest_rests_rests_again_with_warning():
    # 6 players, 2 rest; rested: 6 twice, all others once -> fewest (1 time): 5 and 4.
    response = danish(range(1, 7), rested=[1, 2, 3, 4, 5, 6, 6])
    assert response["rest"] == [4, 5]
    assert "4, 5" in response["warnings"][0]
    assert seats(response) == [(1, [1, 2], [3, 6])]


def test_withdrawn_players_in_history_are_ignored():
    response = danish([1, 2, 3, 4], partners=[[1, 99], [2, 77]], rested=[99])
    assert seats(response) == [(1, [1, 2], [3, 4])]


@pytest.mark.parametrize("request_", [
    {"system": "danish-individual", "ranking": [1, 2, 3]},
    {"system": "danish-individual", "ranking": [1, 2, 3, 3]},
    {"system": "danish-individual", "ranking": [1, 2, 3, True]},
    {"system": "danish-individual", "ranking": [1, 2, 3, 4], "partners": [[1]]},
    {"system": "danish-individual", "ranking": [1, 2, 3, 4], "rested": 4},
    {"system": "danish-individual"},
    {"system": "danish", "kind": "individual", "ranking": [1, 2, 3, 4]},
    {"system": "first_round", "kind": "team", "pairs": [1, 2]},
])
def test_malformed_requests_are_refused(request_):
    with pytest.raises(PairingError):
        run(request_)


# -- first round ---------------------------------------------------------------------------
def first(method, players, **extra):
    return run({"system": "first_round", "kind": "individual", "method": method,
                "players": list(players), **extra})


def test_first_round_by_number_highest_numbers_rest():
    # rules.md §9: 1+2 v 3+4 at table 1, 5+6 v 7+8 at table 2; 11 mod 4 = 3: 9, 10, 11 rest.
    response = first("number", range(1, 12))
    assert seats(response) == [(1, [1, 2], [3, 4]), (2, [5, 6], [7, 8])]
    assert response["rest"] == [9, 10, 11]
    assert response["method"] == "number" and response["repeated_partners"] == []


def test_first_round_by_lot_is_reproducible_and_seats_everyone():
    a = first("lot", range(1, 14), seed=7)
    b = first("lot", range(1, 14), seed=7)
    assert a == b and a["seed"] == 7
    seated = [p for t in a["tables"] for p in t["ns"] + t["ew"]] + a["rest"]
    assert sorted(seated) == list(range(1, 14)) and len(a["rest"]) == 1
    assert isinstance(first("lot", range(1, 9))["seed"], int)


def test_first_round_by_hand():
    tables = [{"table": 2, "ns": [5, 1], "ew": [2, 3]}, {"table": 1, "ns": [4, 6], "ew": [7, 8]}]
    response = first("hand", range(1, 10), tables=tables, rest=[9])
    assert seats(response) == [(1, [4, 6], [7, 8]), (2, [5, 1], [2, 3])]
    assert response["rest"] == [9]


@pytest.mark.parametrize("tables,rest", [
    ([{"table": 1, "ns": [1, 2], "ew": [3, 4]}], []),                 # 5 missing
    ([{"table": 1, "ns": [1, 2], "ew": [3, 3]}], [5]),                # twice
    ([{"table": 1, "ns": [1, 2, 5], "ew": [3, 4]}], []),              # three in a line
    ([{"table": 2, "ns": [1, 2], "ew": [3, 4]}], [5]),                # gap
    ([{"table": 1, "ns": [1, 2], "ew": [3, 9]}], [5, 4]),             # unknown
])
def test_first_round_by_hand_refusals(tables, rest):
    with pytest.raises(PairingError):
        first("hand", range(1, 6), tables=tables, rest=rest)


def test_cli_answers_danish_individual():
    request = {"system": "danish-individual", "ranking": [1, 2, 3, 4, 5, 6, 7, 8, 9],
               "partners": [[1, 2], [3, 4]], "rested": [9]}
    proc = subprocess.run([sys.executable, "-m", "pairing"], input=json.dumps(request),
                          capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert proc.returncode == 0, proc.stderr
    response = json.loads(proc.stdout)
    assert response["tables"] == [{"table": 1, "ns": [1, 3], "ew": [2, 4]},
                                  {"table": 2, "ns": [5, 6], "ew": [7, 9]}]
    assert response["rest"] == [8]
