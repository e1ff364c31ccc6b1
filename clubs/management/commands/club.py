"""``python manage.py club …``: the clubs of a hosted server (rules.md §20).

- ``club create SLUG --name NAME [--city C] [--code F]``
- ``club add-arbiter SLUG USER [--manager]`` (an existing role is changed)
- ``club remove-arbiter SLUG USER``
- ``club list [--json]``: slug, name, city, federation code, arbiters (managers marked)
- ``club grant-federation USER``: read-only view of every club

A refusal is one sentence and exit code 1, never a traceback.
"""
import json

from django.core.management.base import BaseCommand, CommandError

from clubs import services
from clubs.models import Club, ClubRole


class Command(BaseCommand):
    help = "Circoli del server: create, add-arbiter, remove-arbiter, list, grant-federation."

    def add_arguments(self, parser):
        sub = parser.add_subparsers(dest="action", required=True)
        create = sub.add_parser("create", help="Crea un circolo.")
        create.add_argument("slug")
        create.add_argument("--name", required=True)
        create.add_argument("--city", default="")
        create.add_argument("--code", default="", help="Codice federale (facoltativo).")
        add = sub.add_parser("add-arbiter", help="Aggiunge un arbitro (o responsabile) al circolo.")
        add.add_argument("slug")
        add.add_argument("username")
        add.add_argument("--manager", action="store_true", help="Responsabile del circolo.")
        remove = sub.add_parser("remove-arbiter", help="Toglie un arbitro dal circolo.")
        remove.add_argument("slug")
        remove.add_argument("username")
        listing = sub.add_parser("list", help="Elenca i circoli.")
        listing.add_argument("--json", action="store_true")
        grant = sub.add_parser("grant-federation", help="Dà a un account la vista federale (sola lettura).")
        grant.add_argument("username")

    def handle(self, *args, action, **options):
        try:
            getattr(self, "_" + action.replace("-", "_"))(**options)
        except services.ClubError as exc:
            raise CommandError(exc.message) from None

    @staticmethod
    def _club(slug: str) -> Club:
        club = Club.objects.filter(slug=slug).first()
        if club is None:
            raise services.ClubError(f"Nessun circolo «{slug}».")
        return club

    def _create(self, *, slug, name, city, code, **_):
        club = services.create_club(slug=slug, name=name, city=city, federation_code=code)
        self.stdout.write(f"Circolo creato: {club.slug} ({club.name})")

    def _add_arbiter(self, *, slug, username, manager, **_):
        role = services.add_arbiter(club=self._club(slug), username=username, manager=manager)
        self.stdout.write(f"{username}: {role.get_role_display()} di {role.club.slug}")

    def _remove_arbiter(self, *, slug, username, **_):
        services.remove_arbiter(club=self._club(slug), username=username)
        self.stdout.write(f"{username} tolto da {slug}")

    def _grant_federation(self, *, username, **_):
        services.grant_federation(username=username)
        self.stdout.write(f"{username}: ruolo federale (sola lettura su tutti i circoli)")

    def _list(self, *, json: bool = False, **_):
        rows = []
        for club in Club.objects.order_by("slug").prefetch_related("roles__user"):
            roles = sorted(club.roles.all(), key=lambda r: r.user.username)
            rows.append({"slug": club.slug, "name": club.name, "city": club.city,
                         "federation_code": club.federation_code,
                         "arbiters": [r.user.username for r in roles],
                         "managers": [r.user.username for r in roles if r.role == ClubRole.Role.MANAGER]})
        if json:
            self.stdout.write(_json_dump(rows))
            return
        for row in rows:
            people = ", ".join(u + (" (resp.)" if u in row["managers"] else "") for u in row["arbiters"]) or "—"
            self.stdout.write(f"{row['slug']}\t{row['name']}\t{row['city'] or '—'}\t"
                              f"{row['federation_code'] or '—'}\t{people}")


def _json_dump(rows) -> str:
    return json.dumps(rows, ensure_ascii=False, indent=1)
