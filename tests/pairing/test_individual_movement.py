"""Individual movement (rules.md §9 "Individual movement"; pairing/README.md)."""

import itertools

import pytest

from pairing import PairingError, run
from pairing.individual_movement import WHIST_BASES, opponent_counts, schedule, whist_round


def partnerships(rounds):
    return [frozenset(line) for r in rounds for t in r["tables"] for line in (t["ns"], t["ew"])]


def assert_round_is_complete(rnd, players):
    seated = [p for t in rnd["tables"] for p in t["ns"] + t["ew"]]
    assert sorted(seated + rnd["rest"]) == sorted(players)
    assert len(rnd["rest"]) == len(players) % 4
    assert [t["table"] for t in rnd["tables"]] == list(range(1, len(rnd["tables"]) + 1))


def test_8_players_7_rounds_everyone_partners_everyone_once_and_meets_twice():
    # 8 players, 7 rounds: 7 x 4 = 28 partnerships = C(8, 2) = 28, so each pair exactly
    # once; each player has 7 x 2 = 14 opponent seats over 7 others: 2 each at best.
    players = list(range(1, 9))
    rounds = schedule(players, 7, seed=0)
    for rnd in rounds:
        assert_round_is_complete(rnd, players)
    assert sorted(map(sorted, partnerships(rounds))) == [
        list(p) for p in itertools.combinations(players, 2)]
    counts = opponent_counts(rounds)
    assert len(counts) == 28 and set(counts.values()) == {2}


@pytest.mark.parametrize("n", [12, 16, 20])
def test_6_rounds_without_a_repeated_partner(n):
    # 6 rounds: every player plays 6 times, 12 opponent seats over n-1 others, so the
    # largest opponent count is at least 2 for 12 players; the engine reaches 2 for all three.
    players = [f"G{i}" for i in range(1, n + 1)]
    rounds = schedule(players, 6, seed=11)
    for rnd in rounds:
        assert_round_is_complete(rnd, players)
    lines = partnerships(rounds)
    assert len(lines) == len(set(lines)) == 6 * n // 2
    assert max(opponent_counts(rounds).values()) == 2


@pytest.mark.parametrize("n", sorted(WHIST_BASES))
def test_the_whist_designs_are_whist_designs(n):
    # Developed over Z_(n-1): n-1 rounds, each pair partners once and opposes twice.
    partners, opponents = {}, {}
    for r in range(n - 1):
        tables = whist_round(n, r)
        assert sorted(v for t in tables for line in t for v in line) == list(range(n))
        for x, y in tables:
            for line in (x, y):
                key = frozenset(line)
                partners[key] = partners.get(key, 0) + 1
            for a in x:
                for b in y:
                    key = frozenset((a, b))
                    opponents[key] = opponents.get(key, 0) + 1
    assert len(partners) == n * (n - 1) // 2 and set(partners.values()) == {1}
    assert len(opponents) == n * (n - 1) // 2 and set(opponents.values()) == {2}


def test_13_players_rest_one_each_round_nobody_twice_in_13_rounds():
    players = list(range(1, 14))
    rounds = schedule(players, 12, seed=5)
    rests = [p for r in rounds for p in r["rest"]]
    assert len(rests) == 12 and len(set(rests)) == 12
    assert len(set(partnerships(rounds))) == 12 * 6  # no repeated partner


@pytest.mark.parametrize("n,window", [(10, 5), (11, 3), (14, 7), (7, 2)])
def test_rests_rotate_nobody_twice_while_avoidable(n, window):
    # k = n mod 4 rest each round: any `window` = n // k consecutive rounds rest k*window <= n
    # players, all different (10: 2 x 5 = 10; 11: 3 x 3 = 9; 14: 2 x 7; 7: 3 x 2 = 6).
    players = list(range(1, n + 1))
    rounds = schedule(players, n - 1, seed=2)
    for start in range(len(rounds) - window + 1):
        rests = [p for r in rounds[start:start + window] for p in r["rest"]]
        assert len(rests) == len(set(rests))
    assert len(set(partnerships(rounds))) == len(partnerships(rounds))


