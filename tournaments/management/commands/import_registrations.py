"""``python manage.py import_registrations SLUG FILE``: all-or-nothing pair import."""
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from tournaments import registrations, services
from tournaments.errors import ArbiterError
from tournaments.models import Tournament


class Command(BaseCommand):
    help = "Importa le coppie da un file CSV o XLSX (tutto o niente)."

    def add_arguments(self, parser):
        parser.add_argument("slug")
        parser.add_argument("file")

    def handle(self, *args, slug, file, **options):
        tournament = Tournament.objects.filter(slug=slug).first()
        if tournament is None:
            raise CommandError(f"Torneo «{slug}» inesistente.")
        path = Path(file)
        if not path.exists():
            raise CommandError(f"File {file} inesistente.")
        parsed = registrations.parse_for_tournament(tournament, path.name, path.read_bytes())
        if not parsed.ok:
            for error in parsed.errors:
                self.stderr.write(error)
            raise CommandError(f"{len(parsed.errors)} errori: nessuna coppia importata.")
        try:
            count = services.import_pairs(tournament=tournament, rows=parsed.rows, by=services.Actor.system())
        except ArbiterError as exc:
            raise CommandError(exc.message) from exc
        self.stdout.write(f"{count} coppie importate.")
