"""Round robin (rules.md §14, pairing-io.md "Round robin"): expected tables by hand.

The circle method, written out: L = entrants (+ phantom N when odd), n = len(L);
cycle c = (r-1) div (n-1), k = (r-1) mod (n-1); seq = [L0] + L[1:] rotated right by k;
match i = seq[i] v seq[n-1-i], seq[i] N/S except in odd cycles; the phantom's opponent rests.
"""

import itertools
import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pairing import SYSTEMS, PairingError, rtg, run
from pairing.check import check
from pairing.plan import parse_plan
from pairing.round_robin import cycle_length, lot_groups, snake_groups

ROOT = Path(__file__).resolve().parents[2]


def rr(pairs, rnd, **extra):
    request = {"system": "round-robin", "pairs": pairs, "round": rnd, **extra}
    response = run(request)
    assert check(request, response) == []
    return response


def tables(response):
    return [(t["table"], t["ns"], t["ew"]) for t in response["tables"]]


def test_registered():
    assert "round-robin" in SYSTEMS


# 4 entrants, n = 4, cycle of 3 rounds.
# r=1 k=0 seq 1 2 3 4 → 1-4, 2-3; r=2 k=1 seq 1 4 2 3 → 1-3, 4-2; r=3 k=2 seq 1 3 4 2 → 1-2, 3-4
@pytest.mark.parametrize("rnd, expected", [
    (1, [(1, 1, 4), (2, 2, 3)]),
    (2, [(1, 1, 3), (2, 4, 2)]),
    (3, [(1, 1, 2), (2, 3, 4)]),
    # round 4: cycle 1 (odd), k = 0: the matches of round 1 with the lines swapped
    (4, [(1, 4, 1), (2, 3, 2)]),
    (7, [(1, 1, 4), (2, 2, 3)]),  # cycle 2 (even): as round 1 again
])
def test_four_entrants(rnd, expected):
    response = rr([1, 2, 3, 4], rnd)
    assert tables(response) == expected
    assert response["bye"] is None and response["forced_byes"] == []


# 5 entrants + phantom N: n = 6, cycle of 5 rounds.
# r=1 seq 1 2 3 4 5 N → 1-N (1 rests), 2-5, 3-4
# r=2 seq 1 N 2 3 4 5 → 1-5, N-4 (4 rests), 2-3
# r=3 seq 1 5 N 2 3 4 → 1-4, 5-3, N-2 (2 rests)
# r=4 seq 1 4 5 N 2 3 → 1-3, 4-2, 5-N (5 rests)
# r=5 seq 1 3 4 5 N 2 → 1-2, 3-N (3 rests), 4-5
FIVE = {
    1: ([(1, 2, 5), (2, 3, 4)], 1),
    2: ([(1, 1, 5), (2, 2, 3)], 4),
    3: ([(1, 1, 4), (2, 5, 3)], 2),
    4: ([(1, 1, 3), (2, 4, 2)], 5),
    5: ([(1, 1, 2), (2, 4, 5)], 3),
    6: ([(1, 5, 2), (2, 4, 3)], 1),  # cycle 1: round 1 with N/S and E/W swapped
}


@pytest.mark.parametrize("rnd", sorted(FIVE))
def test_five_entrants_phantom_rest(rnd):
    response = rr([1, 2, 3, 4, 5], rnd)
    want_tables, want_bye = FIVE[rnd]
    assert tables(response) == want_tables
    assert response["bye"] == want_bye
    assert response["cycle"] == (1 if rnd == 6 else 0)


def test_five_entrants_cycle_meets_everyone_once_rests_once():
    met, byes = [], []
    for r in range(1, 6):
        want_tables, bye = FIVE[r]
        met += [frozenset((a, b)) for _, a, b in want_tables]
        byes.append(bye)
    assert sorted(byes) == [1, 2, 3, 4, 5]
    assert set(met) == {frozenset(c) for c in itertools.combinations(range(1, 6), 2)}
    assert len(met) == 10


# 8 entrants: r=1 seq 1..8 → 1-8 2-7 3-6 4-5; r=3 k=2 seq 1 7 8 2 3 4 5 6 → 1-6 7-5 8-4 2-3
@pytest.mark.parametrize("rnd, expected", [
    (1, [(1, 1, 8), (2, 2, 7), (3, 3, 6), (4, 4, 5)]),
    (3, [(1, 1, 6), (2, 7, 5), (3, 8, 4), (4, 2, 3)]),
    (8, [(1, 8, 1), (2, 7, 2), (3, 6, 3), (4, 5, 4)]),  # round 8 = cycle 1, k 0: swapped
])
def test_eight_entrants(rnd, expected):
    assert tables(rr(list(range(1, 9)), rnd)) == expected


