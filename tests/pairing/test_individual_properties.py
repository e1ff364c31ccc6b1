"""Property tests for the individual engines (rules.md §9): coverage, N mod 4 rests,
disjoint partnerships, no repeated partner when avoidable; Danish individual equals a
networkx top-down baseline."""

import itertools

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pairing import run
from pairing.check import check
from pairing.individual_movement import schedule

from .nx_baseline import danish_individual_lines

SETTINGS = settings(max_examples=150, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


def assert_well_formed(players, response):
    lines = [line for t in response["tables"] for line in (t["ns"], t["ew"])]
    seated = [p for line in lines for p in line]
    idle = response["rest"] + response.get("forced_rest", [])
    assert len(seated) == len(set(seated))  # partnerships disjoint, seated once
    assert sorted(map(str, seated + idle)) == sorted(map(str, players))
    assert all(len(line) == 2 for line in lines)
    return lines


@st.composite
def danish_individual_requests(draw, max_players=14):
    n = draw(st.integers(4, max_players))
    ids = draw(st.one_of(st.permutations(list(range(1, n + 1))),
                         st.just([f"G{i}" for i in range(n)])))
    possible = list(itertools.combinations(ids, 2))
    density = draw(st.sampled_from([0.0, 0.1, 0.3, 0.6, 0.9]))
    flags = draw(st.lists(st.floats(0, 1), min_size=len(possible), max_size=len(possible)))
    partners = [[a, b, 1 + i % 4] if i % 2 else [b, a]
                for i, ((a, b), f) in enumerate(zip(possible, flags, strict=False)) if f < density]
    rested = draw(st.lists(st.sampled_from(ids), max_size=2 * n))
    return {"system": "danish-individual", "ranking": list(ids), "partners": partners,
            "rested": rested}


@SETTINGS
@given(danish_individual_requests())
def test_danish_individual_is_valid_and_equals_networkx_baseline(request):
    response = run(request)
    players = request["ranking"]
    lines = assert_well_formed(players, response)
    assert len(response["rest"]) == len(players) % 4
    assert check(request, response) == []
    want_lines, want_rest = danish_individual_lines(request)
    assert lines == want_lines and response["rest"] == want_rest
    history = {frozenset(p[:2]) for p in request["partners"]}
    repeats = [line for line in lines if frozenset(line) in history]
    assert [set(x) for x in response["repeated_partners"]] == [set(x) for x in repeats]
    if not history:
        assert repeats == []


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(danish_individual_requests(max_players=60))
def test_danish_individual_larger_fields_pass_the_checker(request):
    response = run(request)
    assert_well_formed(request["ranking"], response)
    assert check(request, response) == []


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(4, 26), st.integers(1, 12), st.integers(0, 10 ** 6))
def test_movement_rounds_are_complete_and_never_repeat_a_partner_when_avoidable(n, rounds,
                                                                                seed):
    players = list(range(1, n + 1))
    plan = schedule(players, rounds, seed)
    seen = set()
    for r, rnd in enumerate(plan, start=1):
        assert_well_formed(players, rnd)
        assert len(rnd["rest"]) == n % 4
        for t in rnd["tables"]:
            for line in (t["ns"], t["ew"]):
                key = frozenset(line)
                if r <= n - 1:  # rounds <= N-1: nobody partners the same player twice
                    assert key not in seen
                seen.add(key)
    # Rests rotate: any window of n // k rounds rests nobody twice.
    k = n % 4
    if k:
        w = n // k
        for s in range(max(0, len(plan) - w + 1)):
            rests = [p for rnd in plan[s:s + w] for p in rnd["rest"]]
            assert len(rests) == len(set(rests))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(4, 20), st.integers(1, 8), st.integers(0, 100), st.data())
def test_movement_with_withdrawals_passes_the_checker(n, rounds, seed, data):
    players = list(range(1, n + 1))
    rnd = data.draw(st.integers(1, rounds))
    absent = data.draw(st.lists(st.sampled_from(players), max_size=3, unique=True))
    request = {"system": "individual-movement", "players": players, "rounds": rounds,
               "round": rnd, "seed": seed, "absent": absent}
    response = run(request)
    assert_well_formed([p for p in players if p not in absent], response)
    assert check(request, response) == []
