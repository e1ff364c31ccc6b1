"""Helpers shared by the arbiter's views."""
from __future__ import annotations

from functools import wraps

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect

from ..errors import ArbiterError
from ..models import Tournament


def arbiter_view(view):
    """Login required; ``slug`` in the URL becomes ``tournament``; an ``ArbiterError``
    becomes an error message and a redirect back (nothing is lost: the service
    rolled back)."""

    @login_required
    @wraps(view)
    def wrapper(request, *args, slug=None, **kwargs):
        if slug is not None:
            kwargs["tournament"] = get_object_or_404(Tournament, slug=slug)
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
