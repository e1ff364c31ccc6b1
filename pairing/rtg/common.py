"""What every random tournament generator shares (:mod:`pairing.rtg.pairs` for pairs,
:mod:`pairing.rtg.individual` for individuals): the driver loop, the engine's answer as the
command line returns it, the checker's verdict, a random table result. It knows no kind."""
from __future__ import annotations

import json
import random

from .. import PairingError, run
from ..check import check

__all__ = ["answer", "checked", "random_result", "rounds"]


def rounds(planned, rnd: random.Random, ids: list, withdrawn: list, *, withdrawals: bool, keep: int):
    """The driver loop of a random tournament, shared by every kind.

    Yields ``(planned_round, new_session, active)`` for each round of ``planned``
    (:class:`pairing.plan.PlannedRound`): ``new_session`` when the round opens a session
    after the first (the rest rule resets), ``active`` the entrants of ``ids`` not in
    ``withdrawn``. From round 2 on, about one round in six (``rnd``), while more than
    ``keep`` are active, one active entrant withdraws first (appended to ``withdrawn``)."""
    session = planned[0].session if planned else 1
    for planned_round in planned:
        new_session = planned_round.session != session
        session = planned_round.session
        active = [p for p in ids if p not in withdrawn]
        if withdrawals and planned_round.number > 1 and len(active) > keep and rnd.random() < 0.17:
            gone = rnd.choice(active)
            withdrawn.append(gone)
            active.remove(gone)
        yield planned_round, new_session, active


def answer(seed: int, r: int, request: dict) -> dict:
    """:func:`pairing.run` on ``request``, as the command line would return it (a JSON round
    trip). Raises ``PairingError`` naming the seed and round ``r`` when the engine refuses."""
    try:
        response = run(request)
    except PairingError as exc:
        raise PairingError(f"seed {seed}, round {r}: {exc}") from exc
    return json.loads(json.dumps(response))


def checked(r: int, letter: str, request: dict, response: dict) -> list[str]:
    """The checker's violations of round ``r`` (plan letter ``letter``), each prefixed
    ``"turno r (X): "``."""
    return [f"turno {r} ({letter}): {v}" for v in check(request, response)]


def random_result(rnd: random.Random) -> tuple[int, int]:
    """A table's random result: the N/S MP difference ``d`` (a multiple of 5, |d| ≤ 1500)
    and the N/S VP of a 20-VP split, 10 + d div 100 clamped to 0..20."""
    d = 5 * rnd.randint(-300, 300)
    return d, max(0, min(20, 10 + d // 100))
