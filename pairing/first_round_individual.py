"""First round of an individual tournament: by lot, by number, or by hand (rules.md §9).

Reached through the pair system's name with a flag, so that the caller builds one request
shape for both kinds::

    {"system": "first_round", "kind": "individual",
     "method": "lot" | "number" | "hand",
     "players": [ids in player-number order],
     "seed": 12345,                                           # lot only, optional
     "tables": [{"table": 1, "ns": [a, b], "ew": [c, d]}],    # hand only
     "rest": [ids]}                                           # hand only

- ``number``: players 1+2 (N/S) v 3+4 (E/W) at table 1, 5+6 v 7+8 at table 2, …; the
  ``N mod 4`` highest numbers rest (rules.md §9).
- ``lot``: the players are shuffled with ``random.Random(seed)`` and seated as by number in
  drawn order (the last ``N mod 4`` drawn rest). Without a seed one is drawn; the response
  always carries ``"seed"``.
- ``hand``: the arbiter's tables are validated (every player exactly once, tables numbered
  1..t without gaps, at most 3 resting players: with everyone placed that is ``N mod 4``).

Response as for ``danish-individual``: ``{"tables", "rest", "repeated_partners": [],
"warnings": [], "method"}`` plus ``"seed"`` for lot.
"""

from __future__ import annotations

from .danish_individual import MIN_PLAYERS, player_list
from .errors import refusal
from .first_round import draw, lot_seed, method_of
from .request import check_request_dict, hand_tables, id_taker

__all__ = ["pair", "seat_in_order"]


def seat_in_order(order: list) -> tuple[list, list]:
    """``(tables, rest)`` seating ``order`` four by four: 1+2 v 3+4, …; the last N mod 4 rest."""
    full = len(order) - len(order) % 4
    tables = [{"table": t + 1, "ns": [order[4 * t], order[4 * t + 1]],
               "ew": [order[4 * t + 2], order[4 * t + 3]]} for t in range(full // 4)]
    return tables, list(order[full:])


def _hand(request: dict, players: list) -> tuple[list, list]:
    seen: set = set()
    take = id_taker(set(players), seen, invalid="pairing.hand_bad_player_id", unknown="pairing.hand_unknown_player",
                    twice="pairing.hand_player_twice")

    def take_line(num, line):
        if not isinstance(line, list) or len(line) != 2:
            raise refusal("pairing.hand_line_two_players", table=num, value=repr(line))
        for p in line:
            take(p)
        return list(line)

    tables = hand_tables(request, take_line)
    rest = request.get("rest") or []
    if not isinstance(rest, list):
        raise refusal("pairing.not_player_list", key="rest")
    for p in rest:
        take(p)
    missing = [p for p in players if p not in seen]
    if missing:
        raise refusal("pairing.hand_players_unseated", players=", ".join(map(str, missing)))
    if len(rest) > 3:
        raise refusal("pairing.hand_too_many_rest", count=len(rest))
    return tables, list(rest)


def pair(request: dict) -> dict:
    """Pair the first round of an individual tournament (or of a session).

    Args:
        request: see the module docstring.
    Returns:
        ``{"tables": [{"table", "ns": [a, b], "ew": [c, d]}...], "rest": [ids],
        "repeated_partners": [], "warnings": [], "method"}`` plus ``"seed"`` for lot.
    Raises:
        PairingError: unknown method, fewer than 4 players, a player listed twice, bad seed,
            or (by hand) a player missing, unknown or seated twice, a line without exactly
            two players, more than 3 resting, bad table numbers.

    Source: rules.md §9 ("First round: by lot (seed), by number ..., or by hand").
    """
    check_request_dict(request)
    method = method_of(request)
    players = player_list(request, "players", min_len=MIN_PLAYERS)
    response: dict = {"method": method}
    if method == "lot":
        seed = lot_seed(request)
        tables, rest = seat_in_order(draw(players, seed))
        response["seed"] = seed
    elif method == "number":
        tables, rest = seat_in_order(players)
    else:
        tables, rest = _hand(request, players)
    response.update({"tables": tables, "rest": rest, "repeated_partners": [],
                     "warnings": []})
    return response
