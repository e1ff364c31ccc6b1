"""A player as typed on a form or read from a registration file (below the services, so the
file readers and the tournament kinds use it without importing the services)."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class PlayerData:
    """A player as typed or imported: names trimmed by the caller."""

    first_name: str
    last_name: str
    membership_number: str = ""
    club: str = ""
