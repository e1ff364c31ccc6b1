"""Registry of the engines for individual tournaments (rules.md §9), used by :func:`pairing.run`.

Kept apart from the pair engines' table in ``pairing/__init__.py`` so that systems for pairs
and for individuals can grow independently.
"""

from __future__ import annotations

from . import danish_individual, first_round_individual, individual_movement

__all__ = ["engines"]


def engines() -> dict:
    """``{system name: pair function}`` for an individual tournament's request."""
    return {"danish-individual": danish_individual.pair,
            "individual-movement": individual_movement.pair,
            "first_round": first_round_individual.pair}
