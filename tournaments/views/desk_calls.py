"""The bar of the tables' calls («Chiama l'arbitro») at the top of every arbiter page of a
tournament: the round page, the score-entry grid, the standings… show the open calls with the
board's «Arrivo» / «Risolto» buttons, so an arbiter typing sheets at the desk sees them.

The page is rendered with the calls open at that moment (one query; none open: nothing
else is read) and ``static/js/desk_calls.js`` polls :func:`desk_calls` every
:data:`POLL_SECONDS` with the last ``ETag`` in ``If-None-Match``: while no call is made,
answered or resolved (and no waiting call's minute moves on) the answer is an empty 304.
"""
from __future__ import annotations

import hashlib

from django.http import HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.utils.translation import get_language
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from .. import services, timesource
from .board_calls import call_row
from .common import arbiter_view

#: Seconds between two polls of the bar (the board polls every 3 s; a desk page is open much
#: longer and in several windows, and a call waits for a person to walk to the table).
POLL_SECONDS = 5


def desk_calls_context(tournament, slug: str) -> dict:
    """What the bar shows for tournament ``tournament`` (its id) with address ``slug``:
    ``{"desk_calls": [call_row dict + "round", "take_url", "resolve_url"], "desk_calls_etag",
    "desk_calls_url", "desk_calls_poll_ms"}``. The ETag follows every call, answer and
    resolution and, while a call waits, its minutes (so «da 3 min» moves on); one query."""
    now = timesource.now()
    rows = []
    for call in services.tournament_calls(tournament):
        row = call_row(call, now)
        number = call.round.number
        row.update(round=number,
                   take_url=reverse("board_call_take", args=[slug, number, call.pk]),
                   resolve_url=reverse("board_call_resolve", args=[slug, number, call.pk]))
        rows.append(row)
    key = ";".join(f"{r['id']}.{r['state']}.{r['minutes']}" for r in rows)
    digest = hashlib.sha1(f"{tournament}|{key}".encode()).hexdigest()[:16]
    return {"desk_calls": rows, "desk_calls_etag": f'"calls-{digest}-{get_language() or "it"}"',
            "desk_calls_url": reverse("desk_calls", args=[slug]), "desk_calls_poll_ms": POLL_SECONDS * 1000}


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
