"""The header's club selector (rules.md §20): shown only to an account working for more
than one club; with one club on the server no page shows a club. Also the header's link to
the federation's view, for the accounts that may read it. One query, and only on a
page whose template reads the values (the lazy objects below): a fragment such as the desk
calls' poll pays nothing."""
from __future__ import annotations

from django.db.models import Exists, OuterRef, Q, Subquery
from django.utils.functional import SimpleLazyObject

from .access import MANAGER, SESSION_KEY
from .models import Club, ClubRole, FederationRole

#: The most clubs the header lists (a superuser of a server with more picks among these).
MAX_LISTED = 200


def clubs(request) -> dict:
    """:func:`header_clubs`'s four values, each read (once) when a template first uses it."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {"club_choices": [], "current_club": None, "managed_clubs": [], "federation_link": False}
    found: dict = {}

    def read(name):
        def value():
            if not found:
                found.update(header_clubs(request))
            return found[name]
        return SimpleLazyObject(value)

    return {name: read(name) for name in ("club_choices", "current_club", "managed_clubs", "federation_link")}


def header_clubs(request) -> dict:
    """``club_choices``: the clubs of the logged-in account when more than one (else empty:
    nothing is shown); ``current_club``: the one it works in now (None then; the session's
    choice, else the first by name, as ``clubs.access.current_club``); ``managed_clubs``: the
    clubs whose arbiters' page the header links — those where the account is *manager*, and a
    superuser's every club only with several clubs on the server (a laptop's pages stay as
    they were); ``federation_link``: whether the header links the federation's view
    (``/federazione/``) — an account with the federation role, a superuser only with several
    clubs on the server (a laptop has nothing new on any page). The same rules as
    ``clubs.access``, read in one query."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {"club_choices": [], "current_club": None, "managed_clubs": [], "federation_link": False}
    clubs = Club.objects.annotate(my_role=Subquery(
        ClubRole.objects.filter(club=OuterRef("pk"), user=user).order_by().values("role")[:1]),
        federation_role=Exists(FederationRole.objects.filter(user=user)))
    if not user.is_superuser:
        # his clubs, and the server's first two (two rows or more: the server has several)
        clubs = clubs.filter(Q(my_role__isnull=False) | Q(pk__in=Club.objects.order_by("id").values("pk")[:2]))
    rows = list(clubs.order_by("name", "id")[:MAX_LISTED + 1] if user.is_superuser else clubs.order_by("name", "id"))
    several = len(rows) > 1
    # every row carries the same answer; migrate always leaves a club, so there is a row
    federation = user.is_active and (several if user.is_superuser else any(c.federation_role for c in rows[:1]))
    if user.is_superuser:
        mine, managed = rows[:MAX_LISTED], (rows[:MAX_LISTED] if several else [])
    else:
        mine = [c for c in rows if c.my_role] or ([] if several else rows)
        managed = [c for c in rows if c.my_role == MANAGER]
    if len(mine) < 2:
        return {"club_choices": [], "current_club": None, "managed_clubs": managed, "federation_link": federation}
    chosen = request.session.get(SESSION_KEY) if hasattr(request, "session") else None
    current = next((c for c in mine if c.pk == chosen), mine[0])
    return {"club_choices": mine, "current_club": current, "managed_clubs": managed, "federation_link": federation}
