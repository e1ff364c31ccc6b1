"""``python manage.py import_members FILE``: import a member list (rules.md §16), all or nothing."""
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from members import importer


class Command(BaseCommand):
    help = "Importa un elenco soci CSV o XLSX (tessera,cognome,nome,circolo,categoria,scadenza), tutto o niente."

    def add_arguments(self, parser):
        parser.add_argument("file")

    def handle(self, *args, file, **options):
        path = Path(file)
        if not path.is_file():
            raise CommandError(_("File %(file)s inesistente.") % {"file": file})
        parsed = importer.parse(path.name, path.read_bytes())
        if not parsed.ok:
            for error in parsed.errors:
                self.stderr.write(error)
            raise CommandError(ngettext("%(n)s errore: nessun socio importato.",
                                        "%(n)s errori: nessun socio importato.", len(parsed.errors))
                               % {"n": len(parsed.errors)})
        created, updated = importer.save(parsed, by=None, filename=path.name)
        self.stdout.write(_("Soci importati: %(created)s nuovi, %(updated)s aggiornati.")
                          % {"created": created, "updated": updated})
