"""Individual movement (*movimento individuale*): a schedule fixed in advance (rules.md §9).

Request (pairing-io.md "Individual tournaments"; extensions in ``pairing/README.md``)::

    {"system": "individual-movement",
     "players": [ids in player-number order, withdrawn players included],
     "rounds": 7,          # planned rounds of the movement
     "round": 3,           # the round to pair, 1..rounds
     "seed": 12345,        # optional, default 0: the same seed gives the same schedule
     "absent": [ids],      # optional: withdrawn players
     "partners": [[a, b] or [a, b, round], ...],   # optional: partnerships played so far
     "rested": [ids],      # optional: rests already taken in the session (repeats count)
     "ranking": [ids]}     # optional, with rested: best first (default: players order)

Response, shaped like ``danish-individual``::

    {"tables": [{"table": 1, "ns": [a, b], "ew": [c, d]}, ...], "rest": [ids],
     "forced_rest": [ids], "repeated_partners": [[a, b], ...], "warnings": [...],
     "adjustments": [{"rests": S, "plays": R, "table": t}], "max_opponent_meetings": 2}

The schedule depends only on ``players``, ``rounds`` and ``seed`` (never on ``absent`` or
``round``), so every round of the movement is drawn from the same schedule.

Construction (N players, k = N mod 4 rest each round, M = N − k play):

1. Rests. The players are put in a seeded order; round r (1-based) rests the k players at
   positions (r−1)·k … r·k − 1 of that order, cyclically. Any window of w consecutive rounds
   rests k·w different players while k·w ≤ N, so nobody rests twice in a session that can
   avoid it (wherever the sessions start: no session boundaries are needed).
2. Partners. A 1-factorization of K_N (N even, circle method) or a near-1-factorization of
   K_N (N odd: round r's factor leaves out the first resting vertex) gives each round an
   initial partnership set; partnerships touching a resting player are dropped and the
   playing players are completed to a perfect matching that avoids every partnership of the
   earlier rounds (:class:`pairing.matching.DenseMatcher`, Edmonds). For N ≡ 0 mod 4 this is
   exactly the circle method (no repeat while rounds ≤ N − 1); for N ≡ 1 mod 4 the
   near-1-factorization already matches the rests (no repeat while rounds ≤ N). Several
   seeded relabellings are tried and the schedule with the fewest repeated partners wins.
3. Tables. Each round's partnerships are grouped two by two into tables, greedily by the
   opponent counts so far, then improved by local search over all rounds (swap the
   opponents of two tables of a round) to lower the largest number of times two players
   meet as opponents, then the sum of squares of those counts.
4. Withdrawn players (``absent``): the schedule does not change; a table holding an absent
   player is not played, and its present players get a forced rest (``forced_rest``, as for
   pairs, rules.md §5); the remaining tables are numbered 1, 2, … in schedule order.
5. Second rests across systems (a session mixing ``D`` and ``M`` rounds): a scheduled
   rester listed in ``rested`` takes the seat of the lowest-ranked seated player who has not
   rested, who rests instead (``adjustments``, as the Mitchell movement does for pairs).
   Repeated partners: with ``partners`` (the partnerships actually played), every line of
   this round already formed there is listed in ``repeated_partners`` with a warning (the
   schedule cannot avoid it); without it, the schedule's own earlier rounds are the history.
"""

from __future__ import annotations

import random
from functools import lru_cache

from .danish_individual import MIN_PLAYERS, player_list, rest_counts
from .errors import refusal
from .matching import DenseMatcher
from .messages import msg
from .request import check_request_dict, id_set, meetings, positive_int

__all__ = ["pair", "schedule", "opponent_counts"]

# Work budget: relabellings tried and local-search moves, scaled down for big fields.
_ATTEMPTS = 6
_MOVES = 8000


