"""Danish individual pairing (*danese individuale*): partners change every round.

Rules: rules.md §9 (and §5 for rests); exact procedure in pairing-io.md ("Individual
tournaments", "Danish individual").

Algorithm. Players are numbered by ranking position (0 = best).

1. Rests: ``k = N mod 4`` players rest. Walk the ranking from the bottom and take the first
   ``k`` players that have not rested in the session; if fewer than ``k`` have not rested,
   the others are the lowest-ranked among those who rested fewest times (``rested`` may list
   a player once per rest), with a warning (rules.md §9).
2. Partnerships: the graph of allowed partnerships (everyone except former partners) is
   dense, so it is stored by its forbidden edges and one maximum matching of the players
   still without a partner is kept up to date (:class:`pairing.matching.DenseMatcher`), as
   for the Danish pairing of pairs: the same top-down walk (:func:`pairing.danish.top_down`)
   gives the best player A the best player Q he has never partnered such that the others can
   still all be partnered without a repeat. Testing a candidate costs O(1) in the usual case
   (the two freed mates are compatible) and one augmenting-path search otherwise. When no
   repeat-free completion exists, the walk keeps the fewest repeated partners (the matching
   proves the minimum), listed in ``repeated_partners`` with a warning.
3. Tables: partnership 2t−1 (N/S) against partnership 2t (E/W) at table t, in the order the
   partnerships were formed.
"""

from __future__ import annotations

from collections import Counter

from .danish import top_down
from .errors import refusal
from .matching import DenseMatcher
from .messages import msg
from .request import check_request_dict, is_pair_id, meetings, pair_list

__all__ = ["pair", "parse", "choose_rests", "player_list"]

MIN_PLAYERS = 4


def player_list(request: dict, key: str, *, min_len: int = 0) -> list:
    """The list of player ids under ``key`` (strings or integers), without duplicates
    (:func:`pairing.request.pair_list` for players).

    Raises:
        PairingError: missing, not a list, a non-id item, an id listed twice, or fewer than
            ``min_len`` players.
    """
    return pair_list(request, key, min_len=min_len, of="players")


def rest_counts(request: dict, key: str = "rested") -> Counter:
    """How many times each player listed under ``key`` rested (a list; repeats count).

    Raises:
        PairingError: ``key`` is not a list of player ids.
    """
    value = request.get(key, [])
    if value is None:
        return Counter()
    if not isinstance(value, list) or not all(is_pair_id(x) for x in value):
        raise refusal("pairing.not_player_list", key=key)
    return Counter(value)


def parse(request: dict) -> dict:
    """Validate a Danish individual request and return its normalised pieces.

    Returns a dict with ``ranking`` (list of ids, best first), ``index`` (id → rank
    0-based), ``partners`` (list of ``(a, b, round|None)`` between ranked players) and
    ``rested`` (Counter id → rests in the session, ranked players only).

    Raises:
        PairingError: fewer than 4 players, a player listed twice or not an id, a malformed
            partnership or ``rested``.
    """
    check_request_dict(request)
    ranking = player_list(request, "ranking", min_len=MIN_PLAYERS)
    index = {p: i for i, p in enumerate(ranking)}
    # Partnerships with withdrawn players (no longer ranked) cannot recur: keep ranked ones.
    partners = [m for m in meetings(request, "partners") if m[0] in index and m[1] in index]
    rested = Counter({p: c for p, c in rest_counts(request).items() if p in index})
    return {"ranking": ranking, "index": index, "partners": partners, "rested": rested}


def choose_rests(n: int, k: int, times: list[int]) -> tuple[list[int], bool]:
    """The ranks that rest: the ``k`` lowest-ranked with ``times[rank] == 0``, else fewest.

    Args:
        n: number of ranked players; ``k``: how many rest (``n mod 4``); ``times[rank]``:
            rests already taken in the session.
    Returns:
        ``(ranks best-ranked first, forced)``; ``forced`` is True when a player who already
        rested must rest again (rules.md §9: "the lowest-ranked among those who rested
        fewest times").
    """
    chosen = [r for r in range(n - 1, -1, -1) if times[r] == 0][:k]
    forced = len(chosen) < k
    if forced:
        others = sorted((r for r in range(n) if times[r] > 0), key=lambda r: (times[r], -r))
        chosen += others[:k - len(chosen)]
    return sorted(chosen), forced


