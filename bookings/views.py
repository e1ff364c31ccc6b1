"""Bookings' pages (rules.md §21): the public booking page and the private link (no
account), the arbiter's bookings page and his check-in desk (his tournaments only,
``arbiter_view``). Thin: the services decide, a refusal is a sentence on the page."""
from __future__ import annotations

import datetime

from django.conf import settings
from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from django_ratelimit.core import is_ratelimited

from tournaments.captains.devices import client_ip
from tournaments.errors import ArbiterError
from tournaments.models import Tournament
from tournaments.registrations.player_data import PlayerData
from tournaments.views.common import arbiter_view

from . import entrants, notices, selectors, services
from .models import Booking


#: Public bookings per client address and per tournament (docs/security.md, "Bookings"):
#: a family on one phone books a few pairs, a club's noon rush is ~200 in a minute.
#: ``ARBITRO_BOOKINGS_RATE_ADDRESS`` / ``ARBITRO_BOOKINGS_RATE_TOURNAMENT`` raise them (bench).
def address_rate() -> str:
    return getattr(settings, "BOOKINGS_RATE_ADDRESS", "10/m")


def tournament_rate() -> str:
    return getattr(settings, "BOOKINGS_RATE_TOURNAMENT", "300/m")


def _too_many(request, slug: str) -> bool:
    by_address = is_ratelimited(request, group="booking-address", key=lambda g, r: client_ip(r),
                                rate=address_rate(), method=is_ratelimited.ALL, increment=True)
    by_tournament = is_ratelimited(request, group="booking-tournament", key=lambda g, r: slug,
                                   rate=tournament_rate(), method=is_ratelimited.ALL, increment=True)
    return by_address or by_tournament


def _public_tournament(slug: str) -> Tournament:
    # a tournament whose bookings were never opened still has a page that says so: the
    # link may have been passed round before the secretary opened them
    return get_object_or_404(Tournament, slug=slug)


def _form_players(post, single: bool) -> list[PlayerData]:
    def one(k):
        return PlayerData(first_name=post.get(f"first_name_{k}", ""), last_name=post.get(f"last_name_{k}", ""),
                          membership_number=post.get(f"membership_{k}", ""))
    return [one(1)] if single else [one(1), one(2)]


def book_page(request, slug):
    """The public booking page: the message, the places left, the form (pair or single)."""
    tournament = _public_tournament(slug)
    window = selectors.window(tournament)
    reason = services.closed_reason(tournament, window)
    context = {"tournament_public": tournament, "window": window, "reason": reason,
               "places": selectors.places(tournament), "form": request.POST, "error": None}
    if request.method == "POST" and reason is None:
        if request.POST.get("sito"):  # the honeypot: a field people never see
            context["error"] = _("Prenotazione non accettata.")
            return render(request, "bookings/book.html", context, status=400)
        if _too_many(request, slug):
            context["error"] = _("Troppe prenotazioni in poco tempo: riprova tra un minuto.")
            return render(request, "bookings/book.html", context, status=429)
        # a pairs tournament books a pair or a single; an individual one a player; a teams
        # one a team, in the name of its captain (one name)
        single = tournament.kind != Tournament.Kind.PAIRS or request.POST.get("kind") == "single"
        try:
            result = services.book(tournament=tournament, players=_form_players(request.POST, single),
                                   contact=request.POST.get("contact", ""),
                                   team_name=request.POST.get("team_name", ""))
        except ArbiterError as exc:
            context["error"] = exc.message
            return render(request, "bookings/book.html", context, status=400)
        link = request.build_absolute_uri(reverse("booking_private", args=[slug, result.token]))
        notices.confirmation(result.booking, link)
        return redirect("booking_private", slug=slug, token=result.token)
    return render(request, "bookings/book.html", context)


