"""Pair tournaments (rules.md §1–§8): the entrants are registered pairs, each seated as one
line; Mitchell, Danish and round-robin rounds, with groups (rules.md §14, §19)."""
from __future__ import annotations

from django.utils.translation import gettext as _

from .. import selectors
from ..models import Tournament
from ._groups import pair_group_lists
from ._pair_requests import active_pair_numbers, build_pair_request
from ._pair_tables import (
    keep_pair_findings,
    pair_entrants_changed,
    pair_groups_sentence,
    pair_response_from_round,
    pair_standings_changed,
    resting_pair_number,
    swap_pair_seats,
    write_pair_tables,
)


class PairsKind:
    """The pair tournament (``Tournament.Kind.PAIRS``): see :class:`tournaments.kinds.base.Kind`."""

    name = Tournament.Kind.PAIRS
    url_word = "coppia"
    audit_key = "pair"
    minimum_to_draw = 2
    has_groups = True
    first_round_by_hand = False
    idle_entrants_share_a_table = True

    def entrants(self, tournament):
        return tournament.pairs.filter(round__isnull=True)

    def group_entrants(self, tournament):
        return tournament.pairs

    def active_numbers(self, tournament, round_number):
        return active_pair_numbers(tournament, round_number)

    def too_few_to_draw(self):
        return _("Servono almeno due coppie in gara per generare un turno.")

    def group_lists(self, tournament):
        return pair_group_lists(tournament)

    def groups_sentence(self, key):
        return pair_groups_sentence(key)

    def pairing_request(self, tournament, number, *, seed=None):
        return build_pair_request(tournament, number, seed=seed)

    def round_system(self, tournament, number, request):
        return request["system"]

    def write_tables(self, rnd, response):
        write_pair_tables(rnd, response)

    def response_from_round(self, rnd):
        return pair_response_from_round(rnd)

    def keep_engine_findings(self, response, engine):
        keep_pair_findings(response, engine)

    def seated_numbers(self, rnd):
        return list(rnd.seats.values_list("pair__number", flat=True))

    def swap_in_draft(self, rnd, a, b):
        return swap_pair_seats(rnd, a, b)

    def resting_number(self, rnd):
        return resting_pair_number(rnd)

    def standings_after(self, tournament, after_round):
        return selectors.pair_standings_after(tournament, *selectors.standings_window(tournament, after_round))

    def names(self, tournament):
        return selectors.pair_names(tournament)

    def applied_tiebreaks(self, tournament):
        return tournament.tiebreak_order

    def entrants_changed_sentences(self, gone, added):
        return pair_entrants_changed(gone, added)

    def standings_changed_sentence(self, round_number, changed):
        return pair_standings_changed(round_number, changed)

    def penalty_refusal(self, target):
        return {"pair": None,
                "player": _("In un torneo a coppie la penalità va a una coppia, non a un giocatore."),
                "team": _("Solo in un torneo a squadre una penalità va a una squadra.")}[target]

    def registration_refusal(self, entrant):
        return {"player": _("Questo torneo è a coppie: i giocatori si iscrivono in coppia."),
                "team": _("Questo torneo non è a squadre.")}[entrant]


PAIRS = PairsKind()
