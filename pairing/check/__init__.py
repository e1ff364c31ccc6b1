"""Checker: list the rule violations of a pairing response.

``check(request, response)`` re-derives what the rules demand from the request and compares;
it does not call the engines' pairing code (the Danish checks only share the from-scratch
maximum-matching primitive, which the tests compare with networkx). Messages are
:class:`pairing.messages.Message` strings: the Italian text, with a code and parameters so the
application shows them in the reader's language (issue 14 item 8).

Checked, per system:

- all: the response shape; every pair exactly once (tables, bye, forced byes); unknown pairs;
  a pair playing itself; table numbering.
- Mitchell (rules.md §5, §6): tables, bye, forced byes and ``adjustments`` exactly as the
  movement gives them, with the request's ``offset`` (step changes) and the second-rest
  exchanges that ``rested``/``ranking`` demand (see :mod:`pairing.mitchell`); a second rest
  while a playing pair has not rested; every meeting already in ``met`` that the response
  does not list in ``rematches``.
- Danish (rules.md §5, §7, art. 33): numbering 1..k; table order and N/S seating; the bye
  (only with an odd count; not to a pair that rested when a non-rested one exists; the lowest
  entitled pair); forbidden rematches avoidable or not listed in ``rematches``; every
  top-down choice the best available.
- Individual tournaments (``danish-individual``, ``individual-movement``, ``first_round``
  with ``"kind": "individual"``): :mod:`pairing.check_individual`.
- Round robin (rules.md §14): tables, bye(s), forced byes (and, for groups, the per-group
  summary) exactly as the circle schedule of pairing-io.md gives them, tables numbered group
  after group (so within one cycle no two entrants meet twice); every meeting already in
  ``met`` listed in ``rematches``.
- Danish and Mitchell in groups (rules.md §19): :mod:`pairing.check_groups` (no table across
  groups, tables group after group, one rest per group, each group checked on its own).
- First round: the draw reproduced from the seed; pair-number order; the arbiter's tables;
  with ``rested``/``met`` in the request, second rests and unlisted repeated meetings too.

:func:`repeated_meetings` lists every meeting of a response that the history already holds
(any system, whatever the rematch setting), for the arbiter's report and the RTG.

Command line: ``python -m pairing.check REQUEST.json RESPONSE.json`` prints one violation a
line; exit status 0 when there are none, 1 otherwise (2 when a file cannot be read).
"""

from __future__ import annotations

import json
import sys

from .. import danish as _danish
from .. import first_round as _first
from .. import mitchell as _mitchell
from .. import round_robin as _round_robin
from ..errors import PairingError
from ..matching import min_unmatched
from ..messages import Message, msg  # noqa: F401  (Message: for callers building one)
from ..request import is_pair_id
from ..top_down import top_down_violation

__all__ = ["check", "repeated_meetings", "second_rests", "top_down_violation", "main"]


def check(request: dict, response: dict) -> list[str]:
    """Violations of the rules by ``response`` for ``request``; empty list when none.

    Args:
        request: the pairing request (pairing-io.md shapes).
        response: the response to judge (as returned by :func:`pairing.run` or read from
            JSON).
    Returns:
        one :class:`pairing.messages.Message` per violation (a ``str``: the Italian
        sentence; ``code`` and ``params`` for a translation).

    A request the engine would reject gives a single "richiesta non valida" violation.
    """
    if not isinstance(request, dict):
        return [msg("check.request_not_object")]
    system = request.get("system")
    if (system in ("danish-individual", "individual-movement")
            or request.get("kind") == "individual"):
        from .individual import check as check_individual  # individual tournaments, rules.md §9

        return check_individual(request, response)
    if system in ("danish", "mitchell") and "groups" in request:  # rules.md §19
        from .groups import check_grouped

        return check_grouped(request, response, check)
    try:
        if system == "mitchell":
            parsed = _mitchell.parse(request)
        elif system == "danish":
            parsed = _danish.parse(request)
        elif system == "first_round":
            parsed = None
            _first.pair(dict(request, seed=request.get("seed", 0)))
        elif system == "round-robin":
            parsed = _round_robin.parse(request)
        else:
            return [msg("check.unknown_system", system=repr(system))]
    except PairingError as exc:
        # the refusal's own code rides along, so the reader's language reaches the detail too
        return [msg("check.bad_request", detail=str(exc), detail_code=exc.code, detail_params=exc.params)]

    out: list[str] = []
    shape = _shape(response, out)
    if shape is None:
        return out
    tables, bye, forced = shape
    if system == "mitchell":
        _check_mitchell(parsed, request, response, tables, bye, forced, out)
    elif system == "danish":
        _check_danish(parsed, response, tables, bye, forced, out)
    elif system == "round-robin":
        _check_round_robin(parsed, request, response, tables, bye, forced, out)
    else:
        _check_first_round(request, response, tables, bye, forced, out)
        _check_generic(request, response, tables, bye, forced, out)
    return out


