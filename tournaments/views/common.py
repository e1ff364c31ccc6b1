"""Helpers shared by the arbiter's views."""
from __future__ import annotations

from functools import wraps

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect

from ..errors import ArbiterError
from ..selectors import tournaments_of

#: The largest integer a query parameter may carry to the database (SQLite's signed 64 bits).
MAX_QUERY_INT = 2**63 - 1


def query_int(raw, *, low: int = -MAX_QUERY_INT, high: int = MAX_QUERY_INT) -> int | None:
    """``raw`` (a GET/POST value) as an integer in ``low..high``, else ``None``.

    Letters (``?round=abc``), decimals, empty values and numbers too large for the database
    (``?dopo=10**30``) are all ``None``: the page ignores the filter instead of failing
    with a 500.
    """
    text = str(raw if raw is not None else "").strip()
    if not text or len(text) > 20:
        return None
    try:
        value = int(text)
    except ValueError:
        return None
    return value if low <= value <= high else None


def arbiter_view(view):
    """Login required; ``slug`` in the URL becomes ``tournament``; an ``ArbiterError``
    becomes an error message and a redirect back (nothing is lost: the service
    rolled back).

    The tournament is looked up among those the user may open (``selectors.tournaments_of``:
    those he directs in his clubs, every one of the clubs he manages, any for a superuser;
    rules.md §20): another arbiter's or another club's tournament is a 404, as if it did not
    exist; once found it is also ``request.arbiter_tournament`` (the base template's
    bar of the tables' calls is shown for it only). Every page and download under ``/tornei/<slug>/``
    goes through here."""

    @login_required
    @wraps(view)
    def wrapper(request, *args, slug=None, **kwargs):
        if slug is not None:
            kwargs["tournament"] = get_object_or_404(tournaments_of(request.user), slug=slug)
            # the base template shows this tournament's calls (templatetags/desk_calls.py)
            request.arbiter_tournament = kwargs["tournament"]
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
