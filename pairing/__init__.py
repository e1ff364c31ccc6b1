"""Pairing engines for Burraco pair tournaments: pure Python, no Django.

Public API (request/response shapes: docs in pairing-io.md and each module):

- :func:`run` — pair one round from a request dict (``"system"``: ``"mitchell"``,
  ``"danish"``, ``"first_round"`` or ``"round-robin"`` for pairs; ``"danish-individual"``,
  ``"individual-movement"`` or ``"first_round"`` with ``"kind": "individual"`` for
  individual tournaments).
- ``"groups"`` on a ``"danish"`` or ``"mitchell"`` request pairs each group on its own
  (rules.md §19, :mod:`pairing.groups`; checked by :mod:`pairing.check.groups`).
- :class:`PairingError` — raised for malformed or impossible requests (Italian message).
- :func:`pairing.check.check` — list the rule violations of a response.
- :mod:`pairing.rtg` — random tournament generator used to test engines and checker.

Command line: ``python -m pairing < request.json`` and
``python -m pairing.check REQUEST.json RESPONSE.json``.
"""

from __future__ import annotations

from . import danish, first_round, mitchell, round_robin
from .errors import PairingError, refusal
from .individual import engines as individual_engines

__all__ = ["run", "PairingError", "SYSTEMS", "INDIVIDUAL_SYSTEMS"]

SYSTEMS = ("mitchell", "danish", "first_round", "round-robin")
# Individual tournaments (rules.md §9); the first round is "first_round" + "kind": "individual".
INDIVIDUAL_SYSTEMS = ("danish-individual", "individual-movement")


def run(request: dict) -> dict:
    """Pair one round.

    Args:
        request: a dict shaped as in pairing-io.md; ``request["system"]`` selects the engine:
            ``"mitchell"`` (:func:`pairing.mitchell.pair`), ``"danish"``
            (:func:`pairing.danish.pair`), ``"first_round"``
            (:func:`pairing.first_round.pair`; with ``"kind": "individual"``:
            :func:`pairing.first_round_individual.pair`), ``"round-robin"``
            (:func:`pairing.round_robin.pair`, rules.md §14), ``"danish-individual"``
            (:func:`pairing.danish_individual.pair`), ``"individual-movement"``
            (:func:`pairing.individual_movement.pair`).
    Returns:
        the response dict (``tables``, ``bye``, ``rematches``, ``warnings`` and the system's
        extra keys), JSON-serialisable.
    Raises:
        PairingError: the request is not a dict, the system is unknown, or the engine rejects
            the request.
    """
    if not isinstance(request, dict):
        raise refusal("pairing.request_not_object")
    system = request.get("system")
    engines = {"mitchell": mitchell.pair, "danish": danish.pair,
               "first_round": first_round.pair}
    engines.update(_round_robin_engines())
    kind = request.get("kind", "pairs")
    if kind not in ("pairs", "individual"):
        raise refusal("pairing.bad_kind", value=repr(kind))
    if kind == "individual" or system in INDIVIDUAL_SYSTEMS:
        engines = individual_engines()
    if system not in engines:
        raise refusal("pairing.unknown_system", system=repr(system),
                      allowed=", ".join(SYSTEMS + INDIVIDUAL_SYSTEMS))
    return engines[system](request)


def _round_robin_engines() -> dict:
    """The round robin (*girone all'italiana*, rules.md §14) under its system name."""
    return {"round-robin": round_robin.pair}
