"""First Danish round: by lot, by pair number, or by hand (rules.md §7).

Request::

    {"system": "first_round", "method": "lot" | "number" | "hand",
     "pairs": [ids in pair-number order],
     "seed": 12345,                                   # lot only, optional
     "tables": [{"table": 1, "ns": .., "ew": ..}],    # hand only
     "bye": id | null}                                # hand only

- ``lot``: the pairs are shuffled with ``random.Random(seed)`` and paired in drawn order
  (1st v 2nd at table 1, ...; with an odd count the last drawn pair rests). Without a seed
  one is drawn; the response always carries ``"seed"`` so the same draw can be replayed.
- ``number``: 1 v 2, 3 v 4, ... in the given pair-number order, the lower number N/S; with
  an odd count the last pair rests (the lowest-ranked pair in pair-number order, as
  art. 33 would choose). Chosen over the Mitchell order because it is the plain reading of
  "by pair number" and is what a Danish tournament without standings does.
- ``hand``: the arbiter's tables are validated (every pair exactly once, at most one bye,
  tables numbered 1..k without gaps) and returned sorted by table number.
"""

from __future__ import annotations

import random

from .errors import refusal
from .request import check_request_dict, hand_tables, id_taker, pair_list

__all__ = ["pair", "METHODS", "draw"]

METHODS = ("lot", "number", "hand")


def draw(pairs: list, seed: int) -> list:
    """The pairs in drawn order for ``seed`` (reproducible: same seed, same order)."""
    order = list(pairs)
    random.Random(seed).shuffle(order)
    return order


def method_of(request: dict) -> str:
    """The request's ``method``, one of :data:`METHODS` (pairing-io.md "First round").

    Raises:
        PairingError: any other value (``pairing.not_one_of``).
    """
    method = request.get("method")
    if method not in METHODS:
        raise refusal("pairing.not_one_of", key="method", allowed=", ".join(METHODS), value=repr(method))
    return method


def lot_seed(request: dict) -> int:
    """The seed of a draw by lot: the request's ``seed``, or one drawn now when it is absent
    or null (the response records it, so the draw can be repeated).

    Raises:
        PairingError: a seed that is not an integer (``pairing.bad_seed``).
    """
    seed = request.get("seed")
    if seed is None:
        seed = random.SystemRandom().randrange(2 ** 31)
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise refusal("pairing.bad_seed", value=repr(seed))
    return seed


def _in_order(order: list) -> tuple[list, object]:
    tables = [{"table": k + 1, "ns": order[2 * k], "ew": order[2 * k + 1]}
              for k in range(len(order) // 2)]
    return tables, (order[-1] if len(order) % 2 else None)


def _hand_tables(request: dict, pairs: list) -> tuple[list, object]:
    seen: set = set()
    take = id_taker(set(pairs), seen, invalid="pairing.hand_bad_pair_id", unknown="pairing.hand_unknown_pair",
                    twice="pairing.hand_pair_twice")

    def take_line(num, pair_id):
        take(pair_id)
        return pair_id

    tables = hand_tables(request, take_line)
    bye = request.get("bye")
    if bye is not None:
        take(bye)
    missing = [p for p in pairs if p not in seen]
    if missing:
        code = ("pairing.hand_pairs_unseated_one_rest" if len(missing) > 1 or bye is not None
                else "pairing.hand_pairs_unseated")
        raise refusal(code, pairs=", ".join(map(str, missing)))
    return tables, bye


def pair(request: dict) -> dict:
    """Pair the first round of a Danish session.

    Args:
        request: see the module docstring.
    Returns:
        ``{"tables", "bye", "rematches": [], "warnings": [], "method"}`` plus ``"seed"`` for
        ``lot``.
    Raises:
        PairingError: unknown method, fewer than 2 pairs, a pair listed twice, bad seed, or
            (by hand) a pair missing, unknown or seated twice, more than one bye, bad table
            numbers.

    Source: rules.md §7 ("The first round is paired by the arbiter's choice").
    """
    check_request_dict(request)
    method = method_of(request)
    pairs = pair_list(request, "pairs", min_len=2)
    response: dict = {"method": method}
    if method == "lot":
        seed = lot_seed(request)
        tables, bye = _in_order(draw(pairs, seed))
        response["seed"] = seed
    elif method == "number":
        tables, bye = _in_order(pairs)
    else:
        tables, bye = _hand_tables(request, pairs)
    response.update({"tables": tables, "bye": bye, "rematches": [], "warnings": []})
    return response
