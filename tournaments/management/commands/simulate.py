"""``python manage.py simulate --registrations FILE --plan MMMD --hands 4 --seed N --out DIR
[--club SLUG]`` (``--club``: the owning club, rules.md §20; optional with one club on the server).

``--kind individual``: an individual tournament (rules.md §9), registrations with the columns
``giocatore,cognome,nome,tessera,circolo``; ``results.json`` tables carry ``"ns": [p, q]``,
``"ew": [r, s]`` and rounds ``"rest"`` (players with their VP).

``--plan 'MMD|DD'``: ``|`` splits sessions (five rounds in two sessions); each round of
``results.json`` carries ``"session": k`` (1-based).

``--kind teams``: a team tournament (rules.md §15), registrations with the columns
``squadra,nome_squadra,cognome,nome,tessera,circolo``; ``results.json`` rounds carry ``tables``
with ``ns_team``/``ew_team``, ``matches`` and ``bye`` per team, standings per team.
``--plan RRRRR``: round-robin rounds (rules.md §14); ``--groups G --group-split lot|snake``
splits the pairs into G groups first (lot seeded with ``--seed``): ``R`` rounds are a round
robin per group, ``D`` and ``M`` rounds are paired within each group (rules.md §19);
``results.json`` then has ``tournament.groups`` (pair numbers per group), ``byes`` per round
and ``group_standings``.

``--date YYYY-MM-DD``: the tournament's date (the evening played; default today).

Creates a fresh tournament (slug made unique), imports the registrations and plays every
round with random hands through the same services as the arbiter's pages
(``tournaments.demo.simulation``). Writes into DIR: ``standings.pdf``, ``standings.xlsx``,
``results.json`` and, per round K, ``scoresheets-round-K.pdf`` and ``tablelist-round-K.pdf``.

``--owner USERNAME``: the arbiter account the tournament belongs to (a tournament belongs to
its arbiters: it appears in his list and he signs the writes). Without it the tournament
belongs to the 'simulatore' user, and only superusers see it in the browser.
"""
import datetime
import time
from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.management.base import CommandError
from django.utils.translation import gettext as _

from clubs.commands import add_club_argument, club_option
from scoring.vp import ScaleError
from tournaments.demo import simulation
from tournaments.errors import ArbiterError
from tournaments.management.lang import LangCommand
from tournaments.wording import by_kind


class Command(LangCommand):  # --lang it|en: messages in the operator's language
    help = "Simula un torneo completo con smazzate casuali e scrive documenti e risultati."

    def add_arguments(self, parser):
        parser.add_argument("--registrations", required=True, help="File delle iscrizioni (CSV o XLSX).")
        parser.add_argument("--plan", default="MMMD", help="Piano dei turni, es. MMMD o RRRRR; | separa le sessioni, es. 'MMD|DD'.")
        parser.add_argument("--hands", type=int, default=4, help="Smazzate per turno.")
        parser.add_argument("--seed", type=int, default=1, help="Seme: stesso seme, stessi risultati.")
        parser.add_argument("--out", required=True, help="Cartella dove scrivere i file.")
        parser.add_argument("--name", default="Torneo simulato", help="Nome del torneo.")
        parser.add_argument("--slug", default=None, help="Indirizzo breve del torneo (reso unico).")
        parser.add_argument("--stop-after", type=int, default=None, help="Gioca solo i primi N turni.")
        parser.add_argument("--kind", default="pairs", choices=["pairs", "individual", "teams"],
                            help="Tipo di torneo: pairs (a coppie) o individual (individuale, file con le "
                                 "colonne giocatore,cognome,nome,tessera,circolo).")
        parser.add_argument("--groups", type=int, default=1,
                            help="Gironi: i turni R (girone all'italiana), D (danese) e M (Mitchell) si "
                                 "giocano in ogni girone; 1 = nessuna divisione.")
        parser.add_argument("--date", default=None,
                            help="Data del torneo (la serata), AAAA-MM-GG; senza: oggi.")
        parser.add_argument("--group-split", choices=["lot", "snake"], default="snake",
                            help="Divisione nei gironi: lot (sorteggio col seme) o snake (serpentina).")
        add_club_argument(parser)
        parser.add_argument("--owner", default=None,
                            help="Nome utente dell'arbitro a cui appartiene il torneo (manage.py create_arbiter).")

    def handle(self, *args, **o):
        club = club_option(o.get("club"))  # rules.md §20: optional with one club on the server
        path = Path(o["registrations"])
        if not path.exists():
            raise CommandError(_("File %(path)s inesistente.") % {"path": path})
        owner = None
        if o["owner"]:
            owner = get_user_model().objects.filter(username=o["owner"], is_active=True).first()
            if owner is None:
                raise CommandError(_("Nessun arbitro con nome utente «%(username)s» (crealo con manage.py "
                                     "create_arbiter %(username)s).") % {"username": o["owner"]})
        evening = None
        if o["date"]:
            try:
                evening = datetime.date.fromisoformat(o["date"])
            except ValueError:
                raise CommandError(_("Data non valida: %(value)s (scrivila come AAAA-MM-GG, es. 2026-12-03).")
                                   % {"value": o["date"]}) from None
        started = time.perf_counter()
        try:
            tournament = simulation.simulate(
                registrations=path, plan=o["plan"], hands=o["hands"], seed=o["seed"], name=o["name"], by=owner,
                slug=o["slug"], stop_after=o["stop_after"], out=Path(o["out"]), kind=o["kind"],
                groups=o["groups"], group_split=o["group_split"], date=evening, club=club,
            )
        except ArbiterError as exc:
            for detail in exc.details:
                self.stderr.write(detail)
            raise CommandError(exc.message) from exc
        except ScaleError as exc:
            raise CommandError(str(exc)) from exc
        elapsed = time.perf_counter() - started
        entrants = by_kind(tournament, pairs=_("%(n)s coppie") % {"n": tournament.pairs.filter(round__isnull=True).count()},
                           teams=_("%(n)s squadre") % {"n": tournament.teams.count()},
                           individual=_("%(n)s giocatori") % {"n": tournament.players.count()})
        self.stdout.write(self.style.SUCCESS(
            _("Torneo «%(name)s» (%(slug)s): %(entrants)s, %(rounds)s turni giocati in %(seconds)s s; "
              "file in %(out)s")
            % {"name": tournament.name, "slug": tournament.slug, "entrants": entrants,
               "rounds": tournament.rounds.filter(state="closed").count(), "seconds": f"{elapsed:.1f}",
               "out": o["out"]}
        ))
