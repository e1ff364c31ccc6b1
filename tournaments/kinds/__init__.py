"""Tournament kinds behind one protocol (:class:`.base.Kind`): pairs, individual, teams.

``kind_of(tournament)`` chooses the kind once from ``Tournament.kind``; callers ask it what
differs (the entrants, the pairing request, the tables, the standings, the names, the
sentences) instead of testing the kind. The kind modules do not import each other except
through the pairs' shared helpers; they sit between the services and the selectors."""
from __future__ import annotations

from .base import Kind
from .individual import INDIVIDUAL
from .pairs import PAIRS
from .teams import TEAMS

__all__ = ["Kind", "KINDS", "kind_named", "kind_of"]

#: ``Tournament.Kind`` value → its kind
KINDS: dict[str, Kind] = {k.name: k for k in (PAIRS, INDIVIDUAL, TEAMS)}


def kind_of(tournament) -> Kind:
    """The kind of ``tournament`` (anything with a ``kind`` attribute holding a
    ``Tournament.Kind`` value). Raises ``ValueError`` for an unknown kind."""
    return kind_named(tournament.kind)


def kind_named(name: str) -> Kind:
    """The kind whose ``Tournament.Kind`` value is ``name`` (a tournament not yet created, a
    file's header). Raises ``ValueError`` for an unknown kind."""
    try:
        return KINDS[name]
    except KeyError:
        raise ValueError(f"unknown tournament kind: {name!r}") from None
