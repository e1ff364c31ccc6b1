"""``python manage.py seed_demo``: a demo arbiter and a demo tournament (29 pairs).

Idempotent: running it again leaves an existing demo alone. The demo tournament is played
with the same services the views use (``tournaments.simulation``) and stopped after round
2, when that module exists; it belongs to the demo arbiter. Its cash desk gets rates, a few
payments and a waiver (``money.services``, rules.md §21) when it has no rates yet, and a
second, future pairs tournament («Prossima serata», slug ``prossima``, a week after today)
gets open bookings with a few bookings (``bookings.services``) so the public booking page
and the «Cassa» page show something on a fresh clone.

The demo password (never a known one on an open network) depends on where the server
listens, read from ``--url`` (``make run`` passes ``http://$(HOST):$(PORT)/``):

- loopback (127.0.0.0/8, ``localhost``, ``::1``): nobody else can reach the server, so the
  fixed demo password ``burraco2026`` (the README's) is set and printed;
- any other host (``0.0.0.0``, a LAN address…): phones on an open club network can reach
  it, so a random password is set and printed ONCE. The next runs neither print nor change
  it; ``--reset-password`` asks for a new one. An existing demo account that still has the
  fixed password gets a random one the first time the server is opened to the network.

``ARBITRO_DEMO_USER`` / ``ARBITRO_DEMO_PASSWORD`` choose the username and the password
(an explicit choice, used on any host, except that the fixed demo password is never set
for a non-loopback host).
"""
import ipaddress
import os
from datetime import date, timedelta
from pathlib import Path
from urllib.parse import urlsplit

from django.conf import settings
from django.contrib.auth import get_user_model
from django.utils.translation import gettext as _

from tournaments.management.lang import LangCommand

from tournaments import registration_import, services
from tournaments.management.commands.create_arbiter import random_password
from tournaments.models import Tournament

DEMO_SLUG = "demo"
NEXT_SLUG = "prossima"
DEMO_PASSWORD = "burraco2026"
"""The README's demo password: set only when the server listens on loopback."""


def host_of(url: str) -> str:
    """The host of ``url`` (``http://0.0.0.0:8000/`` → ``0.0.0.0``, ``http://[::1]:8000/``
    → ``::1``); a bare host is returned as is. Empty when there is none."""
    url = (url or "").strip()
    if "//" not in url:
        url = "//" + url
    try:
        return urlsplit(url).hostname or ""
    except ValueError:
        return ""


def is_loopback(host: str) -> bool:
    """Whether ``host`` reaches only this machine: ``localhost`` or an address of 127.0.0.0/8
    or ``::1``. Anything else (``0.0.0.0``, a LAN address, a name, nothing) is not."""
    host = (host or "").strip().strip("[]").lower()
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def demo_registrations() -> Path:
    here = Path(settings.BASE_DIR)
    for candidate in (here / "tournaments" / "demo" / "registrations-29.csv",
                      here.parent / "shared" / "data" / "registrations-29.csv"):
        if candidate.exists():
            return candidate
    raise FileNotFoundError("registrations-29.csv")