# 9 entrants + N: n = 10. r=1 → 1-N (1 rests), 2-9, 3-8, 4-7, 5-6.
# r=4 k=3 seq 1 8 9 N 2 3 4 5 6 7 → 1-7, 8-6, 9-5, N-4 (4 rests), 2-3: tables 1..4 no gap.
@pytest.mark.parametrize("rnd, expected, bye", [
    (1, [(1, 2, 9), (2, 3, 8), (3, 4, 7), (4, 5, 6)], 1),
    (4, [(1, 1, 7), (2, 8, 6), (3, 9, 5), (4, 2, 3)], 4),
])
def test_nine_entrants(rnd, expected, bye):
    response = rr(list(range(1, 10)), rnd)
    assert tables(response) == expected
    assert response["bye"] == bye


# Strings: A B C + N. r=1 → A-N (A rests), B-C; r=2 seq A N B C → A-C, N-B (B rests);
# r=3 seq A C N B → A-B, C-N (C rests); r=4 cycle 1 → as r=1 swapped: N-A, C-B.
@pytest.mark.parametrize("rnd, expected, bye", [
    (1, [(1, "B", "C")], "A"),
    (2, [(1, "A", "C")], "B"),
    (3, [(1, "A", "B")], "C"),
    (4, [(1, "C", "B")], "A"),
])
def test_string_identifiers(rnd, expected, bye):
    response = rr(["A", "B", "C"], rnd)
    assert tables(response) == expected
    assert response["bye"] == bye


def test_groups_numbered_group_after_group():
    """8 pairs in two groups by the snake: 1→g1 2→g2 / 3→g2 4→g1 / 5→g1 6→g2 / 7→g2 8→g1:
    g1 = 1 4 5 8, g2 = 2 3 6 7. Round 1: g1 1-8, 4-5 at tables 1, 2; g2 2-7, 3-6 at 3, 4."""
    groups = snake_groups(list(range(1, 9)), 2)
    assert groups == [[1, 4, 5, 8], [2, 3, 6, 7]]
    request = {"system": "round-robin", "groups": groups, "round": 1}
    response = run(request)
    assert check(request, response) == []
    assert tables(response) == [(1, 1, 8), (2, 4, 5), (3, 2, 7), (4, 3, 6)]
    assert response["groups"] == [{"group": 1, "tables": [1, 2], "bye": None},
                                  {"group": 2, "tables": [3, 4], "bye": None}]
    assert response["byes"] == [] and response["bye"] is None


def test_snake_of_three_groups():
    """1,2,3 / 6,5,4 / 7,8,9: g1 = 1 6 7, g2 = 2 5 8, g3 = 3 4 9."""
    assert snake_groups(list(range(1, 10)), 3) == [[1, 6, 7], [2, 5, 8], [3, 4, 9]]


def test_odd_groups_each_have_a_rest():
    """g1 = 1 2 3 (+N): r=1 1 rests, 2-3 at table 1; g2 = 4..8 (+N) starts after ⌊3/2⌋ = 1
    table: 4 rests, 5-8 at table 2, 6-7 at table 3."""
    request = {"system": "round-robin", "groups": [[1, 2, 3], [4, 5, 6, 7, 8]], "round": 1}
    response = run(request)
    assert check(request, response) == []
    assert tables(response) == [(1, 2, 3), (2, 5, 8), (3, 6, 7)]
    assert response["byes"] == [1, 4] and response["bye"] == 1


def test_withdrawn_entrant_keeps_its_slot_opponent_forced_rest():
    """4 entrants, 4 withdrawn, round 1: 1-4 becomes 1 alone at table 1 (forced rest),
    2-3 still table 2 (numbers do not shift)."""
    response = rr([1, 2, 3, 4], 1, absent=[4])
    assert tables(response) == [(1, 1, None), (2, 2, 3)]
    assert response["forced_byes"] == [1]
    assert any("Riposo forzato" in w for w in response["warnings"])


def test_absent_facing_the_phantom_no_rest():
    response = rr([1, 2, 3, 4, 5], 1, absent=[1])
    assert response["bye"] is None and tables(response) == [(1, 2, 5), (2, 3, 4)]