def repeated_meetings(request: dict, response: dict) -> list[tuple]:
    """Every meeting of ``response`` already in ``request["met"]``, any system.

    Args:
        request: a pairing request; only its ``met`` (``[a, b]`` or ``[a, b, round]``) is
            read.
        response: a pairing response (``tables`` with ``ns``/``ew``).
    Returns:
        ``[(table, ns, ew, first_round|None), ...]`` in table order; empty without ``met``.
    """
    first: dict = {}
    for m in request.get("met") or []:
        if isinstance(m, (list, tuple)) and len(m) in (2, 3):
            key = frozenset(m[:2])
            r = m[2] if len(m) == 3 else None
            if key not in first or (r is not None and (first[key] is None or r < first[key])):
                first[key] = r
    out = []
    for t in response.get("tables") or []:
        if not isinstance(t, dict) or t.get("ns") is None or t.get("ew") is None:
            continue
        key = frozenset((t["ns"], t["ew"]))
        if len(key) == 2 and key in first:
            out.append((t.get("table"), t["ns"], t["ew"], first[key]))
    return out


def second_rests(request: dict, response: dict) -> list[tuple]:
    """Avoidable second rests (rules.md §5, art. 33): ``[(idle pair, pair that could rest)]``.

    An idle pair (``bye`` or forced rest) that is in ``request["rested"]`` while a pair
    seated at a full table of the response is not. The pair that could rest is the
    lowest-ranked such pair (``ranking``, else the request's pair order). Empty when the
    request has no ``rested``.
    """
    rested = request.get("rested")
    if rested is None:
        return []
    rested = set(rested)
    order = request.get("ranking") or request.get("pairs") or []
    playing = [p for t in response.get("tables") or [] if isinstance(t, dict)
               and t.get("ns") is not None and t.get("ew") is not None for p in (t["ns"], t["ew"])]
    fresh = [p for p in playing if p not in rested]
    if not fresh:
        return []
    pos = {p: i for i, p in enumerate(order)}
    lowest = max(fresh, key=lambda p: pos.get(p, -1))
    idle = ([response["bye"]] if response.get("bye") is not None else []) + list(
        response.get("forced_byes") or [])
    return [(p, lowest) for p in idle if p in rested]


def _check_generic(request, response, tables, bye, forced, out) -> None:
    """Second rests and unlisted repeated meetings, for systems without finer checks."""
    for p, q in second_rests(request, response):
        out.append(msg("check.second_rest", pair=p, other=q))
    _check_listed_repeats(request, response, out)


def _check_listed_repeats(request, response, out) -> None:
    listed = {frozenset(x) for x in response.get("rematches") or []
              if isinstance(x, list) and len(x) == 2}
    for t, ns, ew, r in repeated_meetings(request, response):
        if frozenset((ns, ew)) not in listed:
            if r is not None:
                out.append(msg("check.unlisted_rematch_round", table=t, ns=ns, ew=ew, round=r))
            else:
                out.append(msg("check.unlisted_rematch", table=t, ns=ns, ew=ew))


