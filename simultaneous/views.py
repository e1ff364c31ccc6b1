"""The simultaneous evening's pages (rules.md §20).

Public (no login): ``/simultaneo/<slug>/`` the combined standings and prizes,
``/simultaneo/<slug>/proiettore/`` the projector (each switched by the event; off: 404).
Arbiters: ``/simultanei/`` the events inviting one of their clubs, where a club's arbiter
creates his club's tournament from the event; ``/simultanei/<slug>/federazione.csv`` the
federation file of the whole event (membership numbers: only for an arbiter of an invited
club or the federation). The standings are computed at each request from the clubs'
current results (``simultaneous.selectors.combined_standings``).
"""
from __future__ import annotations

import csv
import io
from decimal import Decimal

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse, HttpResponseNotAllowed
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from clubs import access
from clubs.models import Club
from tournaments.errors import ArbiterError

from . import selectors, services
from .models import SimultaneousEvent

PROJECTOR_ROWS = 16
PROJECTOR_SECONDS = 30


def _public(slug, flag) -> SimultaneousEvent:
    event = get_object_or_404(SimultaneousEvent, slug=slug)
    if not getattr(event, flag):
        raise Http404
    return event


def _context(event: SimultaneousEvent) -> dict:
    view = selectors.combined_standings(event)
    return {"event": event, "view": view, "rows": view.rows, "awards": selectors.prize_awards(event, view),
            "participations": selectors.participations(event)}


@require_GET
def public_page(request, slug):
    """``/simultaneo/<slug>/``: positions overall and within the club, names, VP, MP
    difference (no membership numbers); «provvisoria» until every club has closed its last round."""
    return render(request, "simultaneous/public.html", _context(_public(slug, "public_enabled")))


@require_GET
def projector(request, slug):
    """``/simultaneo/<slug>/proiettore/?s=k``: the combined standings in screens of 16 rows,
    the next every 30 seconds (like a tournament's projector)."""
    ctx = _context(_public(slug, "projector_enabled"))
    rows = ctx["rows"]
    screens = [rows[i:i + PROJECTOR_ROWS] for i in range(0, len(rows), PROJECTOR_ROWS)] or [[]]
    try:
        index = int(request.GET.get("s", 0)) % len(screens)
    except ValueError:
        index = 0
    return render(request, "simultaneous/projector.html", {
        **ctx, "screen_rows": screens[index], "screen": index + 1, "screens": len(screens),
        "next": (index + 1) % len(screens), "refresh": PROJECTOR_SECONDS, "rows_per_screen": PROJECTOR_ROWS})


def _events_of(user):
    """The events inviting a club ``user`` works for (every event for the federation)."""
    if access.is_federation(user):
        return SimultaneousEvent.objects.all()
    return SimultaneousEvent.objects.filter(clubs__in=access.clubs_of(user)).distinct()


@login_required
@require_GET
def event_list(request):
    """``/simultanei/``: the events inviting one of the arbiter's clubs, each with its clubs'
    tournaments and, for a club of his without one, the form creating it from the event."""
    mine = set(access.clubs_of(request.user).values_list("pk", flat=True))
    events = []
    for event in _events_of(request.user).prefetch_related("clubs"):
        parts = selectors.participations(event)
        joined = {p.club_id for p in parts}
        events.append({"event": event, "participations": parts,
                       "open_clubs": [c for c in event.clubs.order_by("name") if c.pk in mine and c.pk not in joined]})
    return render(request, "simultaneous/list.html", {"events": events})


@login_required
def create_tournament(request, slug):
    """POST ``/simultanei/<slug>/torneo/``: the arbiter's club's tournament created from the
    event (its settings locked to the event's), then its page. A club he does not work for
    or not invited: a message, nothing created."""
    event = get_object_or_404(_events_of(request.user), slug=slug)
    if request.method != "POST":  # after the lookup: a 405 never tells an address exists
        return HttpResponseNotAllowed(["POST"])
    club = Club.objects.filter(pk=request.POST.get("club") or 0).first() if str(request.POST.get("club", "")).isdecimal() else None
    if club is None or not access.may_work_in(request.user, club):
        messages.error(request, _("Non sei arbitro di questo circolo."))
        return redirect("simultaneous:list")
    try:
        tournament = services.create_club_tournament(
            event=event, club=club, by=request.user, name=request.POST.get("name", ""),
            slug=request.POST.get("tournament_slug", "").strip())
    except ArbiterError as exc:
        messages.error(request, exc.message)
        return redirect("simultaneous:list")
    messages.success(request, _("Torneo creato dalla serata simultanea: le sue impostazioni sono quelle della serata."))
    return redirect("tournament", slug=tournament.slug)


def _csv_cell(value):
    """A text starting with = + - @ gets a leading apostrophe (never run as a formula)."""
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@"):
        return "'" + value
    if isinstance(value, Decimal):
        return f"{value.normalize():f}"
    return value


@login_required
def federation_csv(request, slug):
    """``/simultanei/<slug>/federazione.csv``: :func:`selectors.federation_rows` as CSV
    (UTF-8 with BOM), for an arbiter of an invited club or the federation; others 404."""
    event = get_object_or_404(_events_of(request.user), slug=slug)
    if request.method not in ("GET", "HEAD"):  # after the lookup: a 405 never tells an address exists
        return HttpResponseNotAllowed(["GET", "HEAD"])
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow(selectors.federation_headings())
    for row in selectors.federation_rows(event):
        writer.writerow([_csv_cell(v) for v in row])
    response = HttpResponse(("\ufeff" + buffer.getvalue()).encode("utf-8"), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="simultaneo-{event.slug}.csv"'
    return response
