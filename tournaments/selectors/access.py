"""Who may open a tournament: the arbiters it names, every tournament for a superuser."""
from __future__ import annotations

from ..models import Tournament


def tournaments_of(user):
    """The tournaments ``user`` may open: those he directs
    (``Tournament.arbiters``), every tournament for a superuser, none when anonymous."""
    if user is None or not getattr(user, "is_authenticated", False) or not user.is_active:
        return Tournament.objects.none()
    if user.is_superuser:
        return Tournament.objects.all()
    return Tournament.objects.filter(arbiters=user)


def directs(user, tournament: Tournament) -> bool:
    """Whether ``user`` may open and change ``tournament`` (one of its arbiters, or a superuser)."""
    return tournaments_of(user).filter(pk=tournament.pk).exists()
