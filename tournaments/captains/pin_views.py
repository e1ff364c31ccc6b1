"""The captain's PIN pages: ``/t/<slug>/pin/``, where a captain without a camera types his
table number and the PIN printed on the sheet, and ``/c/``, the old common PIN page that now
points there."""
from __future__ import annotations

from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods

from ..models import Round, Tournament
from . import pins
from .devices import give_device_cookie


@require_http_methods(["GET", "POST"])
@never_cache
def pin_entry(request, slug):
    """``/t/<slug>/pin/``: the captain types his table number and the PIN printed on the sheet.

    Looks at table ``n`` of the tournament's latest published round
    (``pins.open_table_by_pin``); the right PIN redirects to the table's link. Wrong PINs
    are counted per table and per tournament in the database, never per address; a locked
    table (423) or tournament (429) answers a clear message and the QR link still works.
    """
    tournament = get_object_or_404(Tournament, slug=slug)
    error, status = "", 200
    if request.method == "POST":
        result = pins.open_table_by_pin(
            tournament=tournament, table_number=request.POST.get("table", "")[:10],
            pin=request.POST.get("pin", "")[:10],
        )
        if result.table is not None:
            return redirect("captain", token=result.table.token)
        error, status = result.error, result.status
    else:
        ends = pins.tournament_pin_lock(tournament)
        if ends:
            error, status = _("Troppi PIN errati in questo torneo: l'inserimento del PIN è sospeso per "
                              "qualche minuto. Inquadra il codice QR dello score o chiama l'arbitro."), 429
    response = render(request, "captain/pin.html", {"error": error, "tournament": tournament}, status=status)
    return give_device_cookie(request, response)  # the phone's device, born before any entry


@require_GET
@never_cache
def pin_help(request):
    """``/c/``: the old PIN page, common to every tournament. PINs are now typed on the
    tournament's own page: with one tournament in play this redirects there, otherwise it
    explains where to go (the address is printed with the QR codes)."""
    slugs = list(
        Tournament.objects.filter(rounds__state=Round.State.PUBLISHED).values_list("slug", flat=True).distinct()[:2]
    )
    if len(slugs) == 1:
        return redirect("captain_pin", slug=slugs[0])
    return render(request, "captain/pin.html", {"tournament": None})