class Command(LangCommand):  # --lang it|en: messages in the operator's language
    help = "Crea l'arbitro e il torneo dimostrativo."

    def add_arguments(self, parser):
        parser.add_argument("--url", default="http://127.0.0.1:8000/",
                            help="Indirizzo del server (make run passa host e porta): su 127.0.0.1 la "
                                 "password demo fissa, altrimenti una casuale stampata una volta.")
        parser.add_argument("--reset-password", action="store_true",
                            help="Imposta e stampa una nuova password per l'arbitro demo.")

    def handle(self, *args, **options):
        User = get_user_model()
        username = os.environ.get("ARBITRO_DEMO_USER", "arbitro")
        local = is_loopback(host_of(options["url"]))
        user = User.objects.filter(username=username).first()
        shown = None
        if user is None:
            shown = self._new_password(local)
            user = User.objects.create_superuser(username=username, password=shown, email="")
        elif options["reset_password"] or (not local and user.check_password(DEMO_PASSWORD)):
            shown = self._new_password(local)
            user.set_password(shown)
            user.save(update_fields=["password"])
        elif local and user.check_password(DEMO_PASSWORD):
            shown = DEMO_PASSWORD  # public anyway (README), and only this machine can log in
        if not Tournament.objects.filter(slug=DEMO_SLUG).exists():
            self._create_demo(user)
        elif not user.directed_tournaments.filter(slug=DEMO_SLUG).exists():
            Tournament.objects.get(slug=DEMO_SLUG).arbiters.add(user)
        self._demo_fees(Tournament.objects.filter(slug=DEMO_SLUG).first(), user)
        if not Tournament.objects.filter(slug=NEXT_SLUG).exists():
            self._create_next(user)
        if shown is not None:
            self.stdout.write(self.style.SUCCESS(
                _("Arbitro demo  →  utente: %(username)s   password: %(password)s   (%(url)s)")
                % {"username": username, "password": shown, "url": options["url"]}
            ))
            if shown != DEMO_PASSWORD or not local:
                self.stdout.write(self.style.WARNING(
                    _("Annota la password ora: non verrà più stampata "
                      "(per una nuova: manage.py seed_demo --reset-password).")
                ))
        else:
            self.stdout.write(self.style.SUCCESS(
                _("Arbitro demo  →  utente: %(username)s   password: invariata, quella stampata la prima volta "
                  "(per una nuova: manage.py seed_demo --reset-password)   (%(url)s)")
                % {"username": username, "url": options["url"]}
            ))

    @staticmethod
    def _new_password(local: bool) -> str:
        """The explicit ``ARBITRO_DEMO_PASSWORD``, else the fixed demo password on loopback,
        else a random one; never the fixed demo password off loopback."""
        chosen = os.environ.get("ARBITRO_DEMO_PASSWORD")
        if chosen and (local or chosen != DEMO_PASSWORD):
            return chosen
        return DEMO_PASSWORD if local else random_password()

    def _create_demo(self, user):
        path = demo_registrations()
        try:
            from tournaments import simulation
        except ImportError:
            simulation = None
        if simulation is not None:
            simulation.simulate(
                registrations=path, plan="MMMD", hands=4, seed=29, stop_after=2, by=user,
                name="Torneo dimostrativo", slug=DEMO_SLUG,
            )
            return
        tournament = services.create_tournament(
            by=user, name="Torneo dimostrativo", slug=DEMO_SLUG, date=date.today(), venue="Circolo del Ponte"
        )
        parsed = registration_import.parse_for_tournament(tournament, path.name, path.read_bytes())
        services.import_pairs(tournament=tournament, rows=parsed.rows, by=user)

    @staticmethod
    def _demo_fees(tournament, user):
        """Rates on the demo tournament, the first three entrants paid (cash, card, cash) and
        one player of the fourth waived (rules.md §21), through ``money.services``. Skipped
        when the tournament is missing or already has rates (idempotent)."""
        from money import services as money_services
        from money.models import FeeSchedule
        from money.selectors import entrant_players

        if tournament is None or FeeSchedule.objects.filter(tournament=tournament).exists():
            return
        money_services.set_fees(tournament=tournament, by=user, member_rate="10.00", guest_rate="15.00",
                                pool_percent="50")
        for entrant, method in ((1, "cash"), (2, "card"), (3, "cash")):
            money_services.pay(tournament=tournament, by=user, entrant=entrant, method=method)
        fourth = next(p for p in entrant_players(tournament) if p.entrant_number == 4)
        money_services.waive(tournament=tournament, by=user, entrant=4, player_id=fourth.id,
                             reason="Socio onorario (demo)")

    @staticmethod
    def _create_next(user):
        """«Prossima serata»: a pairs tournament a week after today with bookings open (3
        pairs, a message) and a few bookings through ``bookings.services``: two pairs and one
        single «cerca compagno» (half a pair) fill 2½ places, so the last pair does not fit
        and joins the waiting list (rules.md §21)."""
        from bookings import services as booking_services
        from tournaments.player_data import PlayerData

        tournament = services.create_tournament(
            by=user, name="Prossima serata", slug=NEXT_SLUG, date=date.today() + timedelta(days=7),
            venue="Circolo del Ponte",
        )
        booking_services.open_bookings(tournament=tournament, cap=3,
                                       message="Prenotazioni aperte fino a esaurimento posti: "
                                               "inizio alle 21, arrivate alle 20:45.")

        def person(first, last, number=""):
            return PlayerData(first_name=first, last_name=last, membership_number=number)

        for players in ([person("Anna", "Rossi", "D101"), person("Marco", "Bianchi", "D102")],
                        [person("Giulia", "Verdi", "D103"), person("Luca", "Neri", "D104")],
                        [person("Sara", "Galli")],  # a single: «cerco compagno»
                        [person("Paolo", "Conti", "D105"), person("Elena", "Fontana", "D106")]):
            booking_services.book(tournament=tournament, players=players, contact="")