def test_meetings_before_are_listed_as_rematches():
    response = rr([1, 2, 3, 4], 1, met=[[1, 4, 1]])
    assert response["rematches"] == [[1, 4]]
    assert "turno 1" in response["warnings"][0]


@pytest.mark.parametrize("request_", [
    {"system": "round-robin", "pairs": [1], "round": 1},
    {"system": "round-robin", "pairs": [1, 2, 2], "round": 1},
    {"system": "round-robin", "pairs": [1, 2], "round": 0},
    {"system": "round-robin", "round": 1},
    {"system": "round-robin", "pairs": [1, 2], "groups": [[1, 2]], "round": 1},
    {"system": "round-robin", "groups": [[1, 2], [2, 3]], "round": 1},
    {"system": "round-robin", "pairs": [1, 2], "round": 1, "absent": [9]},
])
def test_bad_requests(request_):
    with pytest.raises(PairingError):
        run(request_)


def test_checker_catches_a_wrong_table_and_a_wrong_rest():
    request = {"system": "round-robin", "pairs": [1, 2, 3, 4, 5], "round": 1}
    good = run(request)
    bad = dict(good, tables=[{"table": 1, "ns": 1, "ew": 5}, {"table": 2, "ns": 3, "ew": 4}],
               bye=2)
    report = check(request, bad)
    assert any("calendario prevede" in v for v in report)
    assert any("riposa 1" in v for v in report)
    swapped = dict(good, tables=[{"table": 1, "ns": 5, "ew": 2}, {"table": 2, "ns": 3, "ew": 4}])
    assert check(request, swapped)


def test_cli_answers_exactly():
    request = {"system": "round-robin", "pairs": [1, 2, 3, 4, 5], "round": 2}
    proc = subprocess.run([sys.executable, "-m", "pairing"], input=json.dumps(request),
                          capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert proc.returncode == 0, proc.stderr
    response = json.loads(proc.stdout)
    assert response["tables"] == [{"table": 1, "ns": 1, "ew": 5}, {"table": 2, "ns": 2, "ew": 3}]
    assert response["bye"] == 4


def test_plan_letter_r():
    assert [r.system for r in parse_plan("RRR|RR")] == ["R"] * 5
    assert [r.session for r in parse_plan("DR|R")] == [1, 1, 2]


@pytest.mark.parametrize("pairs, plan, groups", [
    (5, "RRRRR", 1), (9, "RRRRRRRRRR", 1), (12, "RRRRRRRRRRR", 2), (17, "RRR|RR", 3),
    (10, "DRRR", 1), (8, "RRRD", 1),
])
def test_rtg_plays_round_robin_plans(pairs, plan, groups):
    result = rtg.play(5, pairs, plan, groups=groups)
    assert result["violations"] == []
    assert result["rounds"] == len(parse_plan(plan))


def test_rtg_five_pairs_each_rests_once():
    result = rtg.play(1, 5, "RRRRR", withdrawals=False)
    assert result["violations"] == [] and result["second_rests"] == 0


@settings(max_examples=150, deadline=None)
@given(n=st.integers(2, 24), strings=st.booleans(), data=st.data())
def test_one_cycle_meets_everyone_once_rests_once(n, strings, data):
    ids = data.draw(st.permutations([f"P{i}" for i in range(n)] if strings else list(range(1, n + 1))))
    met, rests = [], []
    for r in range(1, cycle_length(n) + 1):
        request = {"system": "round-robin", "pairs": list(ids), "round": r, "met": met}
        response = run(request)
        assert check(request, response) == []
        assert response["rematches"] == []
        assert [t["table"] for t in response["tables"]] == list(range(1, n // 2 + 1))
        met = met + [[t["ns"], t["ew"], r] for t in response["tables"]]
        if response["bye"] is not None:
            rests.append(response["bye"])
    pairs_met = [frozenset(m[:2]) for m in met]
    assert len(pairs_met) == len(set(pairs_met)) == n * (n - 1) // 2
    if n % 2:
        assert sorted(map(str, rests)) == sorted(map(str, ids))
    else:
        assert rests == []


def test_lot_groups_reproducible_and_balanced():
    a = lot_groups(list(range(1, 12)), 3, seed=42)
    assert a == lot_groups(list(range(1, 12)), 3, seed=42)
    assert sorted(len(g) for g in a) == [3, 4, 4]
    assert sorted(p for g in a for p in g) == list(range(1, 12))