# -- shape and coverage ---------------------------------------------------------------------
def _shape(response, out):
    if not isinstance(response, dict):
        out.append(msg("check.response_not_object"))
        return None
    tables = response.get("tables")
    if not isinstance(tables, list):
        out.append(msg("check.no_tables"))
        return None
    good = []
    for t in tables:
        if not isinstance(t, dict) or not {"table", "ns", "ew"} <= set(t):
            out.append(msg("check.bad_table", value=repr(t)))
            continue
        num = t["table"]
        if not isinstance(num, int) or isinstance(num, bool):
            out.append(msg("check.bad_table_number", value=repr(num)))
            continue
        for seat in ("ns", "ew"):
            if t[seat] is not None and not is_pair_id(t[seat]):
                out.append(msg("check.bad_pair_id", table=num, value=repr(t[seat])))
        good.append(t)
    for key in ("rematches", "warnings"):
        if not isinstance(response.get(key, []), list):
            out.append(msg("check.not_a_list", key=key))
    bye = response.get("bye")
    if bye is not None and not is_pair_id(bye):
        out.append(msg("check.bad_bye", value=repr(bye)))
        bye = None
    forced = response.get("forced_byes", [])
    if not isinstance(forced, list):
        out.append(msg("check.not_a_list", key="forced_byes"))
        forced = []
    nums = [t["table"] for t in good]
    if nums != sorted(nums):
        out.append(msg("check.tables_unordered"))
    if len(set(nums)) != len(nums):
        out.append(msg("check.table_repeated"))
    return good, bye, forced


def _coverage(expected: list, tables, bye, forced, out) -> None:
    """Every expected pair exactly once among seats, bye and forced byes; nobody else."""
    expected_set = set(expected)
    count: dict = {}
    for t in tables:
        if t["ns"] is not None and t["ns"] == t["ew"]:
            out.append(msg("check.plays_itself", table=t["table"], pair=t["ns"]))
        for seat in ("ns", "ew"):
            if t[seat] is not None:
                count[t[seat]] = count.get(t[seat], 0) + 1
    # A forced rest (Mitchell with an absent opponent) is shown at a half-empty table *and*
    # listed in forced_byes: count it once, at the table.
    alone = {t["ns"] if t["ew"] is None else t["ew"] for t in tables
             if (t["ns"] is None) != (t["ew"] is None)}
    for p in ([bye] if bye is not None else []) + [p for p in forced if p not in alone]:
        count[p] = count.get(p, 0) + 1
    for p in alone - set(forced):
        out.append(msg("check.alone_not_forced", pair=p))
    for p, c in count.items():
        if p not in expected_set:
            out.append(msg("check.unknown_pair", pair=p))
        elif c > 1:
            out.append(msg("check.pair_repeated", pair=p, count=c))
    for p in expected:
        if p not in count:
            out.append(msg("check.pair_missing", pair=p))


def _numbered_from_one(tables, out) -> None:
    nums = [t["table"] for t in tables]
    if sorted(nums) != list(range(1, len(nums) + 1)):
        out.append(msg("check.numbering"))


def _full_tables(tables, out) -> None:
    for t in tables:
        if t["ns"] is None or t["ew"] is None:
            out.append(msg("check.line_missing", table=t["table"]))


