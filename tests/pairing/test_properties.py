"""Property tests: engine + checker agree, coverage holds, Danish equals the networkx baseline."""

import itertools

import networkx as nx
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pairing import run
from pairing.check import check
from pairing.matching import DenseMatcher, min_unmatched

from .nx_baseline import danish_tables

SETTINGS = settings(max_examples=300, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


@st.composite
def danish_requests(draw, max_pairs=12):
    n = draw(st.integers(1, max_pairs))
    ids = draw(st.one_of(
        st.permutations(list(range(1, n + 1))),
        st.just([f"P{i}" for i in range(n)])))
    possible = list(itertools.combinations(ids, 2))
    density = draw(st.sampled_from([0.0, 0.1, 0.3, 0.6, 0.9]))
    flags = draw(st.lists(st.floats(0, 1), min_size=len(possible), max_size=len(possible)))
    met = [[a, b, 1 + i % 5] if i % 3 else [b, a]
           for i, ((a, b), f) in enumerate(zip(possible, flags, strict=False)) if f < density]
    last = [m[:2] for i, m in enumerate(met) if i % 4 == 0]
    rested = draw(st.lists(st.sampled_from(ids), unique=True)) if ids else []
    mode = draw(st.sampled_from(["all", "all", "previous", "none"]))
    return {"system": "danish", "ranking": list(ids), "met": met, "met_last_round": last,
            "rested": rested, "avoid_rematches": mode}


def covered(request, response):
    seen = [p for t in response["tables"] for p in (t["ns"], t["ew"])]
    if response["bye"] is not None:
        seen.append(response["bye"])
    return sorted(map(str, seen)) == sorted(map(str, request["ranking"]))


@SETTINGS
@given(danish_requests())
def test_danish_is_valid_and_equals_networkx_baseline(request):
    response = run(request)
    assert covered(request, response)
    assert check(request, response) == []
    tables, bye = danish_tables(request)
    assert [(t["ns"], t["ew"]) for t in response["tables"]] == tables
    assert response["bye"] == bye


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(danish_requests(max_pairs=40))
def test_danish_larger_fields_pass_the_checker(request):
    response = run(request)
    assert covered(request, response)
    assert check(request, response) == []


@SETTINGS
@given(st.integers(2, 60), st.integers(1, 12), st.integers(1, 5),
       st.lists(st.integers(1, 60), max_size=6))
def test_mitchell_passes_the_checker(n, rnd, step, absent):
    request = {"system": "mitchell", "pairs": list(range(1, n + 1)), "round": rnd,
               "step": step, "absent": sorted({a for a in absent if a <= n})}
    response = run(request)
    assert check(request, response) == []
    present = [p for t in response["tables"] for p in (t["ns"], t["ew"]) if p is not None]
    if response["bye"] is not None:
        present.append(response["bye"])
    assert sorted(present) == [p for p in request["pairs"] if p not in request["absent"]]


@SETTINGS
@given(st.integers(2, 30), st.integers(0, 10 ** 6), st.sampled_from(["lot", "number"]))
def test_first_round_passes_the_checker(n, seed, method):
    request = {"system": "first_round", "method": method, "pairs": list(range(1, n + 1)),
               "seed": seed}
    assert check(request, run(request)) == []


@SETTINGS
@given(st.integers(1, 16), st.floats(0, 1), st.randoms(use_true_random=False))
def test_matching_size_equals_networkx(n, density, rnd):
    forbidden = [set() for _ in range(n)]
    graph = nx.Graph()
    graph.add_nodes_from(range(n))
    for u, v in itertools.combinations(range(n), 2):
        if rnd.random() < density:
            forbidden[u].add(v)
            forbidden[v].add(u)
        else:
            graph.add_edge(u, v)
    nu = len(nx.max_weight_matching(graph, maxcardinality=True))
    assert min_unmatched(range(n), forbidden) == n - 2 * nu
    # A trial that removes two vertices and repairs is exact, and rollback restores.
    m = DenseMatcher(n, forbidden)
    m.maximize()
    if n >= 3:
        before = (list(m.mate), set(m.exposed))
        x, y = rnd.sample(range(n), 2)
        m.begin()
        left = m.repair([m.remove(x), m.remove(y)])
        sub = graph.subgraph([v for v in range(n) if v not in (x, y)])
        assert left == n - 2 - 2 * len(nx.max_weight_matching(sub, maxcardinality=True))
        m.rollback()
        assert (m.mate, m.exposed) == before
