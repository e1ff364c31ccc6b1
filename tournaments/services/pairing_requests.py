"""The pairing request of a round (pairing-io.md), asked of the tournament's kind
(:mod:`tournaments.kinds`; the pairs' request builders: ``kinds._pair_requests``)."""
from __future__ import annotations

from ..kinds import kind_of
from ..models import Tournament


def active_numbers(tournament: Tournament, round_number: int) -> list[int]:
    """Numbers of the entrants (pairs, players or teams) in play in round ``round_number``."""
    return kind_of(tournament).active_numbers(tournament, round_number)


def build_pairing_request(tournament: Tournament, number: int, *, seed: int | None = None) -> dict:
    """The JSON request (pairing-io.md) for round ``number`` of ``tournament``, built by its
    kind (:meth:`tournaments.kinds.base.Kind.pairing_request`; the pairs' rules:
    :func:`tournaments.kinds._pair_requests.build_pair_request`). Raises ``ArbiterError``
    when the kind cannot play the plan's letter."""
    return kind_of(tournament).pairing_request(tournament, number, seed=seed)