def test_round_requests_read_the_same_schedule():
    players = list(range(1, 12))
    request = {"system": "individual-movement", "players": players, "rounds": 5, "seed": 9}
    plan = schedule(players, 5, seed=9)
    for r in range(1, 6):
        response = run({**request, "round": r})
        assert response["tables"] == plan[r - 1]["tables"]
        assert response["rest"] == plan[r - 1]["rest"]
        assert response["forced_rest"] == [] and response["repeated_partners"] == []
    assert schedule(players, 5, seed=10) != plan  # the seed matters


def test_withdrawn_player_gives_his_partner_and_opponents_a_forced_rest():
    players = list(range(1, 13))
    request = {"system": "individual-movement", "players": players, "rounds": 6,
               "round": 2, "seed": 1}
    full = run(request)
    gone = full["tables"][0]["ew"][1]
    response = run({**request, "absent": [gone]})
    table = full["tables"][0]
    assert response["forced_rest"] == sorted(
        p for p in table["ns"] + table["ew"] if p != gone)
    assert [(t["ns"], t["ew"]) for t in response["tables"]] == [
        (t["ns"], t["ew"]) for t in full["tables"][1:]]
    assert [t["table"] for t in response["tables"]] == [1, 2]
    assert "riposo forzato" in response["warnings"][0]


def test_more_rounds_than_partners_repeat_with_a_warning():
    # 4 players have 3 possible partnership splits: round 4 must repeat one.
    request = {"system": "individual-movement", "players": [1, 2, 3, 4], "rounds": 4,
               "round": 4}
    response = run(request)
    assert len(response["repeated_partners"]) == 2
    assert response["warnings"] and "ripete 2 coppie" in response["warnings"][0]


@pytest.mark.parametrize("extra", [
    {"round": 8}, {"round": 0}, {"rounds": "7"}, {"seed": "x"}, {"players": [1, 2, 3]},
    {"players": [1, 1, 2, 3, 4]},
])
def test_malformed_requests_are_refused(extra):
    request = {"system": "individual-movement", "players": list(range(1, 9)), "rounds": 7,
               "round": 1, **extra}
    with pytest.raises(PairingError):
        run(request)


def test_a_scheduled_rester_who_rested_swaps_with_the_lowest_ranked_fresh_player():
    players = list(range(1, 10))  # 9 players: 1 rests
    request = {"system": "individual-movement", "players": players, "rounds": 4,
               "round": 1, "seed": 4}
    plain = run(request)
    x = plain["rest"][0]
    ranking = [p for p in reversed(players)]  # 1 is the lowest-ranked
    sub = next(p for p in reversed(ranking) if p != x)  # lowest-ranked seated: 1 (or 2)
    response = run({**request, "rested": [x], "ranking": ranking})
    assert response["rest"] == [sub]
    table = next(t for t in response["tables"] if x in t["ns"] + t["ew"])
    assert response["adjustments"] == [{"rests": sub, "plays": x, "table": table["table"]}]
    assert check_movement(request | {"rested": [x], "ranking": ranking}, response) == []


def test_partners_history_from_other_rounds_is_listed_not_avoided():
    players = list(range(1, 9))
    request = {"system": "individual-movement", "players": players, "rounds": 7, "round": 2}
    line = run(request)["tables"][0]["ns"]
    response = run({**request, "partners": [line + [1]]})
    assert response["repeated_partners"] == [line]
    assert "ripete 1 coppia" in response["warnings"][0]


def check_movement(request, response):
    from pairing.check import check
    return check(request, response)


def test_cli_answers_individual_movement_and_first_round():
    import json
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    for request in ({"system": "individual-movement", "players": list(range(1, 9)),
                     "rounds": 7, "round": 1},
                    {"system": "first_round", "kind": "individual", "method": "number",
                     "players": list(range(1, 10))}):
        proc = subprocess.run([sys.executable, "-m", "pairing"], input=json.dumps(request),
                              capture_output=True, text=True, cwd=root, timeout=60)
        assert proc.returncode == 0, proc.stderr
        assert json.loads(proc.stdout) == run(request)
