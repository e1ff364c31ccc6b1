"""Checker for individual tournaments (rules.md §9): the rule violations of a response.

Called by :func:`pairing.check.check` for ``danish-individual``, ``individual-movement`` and
``first_round`` with ``"kind": "individual"``. It re-derives what the rules demand from the
request (it shares only the from-scratch maximum-matching primitive with the engines).

Refused (violations):

- all: the shape (tables of two lines of two players, ``rest``, ``forced_rest``,
  ``repeated_partners``); every active player exactly once; table numbering 1..t; a second
  rest while a seated player has rested fewer times in the session (``rested``), i.e. an
  avoidable second rest; a partnership already in ``partners`` that ``repeated_partners``
  does not list (or a listed one that is not a repeat), or repeats without a warning.
- ``danish-individual``: ``N mod 4`` rests exactly as the rule takes them; repeated partners
  beyond the minimum (avoidable); every top-down choice the best available; tables as
  partnership 2t−1 v 2t in the order formed, the better-ranked player first in each line.
- ``first_round``: the draw reproduced from the seed, number order, the arbiter's tables.
- ``individual-movement``: repeats are the movement's (listed, with a warning); rests and
  partnerships are otherwise the schedule's, checked by the tests of the engine.

Information (not violations), :func:`information`: players who meet again as opponents,
from the optional request key ``"opponents"`` (every opposing couple so far, ``[a, b]``).
"""

from __future__ import annotations

from .. import danish_individual as _di
from .. import first_round as _first
from .. import first_round_individual as _fri
from ..errors import PairingError, refusal
from ..matching import min_unmatched
from ..messages import msg
from ..request import is_pair_id, meetings
from ..top_down import top_down_violation
from .common import bad_request

__all__ = ["check", "information", "repeated_opponents"]


def _lines(tables):
    return [line for t in tables for line in (t["ns"], t["ew"])]


def _parse(request: dict) -> list:
    """Validate the request as the engine would; return the active players (best first)."""
    system = request.get("system")
    if system == "danish-individual":
        return _di.parse(request)["ranking"]
    if system == "individual-movement":
        players = _di.player_list(request, "players", min_len=_di.MIN_PLAYERS)
        absent = set(request.get("absent") or [])
        return [p for p in players if p not in absent]
    if system == "first_round":
        _fri.pair(dict(request, seed=request.get("seed", 0)))
        return _di.player_list(request, "players")
    raise refusal("pairing.check_unknown_system", system=repr(system))


def _shape(response, out):
    if not isinstance(response, dict):
        out.append(msg("check.response_not_object"))
        return None
    tables = response.get("tables")
    rest = response.get("rest")
    forced = response.get("forced_rest", [])
    if not isinstance(tables, list) or not isinstance(rest, list) or not isinstance(forced, list):
        out.append(msg("check.ind_shape"))
        return None
    if not isinstance(response.get("repeated_partners"), list):
        out.append(msg("check.ind_no_repeated_partners"))
        return None
    for t in tables:
        if (not isinstance(t, dict) or not isinstance(t.get("table"), int)
                or any(not isinstance(t.get(k), list) or len(t[k]) != 2
                       or not all(is_pair_id(p) for p in t[k]) for k in ("ns", "ew"))):
            out.append(msg("check.ind_bad_table", value=repr(t)))
            return None
    return tables, rest, forced


def check(request: dict, response: dict) -> list[str]:
    """Violations of rules.md §9 by ``response`` for an individual ``request``; [] when none.

    Args:
        request: a ``danish-individual``, ``individual-movement`` or individual
            ``first_round`` request (pairing-io.md; pairing/README.md); optional
            ``partners`` and ``rested`` give the history for every system.
        response: the response to judge.
    Returns:
        one :class:`pairing.messages.Message` per violation (the Italian sentence, with a
        code and parameters for a translation).
    """
    if request.get("system") not in ("danish-individual", "individual-movement", "first_round"):
        return [msg("check.unknown_system", system=repr(request.get("system")))]
    try:
        players = _parse(request)
    except PairingError as exc:
        return [bad_request(exc)]
    out: list[str] = []
    shape = _shape(response, out)
    if shape is None:
        return out
    tables, rest, forced = shape
    seen = [p for line in _lines(tables) for p in line] + list(rest) + list(forced)
    known = set(players)
    for p in sorted({p for p in seen if p not in known}, key=str):
        out.append(msg("check.ind_unknown_player", player=p))
    for p in sorted({p for p in seen if seen.count(p) > 1}, key=str):
        out.append(msg("check.ind_player_repeated", player=p))
    for p in players:
        if p not in seen:
            out.append(msg("check.ind_player_missing", player=p))
    if [t["table"] for t in tables] != list(range(1, len(tables) + 1)):
        out.append(msg("check.numbering"))
    system = request.get("system")
    if system != "individual-movement":
        if forced:
            out.append(msg("check.ind_forced_not_expected"))
        if len(rest) != len(players) % 4:
            out.append(msg("check.ind_rest_count", want=len(players) % 4, got=len(rest)))
    if out:
        return out  # the finer checks assume a well-formed round
    _second_rests(request, players, tables, rest, out)
    _repeats(request, response, tables, out)
    if system == "danish-individual":
        _danish(request, response, tables, rest, out)
    elif system == "first_round":
        _first_round(request, response, players, tables, rest, out)
    return out


def _second_rests(request, players, tables, rest, out) -> None:
    """A rester who rested more often than some seated player: avoidable (rules.md §5, §9)."""
    times = _di.rest_counts(request)
    seated = [p for line in _lines(tables) for p in line]
    if not seated:
        return
    fewest = min(times.get(p, 0) for p in seated)
    for p in rest:
        if times.get(p, 0) > fewest:
            fresh = next(q for q in reversed(players) if q in seated
                         and times.get(q, 0) == fewest)
            out.append(msg("check.ind_second_rest" if fewest == 0 else "check.ind_second_rest_fewer",
                           player=p, fresh=fresh))


