"""``python manage.py import_members FILE [--club SLUG]``: import a member list into a club's registry
(rules.md §16, §20), all or nothing. ``--club`` is optional with one club on the server."""
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from clubs.commands import add_club_argument, club_option
from members import importer


class Command(BaseCommand):
    help = "Importa un elenco soci CSV o XLSX (tessera,cognome,nome,circolo,categoria,scadenza), tutto o niente."

    def add_arguments(self, parser):
        parser.add_argument("file")
        add_club_argument(parser)

    def handle(self, *args, file, club=None, **options):
        club = club_option(club)
        path = Path(file)
        if not path.is_file():
            raise CommandError(_("File %(file)s inesistente.") % {"file": file})
        parsed = importer.parse(path.name, path.read_bytes(), club=club)
        if not parsed.ok:
            for error in parsed.errors:
                self.stderr.write(error)
            raise CommandError(ngettext("%(n)s errore: nessun socio importato.",
                                        "%(n)s errori: nessun socio importato.", len(parsed.errors))
                               % {"n": len(parsed.errors)})
        created, updated = importer.save(parsed, club=club, by=None, filename=path.name)
        self.stdout.write(_("Soci importati: %(created)s nuovi, %(updated)s aggiornati.")
                          % {"created": created, "updated": updated})
