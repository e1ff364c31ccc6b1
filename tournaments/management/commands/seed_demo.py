"""``python manage.py seed_demo [--club SLUG]``: a demo arbiter and a demo tournament (29 pairs),
in the club ``--club`` names (rules.md §20; optional with one club on the server).

Idempotent: running it again leaves an existing demo alone. The demo tournament is played
with the same services the views use (``tournaments.demo.simulation``) and stopped after round
2, when that module exists; it belongs to the demo arbiter. Then the steps other apps add
(``tournaments.demo``): the cash desk's rates, payments and a waiver (``money.demo``), and a
future evening «Prossima serata» with open bookings (``bookings.demo``), so the public
booking page and the «Cassa» page show something on a fresh clone.

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
from datetime import date
from pathlib import Path
from urllib.parse import urlsplit

from django.conf import settings
from django.contrib.auth import get_user_model
from django.utils.translation import gettext as _

from clubs.commands import add_club_argument, club_option
from tournaments import services
from tournaments.demo import DEMO_SLUG, extra_steps
from tournaments.kinds import kind_of
from tournaments.management.commands.create_arbiter import random_password
from tournaments.management.lang import LangCommand
from tournaments.models import Tournament

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
        add_club_argument(parser)

    def handle(self, *args, **options):
        club = club_option(options.get("club"))  # rules.md §20: optional with one club on the server
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
            self._club = club
            self._create_demo(user)
        elif not user.directed_tournaments.filter(slug=DEMO_SLUG).exists():
            Tournament.objects.get(slug=DEMO_SLUG).arbiters.add(user)
        for step in extra_steps():  # the other apps' parts of the demo (fees, bookings)
            step(user)
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
        club = getattr(self, "_club", None)  # --club (handle)
        path = demo_registrations()
        try:
            from tournaments.demo import simulation
        except ImportError:
            simulation = None
        if simulation is not None:
            simulation.simulate(
                registrations=path, plan="MMMD", hands=4, seed=29, stop_after=2, by=user,
                name="Torneo dimostrativo", slug=DEMO_SLUG, club=club,
            )
            return
        tournament = services.create_tournament(
            by=user, club=club, name="Torneo dimostrativo", slug=DEMO_SLUG, date=date.today(), venue="Circolo del Ponte"
        )
        parsed = kind_of(tournament).parse_registrations(tournament, path.name, path.read_bytes())
        services.import_pairs(tournament=tournament, rows=parsed.rows, by=user)
