"""``python manage.py simultaneous create|join|standings`` (rules.md §20), for the server's
operator and scripts.

- ``simultaneous create SLUG --name NAME --date YYYY-MM-DD --plan PLAN --hands H [--scale S]
  [--kind pairs|individual] [--tiebreaks LIST] [--rest-percent P] [--public] --clubs A,B,…``: prints
  the slug (``--public``: the combined standings' public page and projector on);
- ``simultaneous join SLUG TOURNAMENT_SLUG``: attaches a club's tournament made elsewhere
  (any state, finished included) when its club is invited and its settings and date are the
  event's;
- ``simultaneous prizes SLUG "NAME | SCOPE"…``: the prize list (scope ``overall`` or
  ``club:SLUG``, rules.md §18), replacing the previous one; ``--show`` prints the winners;
- ``simultaneous standings SLUG [--json]``: the combined standings, ``{"final": bool,
  "rows": [{"club", "tournament", "entrant", "names", "vp", "mp_diff", "position",
  "club_position"}, …]}``; without ``--json`` a plain text table.

Any refusal is one sentence on stderr and exit status 1.
"""
from __future__ import annotations

import json

from django.core.management.base import CommandError
from django.utils.translation import gettext as _

from simultaneous import selectors, services
from simultaneous.models import SimultaneousEvent
from tournaments.errors import ArbiterError
from tournaments.management.lang import SentenceCommand, whole_number
from tournaments.models import Tournament


class Command(SentenceCommand):
    help = "Crea una serata simultanea, vi aggiunge i tornei dei circoli, stampa la classifica combinata (rules.md §20)."

    def add_arguments(self, parser):
        sub = parser.add_subparsers(dest="action", required=True, parser_class=self.parser_class)
        create = sub.add_parser("create", help="Crea una serata simultanea.")
        create.add_argument("slug")
        create.add_argument("--name", required=True)
        create.add_argument("--date", required=True, help="AAAA-MM-GG")
        create.add_argument("--plan", required=True, help="Lettere dei turni, es. MMMD.")
        create.add_argument("--hands", required=True, help="Smazzate per turno.")
        create.add_argument("--scale", default=None, help="Tabella VP pubblicata (predefinita: quella delle smazzate).")
        create.add_argument("--kind", default=Tournament.Kind.PAIRS, help="pairs o individual.")
        create.add_argument("--tiebreaks", default=None, help="es. vp,mp_difference,head_to_head,mp_scored")
        create.add_argument("--rest-percent", default="70", help="Riposo: %% dei VP massimi.")
        create.add_argument("--clubs", required=True, help="Circoli invitati: A,B,…")
        create.add_argument("--public", action="store_true", help="Pagina pubblica e proiettore attivi.")
        join = sub.add_parser("join", help="Aggiunge il torneo di un circolo.")
        join.add_argument("slug")
        join.add_argument("tournament", metavar="TOURNAMENT_SLUG")
        prizes = sub.add_parser("prizes", help="Premi della serata: \"NOME | overall\" o \"NOME | club:SLUG\".")
        prizes.add_argument("slug")
        prizes.add_argument("prizes", nargs="*", metavar="PRIZE")
        prizes.add_argument("--show", action="store_true", help="Stampa i vincitori.")
        show = sub.add_parser("standings", help="Classifica combinata.")
        show.add_argument("slug")
        show.add_argument("--json", action="store_true")

    def handle(self, *args, **o):
        try:
            getattr(self, "_" + o["action"])(o)
        except ArbiterError as exc:
            raise CommandError(exc.message) from exc

    def _event(self, slug) -> SimultaneousEvent:
        event = SimultaneousEvent.objects.filter(slug=slug).first()
        if event is None:
            raise CommandError(_("Nessuna serata simultanea «%(slug)s».") % {"slug": slug})
        return event

    def _create(self, o):
        event = services.create_event(
            slug=o["slug"], name=o["name"], date=o["date"], plan=o["plan"], hands=whole_number(o["hands"]),
            scale=o["scale"], kind=o["kind"], tiebreaks=o["tiebreaks"], bye_percent=o["rest_percent"],
            clubs=o["clubs"].split(","), public=o["public"])
        self.stdout.write(event.slug)

    def _join(self, o):
        event = self._event(o["slug"])
        tournament = Tournament.objects.filter(slug=o["tournament"]).first()
        if tournament is None:
            raise CommandError(_("Nessun torneo «%(slug)s».") % {"slug": o["tournament"]})
        services.join(event=event, tournament=tournament)
        self.stdout.write(_("Torneo %(t)s aggiunto alla serata simultanea %(event)s.") % {
            "t": tournament.slug, "event": event.slug})

    def _prizes(self, o):
        event = self._event(o["slug"])
        if o["prizes"]:
            items = []
            for text in o["prizes"]:
                name, sep, scope = text.rpartition("|")
                items.append({"prize": name.strip() if sep else text.strip(), "scope": scope.strip() if sep else ""})
            services.set_prize_list(event=event, prizes=items)
        if o["show"] or not o["prizes"]:
            for award in selectors.prize_awards(event):
                winner = (f"{award.row.names} ({award.row.club.slug})" + (" ex aequo" if award.ex_aequo else "")
                          if award.row else "—")
                self.stdout.write(f"{award.name}\t{winner}")

    def _standings(self, o):
        view = selectors.combined_standings(self._event(o["slug"]))
        if o["json"]:
            self.stdout.write(json.dumps(selectors.standings_json(view), ensure_ascii=False))
            return
        self.stdout.write(_("Classifica definitiva") if view.final else _("Classifica provvisoria"))
        for r in view.rows:
            self.stdout.write(f"{r.position_label:>4}  {r.club.slug:<12} {r.club_position_label:>4}  "
                              f"{r.names:<40} {r.vp:>7}  {r.mp_difference:>6}")