def _circle_factor(n: int, f: int) -> list[tuple[int, int]]:
    """Factor ``f`` (0-based) of the circle 1-factorization of K_n (n even)."""
    m = n - 1  # vertices 0..m-1 on a circle, vertex m in the centre
    edges = [(f, m)]
    for i in range(1, n // 2):
        edges.append(((f - i) % m, (f + i) % m))
    return edges


def _near_factor(n: int, c: int) -> list[tuple[int, int]]:
    """The near-1-factor of K_n (n odd) that leaves out vertex ``c``: {c−i, c+i}."""
    return [((c - i) % n, (c + i) % n) for i in range(1, (n + 1) // 2)]


def _rests(n: int, k: int, rounds: int) -> list[list[int]]:
    """Round r rests vertices r·k … r·k + k − 1 (mod n): a rotation (step 1 above)."""
    return [[(r * k + j) % n for j in range(k)] for r in range(rounds)]


def _partner_rounds(n: int, k: int, rounds: int, rng: random.Random,
                    prefix: list | None = None, structured: bool = True
                    ) -> tuple[list, list, tuple[int, int]]:
    """Rests and partnerships per round on vertices 0..n-1, after the rounds of ``prefix``.

    ``structured``: start each round from a factor of the (near-)1-factorization; otherwise
    from a random greedy matching (more variety for the opponent search, less certainty).

    Returns ``(rests, matchings, (repeats in rounds ≤ n − 1, repeats in all))``.
    """
    rests = _rests(n, k, rounds)
    used: list[set[int]] = [set() for _ in range(n)]
    matchings = list(prefix or [])
    for pairs in matchings:
        for a, b in pairs:
            used[a].add(b)
            used[b].add(a)
    early = repeats = 0
    free_factors = list(range(n - 1)) if n % 2 == 0 else []
    rng.shuffle(free_factors)
    for r in range(len(matchings), rounds):
        resting = set(rests[r])
        if n % 2:
            start = _near_factor(n, rests[r][0] if k else r % n)
        else:
            if not free_factors:
                free_factors = list(range(n - 1))
                rng.shuffle(free_factors)
            best = max(free_factors[:8], key=lambda f: sum(  # a few, shuffled
                1 for a, b in _circle_factor(n, f) if a not in resting and b not in resting
                and b not in used[a]))
            free_factors.remove(best)
            start = _circle_factor(n, best)
        playing = [v for v in range(n) if v not in resting]
        m = DenseMatcher(n, used, alive=playing)
        for a, b in (start if structured else ()):
            if a not in resting and b not in resting and b not in used[a]:
                m.link(a, b)
        order = list(playing)
        rng.shuffle(order)
        m.maximize(order)
        if m.unmatched():  # repeats unavoidable here: complete with the fewest
            m2 = DenseMatcher(n, [set() for _ in range(n)], alive=list(m.exposed))
            m2.maximize()
            for v in list(m.exposed):
                if m.mate[v] == -1 and m2.mate[v] != -1:
                    m.link(v, m2.mate[v])
                    repeats += 1
                    early += 1 if r < n - 1 else 0
        pairs = []
        for v in playing:
            w = m.mate[v]
            if v < w:
                pairs.append((v, w))
        for a, b in pairs:
            used[a].add(b)
            used[b].add(a)
        matchings.append(pairs)
    return rests, matchings, (early, repeats)


def _score(counts: dict) -> tuple[int, int]:
    values = counts.values()
    return (max(values, default=0), sum(c * c for c in values))


def _cross(x: tuple, y: tuple):
    return ((min(a, b), max(a, b)) for a in x for b in y)


def _group_tables(matchings: list, rng: random.Random, moves: int,
                  floor: int = 1) -> tuple[list, dict]:
    """Group each round's partnerships into tables; return (tables per round, counts)."""
    counts: dict[tuple[int, int], int] = {}
    rounds = []
    for pairs in matchings:
        lines = list(pairs)
        rng.shuffle(lines)
        tables = []
        while lines:
            x = lines.pop()
            best = min(range(len(lines)), key=lambda i: sum(
                4 ** counts.get(e, 0) for e in _cross(x, lines[i])))
            y = lines.pop(best)
            for e in _cross(x, y):
                counts[e] = counts.get(e, 0) + 1
            tables.append([x, y])
        rounds.append(tables)

    # Incremental score: hist[c] = couples meeting c times; (top, sum of squares).
    hist = [0] * (len(matchings) + 2)
    for c in counts.values():
        hist[c] += 1
    state = [max(counts.values(), default=0), sum(c * c for c in counts.values())]

    def add(x, y, d):
        for e in _cross(x, y):
            c = counts.get(e, 0)
            hist[c] -= 1
            hist[c + d] += 1
            counts[e] = c + d
            state[1] += 2 * c * d + 1
            if c + d > state[0]:
                state[0] = c + d
        while state[0] > 0 and hist[state[0]] == 0:
            state[0] -= 1

    hist[0] = 0  # couples never met are not tracked
    score = tuple(state)
    multi = [r for r, tables in enumerate(rounds) if len(tables) > 1]
    for _ in range(moves if multi else 0):
        if score[0] <= floor:
            break
        tables = rounds[rng.choice(multi)]
        i, j = rng.sample(range(len(tables)), 2)
        (a, b), (c, d) = tables[i], tables[j]
        swap = rng.random() < 0.5
        new = ([a, c], [b, d]) if swap else ([a, d], [b, c])
        add(a, b, -1)
        add(c, d, -1)
        add(*new[0], 1)
        add(*new[1], 1)
        trial = tuple(state)
        if trial <= score:
            score = trial
            tables[i], tables[j] = list(new[0]), list(new[1])
        else:
            add(*new[0], -1)
            add(*new[1], -1)
            add(a, b, 1)
            add(c, d, 1)
    return rounds, {e: c for e, c in counts.items() if c}


# Cyclic whist designs Wh(n) (n = 8, 12, 16, 20): the first round on Z_(n-1) ∪ {∞} (∞ is
# vertex n-1); round r adds r to every finite vertex. Over n-1 rounds every two players
# partner exactly once and meet as opponents exactly twice (checked by a test). Found by an
# exhaustive search over starters (partner differences ±1..±(n-2)/2 once each) and their
# groupings into tables.
WHIST_BASES = {
    8: (((0, 7), (1, 3)), ((2, 6), (4, 5))),
    12: (((0, 11), (7, 10)), ((1, 2), (4, 6)), ((3, 8), (5, 9))),
    16: (((0, 15), (1, 2)), ((3, 6), (9, 11)), ((4, 13), (8, 12)), ((5, 10), (7, 14))),
    20: (((0, 19), (6, 13)), ((1, 2), (4, 10)), ((3, 5), (7, 12)), ((8, 16), (11, 15)),
         ((9, 18), (14, 17))),
}


def whist_round(n: int, r: int) -> list:
    """Round ``r`` (0-based) of the cyclic whist design on ``n`` vertices: tables of lines."""
    m = n - 1

    def shift(v):
        return v if v == m else (v + r) % m

    return [[tuple(shift(v) for v in x), tuple(shift(v) for v in y)]
            for x, y in WHIST_BASES[n]]


def _counts(tables_per_round: list) -> dict:
    counts: dict[tuple[int, int], int] = {}
    for tables in tables_per_round:
        for x, y in tables:
            for e in _cross(x, y):
                counts[e] = counts.get(e, 0) + 1
    return counts


def _lower_bound(n: int, k: int, rounds: int) -> int:
    """Largest opponent count any schedule must reach: ⌈2·(most rounds played)/(N−1)⌉."""
    rests = [0] * n
    for r in range(rounds):
        for j in range(k):
            rests[(r * k + j) % n] += 1
    played = rounds - min(rests)
    return -(-2 * played // (n - 1))


def _matchings(vertices: list, used: list[set[int]], rng: random.Random):
    """Every perfect matching of ``vertices`` avoiding ``used`` edges, in a random order."""
    if not vertices:
        yield []
        return
    a, rest = vertices[0], vertices[1:]
    options = [b for b in rest if b not in used[a]]
    rng.shuffle(options)
    for b in options:
        others = [v for v in rest if v != b]
        for tail in _matchings(others, used, rng):
            yield [(a, b)] + tail


def _exact_partners(n: int, rests: list, rng: random.Random, budget: int) -> list | None:
    """Depth-first search for repeat-free partnerships round after round (small fields).

    Returns the matchings per round, or None when none exists or ``budget`` nodes ran out.
    """
    used: list[set[int]] = [set() for _ in range(n)]
    nodes = [0]

    def search(r: int) -> list | None:
        if r == len(rests):
            return []
        resting = set(rests[r])
        for pairs in _matchings([v for v in range(n) if v not in resting], used, rng):
            nodes[0] += 1
            if nodes[0] > budget:
                return None
            for a, b in pairs:
                used[a].add(b)
                used[b].add(a)
            tail = search(r + 1)
            for a, b in pairs:
                used[a].discard(b)
                used[b].discard(a)
            if tail is not None:
                return [pairs] + tail
            if nodes[0] > budget:
                return None
        return None

    return search(0)


@lru_cache(maxsize=32)
def _schedule(n: int, rounds: int, seed: int) -> tuple:
    k = n % 4
    lb = _lower_bound(n, k, rounds)
    candidates = []
    if n in WHIST_BASES:
        tables = [whist_round(n, r % (n - 1)) for r in range(rounds)]
        repeats = max(0, rounds - (n - 1)) * (n // 2)
        candidates.append(((0, repeats, *_score(_counts(tables))),
                           [[] for _ in range(rounds)], tables))
    attempts = max(1, min(_ATTEMPTS if n * rounds > 120 else 40, 4000 // (n * rounds) + 1))
    moves = max(1000, _MOVES // attempts)
    for attempt in range(attempts):
        if candidates and min(candidates)[0][0] == 0 and min(candidates)[0][2] <= lb:
            break
        rng = random.Random(f"individual-movement:{seed}:{attempt}")
        rests, matchings, repeats = _partner_rounds(n, k, rounds, rng,
                                                    structured=attempt % 2 == 0)
        tables, counts = _group_tables(matchings, rng, moves, lb)
        candidates.append(((*repeats, *_score(counts)), rests, tables))
    if min(candidates)[0][0] and n <= 24:
        # The greedy construction repeated a partner in rounds <= n-1: search those rounds
        # exhaustively (small fields), then continue greedily.
        rng = random.Random(f"individual-movement:{seed}:exact")
        head = _rests(n, k, min(rounds, n - 1))
        prefix = _exact_partners(n, head, rng, budget=20000)
        if prefix is not None:
            rests, matchings, repeats = _partner_rounds(n, k, rounds, rng, prefix)
            tables, counts = _group_tables(matchings, rng, _MOVES, lb)
            candidates.append(((*repeats, *_score(counts)), rests, tables))
    _, rests, tables = min(candidates, key=lambda c: c[0])  # fewest repeats first
    order = list(range(n))
    random.Random(f"individual-movement:{seed}:labels").shuffle(order)
    return order, rests, tables


def schedule(players: list, rounds: int, seed: int = 0) -> list[dict]:
    """The whole movement: one ``{"tables": [...], "rest": [...]}`` per round, in order.

    Args:
        players: ids in player-number order (at least 4); rounds: planned rounds ≥ 1;
            seed: any integer (the same arguments always give the same schedule).
    Returns:
        per round, ``tables`` = ``[{"table": t, "ns": [a, b], "ew": [c, d]}]`` numbered from
        1, each line in player-number order, and ``rest`` in player-number order.

    Source: rules.md §9 ("Individual movement"), §5 (rests).
    """
    number = {p: i for i, p in enumerate(players)}
    order, rests, tables = _schedule(len(players), rounds, seed)
    pid = [players[v] for v in order]  # vertex v of the construction is player pid[v]

    def line(x):
        return sorted((pid[x[0]], pid[x[1]]), key=number.__getitem__)

    out = []
    for r in range(rounds):
        seated = []
        for x, y in tables[r]:
            ns, ew = sorted((line(x), line(y)), key=lambda ln: number[ln[0]])
            seated.append((ns, ew))
        seated.sort(key=lambda t: number[t[0][0]])
        out.append({"tables": [{"table": t + 1, "ns": ns, "ew": ew}
                               for t, (ns, ew) in enumerate(seated)],
                    "rest": sorted((pid[v] for v in rests[r]), key=number.__getitem__)})
    return out


def opponent_counts(rounds: list[dict]) -> dict[frozenset, int]:
    """``{frozenset({a, b}): times a and b met as opponents}`` over ``rounds``' tables."""
    counts: dict[frozenset, int] = {}
    for rnd in rounds:
        for t in rnd["tables"]:
            for a in t["ns"]:
                for b in t["ew"]:
                    key = frozenset((a, b))
                    counts[key] = counts.get(key, 0) + 1
    return counts


def repeated_partnerships(rounds: list[dict]) -> list[list]:
    """Partnerships of ``rounds`` already formed in an earlier round, in order."""
    seen, out = set(), []
    for rnd in rounds:
        for t in rnd["tables"]:
            for line in (t["ns"], t["ew"]):
                key = frozenset(line)
                if key in seen:
                    out.append(list(line))
                seen.add(key)
    return out


def exchange_rests(tables: list[dict], rest: list, ranking: list, rested) -> tuple[list, list]:
    """Seat each scheduled rester who already rested in the session (rules.md §5, §9).

    Args:
        tables: the round's played tables (changed in place: the rester takes the seat).
        rest: the scheduled resting players; ranking: player ids best first; rested:
            ``{player: rests in the session}``.
    Returns:
        ``(rest, adjustments)``: the new rest list and ``[{"rests": S, "plays": R,
        "table": t}]``, S being the lowest-ranked seated player who has not rested.
    """
    rest, adjustments, moved = list(rest), [], set()
    for x in list(rest):
        if not rested.get(x):
            continue
        seat_of = {p: (t, line) for t in tables for line in ("ns", "ew") for p in t[line]}
        sub = next((p for p in reversed(ranking) if p in seat_of and not rested.get(p)
                    and p not in moved), None)
        if sub is None:
            continue
        t, line = seat_of[sub]
        t[line] = [x if p == sub else p for p in t[line]]
        rest[rest.index(x)] = sub
        moved.update((x, sub))
        adjustments.append({"rests": sub, "plays": x, "table": t["table"]})
    return rest, adjustments


def pair(request: dict) -> dict:
    """Pair round ``round`` of the individual movement.

    Args:
        request: see the module docstring.
    Returns:
        ``{"tables", "rest", "forced_rest", "repeated_partners", "warnings",
        "adjustments", "max_opponent_meetings"}``: ``repeated_partners`` lists this
        round's partnerships already formed (in ``partners`` when given, else in the
        schedule's earlier rounds: then only when rounds > N − 1); ``adjustments`` the rest
        exchanges (see :func:`exchange_rests`); ``max_opponent_meetings`` the largest number
        of times two players meet as opponents over the whole schedule.
    Raises:
        PairingError: fewer than 4 players, a player listed twice, ``rounds`` or ``round``
            not an integer ≥ 1, ``round`` > ``rounds``, a bad ``seed``.

    Source: rules.md §9 ("Individual movement"), §5 (forced rest, art. 32).
    """
    check_request_dict(request)
    players = player_list(request, "players", min_len=MIN_PLAYERS)
    rounds = positive_int(request, "rounds")
    rnd = positive_int(request, "round")
    if rnd > rounds:
        raise refusal("pairing.round_beyond_schedule", round=rnd, rounds=rounds)
    seed = request.get("seed", 0)
    if seed is None:
        seed = 0
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise refusal("pairing.bad_seed", value=repr(seed))
    absent = id_set(request, "absent") & set(players)
    present = [p for p in players if p not in absent]
    ranking = [p for p in player_list(request, "ranking") if p in set(present)] \
        if "ranking" in request else present
    rested = {p: c for p, c in rest_counts(request).items() if p in set(players)}

    plan = schedule(players, rounds, seed)
    this = plan[rnd - 1]
    warnings: list[str] = []
    counts = opponent_counts(plan)
    tables, forced = [], []
    for t in this["tables"]:
        four = t["ns"] + t["ew"]
        if any(p in absent for p in four):
            forced.extend(p for p in four if p not in absent)
            continue
        tables.append({"table": len(tables) + 1, "ns": list(t["ns"]), "ew": list(t["ew"])})
    forced.sort(key={p: i for i, p in enumerate(players)}.__getitem__)
    if forced:
        warnings.append(msg("warning.ind_withdrawn", players=", ".join(map(str, forced))))
    rest = [p for p in this["rest"] if p not in absent]
    rest, adjustments = exchange_rests(tables, rest, ranking, rested)
    again = [p for p in rest if rested.get(p)]
    if again:
        warnings.append(msg("warning.ind_rest_again", players=", ".join(map(str, again))))

    if "partners" in request:  # the partnerships actually played so far
        before = {frozenset(m[:2]) for m in meetings(request, "partners")}
    else:
        before = {frozenset(ln) for r in plan[:rnd - 1] for t in r["tables"]
                  for ln in (t["ns"], t["ew"])}
    repeated = [ln for t in tables for ln in (t["ns"], t["ew"]) if frozenset(ln) in before]
    if repeated:
        warnings.append(msg("warning.ind_movement_repeats_one" if len(repeated) == 1
                            else "warning.ind_movement_repeats", count=len(repeated),
                            lines="; ".join("+".join(map(str, ln)) for ln in repeated)))
    return {"tables": tables, "rest": rest, "forced_rest": forced,
            "repeated_partners": repeated, "warnings": warnings,
            "adjustments": adjustments,
            "max_opponent_meetings": max(counts.values(), default=0)}
