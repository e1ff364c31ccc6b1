"""Round trips of the other tournament kinds (file version 2): an
individual tournament and a round robin split into groups.

Export → import into an empty database → export: the same bytes, the same standings (per
group too), documents, PDF text, audit trail and captain links. Backend-agnostic: run on
SQLite and on PostgreSQL (scripts/with-postgres.sh)."""
import json

import pytest

from tests.conftest import DATA
from tests.transfer import tampering
from tests.transfer.conftest import empty_database, without_accounts
from tests.transfer.helpers import groups_snapshot, snapshot
from tournaments import transfer
from tournaments.models import LineMember, Pair, Penalty, Player, Round, Table


def people(tournament):
    """Players and every round's partnerships by natural keys."""
    players = sorted(Player.objects.filter(tournament=tournament).values_list(
        "number", "last_name", "status", "withdrawn_from_round", "late_entry"))
    lines = sorted(LineMember.objects.filter(round__tournament=tournament).values_list(
        "round__number", "pair__number", "pair__round__number", "seat", "player__number"))
    return players, lines


@pytest.fixture
def individual(db):
    """13 players (tests/data/players-13.csv), plan MMDD, 4 hands: rounds 1–2 played by the
    simulator, round 3 generated; then round 3 published, a sheet draft kept on its table 1,
    player 13 withdrawn from round 4 and a 1 VP penalty to player 5."""
    return tampering.individual_tournament(name="Individuale 13", slug="ind13")


def test_13_player_individual_round_trip_into_an_empty_database_gives_the_same_bytes(individual):
    first = transfer.export_tournament(individual)
    before = snapshot(individual), people(individual)
    empty_database()

    result = transfer.import_tournament(data=first)
    second = transfer.export_tournament(result.tournament)

    assert second == without_accounts(first)
    after = snapshot(result.tournament), people(result.tournament)
    assert after[0][0] == before[0][0] and len(after[0][0]) == 2       # standings after rounds 1–2
    assert after[0][1] == before[0][1] and "Rossi" in after[0][1]["standings.pdf"]  # player 1
    assert after[0][2] == before[0][2] and after[0][3] == before[0][3]  # audit trail, links and PINs
    assert after[1] == before[1]                                        # players and partnerships
    # 13 players: 3 tables of two partnerships (12 players) and one player resting, every round
    players, lines = after[1]
    assert [n for n, *_ in players] == list(range(1, 14))
    assert players[12] == (13, players[12][1], "withdrawn", 4, False)
    for number in (1, 2, 3):
        seated = [line for line in lines if line[0] == number]
        assert len(seated) == 13 and sorted(p for *_x, p in seated) == list(range(1, 14))
        assert all(formed_for == number for _r, _p, formed_for, _s, _n in seated)
        assert len({pair for _r, pair, *_x in seated}) == 7
    t = result.tournament
    penalty = Penalty.objects.get(tournament=t)
    assert (penalty.pair, penalty.player.number, penalty.vp) == (None, 5, 1)
    sheet = Table.objects.get(round__tournament=t, round__number=3, number=1).sheet
    assert sheet.state == "empty" and sheet.draft["cells"]["h1_ns"] == "150"
    assert t.kind == "individual"


def test_the_individual_file_names_players_and_partnerships_by_number(individual):
    doc = json.loads(transfer.export_tournament(individual))
    assert doc["version"] == 2 and doc["tournament"]["kind"] == "individual"
    assert [p["number"] for p in doc["players"]] == list(range(1, 14)) and {p["pair"] for p in doc["players"]} == {None}
    formed = {p["number"]: p["round"] for p in doc["pairs"]}
    assert set(formed.values()) == {1, 2, 3}                # no registered pair: all formed for a round
    r1 = doc["rounds"][0]
    assert all(formed[m["pair"]] == 1 for m in r1["line_members"])
    assert r1["line_members"] == sorted(r1["line_members"], key=lambda m: (m["pair"], m["seat"]))
    assert doc["penalties"][-1]["player"] == 5 and doc["penalties"][-1]["pair"] is None
    assert any(e["actor_code"] == "arbiter" for e in doc["audit"])


@pytest.fixture
def groups(db):
    """9 pairs in 2 groups by the snake (tests/simulation: g1 = 1 4 5 8 9, g2 = 2 3 6 7),
    plan RRR, all played."""
    from tournaments.demo.simulation import simulate

    return simulate(registrations=DATA / "registrations-9.csv", plan="RRR", hands=4, seed=5, groups=2,
                    group_split="snake", name="Gironi", slug="gironi")


def test_round_robin_in_two_groups_round_trip_into_an_empty_database(groups):
    first = transfer.export_tournament(groups)
    before = snapshot(groups), groups_snapshot(groups)
    empty_database()

    result = transfer.import_tournament(data=first)

    assert transfer.export_tournament(result.tournament) == without_accounts(first)
    after = snapshot(result.tournament), groups_snapshot(result.tournament)
    assert after == before
    assert len(after[0][0]) == 3 and [g for g, _rows in after[1]] == [1, 2]
    t = result.tournament
    assert (t.groups, t.group_split) == (2, "snake")
    # the snake: 1→g1 2→g2 / 3→g2 4→g1 / 5→g1 6→g2 / 7→g2 8→g1 / 9→g1
    assert dict(Pair.objects.filter(tournament=t).values_list("number", "group")) == {
        1: 1, 4: 1, 5: 1, 8: 1, 9: 1, 2: 2, 3: 2, 6: 2, 7: 2}
    assert sorted(pair for _pos, pair, _vp, _mp in dict(after[1])[2]) == [2, 3, 6, 7]
    assert all(r.system == Round.System.ROUND_ROBIN for r in t.rounds.all())
