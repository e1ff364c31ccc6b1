"""``python manage.py bookings SLUG …``: the tournament's bookings from the shell (rules.md §21).

- ``--open --cap N [--until YYYY-MM-DDTHH:MM]`` → ``{"open": true, "cap": N, "until": …}``;
- ``--add "Cognome Nome" ["Cognome Nome"] [--tessere N [M]]`` (``--single`` with one name) →
  ``{"code": "…", "state": "booked" | "waiting", "position": k | null}``; a teams tournament
  books its captain, ``--single --team "Nome squadra"``; safe from many
  processes at once (the database serialises the bookings); not rate-limited;
- ``--cancel CODE`` → ``{"promoted": CODE | null}``;
- ``--register`` → ``{"registered": N}`` (every booked booking not yet an entrant);
- ``--json`` → ``{"cap": 14, "booked": [{"code", "names", "state"}…], "waiting": […]}``.

A name is «Cognome Nome»: the last word is the first name, the words before it the surname
(«De Luca Mario»). A refusal is one sentence on stderr, exit status 1.
"""
import datetime
import json

from django.core.management.base import CommandError
from django.utils import timezone
from django.utils.translation import gettext as _

from bookings import entrants, selectors, services
from bookings.models import Booking
from tournaments.errors import ArbiterError
from tournaments.management.lang import LangCommand
from tournaments.models import Tournament
from tournaments.registrations.player_data import PlayerData


def parse_name(text: str, membership: str = "") -> PlayerData:
    """«Cognome Nome» → PlayerData (the last word is the first name). Raises CommandError
    for fewer than two words."""
    words = text.split()
    if len(words) < 2:
        raise CommandError(_("«%(name)s»: scrivi cognome e nome.") % {"name": text})
    return PlayerData(first_name=words[-1], last_name=" ".join(words[:-1]), membership_number=membership)


class Command(LangCommand):
    help = "Prenotazioni di un torneo: apri, aggiungi, annulla, iscrivi, elenca (rules.md §21)."

    def add_arguments(self, parser):
        parser.add_argument("slug")
        what = parser.add_mutually_exclusive_group(required=True)
        what.add_argument("--open", action="store_true", help="Apri le prenotazioni (con --cap).")
        what.add_argument("--add", nargs="+", metavar="NOME", help="«Cognome Nome» di uno o due giocatori.")
        what.add_argument("--cancel", metavar="CODICE", help="Annulla la prenotazione con questo codice.")
        what.add_argument("--register", action="store_true", help="Iscrivi le prenotazioni confermate.")
        what.add_argument("--json", action="store_true", help="Stampa le prenotazioni.")
        parser.add_argument("--cap", type=int, default=None, help="Posti (coppie, giocatori o squadre).")
        parser.add_argument("--until", default=None, help="Chiusura, YYYY-MM-DDTHH:MM (ora locale).")
        parser.add_argument("--tessere", nargs="+", default=[], help="Tessere dei giocatori, nell'ordine.")
        parser.add_argument("--single", action="store_true", help="Un giocatore solo che cerca compagno.")
        parser.add_argument("--team", default="", help="Torneo a squadre: il nome della squadra (con --single "
                                                          "e il nome del capitano).")

    def handle(self, *args, **o):
        tournament = Tournament.objects.filter(slug=o["slug"]).first()
        if tournament is None:
            raise CommandError(_("Torneo «%(slug)s» inesistente.") % {"slug": o["slug"]})
        try:
            out = self._do(tournament, o)
        except ArbiterError as exc:
            raise CommandError(exc.message) from exc
        self.stdout.write(json.dumps(out, ensure_ascii=False))

    def _do(self, tournament, o):
        if o["open"]:
            if o["cap"] is None:
                raise CommandError(_("Indica i posti con --cap N."))
            until = self._until(o["until"])
            window = services.open_bookings(tournament=tournament, cap=o["cap"], until=until)
            return {"open": True, "cap": window.cap, "until": o["until"]}
        if o["add"]:
            names, numbers = o["add"], o["tessere"]
            if o["single"] != (len(names) == 1) or len(names) > 2:
                raise CommandError(_("Due nomi per una coppia, oppure --single con un nome."))
            if o["team"] and tournament.kind != Tournament.Kind.TEAMS:
                raise CommandError(_("--team vale solo in un torneo a squadre."))
            if len(numbers) > len(names):
                raise CommandError(_("Più tessere che giocatori."))
            numbers = numbers + [""] * (len(names) - len(numbers))
            players = [parse_name(n, m) for n, m in zip(names, numbers, strict=True)]
            result = services.book(tournament=tournament, players=players, check_window=False,
                                   team_name=o["team"])
            return {"code": result.booking.code, "state": result.booking.state, "position": result.position}
        if o["cancel"]:
            booking = Booking.objects.filter(tournament=tournament, code=o["cancel"].strip().upper()).first()
            if booking is None:
                raise CommandError(_("Nessuna prenotazione con il codice %(code)s.") % {"code": o["cancel"]})
            promoted = services.cancel(booking=booking)
            return {"promoted": promoted.code if promoted else None}
        if o["register"]:
            return {"registered": entrants.register_booked(tournament=tournament, by=None)}
        return selectors.bookings_json(tournament)

    def _until(self, text):
        if not text:
            return None
        try:
            naive = datetime.datetime.strptime(text, "%Y-%m-%dT%H:%M")
        except ValueError:
            raise CommandError(_("--until: scrivi la data come YYYY-MM-DDTHH:MM.")) from None
        return timezone.make_aware(naive)
