"""Bookings' reads (rules.md §21)."""
from __future__ import annotations

from tournaments.models import Tournament

from .models import Booking, BookingWindow


def window(tournament: Tournament) -> BookingWindow | None:
    """The tournament's booking window, or ``None`` when bookings were never opened."""
    return BookingWindow.objects.filter(tournament=tournament).first()


def live(tournament: Tournament):
    """Booked and waiting bookings, in arrival order."""
    return tournament.bookings.exclude(state=Booking.State.CANCELLED).order_by("seq")


def bookings_json(tournament: Tournament) -> dict:
    """``{"cap": N | null, "booked": [{"code", "names", "state"}…], "waiting": […]}``, each
    list in arrival order (``manage.py bookings SLUG --json``)."""
    w = window(tournament)
    rows = {"booked": [], "waiting": []}
    for b in live(tournament):
        rows[b.state].append({"code": b.code, "names": b.names, "state": b.state})
    return {"cap": w.cap if w else None, **rows}


def free_singles(tournament: Tournament, *, excluding: Booking | None = None) -> list[Booking]:
    """Singles of the tournament without a partner yet (what other singles see: first name
    and initial only, ``Booking.public_name``). Only a pairs tournament has them: in an
    individual tournament a one-name booking is a player, in a teams one a team's captain
    (rules.md §21)."""
    if tournament.kind != Tournament.Kind.PAIRS:
        return []
    singles = list(live(tournament).filter(single=True, partner__isnull=True, partner_of__isnull=True,
                                           registered_at__isnull=True))
    return [b for b in singles if excluding is None or b.pk != excluding.pk]


def places(tournament: Tournament) -> dict:
    """``{"cap": N, "taken": entrants booked (a single is ½), "waiting": bookings waiting}``
    for the pages (rules.md §21)."""
    w = window(tournament)
    if w is None:
        return {"cap": 0, "taken": 0, "waiting": 0, "full": True}
    units = used_units(tournament)
    taken = units / 2 if tournament.kind == Tournament.Kind.PAIRS else units
    return {"cap": w.cap, "taken": f"{taken:g}", "full": units >= capacity(tournament, w.cap),
            "waiting": tournament.bookings.filter(state=Booking.State.WAITING).count()}


def weight(tournament: Tournament, booking: Booking) -> int:
    """Places a booking takes, in capacity units (rules.md §21): in a pairs or individual
    tournament a unit is one player (a pair books two, a single one: half a pair); in a
    teams tournament a booking is one team."""
    if tournament.kind == Tournament.Kind.TEAMS:
        return 1
    return 1 if booking.single else 2


def capacity(tournament: Tournament, cap: int) -> int:
    """``cap`` (in entrants: pairs, players or teams) in capacity units (:func:`weight`)."""
    if tournament.kind == Tournament.Kind.PAIRS:
        return 2 * cap
    return cap


def used_units(tournament: Tournament) -> int:
    """Capacity units taken by the booked (not waiting, not cancelled) bookings."""
    return sum(weight(tournament, b) for b in tournament.bookings.filter(state=Booking.State.BOOKED))
