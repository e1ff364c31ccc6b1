"""Checker of a pairs' first round (pairing-io.md "First round"; by lot, number or hand).

The draw reproduced from the seed; pair-number order; the arbiter's tables; with
``rested``/``met`` in the request, second rests and unlisted repeated meetings too.
"""

from __future__ import annotations

from .. import first_round as _first
from ..messages import msg
from .common import check_listed_repeats, check_second_rests, coverage, full_tables, numbered_from_one

__all__ = ["parse", "judge"]


def parse(request: dict) -> None:
    """Refuse what the engine refuses (:class:`pairing.PairingError`); nothing to keep."""
    _first.pair(dict(request, seed=request.get("seed", 0)))


def judge(req, request, response, tables, bye, forced, out) -> None:
    """Append to ``out`` the violations of a well-shaped response (``req`` unused: None)."""
    _check_draw(request, response, tables, bye, forced, out)
    check_second_rests(request, response, out)
    check_listed_repeats(request, response, out)


def _check_draw(request, response, tables, bye, forced, out) -> None:
    pairs = request["pairs"]
    coverage(pairs, tables, bye, forced, out)
    numbered_from_one(tables, out)
    full_tables(tables, out)
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