# -- Mitchell ---------------------------------------------------------------------------------
def _check_mitchell(req, request, response, tables, bye, forced, out) -> None:
    pairs, absent = req["pairs"], req["absent"]
    present = [p for p in pairs if p not in absent]
    _coverage(present, tables, bye, forced, out)
    n = len(pairs)
    t_count = (n + 1) // 2
    # The movement, recomputed from pairing-io.md's formula (offset = the moves so far).
    if n % 2 == 0:
        ns_line, ew_line, phantom_table = pairs[:t_count], pairs[t_count:], None
    else:
        ns_line, ew_line, phantom_table = pairs[:t_count - 1], pairs[t_count - 1:], t_count
    shift = req["offset"] if req["offset"] is not None else (req["round"] - 1) * req["step"]
    seat_ew = {((i + shift) % t_count) + 1: p for i, p in enumerate(ew_line)}
    want_tables, want_bye, want_forced = {}, None, []
    for t in range(1, t_count + 1):
        ns = ns_line[t - 1] if t != phantom_table else None
        ew = seat_ew[t]
        ns_here = ns is not None and ns not in absent
        ew_here = ew not in absent
        if t == phantom_table:
            want_bye = ew if ew_here else None
        elif ns_here or ew_here:
            want_tables[t] = [ns if ns_here else None, ew if ew_here else None]
            if not (ns_here and ew_here):
                want_forced.append(ns if ns_here else ew)
    # Second rests (rules.md §5): each idle pair that rested, bye first then forced rests in
    # table order, swaps with the lowest-ranked playing pair that has not rested.
    want_adjust = []
    if req["rested"] is not None:
        rested = req["rested"]
        idle = ([("bye", want_bye)] if want_bye is not None else []) + [
            ("forced", p) for p in want_forced]
        for kind, x in idle:
            if x not in rested:
                continue
            full = {}
            for t, seats in want_tables.items():
                if None not in seats:
                    full[seats[0]] = (t, 0)
                    full[seats[1]] = (t, 1)
            sub = None
            for p in reversed(req["ranking"]):
                if p in full and p not in rested and p not in absent:
                    sub = p
                    break
            if sub is None:
                continue
            t, k = full[sub]
            want_tables[t][k] = x
            if kind == "bye":
                want_bye = sub
            else:
                for u, seats in want_tables.items():
                    if u != t and x in seats:
                        seats[seats.index(x)] = sub
                want_forced[want_forced.index(x)] = sub
            want_adjust.append({"rests": sub, "plays": x, "table": t,
                                "line": "ns" if k == 0 else "ew"})
    got = {t["table"]: (t["ns"], t["ew"]) for t in tables}
    for t in sorted(set(want_tables) | set(got)):
        want = tuple(want_tables[t]) if t in want_tables else None
        if t not in got:
            out.append(msg("check.mitchell_missing_table", table=t, **_seats("want", want)))
        elif want is None:
            out.append(msg("check.mitchell_extra_table", table=t))
        elif got[t] != want:
            out.append(msg("check.mitchell_table", table=t, **_seats("want", want), **_seats("got", got[t])))
    if bye != want_bye:
        out.append(msg("check.mitchell_bye", want=want_bye, got=bye))
    if set(forced) != set(want_forced):
        out.append(msg("check.mitchell_forced", want=str(sorted(map(str, want_forced))),
                       got=str(sorted(map(str, forced)))))
    given = response.get("adjustments", [])
    if given != want_adjust and (given or want_adjust):
        out.append(msg("check.mitchell_adjustments", want=_adjust_text(want_adjust), got=_adjust_text(given)))
    for p, q in second_rests(request, response):
        out.append(msg("check.second_rest", pair=p, other=q))
    _check_listed_repeats(request, response, out)


