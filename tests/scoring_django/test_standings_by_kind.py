"""The standings read scripts import (``from tournaments.selectors import standings``) answers
for every kind of tournament by the stored ``Tournament.kind``, with no kind handed to the
selectors: one row per pair (rules.md §8), per player (§9), per team (§15).

Before any round is closed every entrant has a row with 0 VP, in number order, and the
standings are not final (rules.md §8: nothing played, nothing counted).
"""
import datetime

import pytest

from tournaments import services
from tournaments.models import Tournament
from tournaments.selectors import entrant_names, round_tables, standings, standings_after
from tournaments.services import PlayerData


def _tournament(arbiter, kind, **settings):
    return services.create_tournament(by=arbiter, name=f"Torneo {kind}", slug=f"torneo-{kind}",
                                      date=datetime.date(2026, 12, 1), kind=kind, **settings)


def test_pairs_rank_one_row_per_pair(tournament, make_pairs):
    make_pairs(tournament, 3)
    rows = standings(tournament)
    assert [r.pair for r in rows] == [1, 2, 3]
    assert all(r.vp == 0 for r in rows)


def test_an_individual_tournament_ranks_one_row_per_player(arbiter):
    t = _tournament(arbiter, "individual", plan="DDD")
    for k in range(1, 6):
        services.add_player(tournament=t, by=arbiter, player=PlayerData(first_name=f"Nome{k}", last_name=f"Cognome{k}"))
    view = standings_after(t)
    assert [r.pair for r in view.rows] == [1, 2, 3, 4, 5]
    assert view.after_round is None and view.final is False
    assert entrant_names(t)[2] == "Cognome2 Nome2"


def test_a_team_tournament_ranks_one_row_per_team(arbiter):
    t = _tournament(arbiter, "teams", plan="RRRRR", hands_per_round=4, vp_scale="vp20-4h")
    for k in (1, 2, 3):
        services.add_team(tournament=t, name=f"Squadra {k}", by=arbiter,
                          players=[PlayerData(first_name=f"N{j}", last_name=f"T{k}p{j}") for j in range(1, 5)])
    assert [r.pair for r in standings(t)] == [1, 2, 3]
    assert entrant_names(t) == {1: "Squadra 1", 2: "Squadra 2", 3: "Squadra 3"}


def test_an_unknown_kind_gets_a_sentence_not_a_guess():
    with pytest.raises(ValueError, match="unknown tournament kind"):
        standings_after(Tournament(kind="bridge", club=None))


def test_round_tables_is_still_read_from_the_package():
    assert round_tables.__module__ == "tournaments.selectors.rounds"
