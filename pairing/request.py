"""Validation helpers shared by the pairing systems (pairing-io.md, "Request")."""

from __future__ import annotations

from .errors import refusal


def check_request_dict(request) -> dict:
    """Return ``request`` if it is a dict, else raise :class:`PairingError`."""
    if not isinstance(request, dict):
        raise refusal("pairing.request_not_object")
    return request


def is_pair_id(value) -> bool:
    """Pair identifiers are strings or integers, used as given (booleans are not ids)."""
    return isinstance(value, (str, int)) and not isinstance(value, bool)


#: The refusals of a list of ids: (not a list, a bad id, an id twice and its parameter's name,
#: too few), for pairs and for players (individual tournaments).
_LIST_REFUSALS = {
    "pairs": ("pairing.not_pair_list", "pairing.bad_pair_id", "pairing.pair_listed_twice", "pair",
              "pairing.too_few_pairs"),
    "players": ("pairing.not_player_list", "pairing.bad_player_id", "pairing.player_listed_twice", "player",
                "pairing.too_few_players"),
}


def pair_list(request: dict, key: str, *, required: bool = True, min_len: int = 0, of: str = "pairs") -> list:
    """The list of pair ids under ``key``, checked for type and duplicates (``of="players"``:
    player ids, the refusals naming players).

    Raises:
        PairingError: missing (when required), not a list, a non-id item, an id listed twice,
            or fewer than ``min_len`` items.
    """
    not_list, bad_id, twice, noun, too_few = _LIST_REFUSALS[of]
    if key not in request:
        if required:
            raise refusal("pairing.missing_field", key=key)
        return []
    value = request[key]
    if not isinstance(value, list):
        raise refusal(not_list, key=key)
    seen = set()
    for item in value:
        if not is_pair_id(item):
            raise refusal(bad_id, key=key, value=repr(item))
        if item in seen:
            raise refusal(twice, key=key, **{noun: item})
        seen.add(item)
    if len(value) < min_len:
        raise refusal(too_few, key=key, count=min_len)
    return list(value)


def id_set(request: dict, key: str) -> set:
    """A list of pair ids under ``key`` taken as a set; duplicates are tolerated."""
    value = request.get(key, [])
    if value is None:
        return set()
    if not isinstance(value, list) or not all(is_pair_id(x) for x in value):
        raise refusal("pairing.not_pair_list", key=key)
    return set(value)


def positive_int(request: dict, key: str, default: int | None = None) -> int:
    """An integer ≥ 1 under ``key`` (``default`` when absent and not None)."""
    if key not in request or request[key] is None:
        if default is None:
            raise refusal("pairing.missing_field", key=key)
        return default
    value = request[key]
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise refusal("pairing.not_positive_int", key=key, value=repr(value))
    return value


def meetings(request: dict, key: str) -> list[tuple]:
    """Meetings ``[a, b]`` or ``[a, b, round]`` under ``key`` as ``(a, b, round|None)``.

    Raises:
        PairingError: an entry that is not a 2- or 3-item list of two distinct ids and an
            optional round number ≥ 1.
    """
    value = request.get(key, [])
    if value is None:
        return []
    if not isinstance(value, list):
        raise refusal("pairing.not_meeting_list", key=key)
    out = []
    for entry in value:
        if not isinstance(entry, (list, tuple)) or len(entry) not in (2, 3):
            raise refusal("pairing.bad_meeting", key=key, value=repr(entry))
        a, b = entry[0], entry[1]
        if not (is_pair_id(a) and is_pair_id(b)) or a == b:
            raise refusal("pairing.bad_meeting", key=key, value=repr(entry))
        rnd = entry[2] if len(entry) == 3 else None
        if rnd is not None and (not isinstance(rnd, int) or isinstance(rnd, bool) or rnd < 1):
            raise refusal("pairing.bad_meeting_round", key=key, value=repr(entry))
        out.append((a, b, rnd))
    return out


def id_taker(known: set, seen: set, *, invalid: str, unknown: str, twice: str):
    """A function that checks one id of a by-hand draw and records it in ``seen``.

    ``invalid``, ``unknown`` and ``twice`` are the refusal codes (:data:`pairing.messages.TEMPLATES`,
    filled with ``value``: the id, its ``repr`` for ``invalid``) for an id that is not a
    string/integer, not in ``known``, or already in ``seen``.
    Raises (from the returned function): PairingError with that refusal.
    """
    def take(value):
        if not is_pair_id(value):
            raise refusal(invalid, value=repr(value))
        if value not in known:
            raise refusal(unknown, value=value)
        if value in seen:
            raise refusal(twice, value=value)
        seen.add(value)
    return take


def hand_tables(request: dict, take_line) -> list[dict]:
    """The arbiter's tables of a round drawn by hand, ``request["tables"]``.

    Args:
        request: holds ``"tables"``: a list of ``{"table": n, "ns": line, "ew": line}``.
        take_line: ``take_line(n, line)`` checks one line of table ``n`` and returns the
            value to keep (a pair id, or a list of two player ids).
    Returns:
        the tables ``{"table", "ns", "ew"}`` sorted by number.
    Raises:
        PairingError: not a list, a malformed table or number, what ``take_line`` raises,
            or tables not numbered 1…n without gaps or doubles.
    """
    raw = request.get("tables")
    if not isinstance(raw, list):
        raise refusal("pairing.tables_not_list")
    tables = []
    for t in raw:
        if not isinstance(t, dict) or not {"table", "ns", "ew"} <= set(t):
            raise refusal("pairing.bad_table", value=repr(t))
        num = t["table"]
        if not isinstance(num, int) or isinstance(num, bool) or num < 1:
            raise refusal("pairing.bad_table_number", value=repr(num))
        tables.append({"table": num, "ns": take_line(num, t["ns"]), "ew": take_line(num, t["ew"])})
    tables.sort(key=lambda t: t["table"])
    if [t["table"] for t in tables] != list(range(1, len(tables) + 1)):
        raise refusal("pairing.table_numbering")
    return tables
