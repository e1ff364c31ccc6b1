"""Team tournaments (rules.md §14–§15): the entrants are teams of four or more players; each
paired "table" of the engine is a match of two tables with crossed lines. The round cycle's
request, matches and read-back live in :mod:`._team_rounds`."""
from __future__ import annotations

from django.utils.translation import gettext as _

from .. import selectors, team_selectors
from ..errors import ArbiterError
from ..models import Tournament
from ._team_rounds import (  # noqa: F401  (the team round cycle, importable from its kind)
    active_teams,
    build_team_request,
    clear_round,
    seated_teams,
    swap_teams_in_draft,
    team_response_from_round,
    write_match,
    write_team_matches,
)
from ._pair_tables import keep_pair_findings, pair_entrants_changed, pair_standings_changed


class TeamsKind:
    """The team tournament (``Tournament.Kind.TEAMS``): see :class:`tournaments.kinds.base.Kind`."""

    name = Tournament.Kind.TEAMS
    url_word = "squadra"
    audit_key = "team"
    minimum_to_draw = 2
    has_groups = True
    first_round_by_hand = False
    idle_entrants_share_a_table = False  # a resting team has a match without tables

    def entrants(self, tournament):
        return tournament.teams.all()

    def group_entrants(self, tournament):
        return tournament.teams.all()

    def active_numbers(self, tournament, round_number):
        return active_teams(tournament, round_number)

    def too_few_to_draw(self):
        return _("Servono almeno due squadre in gara per generare un turno.")

    def group_lists(self, tournament):
        return team_selectors.group_lists(tournament)

    def groups_sentence(self, key):
        return {
            "no_group": _("Le squadre %(pairs)s non hanno un girone: dividi di nuovo le squadre nei gironi."),
            "too_small": _("Il girone %(group)s ha meno di 2 squadre: dividi di nuovo le squadre nei gironi."),
            "too_many": _("Con %(pairs)s squadre si fanno al massimo %(max)s gironi (almeno 2 squadre per girone)."),
            "hand_missing": _("Manca il girone delle squadre %(pairs)s."),
            "hand_range": _("Il girone della squadra %(pair)s deve essere tra 1 e %(max)s."),
            "hand_small": _("Il girone %(group)s ha meno di 2 squadre: ogni girone ne vuole almeno 2."),
        }[key]

    def pairing_request(self, tournament, number, *, seed=None):
        return build_team_request(tournament, number, seed=seed)

    def round_system(self, tournament, number, request):
        return request["system"]

    def write_tables(self, rnd, response):
        # each answered table is a match of two tables (rules.md §15)
        write_team_matches(rnd, response)

    def response_from_round(self, rnd):
        return team_response_from_round(rnd)

    def keep_engine_findings(self, response, engine):
        keep_pair_findings(response, engine)

    def seated_numbers(self, rnd):
        return seated_teams(rnd)

    def swap_in_draft(self, rnd, a, b):
        swap_teams_in_draft(rnd, a, b)
        return {"teams": [a, b]}

    def resting_number(self, rnd):
        resting_match = rnd.matches.filter(bye="rest").select_related("team_a").first()
        if resting_match is None:
            raise ArbiterError(_("In questo turno non riposa nessuna squadra (numero pari di squadre)."))
        return resting_match.team_a.number

    def standings_after(self, tournament, after_round):
        return selectors.team_standings_after(tournament, *selectors.standings_window(tournament, after_round))

    def names(self, tournament):
        return selectors.team_names(tournament)

    def applied_tiebreaks(self, tournament):
        return tournament.tiebreak_order

    def entrants_changed_sentences(self, gone, added):
        # the drafts of a team tournament have always named the entrants as pairs
        return pair_entrants_changed(gone, added)

    def standings_changed_sentence(self, round_number, changed):
        return pair_standings_changed(round_number, changed)

    def penalty_refusal(self, target):
        return {"pair": _("In un torneo a squadre la penalità va a una squadra, non a una coppia."),
                "player": _("In un torneo a squadre la penalità va a una squadra, non a un giocatore."),
                "team": None}[target]

    def registration_refusal(self, entrant):
        # a team tournament registers players only inside a team
        return {"player": _("Questo torneo è a coppie: i giocatori si iscrivono in coppia."),
                "team": None}[entrant]


TEAMS = TeamsKind()
