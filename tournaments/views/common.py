"""Helpers shared by the arbiter's views."""
from __future__ import annotations

from functools import wraps

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect

from ..errors import ArbiterError
from ..selectors import tournaments_of


def arbiter_view(view):
    """Login required; ``slug`` in the URL becomes ``tournament``; an ``ArbiterError``
    becomes an error message and a redirect back (nothing is lost: the service
    rolled back).

    The tournament is looked up among those the user directs (``selectors.tournaments_of``:
    its arbiters, or any for a superuser): another arbiter's tournament is a 404, as if it
    did not exist (issue 10 item 4). Every page and download under ``/tornei/<slug>/``
    goes through here."""

    @login_required
    @wraps(view)
    def wrapper(request, *args, slug=None, **kwargs):
        if slug is not None:
            kwargs["tournament"] = get_object_or_404(tournaments_of(request.user), slug=slug)
        try:
            return view(request, *args, **kwargs)
        except ArbiterError as exc:
            messages.error(request, exc.message)
            for detail in exc.details:
                messages.warning(request, detail)
            if request.META.get("HTTP_REFERER"):
                return redirect(request.META["HTTP_REFERER"])
            if "tournament" in kwargs:
                return redirect("tournament", slug=kwargs["tournament"].slug)
            return redirect("home")

    return wrapper
