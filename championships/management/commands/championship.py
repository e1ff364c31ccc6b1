"""``python manage.py championship create|add|standings`` (rules.md §17), for scripts and checks.

- ``championship create SLUG --name NAME --points RULE [--best N] [--min-evenings M]
  [--owner USER] [--club SLUG] TOURNAMENT_SLUG…``: prints the slug (``--club``: the owning
  club, optional with one club on the server);
- ``championship create SLUG … --clubs A,B,C [--owner USER] [TOURNAMENT_SLUG…]``: a circuit
  (rules.md §20) of those clubs, the first owning it, all in at once (the operator needs no
  acceptance); without ``--owner`` it has no owner account (superusers manage it); the
  evenings of those clubs are accepted whoever directs them;
- ``championship add SLUG TOURNAMENT_SLUG…``: adds evenings (next week's); in a circuit any
  evening of a club invited into it, accepted or not (another club's: refused);
- ``championship standings SLUG --json``: ``{"rows": [{"membership_number", "name",
  "points", "evenings", "counted", "position"}, …]}`` in standings order (a circuit's rows
  also ``"club"``: the slug of the member's club); without ``--json`` a plain text table.

Any error (a bad rule, a missing tournament, one the owner does not direct, a bad
argument) is one sentence on stderr and exit status 1. Without ``--owner`` the owner is the
only superuser when there is exactly one.
"""
from __future__ import annotations

import json

from django.contrib.auth import get_user_model
from django.core.management.base import CommandError
from django.utils.translation import gettext as _

from championships import selectors, services
from championships.models import Championship
from clubs.commands import add_club_argument, club_option
from tournaments.errors import ArbiterError
from tournaments.management.lang import SentenceCommand, SentenceParser, whole_number


class _SentenceParser(SentenceParser):
    """A :class:`SentenceParser` letting tournament slugs follow the options."""

    def parse_args(self, args=None, namespace=None):
        """As argparse, but tournament slugs may also follow the options
        (``create SLUG --name N gio-1 gio-2``: argparse alone stops at the first option)."""
        options, extra = self.parse_known_args(args, namespace)
        if extra and (any(e.startswith("-") for e in extra) or not hasattr(options, "tournaments")):
            self.error(_("argomenti non riconosciuti: %(a)s") % {"a": " ".join(extra)})
        if extra:
            options.tournaments = list(options.tournaments or []) + extra
        return options


class Command(SentenceCommand):
    parser_class = _SentenceParser
    help = "Crea un campionato, aggiunge serate, stampa la classifica (rules.md §17)."

    def add_arguments(self, parser):
        sub = parser.add_subparsers(dest="action", required=True, parser_class=self.parser_class)
        create = sub.add_parser("create", help="Crea un campionato.")
        create.add_argument("slug")
        create.add_argument("tournaments", nargs="*", metavar="TOURNAMENT_SLUG")
        create.add_argument("--name", required=True)
        create.add_argument("--points", default="field", help="field, table:a,b,c… oppure vp")
        create.add_argument("--best", default=None, help="Conta le migliori N serate (predefinito: tutte).")
        create.add_argument("--min-evenings", default="1", help="Serate minime per la classifica.")
        create.add_argument("--owner", default=None, help="Nome utente dell'arbitro proprietario.")
        add_club_argument(create)
        create.add_argument("--clubs", default=None, metavar="A,B,C",
                            help="Circuito: i circoli (indirizzi brevi, il primo è il proprietario).")
        add = sub.add_parser("add", help="Aggiunge serate a un campionato.")
        add.add_argument("slug")
        add.add_argument("tournaments", nargs="+", metavar="TOURNAMENT_SLUG")
        show = sub.add_parser("standings", help="Classifica del campionato.")
        show.add_argument("slug")
        show.add_argument("--json", action="store_true")

    def handle(self, *args, **o):
        try:
            getattr(self, "_" + o["action"])(o)
        except ArbiterError as exc:
            raise CommandError(exc.message) from exc

    def _owner(self, username):
        User = get_user_model()
        if username:
            user = User.objects.filter(username=username, is_active=True).first()
            if user is None:
                raise CommandError(_("Nessun arbitro con nome utente «%(u)s».") % {"u": username})
            return user
        supers = list(User.objects.filter(is_superuser=True, is_active=True)[:2])
        if len(supers) != 1:
            raise CommandError(_("Indica il proprietario con --owner NOME_UTENTE."))
        return supers[0]

    def _championship(self, slug) -> Championship:
        championship = Championship.objects.filter(slug=slug).first()
        if championship is None:
            raise CommandError(_("Nessun campionato «%(slug)s».") % {"slug": slug})
        return championship

    def _create(self, o):
        best = None if o["best"] in (None, "") else whole_number(o["best"])
        if o.get("clubs") is not None:  # a circuit (rules.md §20): --club is not needed
            if o.get("club"):
                raise CommandError(_("Con --clubs non serve --club: il primo circolo di --clubs è il proprietario."))
            owner = self._owner(o["owner"]) if o["owner"] else None
            championship = services.create_circuit(
                slug=o["slug"], name=o["name"], clubs=o["clubs"].split(","), points=o["points"], best=best,
                min_evenings=whole_number(o["min_evenings"]), owner=owner, tournaments=o["tournaments"])
            self.stdout.write(championship.slug)
            return
        club = club_option(o.get("club"))  # rules.md §20: optional with one club on the server
        championship = services.create_championship(club=club,
            by=self._owner(o["owner"]), slug=o["slug"], name=o["name"], points=o["points"], best=best,
            min_evenings=whole_number(o["min_evenings"]), tournaments=o["tournaments"])
        self.stdout.write(championship.slug)

    def _add(self, o):
        championship = self._championship(o["slug"])
        # a circuit's evenings are added by the operator, whoever directs them (rules.md §20)
        by = None if selectors.is_circuit(championship) else championship.owner
        added = services.add_tournaments(championship=championship, by=by, tournaments=o["tournaments"])
        self.stdout.write(_("%(n)s serate aggiunte a %(slug)s.") % {"n": len(added), "slug": championship.slug})

    def _standings(self, o):
        view = selectors.standings(self._championship(o["slug"]))
        if o["json"]:
            self.stdout.write(json.dumps(selectors.standings_json(view), ensure_ascii=False))
            return
        for r in view.rows:
            club = f"{r.club_slug:<16} " if view.circuit else ""
            self.stdout.write(f"{r.position_label:>4}  {r.name:<40} {club}{r.total_text:>8}  {r.played}  "
                              f"{', '.join(r.counted)}")
