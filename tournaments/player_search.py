"""The players' search of the public page: an entrant by number or by name."""
from __future__ import annotations

from .kinds import kind_of
from .models import Tournament
from .text import clean_note


def search(tournament: Tournament, query: str) -> list[tuple[int, str]]:
    """Entrants whose number is ``query`` or whose players' surname or name (or the team's
    name) contains it (case-insensitive): ``[(number, names)]``, at most 20, by number."""
    # a NUL (PostgreSQL refuses it in a query: a 500) and other control characters removed
    query = clean_note(query or "", max_length=60)
    if not query:
        return []
    return kind_of(tournament).search(tournament, query, query.isdecimal())
