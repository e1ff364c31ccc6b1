"""``python manage.py seed_demo``: a demo arbiter and a demo tournament (29 pairs).

Idempotent: running it again leaves an existing demo alone. Prints the arbiter's
credentials. The demo tournament is played with the same services the views use
(``tournaments.simulation``) and stopped after round 2, when that module exists.
"""
import os
from datetime import date
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand

from tournaments import registrations, services
from tournaments.models import Tournament

DEMO_SLUG = "demo"


def demo_registrations() -> Path:
    here = Path(settings.BASE_DIR)
    for candidate in (here / "tournaments" / "demo" / "registrations-29.csv",
                      here.parent / "shared" / "data" / "registrations-29.csv"):
        if candidate.exists():
            return candidate
    raise FileNotFoundError("registrations-29.csv")


class Command(BaseCommand):
    help = "Crea l'arbitro e il torneo dimostrativo."

    def add_arguments(self, parser):
        parser.add_argument("--url", default="http://127.0.0.1:8000/",
                            help="Indirizzo del server da stampare (make run passa host e porta).")

    def handle(self, *args, **options):
        User = get_user_model()
        username = os.environ.get("ARBITRO_DEMO_USER", "arbitro")
        password = os.environ.get("ARBITRO_DEMO_PASSWORD", "burraco2026")
        user = User.objects.filter(username=username).first()
        if user is None:
            user = User.objects.create_superuser(username=username, password=password, email="")
        if not Tournament.objects.filter(slug=DEMO_SLUG).exists():
            self._create_demo(user)
        self.stdout.write(self.style.SUCCESS(
            f"Arbitro demo  →  utente: {username}   password: {password}   ({options['url']})"
        ))

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
        parsed = registrations.parse_for_tournament(tournament, path.name, path.read_bytes())
        services.import_pairs(tournament=tournament, rows=parsed.rows, by=user)
