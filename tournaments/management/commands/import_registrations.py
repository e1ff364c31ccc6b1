"""``python manage.py import_registrations SLUG FILE [--club SLUG]``: all-or-nothing pair import.

The members the registrations link or create are the tournament's club's (rules.md §20);
``--club`` names that club (optional with one club on the server, required with several:
a tournament of another club is answered as unknown)."""
from pathlib import Path

from django.core.management.base import CommandError
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from clubs.commands import add_club_argument, club_option
from tournaments import services
from tournaments.errors import ArbiterError
from tournaments.kinds import kind_of
from tournaments.management.lang import LangCommand
from tournaments.models import Tournament
from tournaments.services import member_links


class Command(LangCommand):  # --lang it|en: messages in the operator's language
    help = "Importa le coppie da un file CSV o XLSX (tutto o niente)."

    def add_arguments(self, parser):
        parser.add_argument("slug")
        parser.add_argument("file")
        add_club_argument(parser)

    def handle(self, *args, slug, file, club=None, **options):
        club = club_option(club)
        tournament = Tournament.objects.filter(slug=slug, club=club).first()
        if tournament is None:
            raise CommandError(_("Torneo «%(slug)s» inesistente.") % {"slug": slug})
        path = Path(file)
        if not path.exists():
            raise CommandError(_("File %(file)s inesistente.") % {"file": file})
        parsed = kind_of(tournament).parse_registrations(tournament, path.name, path.read_bytes())
        if not parsed.ok:
            for error in parsed.errors:
                self.stderr.write(error)
            raise CommandError(ngettext("%(n)s errore: nessuna coppia importata.",
                                        "%(n)s errori: nessuna coppia importata.", len(parsed.errors))
                               % {"n": len(parsed.errors)})
        # rules.md §16: one line per unknown or expired membership number and per player
        # without one, before the count; when the tournament's setting for such a line is
        # "refuse", those lines go to stderr and nothing is imported.
        flags = member_links.row_flags(tournament, parsed.rows)
        refused = [line for line, refuse in flags if refuse]
        if refused:
            for line in refused:
                self.stderr.write(line)
            raise CommandError(ngettext("%(n)s giocatore rifiutato dal controllo delle tessere: nessuna "
                                        "iscrizione importata.",
                                        "%(n)s giocatori rifiutati dal controllo delle tessere: nessuna "
                                        "iscrizione importata.", len(refused)) % {"n": len(refused)})
        for line, _refuse in flags:
            self.stdout.write(line)
        try:
            count = services.import_pairs(tournament=tournament, rows=parsed.rows, by=services.Actor.system())
        except ArbiterError as exc:
            raise CommandError(exc.message) from exc
        self.stdout.write(ngettext("%(n)s coppia importata.", "%(n)s coppie importate.", count) % {"n": count})
