"""The bar of the tables' calls («Chiama l'arbitro») at the top of every arbiter page of a
tournament: the round page, the score-entry grid, the standings… show the open calls with the
board's «Arrivo» / «Risolto» buttons, so an arbiter typing sheets at the desk sees them.

The page is rendered with the calls open at that moment (one query; none open: nothing
else is read) and ``static/js/desk_calls.js`` polls :func:`desk_calls` every
``selectors.calls.POLL_SECONDS`` with the last ``ETag`` in ``If-None-Match``: while no call is
made, answered or resolved (and no waiting call's minute moves on) the answer is an empty 304.
"""
from __future__ import annotations

from django.http import HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.utils.cache import patch_vary_headers
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from ..selectors.calls import desk_calls_context
from .common import arbiter_view


@arbiter_view
@require_GET
@never_cache
def desk_calls(request, tournament):
    """``/tornei/<slug>/chiamate/``: the tournament's open calls as JSON,
    ``{"calls": [{"id", "round", "table", "state", "reason", "since", …}], "html": the bar's
    list}``, with an ``ETag``; an empty 304 when ``If-None-Match`` holds it. Only the
    tournament's arbiters (``arbiter_view``: anyone else gets a 404)."""
    context = desk_calls_context(tournament.pk, tournament.slug)
    etag = context["desk_calls_etag"]
    sent = [t.strip().removeprefix("W/") for t in request.headers.get("If-None-Match", "").split(",")]
    if etag in sent:
        response = HttpResponse(status=304)
    else:
        html = render_to_string("arbiter/_desk_calls_list.html", context, request=request)
        calls = [{k: r[k] for k in ("id", "round", "table", "state", "reason", "since")}
                 for r in context["desk_calls"]]
        response = JsonResponse({"calls": calls, "html": html}, json_dumps_params={"ensure_ascii": False})
    response["ETag"] = etag
    patch_vary_headers(response, ["Accept-Language", "Cookie"])
    return response
