"""Reference Danish pairing: the same rules, feasibility tested with networkx at every step.

Top-down exactly as pairing-io.md, but each "can the rest still be paired?" question is a
fresh ``networkx.max_weight_matching(maxcardinality=True)`` on the allowed-meetings graph of
the remaining pairs. Slow and obviously correct: the tests compare the engine with it on
small instances and ``bench/pairing.py`` uses it as the speed baseline. Not used by the app.
"""

from __future__ import annotations

import networkx as nx

from pairing import danish


def danish_tables(request: dict) -> tuple[list, object]:
    """Return ``([(ns, ew), ...] in table order, bye)`` for a Danish request."""
    parsed = danish.parse(request)
    ranking = parsed["ranking"]
    n = len(ranking)
    forb = danish.forbidden_sets(parsed)
    graph = nx.Graph()
    graph.add_nodes_from(range(n))
    graph.add_edges_from((u, v) for u in range(n) for v in range(u + 1, n) if v not in forb[u])

    def rematches(nodes) -> int:
        """Fewest forbidden meetings needed to pair ``nodes`` (even count)."""
        nu = len(nx.max_weight_matching(graph.subgraph(nodes), maxcardinality=True))
        return len(nodes) // 2 - nu

    everyone = list(range(n))
    bye = None
    if n % 2:
        rested = {parsed["index"][p] for p in parsed["rested"]}
        candidates = [i for i in reversed(everyone) if i not in rested]
        if not candidates:
            bye = n - 1
        else:
            best = None
            for b in candidates:
                k = rematches([i for i in everyone if i != b])
                if best is None or k < best[0]:
                    best = (k, b)
                if k == 0:
                    break
            bye = best[1]
    unpaired = [i for i in everyone if i != bye]
    k = rematches(unpaired)
    out = []
    while unpaired:
        p = unpaired[0]
        for q in unpaired[1:]:
            cost = 1 if q in forb[p] else 0
            if cost > k:
                continue
            rest = [x for x in unpaired if x not in (p, q)]
            if cost + rematches(rest) == k:
                break
        else:  # pragma: no cover - k is always reachable
            raise AssertionError("no feasible opponent")
        k -= cost
        out.append((ranking[p], ranking[q]))
        unpaired = rest
    return out, (None if bye is None else ranking[bye])


def danish_individual_lines(request: dict) -> tuple[list, list]:
    """``([[A, Q], ...] in the order formed, rest)`` for a ``danish-individual`` request.

    Rests by the plain rule of pairing-io.md; then top-down exactly as written, each "can
    the players left still all be partnered?" answered by a fresh networkx matching on the
    graph of partnerships not formed yet (fewest repeats when none is repeat-free).
    """
    from pairing import danish_individual

    parsed = danish_individual.parse(request)
    ranking, index = parsed["ranking"], parsed["index"]
    n = len(ranking)
    times = [parsed["rested"].get(p, 0) for p in ranking]
    rests, _ = danish_individual.choose_rests(n, n % 4, times)
    forb = [set() for _ in range(n)]
    for a, b, _ in parsed["partners"]:
        forb[index[a]].add(index[b])
        forb[index[b]].add(index[a])
    graph = nx.Graph()
    graph.add_nodes_from(range(n))
    graph.add_edges_from((u, v) for u in range(n) for v in range(u + 1, n) if v not in forb[u])

    def repeats(nodes) -> int:
        nu = len(nx.max_weight_matching(graph.subgraph(nodes), maxcardinality=True))
        return len(nodes) // 2 - nu

    unpaired = [i for i in range(n) if i not in rests]
    k = repeats(unpaired)
    out = []
    while unpaired:
        p = unpaired[0]
        for q in unpaired[1:]:
            cost = 1 if q in forb[p] else 0
            if cost > k:
                continue
            rest = [x for x in unpaired if x not in (p, q)]
            if cost + repeats(rest) == k:
                break
        else:  # pragma: no cover - k is always reachable
            raise AssertionError("no feasible partner")
        k -= cost
        out.append([ranking[p], ranking[q]])
        unpaired = rest
    return out, [ranking[r] for r in rests]
