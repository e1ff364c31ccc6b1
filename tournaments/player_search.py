"""The players' search of the public page: an entrant by number or by name."""
from __future__ import annotations

from django.db.models import Q

from .models import Pair, Player, Team, Tournament
from .text import clean_note


def search(tournament: Tournament, query: str) -> list[tuple[int, str]]:
    """Entrants whose number is ``query`` or whose players' surname or name (or the team's
    name) contains it (case-insensitive): ``[(number, names)]``, at most 20, by number."""
    # a NUL (PostgreSQL refuses it in a query: a 500) and other control characters removed
    query = clean_note(query or "", max_length=60)
    if not query:
        return []
    digits = query.isdecimal()
    if tournament.is_individual:
        rows = Player.objects.filter(tournament=tournament, number__isnull=False)
        rows = rows.filter(number=int(query)) if digits else rows.filter(
            Q(last_name__icontains=query) | Q(first_name__icontains=query))
        return [(p.number, p.display_name) for p in rows.order_by("number")[:20]]
    if tournament.is_teams:
        rows = Team.objects.filter(tournament=tournament)
        rows = rows.filter(number=int(query)) if digits else rows.filter(
            Q(name__icontains=query) | Q(members__last_name__icontains=query)).distinct()
        return [(t.number, t.name) for t in rows.order_by("number")[:20]]
    rows = Pair.objects.filter(tournament=tournament, round__isnull=True)
    rows = rows.filter(number=int(query)) if digits else rows.filter(
        Q(members__last_name__icontains=query) | Q(members__first_name__icontains=query)).distinct()
    return [(p.number, p.full_name) for p in rows.order_by("number").prefetch_related("members")[:20]]
