"""``python manage.py prizes SLUG --set FILE.json`` / ``prizes SLUG --json`` (rules.md §18).

``--set`` replaces the tournament's prize list with the file's
``[{"prize": "1° assoluto", "scope": "overall" | "group:2" | "category:Dame"}, …]``;
``--json`` prints ``{"prizes": [{"prize": NAME, "entrant": N, "names": "Serra Anna – Santoro
Marta", "ex_aequo": false}, …]}`` in list order (``entrant`` and ``names`` null when nobody
is entitled), from the current standings. ``--cumulative yes|no`` sets whether an entrant may
win several prizes. Errors (a missing, too big, unreadable or too deeply nested file, a bad
list): one sentence, exit status 1.
"""
import json
from pathlib import Path

from django.core.management.base import CommandError
from django.utils.translation import gettext as _

from tournaments import pages
from tournaments.demo.simulation import simulator_user
from tournaments.errors import ArbiterError
from tournaments.management.lang import LangCommand
from tournaments.models import Tournament
from tournaments.services import prizes as prize_services
from tournaments.services import update_tournament
from tournaments.text import MAX_JSON_DEPTH, json_depth

MAX_FILE_BYTES = 1_000_000


class Command(LangCommand):
    help = "Imposta o stampa i premi di un torneo (rules.md §18)."

    def add_arguments(self, parser):
        parser.add_argument("slug")
        parser.add_argument("--set", dest="file", default=None, help="File JSON con l'elenco dei premi.")
        parser.add_argument("--cumulative", choices=["yes", "no"], default=None, help="Premi cumulabili?")
        parser.add_argument("--json", action="store_true", help="Stampa i premi e chi li vince.")

    def handle(self, *args, **o):
        tournament = Tournament.objects.filter(slug=o["slug"]).first()
        if tournament is None:
            raise CommandError(_("Torneo «%(slug)s» inesistente.") % {"slug": o["slug"]})
        by = tournament.created_by or simulator_user()
        try:
            if o["file"]:
                tournament = prize_services.set_prize_list(tournament=tournament, by=by,
                                                           prizes=self._read(Path(o["file"])))
            if o["cumulative"]:
                tournament = update_tournament(tournament=tournament, by=by,
                                               prizes_cumulative=o["cumulative"] == "yes")
        except ArbiterError as exc:
            raise CommandError(exc.message) from exc
        if o["json"] or not (o["file"] or o["cumulative"]):
            lines = pages.prizes.prize_awards(tournament)
            self.stdout.write(json.dumps(pages.prizes.prizes_json(lines), ensure_ascii=False))
        elif o["file"]:
            self.stdout.write(_("%(n)s premi impostati.") % {"n": len(tournament.prize_list)})

    def _read(self, path: Path):
        if not path.is_file():
            raise CommandError(_("File %(path)s inesistente.") % {"path": path})
        if path.stat().st_size > MAX_FILE_BYTES:
            raise CommandError(_("File %(path)s troppo grande.") % {"path": path})
        try:
            text = path.read_text(encoding="utf-8-sig")
        except UnicodeDecodeError as exc:
            raise CommandError(_("%(path)s non è un JSON valido: %(err)s.") % {"path": path, "err": exc}) from None
        # A prize list nests 2 levels (list, prize); the depth is counted before the parser,
        # whose recursion a file nested 100,000 deep would exhaust (a traceback, not a line).
        if json_depth(text) > MAX_JSON_DEPTH:
            raise CommandError(_("%(path)s: JSON annidato oltre %(n)s livelli.") % {"path": path, "n": MAX_JSON_DEPTH})
        try:
            return json.loads(text)
        except (ValueError, RecursionError) as exc:
            raise CommandError(_("%(path)s non è un JSON valido: %(err)s.") % {"path": path, "err": exc}) from None