def _repeats(request, response, tables, out) -> None:
    if request.get("system") == "individual-movement" and "partners" not in request:
        # Without the history, the movement's own earlier rounds are the history: the
        # listed repeats cannot be re-derived here, only their warning.
        if response["repeated_partners"] and not response.get("warnings"):
            out.append(msg("check.ind_repeat_no_warning"))
        return
    history = {frozenset(m[:2]) for m in meetings(request, "partners")}
    played = [frozenset(line) for line in _lines(tables) if frozenset(line) in history]
    listed = [frozenset(x) for x in response["repeated_partners"]
              if isinstance(x, list) and len(x) == 2]
    # A repeat not listed (e.g. made by a hand change in the draft) is named with its table;
    # a listing of partnerships not played, or listed twice, is the engine's fault.
    for t in tables:
        for line in (t["ns"], t["ew"]):
            if frozenset(line) in history and frozenset(line) not in listed:
                out.append(msg("check.ind_unlisted_partner", table=t["table"], a=line[0], b=line[1]))
    if set(listed) - set(played) or len(listed) != len(set(listed)):
        out.append(msg("check.ind_repeats_listed"))
    if set(played) & set(listed) and not response.get("warnings"):
        out.append(msg("check.ind_repeat_no_warning"))


def _danish(request, response, tables, rest, out) -> None:
    parsed = _di.parse(request)
    ranking, index = parsed["ranking"], parsed["index"]
    n = len(ranking)
    times = [parsed["rested"].get(p, 0) for p in ranking]
    k = n % 4
    fresh = [r for r in range(n - 1, -1, -1) if times[r] == 0][:k]
    if len(fresh) < k:
        fresh += sorted((r for r in range(n) if times[r] > 0),
                        key=lambda r: (times[r], -r))[:k - len(fresh)]
    if [index[p] for p in rest] != sorted(fresh):
        out.append(msg("check.ind_rest_belongs", players=", ".join(str(ranking[r]) for r in sorted(fresh))))
        return
    forb = [set() for _ in range(n)]
    for a, b, _ in parsed["partners"]:
        forb[index[a]].add(index[b])
        forb[index[b]].add(index[a])
    lines = [(index[x], index[y]) for x, y in _lines(tables)]
    for x, y in lines:
        if x > y:
            out.append(msg("check.ind_line_order", line=f"{ranking[y]}+{ranking[x]}"))
            return
    unpaired = sorted(index[p] for line in _lines(tables) for p in line)
    k_min = min_unmatched(unpaired, forb, n) // 2
    used = sum(1 for a, b in lines if b in forb[a])
    if used > k_min:
        out.append(msg("check.ind_avoidable_repeats", used=used, k=k_min))
        return
    violation = top_down_violation(
        lines, unpaired, forb, n, used,
        lambda k, a, q: msg("check.ind_top_down", number=k + 1, player=ranking[a], other=ranking[q]),
        leader_message=lambda k, best: msg("check.ind_leader", number=k + 1, player=ranking[best]))
    if violation is not None:
        out.append(violation)


def _first_round(request, response, players, tables, rest, out) -> None:
    method = request["method"]
    if method == "hand":
        want = sorted((t["table"], list(t["ns"]), list(t["ew"])) for t in request["tables"])
        got = [(t["table"], t["ns"], t["ew"]) for t in tables]
        if got != want or sorted(map(str, rest)) != sorted(map(str, request.get("rest") or [])):
            out.append(msg("check.hand_tables"))
        return
    if method == "lot":
        seed = response.get("seed")
        if not isinstance(seed, int) or isinstance(seed, bool):
            out.append(msg("check.lot_no_seed"))
            return
        if request.get("seed") is not None and seed != request["seed"]:
            out.append(msg("check.lot_seed_differs"))
        order = _first.draw(players, seed)
    else:
        order = list(players)
    full = len(order) - len(order) % 4
    want = [(t + 1, order[4 * t:4 * t + 2], order[4 * t + 2:4 * t + 4])
            for t in range(full // 4)]
    if [(t["table"], t["ns"], t["ew"]) for t in tables] != want or rest != order[full:]:
        out.append(msg("check.ind_lot_order" if method == "lot" else "check.ind_number_order"))


def repeated_opponents(request: dict, response: dict) -> list[tuple]:
    """``[(table, a, b), ...]``: opposing players of the response who already met as opponents.

    Uses the optional request key ``"opponents"`` (every opposing couple so far).
    """
    history = {frozenset(m[:2]) for m in meetings(request, "opponents")}
    out = []
    for t in response.get("tables") or []:
        if not isinstance(t, dict) or not all(isinstance(t.get(k), list) for k in ("ns", "ew")):
            continue
        for a in t["ns"]:
            for b in t["ew"]:
                if frozenset((a, b)) in history:
                    out.append((t.get("table"), a, b))
    return out


def information(request: dict, response: dict) -> list[str]:
    """Lines for the arbiter that are not violations: repeated opponents (§9), as
    :class:`pairing.messages.Message` (Italian text, code ``check.ind_opponents_again``).

    Empty for a request that is not an individual tournament's.
    """
    if not (request.get("system") in ("danish-individual", "individual-movement")
            or request.get("kind") == "individual") or not isinstance(response, dict):
        return []
    try:
        return [msg("check.ind_opponents_again", table=t, a=a, b=b)
                for t, a, b in repeated_opponents(request, response)]
    except PairingError:
        return []
