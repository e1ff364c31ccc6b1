"""An evening with open bookings for ``make run``'s demo (``tournaments.demo``), so the public
booking page shows something on a fresh clone (rules.md §21)."""
from __future__ import annotations

from datetime import date, timedelta

from tournaments import services as tournament_services
from tournaments.demo import DEMO_SLUG
from tournaments.models import Tournament
from tournaments.registrations.player_data import PlayerData

from . import services

#: The demo's future evening.
NEXT_SLUG = "prossima"


def seed_next_evening(user) -> None:
    """«Prossima serata»: a pairs tournament a week after today with bookings open (3 pairs, a
    message) and a few bookings: two pairs and one single «cerca compagno» (half a pair) fill
    2½ places, so the last pair does not fit and joins the waiting list. Skipped when the
    evening exists (idempotent)."""
    if Tournament.objects.filter(slug=NEXT_SLUG).exists():
        return
    demo = Tournament.objects.filter(slug=DEMO_SLUG).first()  # the same club as the demo (rules.md §20)
    tournament = tournament_services.create_tournament(
        by=user, club=demo.club if demo is not None else None, name="Prossima serata", slug=NEXT_SLUG, date=date.today() + timedelta(days=7),
        venue="Circolo del Ponte",
    )
    services.open_bookings(tournament=tournament, cap=3,
                           message="Prenotazioni aperte fino a esaurimento posti: "
                                   "inizio alle 21, arrivate alle 20:45.")

    def person(first, last, number=""):
        return PlayerData(first_name=first, last_name=last, membership_number=number)

    for players in ([person("Anna", "Rossi", "D101"), person("Marco", "Bianchi", "D102")],
                    [person("Giulia", "Verdi", "D103"), person("Luca", "Neri", "D104")],
                    [person("Sara", "Galli")],  # a single: «cerco compagno»
                    [person("Paolo", "Conti", "D105"), person("Elena", "Fontana", "D106")]):
        services.book(tournament=tournament, players=players, contact="")