# -- Round robin ------------------------------------------------------------------------------
def _check_round_robin(req, request, response, tables, bye, forced, out) -> None:
    """The response must be the circle schedule (pairing-io.md "Round robin", rules.md §14)."""
    present = [p for g in req["groups"] for p in g if p not in req["absent"]]
    single = [bye] if bye is not None else []
    byes = response.get("byes", single) if req["grouped"] else single
    if not isinstance(byes, list):
        out.append(msg("check.not_a_list", key="byes"))
        byes = []
    extra_byes = [p for p in byes if p != bye]
    _coverage(present, tables, bye, list(forced) + extra_byes, out)
    want = _round_robin.expected(req)
    got = {t["table"]: (t["ns"], t["ew"]) for t in tables}
    want_tables = {t["table"]: (t["ns"], t["ew"]) for t in want["tables"]}
    for t in sorted(set(want_tables) | set(got)):
        if t not in got:
            out.append(msg("check.rr_missing_table", table=t, **_seats("want", want_tables[t])))
        elif t not in want_tables:
            out.append(msg("check.rr_extra_table", table=t))
        elif got[t] != want_tables[t]:
            out.append(msg("check.rr_table", table=t, **_seats("want", want_tables[t]), **_seats("got", got[t])))
    if bye != want["bye"]:
        out.append(msg("check.rr_bye", want=want["bye"], got=bye))
    if req["grouped"] and byes != want["byes"]:
        out.append(msg("check.rr_byes", want=str(want["byes"]), got=str(byes)))
    if set(forced) != set(want["forced_byes"]):
        out.append(msg("check.rr_forced", want=str(sorted(map(str, want["forced_byes"]))),
                       got=str(sorted(map(str, forced)))))
    if req["grouped"] and "groups" in response and response["groups"] != want["groups"]:
        out.append(msg("check.rr_groups"))
    # Exactness already rules out a meeting repeated within one cycle (the circle method
    # pairs every two entrants once per cycle); meetings from earlier rounds (another
    # system, an earlier cycle) must be listed in ``rematches``.
    _check_listed_repeats(request, response, out)


def _adjust_text(adjustments) -> str:
    """Exchanges as numbers only, "4 → 5 (2)": who rests → who plays instead (table); the
    message's words say so in the reader's language (issue 14 item 8). "—" for none."""
    if not isinstance(adjustments, list) or not adjustments:
        return "—"
    parts = []
    for a in adjustments:
        if isinstance(a, dict):
            parts.append(f"{a.get('rests')} → {a.get('plays')} ({a.get('table')})")
        else:
            parts.append(repr(a))
    return "; ".join(parts)


def _seats(prefix: str, pair_) -> dict:
    """A table's two lines as message parameters ``<prefix>_ns`` / ``<prefix>_ew`` ("—" for an
    empty seat): the message's own words name the lines, in the reader's language."""
    ns, ew = pair_
    return {f"{prefix}_ns": "—" if ns is None else ns, f"{prefix}_ew": "—" if ew is None else ew}


# -- Danish -----------------------------------------------------------------------------------
def _check_danish(req, response, tables, bye, forced, out) -> None:
    ranking, index = req["ranking"], req["index"]
    n = len(ranking)
    _coverage(ranking, tables, bye, forced, out)
    _numbered_from_one(tables, out)
    _full_tables(tables, out)
    if forced:
        out.append(msg("check.danish_forced"))
    if out:
        return  # the finer checks assume a well-formed pairing
    forb = _danish.forbidden_sets(req)

    # Seating (rules.md §7): table order by best-ranked pair, better-ranked pair N/S.
    ranks = []
    for t in tables:
        a, b = index[t["ns"]], index[t["ew"]]
        if a > b:
            out.append(msg("check.better_ns", table=t["table"], pair=t["ew"]))
        ranks.append((min(a, b), max(a, b)))
    if [r[0] for r in ranks] != sorted(r[0] for r in ranks):
        out.append(msg("check.table_order"))

    # Rematches: exactly those listed, warned, and no more than unavoidable.
    played = [(a, b) for a, b in ranks if b in forb[a]]
    listed = response.get("rematches", [])
    listed_set = {frozenset(x) for x in listed if isinstance(x, list) and len(x) == 2}
    played_set = {frozenset((ranking[a], ranking[b])) for a, b in played}
    if listed_set != played_set or len(listed) != len(played):
        out.append(msg("check.rematches_listed"))
    if played and not response.get("warnings"):
        out.append(msg("check.rematch_no_warning"))
    rest = [i for i in range(n) if ranking[i] != bye]
    k_min = min_unmatched(rest, forb, n) // 2
    if len(played) > k_min:
        names = ", ".join(f"{ranking[a]}–{ranking[b]}" for a, b in played)
        out.append(msg("check.avoidable_rematch", names=names, k=k_min))
        return

    # Bye (rules.md §5, art. 33).
    if n % 2 == 0:
        if bye is not None:
            out.append(msg("check.even_bye", pair=bye))
    elif bye is None:
        out.append(msg("check.odd_no_bye"))
    else:
        _check_bye(req, forb, index[bye], k_min, out)

    # Top-down (pairing-io.md step 2): every better opponent must have been impossible.
    violation = top_down_violation(
        ranks, rest, forb, n, len(played),
        lambda k, a, q: msg("check.top_down", table=tables[k]["table"], pair=ranking[a], other=ranking[q]))
    if violation is not None:
        out.append(violation)


