"""Tournament kinds (:mod:`.base`): pairs, individual, teams, each a package.

A kind is a :class:`.base.Kind` (the pair tournament's behaviour, overridden where a kind
differs) holding its :class:`.base.KindData` (flags, names and texts, read as ``kind.data``).
``kind_of(tournament)`` chooses the kind once from ``Tournament.kind``; callers ask it what
differs instead of testing the kind. The kind packages do not import each other (they share
the private helpers of this package); they sit between the page reads and the selectors."""
from __future__ import annotations

from .base import Kind, KindData
from .individual import INDIVIDUAL
from .pairs import PAIRS
from .teams import TEAMS

__all__ = ["Kind", "KindData", "KINDS", "kind_named", "kind_of"]

#: ``Tournament.Kind`` value → its kind
KINDS: dict[str, Kind] = {k.data.name: k for k in (PAIRS, INDIVIDUAL, TEAMS)}


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