def private_page(request, slug, token):
    """The booker's private link: his place, cancel; a single sees the other singles (first
    names and initials) and the requests to pair. A wrong, foreign or dead link is a 404."""
    tournament = get_object_or_404(Tournament, slug=slug)
    booking = services.by_token(tournament, token)
    if booking is None:
        if is_ratelimited(request, group="booking-guess", key=lambda g, r: client_ip(r), rate="30/m",
                          method=is_ratelimited.ALL, increment=True):
            return HttpResponse(_("Troppi tentativi: riprova tra un minuto."), status=429)
        return render(request, "bookings/dead_link.html", {}, status=404)
    if request.method == "POST":
        action = request.POST.get("action")
        # the messages end on the name: «Anna R.» carries its own full stop
        try:
            if action == "cancel":
                promoted = services.cancel(booking=booking)
                if promoted is not None:
                    notices.promotion(promoted)
                return render(request, "bookings/cancelled.html", {"tournament_public": tournament})
            other = Booking.objects.filter(tournament=tournament, pk=_int(request.POST.get("other"))).first()
            if other is None:
                raise ArbiterError(_("Questo giocatore non cerca più compagno."))
            if action == "ask":
                services.ask_partner(booking=booking, other=other)
                messages.success(request, _("Richiesta inviata a %(name)s") % {"name": other.public_name})
            elif action == "accept":
                services.accept_partner(booking=booking, asker=other)
                messages.success(request, _("Ora giocate in coppia con %(name)s") % {"name": other.public_name})
        except ArbiterError as exc:
            messages.error(request, exc.message)
        return redirect("booking_private", slug=slug, token=token)
    partner = services.partner_of(booking)
    return render(request, "bookings/private.html", {
        "tournament_public": tournament, "booking": booking, "position": services.waiting_position(booking),
        "partner": partner,
        "singles": selectors.free_singles(tournament, excluding=booking) if booking.single and not partner else [],
        "asked_by": list(Booking.objects.filter(asks=booking).exclude(state=Booking.State.CANCELLED)),
    })


def _int(raw) -> int | None:
    text = str(raw or "").strip()
    return int(text) if text.isdigit() and len(text) < 12 else None


def _booking_of(tournament, raw) -> Booking:
    booking = tournament.bookings.filter(pk=_int(raw)).first()
    if booking is None:
        raise ArbiterError(_("Prenotazione inesistente."))
    return booking