def _check_bye(req, forb, b: int, k_min: int, out) -> None:
    ranking, index = req["ranking"], req["index"]
    n = len(ranking)
    rested = {index[p] for p in req["rested"]}
    candidates = [i for i in range(n) if i not in rested]
    if not candidates:
        if b != n - 1:
            out.append(msg("check.all_rested", want=ranking[-1], got=ranking[b]))
        return
    if b in rested:
        out.append(msg("check.rested_already", pair=ranking[b]))
        return

    def k_without(x):
        return min_unmatched([i for i in range(n) if i != x], forb, n) // 2

    for x in candidates:
        if x > b and k_without(x) <= k_min:
            out.append(msg("check.bye_belongs", want=ranking[x], got=ranking[b]))
            return
        if x < b and k_min > 0 and k_without(x) < k_min:
            out.append(msg("check.bye_avoids_rematch", pair=ranking[x]))
            return


# -- first round ---------------------------------------------------------------------------------
def _check_first_round(request, response, tables, bye, forced, out) -> None:
    pairs = request["pairs"]
    _coverage(pairs, tables, bye, forced, out)
    _numbered_from_one(tables, out)
    _full_tables(tables, out)
    method = request["method"]
    if method == "lot":
        seed = response.get("seed")
        if "seed" in request and request["seed"] is not None and seed != request["seed"]:
            out.append(msg("check.lot_seed_differs"))
        if not isinstance(seed, int) or isinstance(seed, bool):
            out.append(msg("check.lot_no_seed"))
            return
        order = _first.draw(pairs, seed)
    elif method == "number":
        order = list(pairs)
    else:
        want = sorted(((t["table"], t["ns"], t["ew"]) for t in request["tables"]))
        got = [(t["table"], t["ns"], t["ew"]) for t in tables]
        if got != want or bye != request.get("bye"):
            out.append(msg("check.hand_tables"))
        return
    want = [(k + 1, order[2 * k], order[2 * k + 1]) for k in range(len(order) // 2)]
    got = [(t["table"], t["ns"], t["ew"]) for t in tables]
    want_bye = order[-1] if len(order) % 2 else None
    if got != want or bye != want_bye:
        out.append(msg("check.lot_order" if method == "lot" else "check.number_order"))


# -- command line ----------------------------------------------------------------------------------
def main(argv=None) -> int:
    """``python -m pairing.check REQUEST.json RESPONSE.json``: print violations, exit 0/1."""
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 2:
        sys.stderr.write("uso: python -m pairing.check REQUEST.json RESPONSE.json\n")
        return 2
    try:
        with open(argv[0], encoding="utf-8") as f:
            request = json.load(f)
        with open(argv[1], encoding="utf-8") as f:
            response = json.load(f)
    except (OSError, json.JSONDecodeError) as exc:
        sys.stderr.write(json.dumps({"error": str(exc)}, ensure_ascii=False) + "\n")
        return 2
    violations = check(request, response)
    for v in violations:
        print(v)
    if isinstance(request, dict):
        from .individual import information  # repeated opponents (rules.md §9): information only

        for line in information(request, response):
            print(f"informazione: {line}")
    return 1 if violations else 0

