"""The club pages (rules.md §20): choosing the current club, and a club manager's page of
the club's arbiters. Every page needs a login; the manager's page answers 404 to anyone
who does not manage the club (as if it did not exist)."""
from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from . import access, services
from .models import Club, ClubRole


def _back(request, default: str = "home"):
    target = request.POST.get("next", "")
    if target and url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()},
                                                  require_https=request.is_secure()):
        return redirect(target)
    return redirect(default)


@login_required
@require_POST
def choose(request):
    """POST ``club`` (an id): the club the arbiter works in from now on (the member pages'
    registry, the club of a new tournament); back to ``next``."""
    text = request.POST.get("club", "").strip()
    club = access.clubs_of(request.user).filter(pk=int(text)).first() \
        if text.isascii() and text.isdecimal() and len(text) < 18 else None
    if club is None:
        messages.error(request, _("Circolo non trovato."))
    else:
        access.set_current_club(request, club)
    return _back(request)


@login_required
def arbiters(request, slug):
    """``/circoli/<slug>/arbitri/``: the club's arbiters and managers; a manager (or a
    superuser) adds an account by user name (``manager`` ticked: as manager) or removes one.
    Anyone else gets 404."""
    club = access.managed_clubs(request.user).filter(slug=slug).first()
    if club is None:
        raise Http404
    if request.method == "POST":
        username = request.POST.get("username", "").strip()[:150]
        try:
            if request.POST.get("action") == "remove":
                services.remove_arbiter(club=club, username=username)
                messages.success(request, _("%(username)s non è più arbitro del circolo.") % {"username": username})
            else:
                services.add_arbiter(club=club, username=username, manager=bool(request.POST.get("manager")))
                messages.success(request, _("%(username)s è arbitro del circolo.") % {"username": username})
        except services.ClubError as exc:
            messages.error(request, exc.message)
        return redirect("clubs:arbiters", slug=club.slug)
    roles = ClubRole.objects.filter(club=club).select_related("user").order_by("user__username")
    return render(request, "clubs/arbiters.html", {"club": club, "roles": roles,
                                                   "manager_role": ClubRole.Role.MANAGER})


def managed(user) -> list[Club]:
    """The clubs whose arbiters' page ``user`` may open (for the header's link)."""
    return list(access.managed_clubs(user).order_by("name", "id")[:50])