@arbiter_view
def arbiter_page(request, tournament):
    """The arbiter's bookings: open/close, the lists in arrival order (contacts shown to him
    only), cancel, promote, pair singles, print."""
    if request.method == "POST":
        action = request.POST.get("action")
        if action == "open":
            cap = _int(request.POST.get("cap"))
            if cap is None:
                raise ArbiterError(_("I posti devono essere tra 1 e 1000."))
            services.open_bookings(tournament=tournament, cap=cap, until=_until(request.POST.get("until")),
                                   opens_at=_until(request.POST.get("opens_at")),
                                   message=request.POST.get("message", ""))
            messages.success(request, _("Prenotazioni aperte."))
        elif action == "close":
            services.close_bookings(tournament=tournament)
            messages.success(request, _("Prenotazioni chiuse."))
        elif action == "cancel":
            promoted = services.cancel(booking=_booking_of(tournament, request.POST.get("booking")))
            if promoted is not None:
                notices.promotion(promoted)
                messages.success(request, _("Promossa dalla lista d'attesa: %(code)s.") % {"code": promoted.code})
        elif action == "edit":
            booking = _booking_of(tournament, request.POST.get("booking"))
            services.edit(booking=booking, players=_form_players(request.POST, booking.single),
                          contact=request.POST.get("contact", ""),
                          team_name=request.POST.get("team_name") if tournament.kind == Tournament.Kind.TEAMS else None)
            messages.success(request, _("Prenotazione %(code)s corretta.") % {"code": booking.code})
        elif action == "promote":
            promoted = services.promote(booking=_booking_of(tournament, request.POST.get("booking")))
            notices.promotion(promoted)
            messages.success(request, _("Promossa dalla lista d'attesa: %(code)s.") % {"code": promoted.code})
        elif action == "pair":
            services.pair_singles(a=_booking_of(tournament, request.POST.get("a")),
                                  b=_booking_of(tournament, request.POST.get("b")))
        elif action == "register":
            n = entrants.register_booked(tournament=tournament, by=request.user)
            messages.success(request, _("Prenotazioni iscritte: %(n)s.") % {"n": n})
        elif action == "no_shows":
            n = entrants.leave_out_no_shows(tournament=tournament, by=request.user)
            messages.success(request, _("Iscrizioni tolte perché assenti: %(n)s.") % {"n": n})
        return redirect("bookings_arbiter", slug=tournament.slug)
    window = selectors.window(tournament)
    live = list(selectors.live(tournament).select_related("partner"))
    # two singles paired (by themselves or by the arbiter) are shown as a pair on both rows
    by_pk = {b.pk: b for b in live}
    for b in live:
        if b.partner_id and b.partner_id in by_pk:
            b.paired_with, by_pk[b.partner_id].paired_with = by_pk[b.partner_id], b
    return render(request, "bookings/arbiter.html", {
        "tournament": tournament, "window": window, "places": selectors.places(tournament),
        "booked": [b for b in live if b.state == Booking.State.BOOKED],
        "waiting": [b for b in live if b.state == Booking.State.WAITING],
        "cancelled": tournament.bookings.filter(state=Booking.State.CANCELLED).order_by("seq"),
        "singles": selectors.free_singles(tournament),
        "public_url": request.build_absolute_uri(reverse("booking_public", args=[tournament.slug])),
        "print": request.GET.get("stampa") == "1",
    })


def _until(raw):
    text = str(raw or "").strip()
    if not text:
        return None
    try:
        return timezone.make_aware(datetime.datetime.strptime(text, "%Y-%m-%dT%H:%M"))
    except ValueError:
        raise ArbiterError(_("Chiusura: scrivi data e ora (AAAA-MM-GGTHH:MM).")) from None


@arbiter_view
def check_in_page(request, tournament):
    """The door: booked bookings sorted by name, a search box; type, arrows, Enter = present
    (static/js/bookings_checkin.js). A check-in registers the booking (once)."""
    rows = sorted(selectors.live(tournament).filter(state=Booking.State.BOOKED),
                  key=lambda b: (b.last_name_1.casefold(), b.first_name_1.casefold()))
    if tournament.kind == Tournament.Kind.TEAMS:
        # a team present is registered on the teams page (4-6 players, rules.md §15): its
        # form comes filled with the booking's team name and captain (the first player)
        for b in rows:
            captain = ", ".join(x for x in (b.last_name_1, b.first_name_1, b.membership_1) if x)
            b.team_form_url = reverse("teams", args=[tournament.slug]) + "?" + urlencode(
                {"name": b.team_name, "players": captain + "\n"})
    return render(request, "bookings/check_in.html", {"tournament": tournament, "rows": rows})


@arbiter_view  # first: another club's tournament is a 404 whatever the method (rules.md §20)
@require_POST
def check_in(request, tournament):
    """Mark one booking present and register it; back to the desk."""
    booking = _booking_of(tournament, request.POST.get("booking"))
    numbers = entrants.check_in(booking=booking, by=request.user)
    if tournament.kind == Tournament.Kind.TEAMS:
        messages.success(request, _("%(names)s: presente.") % {"names": booking.names}
                         + " " + entrants.teams_refusal())
        return redirect("bookings_check_in", slug=tournament.slug)
    messages.success(request, _("%(names)s: presente%(entrant)s.") % {
        "names": booking.names,
        "entrant": (" — " + _("n. %(n)s") % {"n": ", ".join(map(str, numbers))}) if numbers else ""})
    return redirect("bookings_check_in", slug=tournament.slug)
