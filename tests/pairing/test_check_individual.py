"""Checker for individual tournaments (rules.md §9; pairing/check_individual.py)."""

import json
import subprocess
import sys
from pathlib import Path

from pairing import run
from pairing.check import check
from pairing.check.individual import information, repeated_opponents

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = {"system": "danish-individual", "ranking": [1, 2, 3, 4, 5, 6, 7, 8, 9],
           "partners": [[1, 2], [3, 4]], "rested": [9]}
GOOD = {"tables": [{"table": 1, "ns": [1, 3], "ew": [2, 4]},
                   {"table": 2, "ns": [5, 6], "ew": [7, 9]}],
        "rest": [8], "repeated_partners": [], "warnings": []}


def with_tables(*tables, rest=(8,), repeated=(), warnings=()):
    return {"tables": [{"table": i + 1, "ns": list(ns), "ew": list(ew)}
                       for i, (ns, ew) in enumerate(tables)],
            "rest": list(rest), "repeated_partners": [list(x) for x in repeated],
            "warnings": list(warnings)}


def test_the_contract_example_passes():
    assert check(EXAMPLE, GOOD) == []
    assert check(EXAMPLE, run(EXAMPLE)) == []


def test_a_repeated_partner_is_refused_when_avoidable():
    bad = with_tables(([1, 2], [3, 5]), ([4, 6], [7, 9]), repeated=[[1, 2]], warnings=["x"])
    assert any("evitabil" in v for v in check(EXAMPLE, bad))


def test_an_unlisted_repeated_partner_is_named_with_its_table():
    """1 and 2 were partners before (EXAMPLE's history): seating them together again without
    listing it (a hand change) is named with its table, not with the engine's contract words."""
    bad = with_tables(([1, 2], [3, 5]), ([4, 6], [7, 9]))
    violations = check(EXAMPLE, bad)
    assert "compagni ripetuti non segnalati al tavolo 1: 1 e 2 (già in coppia)" in violations
    assert not any("'repeated_partners'" in v for v in violations)


def test_a_listed_partnership_that_is_not_played_is_the_engines_fault():
    listed = dict(GOOD, repeated_partners=[[1, 2]], warnings=["x"])
    assert "'repeated_partners' non elenca esattamente i compagni ripetuti del turno" in check(EXAMPLE, listed)


def test_an_avoidable_second_rest_is_refused():
    # 9 already rested; 8 has not: 9 resting again is avoidable.
    bad = with_tables(([1, 3], [2, 4]), ([5, 6], [7, 8]), rest=[9])
    violations = check(EXAMPLE, bad)
    assert "secondo riposo evitabile: 9 ha già riposato, 8 no" in violations


def test_a_worse_top_down_choice_is_refused():
    # 1+4 while 1+3 was possible.
    bad = with_tables(([1, 4], [2, 3]), ([5, 6], [7, 9]))
    assert any("1 doveva avere come compagno 3" in v for v in check(EXAMPLE, bad))


def test_coverage_and_numbering():
    bad = with_tables(([1, 3], [2, 4]), ([5, 6], [7, 7]))
    violations = check(EXAMPLE, bad)
    assert "il giocatore 7 compare più volte" in violations
    assert "il giocatore 9 non gioca e non riposa" in violations


def test_first_round_individual_by_number_and_lot():
    for method in ("number", "lot"):
        request = {"system": "first_round", "kind": "individual", "method": method,
                   "players": list(range(1, 12)), "seed": 3}
        response = run(request)
        assert check(request, response) == []
    request = {"system": "first_round", "kind": "individual", "method": "number",
               "players": list(range(1, 10))}
    swapped = with_tables(([1, 2], [3, 4]), ([5, 6], [7, 9]), rest=[8])
    assert any("per numero" in v for v in check(request, swapped))


def test_movement_repeats_must_be_listed_but_are_accepted():
    request = {"system": "individual-movement", "players": list(range(1, 9)), "rounds": 7,
               "round": 3}
    response = run(request)
    line = response["tables"][0]["ns"]
    history = dict(request, partners=[line])
    assert check(history, response) != []  # the engine did not know the history
    assert check(history, run(history)) == []


def test_repeated_opponents_are_information_only():
    request = dict(EXAMPLE, opponents=[[1, 2], [6, 9]])
    assert check(request, GOOD) == []
    assert repeated_opponents(request, GOOD) == [(1, 1, 2), (2, 6, 9)]
    assert information(request, GOOD) == [
        "tavolo 1: 1 e 2 si sono già incontrati da avversari",
        "tavolo 2: 6 e 9 si sono già incontrati da avversari"]


def test_checker_cli_prints_information_and_exits_0(tmp_path):
    (tmp_path / "req.json").write_text(json.dumps(dict(EXAMPLE, opponents=[[1, 2]])))
    (tmp_path / "resp.json").write_text(json.dumps(GOOD))
    proc = subprocess.run([sys.executable, "-m", "pairing.check", str(tmp_path / "req.json"),
                           str(tmp_path / "resp.json")], capture_output=True, text=True,
                          cwd=ROOT, timeout=60)
    assert proc.returncode == 0
    assert proc.stdout == "informazione: tavolo 1: 1 e 2 si sono già incontrati da avversari\n"
