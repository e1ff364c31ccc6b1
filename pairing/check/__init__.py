"""Checker: list the rule violations of a pairing response.

``check(request, response)`` re-derives what the rules demand from the request and compares;
it does not call the engines' pairing code (the Danish checks only share the from-scratch
maximum-matching primitive, which the tests compare with networkx). Messages are
:class:`pairing.messages.Message` strings: the Italian text, with a code and parameters so the
application shows them in the reader's language.

This module only dispatches; the checks live beside it:

- :mod:`.common`, for every pair system: the response shape; every pair exactly once (tables,
  bye, forced byes); unknown pairs; a pair playing itself; table numbering; second rests and
  unlisted repeated meetings; :func:`repeated_meetings` and :func:`second_rests` (any system,
  whatever the rematch setting, for the arbiter's report and the RTG).
- :mod:`.mitchell` (rules.md §5, §6), :mod:`.danish` (rules.md §5, §7, art. 33),
  :mod:`.round_robin` (rules.md §14), :mod:`.first_round` (lot, number, hand): one module per
  system, each with ``parse(request)`` (the engine's own reading, which refuses a bad request)
  and ``judge(...)``.
- :mod:`.groups`: Danish and Mitchell in groups (rules.md §19): no table across groups, tables
  group after group, one rest per group, each group checked on its own with :func:`check`.
- :mod:`.individual`: individual tournaments (rules.md §9; ``danish-individual``,
  ``individual-movement``, ``first_round`` with ``"kind": "individual"``) and the repeated
  opponents reported as information.

The per-system modules import :mod:`.common`, never this module nor each other.

Command line: ``python -m pairing.check REQUEST.json RESPONSE.json`` prints one violation a
line; exit status 0 when there are none, 1 otherwise (2 when a file cannot be read).
"""

from __future__ import annotations

import json
import sys

from ..errors import PairingError
from ..messages import Message, msg  # noqa: F401  (Message: for callers building one)
from ..top_down import top_down_violation
from . import danish, first_round, individual, mitchell, round_robin
from .common import bad_request, repeated_meetings, second_rests, shape
from .groups import check_grouped

__all__ = ["check", "repeated_meetings", "second_rests", "top_down_violation", "main"]

#: The pair systems, each judged by its module's ``parse`` and ``judge``.
_PAIR_SYSTEMS = {"mitchell": mitchell, "danish": danish, "first_round": first_round,
                 "round-robin": round_robin}
#: Individual systems (rules.md §9); an individual first round is "first_round" + "kind".
_INDIVIDUAL_SYSTEMS = ("danish-individual", "individual-movement")


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
    if system in _INDIVIDUAL_SYSTEMS or request.get("kind") == "individual":
        return individual.check(request, response)
    if system in ("danish", "mitchell") and "groups" in request:  # rules.md §19
        return check_grouped(request, response, check)
    module = _PAIR_SYSTEMS.get(system) if isinstance(system, str) else None
    if module is None:
        return [msg("check.unknown_system", system=repr(system))]
    try:
        parsed = module.parse(request)
    except PairingError as exc:
        return [bad_request(exc)]
    out: list[str] = []
    shaped = shape(response, out)
    if shaped is None:
        return out
    tables, bye, forced = shaped
    module.judge(parsed, request, response, tables, bye, forced, out)
    return out


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
        for line in individual.information(request, response):  # repeated opponents, §9
            print(f"informazione: {line}")
    return 1 if violations else 0

