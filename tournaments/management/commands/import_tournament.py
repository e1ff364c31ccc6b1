"""``python manage.py import_tournament FILE.json [--slug NEW] [--name NAME] [--owner USERNAME]
[--club SLUG]`` (``--club``: the club owning the copy, rules.md §20; optional with one club).

Creates the tournament of a file written by ``export_tournament``, all or
nothing; refused when the version is unknown. Without ``--slug`` a short address (slug)
already used on this server becomes "…-copia" (``-copia-2``, …), said on the output; a
``--slug`` already used is refused. Without ``--name`` a name already used on this server
gets " (copia)".
"""
from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from clubs.commands import add_club_argument, club_option
from tournaments import transfer
from tournaments.errors import ArbiterError
from tournaments.services import Actor


class Command(BaseCommand):
    help = "Importa un torneo da un file JSON di export_tournament (tutto o niente)."

    def add_arguments(self, parser):
        parser.add_argument("file")
        parser.add_argument("--slug", help="indirizzo breve del torneo importato (senza: quello del file, con "
                                           "«-copia» se un torneo con quell'indirizzo esiste già)")
        parser.add_argument("--name", help="nome del torneo importato (senza: quello del file, con «(copia)» "
                                           "se un torneo con quel nome esiste già)")
        parser.add_argument("--owner", help="nome utente del proprietario e unico arbitro della copia (gli account "
                                            "del file non sono mai applicati né creati)")
        add_club_argument(parser)

    def handle(self, *args, file, slug=None, name=None, owner=None, club=None, **options):
        club = club_option(club)
        path = Path(file)
        if not path.is_file():
            raise CommandError(f"File {file} inesistente.")
        owner_user = None
        if owner:
            User = get_user_model()
            owner_user = User.objects.filter(**{User.USERNAME_FIELD: owner}).first()
            if owner_user is None:
                raise CommandError(f"Utente «{owner}» inesistente: nulla è stato importato.")
        try:
            result = transfer.import_tournament(data=path.read_bytes(), slug=slug, owner=owner_user,
                                                name=name, rename_if_taken=True, reslug_if_taken=True,
                                                by=Actor.arbiter(owner_user) if owner_user else Actor.system(),
                                                create_scales=True,  # the server's administrator
                                                club=club)
        except transfer.SlugTakenError as exc:
            raise CommandError(f"Esiste già un torneo con l'indirizzo breve «{exc.slug}»: scegline un altro "
                               "con --slug NUOVO. Nulla è stato importato.") from exc
        except ArbiterError as exc:
            for detail in exc.details:
                self.stderr.write(str(detail))
            raise CommandError(exc.message) from exc
        for message in result.messages:
            self.stdout.write(message)
        if not slug and result.tournament.slug != result.file_slug:
            self.stdout.write(f"L'indirizzo breve del file «{result.file_slug}» è già usato: il torneo ha "
                              f"l'indirizzo breve «{result.tournament.slug}».")
        self.stdout.write(f"Torneo «{result.tournament.name}» ({result.tournament.slug}) importato.")
