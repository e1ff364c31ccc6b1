"""Who may open a tournament (rules.md §20): the one place every arbiter page, download and
JSON endpoint looks a tournament up (``views.common.arbiter_view`` fetches the URL's slug
among :func:`tournaments_of`; the home page, the championships' candidates, the prizes'
sources and the export list read it too)."""
from __future__ import annotations

from django.db.models import Exists, OuterRef, Q

from clubs import access as club_access

from ..models import Tournament


def tournaments_of(user):
    """The tournaments ``user`` may open and change, all of clubs he works for
    (``clubs.access.works_in_q``): those he directs (``Tournament.arbiters``), and every
    tournament of the clubs he manages; every tournament for a superuser; none when
    anonymous or inactive, and none for the federation role alone (it reads through its own
    view, never through the arbiter's pages). One query, no duplicates."""
    if user is None or not getattr(user, "is_authenticated", False) or not user.is_active:
        return Tournament.objects.none()
    if user.is_superuser:
        return Tournament.objects.all()
    directed = Exists(Tournament.arbiters.through.objects.filter(tournament_id=OuterRef("pk"), user_id=user.pk))
    return Tournament.objects.filter(club_access.works_in_q(user)).filter(
        Q(directed) | club_access.manages_q(user))


def listed_tournaments_of(user):
    """:func:`tournaments_of` for a page that lists them (the home page, the export list):
    the same rows, first narrowed to the clubs ``user`` works for, read in one small query
    (``clubs.access.clubs_of``) so that the database reads them by the tournaments' club
    index: the role conditions alone are tested on every tournament of the server (300 clubs,
    6,000 tournaments: 61 ms a home page; bench/federation.py). A superuser's list is every
    tournament, as before."""
    found = tournaments_of(user)
    if getattr(user, "is_superuser", False):
        return found
    return found.filter(club_id__in=list(club_access.clubs_of(user).values_list("pk", flat=True)))


def directs(user, tournament: Tournament) -> bool:
    """Whether ``user`` may open and change ``tournament`` (:func:`tournaments_of`)."""
    return tournaments_of(user).filter(pk=tournament.pk).exists()
