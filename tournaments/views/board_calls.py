"""The live board's calls from the tables («Chiama l'arbitro»): the list at the top of the
board, its part of the board's stamp, and the arbiter's «Arrivo» / «Risolto» buttons (on the
board and on the bar of calls at the top of every arbiter page, ``desk_calls``)."""
from __future__ import annotations

from django.db.models import Count, Max, Q
from django.http import JsonResponse
from django.shortcuts import get_object_or_404, redirect
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from .. import services
from ..models import ArbiterCall, Round
from ..selectors.calls import call_row, round_calls
from ..server import timesource
from .common import arbiter_view


def calls_context(rnd: Round) -> list[dict]:
    """The round's open and taken calls, oldest first, as :func:`call_row` dicts."""
    now = timesource.now()
    return [call_row(call, now) for call in round_calls(rnd)]


def calls_stamp(rnd: Round) -> str:
    """The calls' part of the board stamp: every call, answer and resolution changes it, and
    while a call waits the minute does too (so «da 3 min» moves on)."""
    agg = ArbiterCall.objects.filter(round=rnd).aggregate(
        n=Count("id"), last=Max("id"), taken=Max("taken_at"), resolved=Max("resolved_at"),
        waiting=Count("id", filter=~Q(state=ArbiterCall.State.RESOLVED)))  # one query: polled every second
    minute = int(timesource.now().timestamp() // 60) if agg["waiting"] else 0
    stamp = lambda t: f"{t.timestamp():.3f}" if t else "0"  # noqa: E731
    return f"c{agg['n']}.{agg['last'] or 0}.{stamp(agg['taken'])}.{stamp(agg['resolved'])}.{minute}"


def _answer(request, tournament, number, call_id, action):
    rnd = get_object_or_404(Round, tournament=tournament, number=number)
    call = action(call_id=call_id, rnd=rnd, by=request.user)
    if "application/json" in request.headers.get("Accept", ""):
        # the desk's bar (desk_calls.js) answers without leaving the page: a sheet being typed
        # on the score-entry grid is not lost
        return JsonResponse({"id": call.pk, "state": call.state})
    back = request.POST.get("next", "")
    if back and url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()},
                                                require_https=request.is_secure()):
        return redirect(back)  # the page whose bar held the button (no script)
    return redirect(f"{_board_url(tournament.slug, number)}#t{call.table.number}")


def _board_url(slug, number):
    from django.urls import reverse

    return reverse("board", args=[slug, number])


@arbiter_view
@require_POST
def take(request, tournament, number, call):
    """«Arrivo»: the arbiter is on his way; the table's phone shows it at its next poll.

    POST ``next`` (optional): a path of this site to go back to (the page whose bar of calls
    held the button), else the board. ``Accept: application/json``: ``{"id", "state"}``
    instead of a redirect. An unknown call: an error message (``ArbiterError``)."""
    return _answer(request, tournament, number, call, services.take_call)


@arbiter_view
@require_POST
def resolve(request, tournament, number, call):
    """«Risolto»: the call is over; it leaves the board and the bar (the table may call again).
    Same ``next`` and JSON answer as :func:`take`."""
    return _answer(request, tournament, number, call, services.resolve_call)
