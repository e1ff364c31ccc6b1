"""The header's club selector (rules.md §20): shown only to an account working for more
than one club; with one club on the server no page shows a club."""
from __future__ import annotations

from .access import MANAGER, clubs_of, current_club, one_club
from .models import Club


def _managed(user) -> list[Club]:
    """The clubs whose arbiters' page the header links: those where ``user`` has the
    *manager* role; a superuser's every club only with several clubs on the server (a
    laptop's pages stay as they were)."""
    if user.is_superuser and not one_club():
        return list(Club.objects.order_by("name", "id")[:50])
    return list(Club.objects.filter(roles__user=user, roles__role=MANAGER).order_by("name", "id")[:50])


def clubs(request) -> dict:
    """``club_choices``: the clubs of the logged-in account when more than one (else empty:
    nothing is shown); ``current_club``: the one it works in now (None then);
    ``managed_clubs``: :func:`_managed`."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {"club_choices": [], "current_club": None, "managed_clubs": []}
    choices = list(clubs_of(user).order_by("name", "id")[:200])
    if len(choices) < 2:
        return {"club_choices": [], "current_club": None, "managed_clubs": _managed(user)}
    return {"club_choices": choices, "current_club": current_club(request), "managed_clubs": _managed(user)}
