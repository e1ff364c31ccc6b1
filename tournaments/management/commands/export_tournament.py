"""``python manage.py export_tournament SLUG FILE.json``: a whole tournament as one file.

The file is SECRET: it holds the captains' links and the tables' PINs.
"""
import os
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from tournaments import transfer
from tournaments.models import Tournament


class Command(BaseCommand):
    help = ("Esporta un torneo intero in un file JSON (versionato, deterministico). Il file è SEGRETO: "
            "contiene i link dei capitani e i PIN dei tavoli.")

    def add_arguments(self, parser):
        parser.add_argument("slug")
        parser.add_argument("file", help="il file da scrivere; - per l'uscita standard")

    def handle(self, *args, slug, file, **options):
        tournament = Tournament.objects.filter(slug=slug).first()
        if tournament is None:
            raise CommandError(f"Torneo «{slug}» inesistente.")
        data = transfer.export_tournament(tournament)
        if file == "-":
            self.stdout.write(data.decode("utf-8"), ending="")
            return
        path = Path(file)
        tmp = path.with_name(path.name + ".part")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)  # secret: owner only
        with os.fdopen(fd, "wb") as out:
            out.write(data)
        tmp.replace(path)
        self.stdout.write(f"Torneo «{slug}» esportato in {path} ({len(data)} byte). "
                          "Il file è segreto: contiene i link dei capitani e i PIN.")
