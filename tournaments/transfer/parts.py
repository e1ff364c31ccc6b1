"""Parts of a tournament file that apps above ``tournaments`` add (the bookings, rules.md
§21), so a move between two databases or a backup carries them without this package
importing those apps.

An app registers ``export(tournament) -> list`` and ``load(tournament, rows)`` under a key
of the file (its ``AppConfig.ready``). The export writes the key only when the list is not
empty, so a tournament without such data exports to the same bytes as before; ``load``
runs inside the import's transaction and raises ``ArbiterError`` (with a sentence) for a
bad row, which refuses the whole import.
"""
from __future__ import annotations

from typing import Callable

PARTS: dict[str, tuple[Callable, Callable]] = {}


def register_part(name: str, *, export: Callable, load: Callable) -> None:
    """Add the file key ``name``, written by ``export`` and read back by ``load``."""
    PARTS[name] = (export, load)