def _partner_rounds(parsed: dict) -> dict:
    rounds: dict[frozenset, set] = {}
    for a, b, r in parsed["partners"]:
        s = rounds.setdefault(frozenset((a, b)), set())
        if r is not None:
            s.add(r)
    return rounds


def _why_partnered(a, b, rounds: dict) -> str:
    known = sorted(rounds.get(frozenset((a, b)), ()))
    if len(known) == 1:
        return f"{a} e {b} sono già stati compagni al turno {known[0]}"
    if known:
        listed = ", ".join(str(r) for r in known[:-1]) + f" e {known[-1]}"
        return f"{a} e {b} sono già stati compagni ai turni {listed}"
    return f"{a} e {b} sono già stati compagni"


def pair(request: dict) -> dict:
    """Pair one Danish individual round.

    Args:
        request: ``{"system": "danish-individual", "ranking": [player ids best first],
            "partners": [[a, b] or [a, b, round], ...], "rested": [ids]}``
            (pairing-io.md, "Danish individual"); ``rested`` may list a player once per
            rest already taken in the session.
    Returns:
        ``{"tables": [{"table": t, "ns": [A, Q], "ew": [B, R]}...], "rest": [ids best
        first], "repeated_partners": [[a, b]...], "warnings": [str...],
        "explanations": [str...]}``; each line ``[A, Q]`` has the better-ranked player
        first; ``explanations`` has one Italian line per partnership whose second player
        is not the next player without a partner in the ranking, and per rest that skips
        a lower-ranked player who already rested.
    Raises:
        PairingError: malformed request (see :func:`parse`).

    Source: rules.md §9 and §5, pairing-io.md ("Danish individual").
    """
    parsed = parse(request)
    ranking = parsed["ranking"]
    index = parsed["index"]
    n = len(ranking)
    warnings: list[str] = []
    explanations: list[str] = []

    times = [parsed["rested"].get(p, 0) for p in ranking]
    rests, forced = choose_rests(n, n % 4, times)
    if forced:
        again = [ranking[r] for r in rests if times[r] > 0]
        warnings.append(msg("warning.ind_rest_again", players=", ".join(map(str, again))))
    if rests:
        lowest = [r for r in range(n - 1, -1, -1) if r not in rests]
        skipped = [ranking[r] for r in lowest if r > rests[0] and times[r] > 0]
        if skipped:
            resting_names = ", ".join(str(ranking[r]) for r in rests)
            explanations.append(
                f"Riposo: {resting_names} — {', '.join(map(str, skipped))} "
                f"{'ha' if len(skipped) == 1 else 'hanno'} già riposato in questa sessione.")

    forb: list[set[int]] = [set() for _ in range(n)]
    for a, b, _ in parsed["partners"]:
        i, j = index[a], index[b]
        forb[i].add(j)
        forb[j].add(i)
    resting = set(rests)
    playing = [r for r in range(n) if r not in resting]
    m = DenseMatcher(n, forb, alive=playing)
    m.maximize(playing)
    k = m.unmatched() // 2
    if k:
        warnings.append(msg("warning.ind_min_repeats_one" if k == 1 else "warning.ind_min_repeats",
                            count=k))
    matches = top_down(m, forb, k)

    rounds = _partner_rounds(parsed)
    lines, repeated = [], []
    for number, (p, q, skipped) in enumerate(matches, start=1):
        a, b = ranking[p], ranking[q]
        lines.append([a, b])
        if q in forb[p]:
            repeated.append([a, b])
        if not skipped and q not in forb[p]:
            continue
        reasons = []
        for q2, why in skipped:
            if why == "met":
                reasons.append(_why_partnered(a, ranking[q2], rounds))
            else:
                reasons.append(f"con {a} e {ranking[q2]} compagni i giocatori restanti non "
                               f"si potrebbero accoppiare senza compagni ripetuti")
        if q in forb[p]:
            reasons.append(_why_partnered(a, b, rounds)
                           + ", ma nessuna formazione senza ripetizioni è possibile")
        table, line = (number + 1) // 2, ("N/S" if number % 2 else "E/O")
        explanations.append(f"Tavolo {table} {line}: {a} con {b} — "
                            + "; ".join(reasons) + ".")

    tables = [{"table": t + 1, "ns": lines[2 * t], "ew": lines[2 * t + 1]}
              for t in range(len(lines) // 2)]
    return {"tables": tables, "rest": [ranking[r] for r in rests],
            "repeated_partners": repeated, "warnings": warnings,
            "explanations": explanations}
