"""File versions: this build writes version 2 and still reads version 1,
the file main wrote for an hour before individual tournaments, groups, sheet drafts and the
audit's coded actor reached the export. A version-1 file is the version-2 file without the
keys of ``transfer.ADDED_IN_2`` (compare tournaments/transfer/schema.py at commit 6cab935)."""
import json
from decimal import Decimal

import pytest

from tests.transfer.conftest import empty_database, without_accounts
from tournaments import services, transfer
from tournaments.errors import ArbiterError
from tournaments.models import AuditEntry, Pair, Table, Tournament


def as_version_1(doc: dict) -> dict:
    """What the version-1 exporter wrote for the same tournament."""
    doc = json.loads(json.dumps(doc))
    doc["version"] = 1
    parts = {"tournament": [doc["tournament"]], "pairs": doc["pairs"], "players": doc["players"],
             "rounds": doc["rounds"], "penalties": doc["penalties"], "audit": doc["audit"],
             "sheet": [t["sheet"] for r in doc["rounds"] for t in r["tables"] if t["sheet"]]}
    for part, objs in parts.items():
        for obj in objs:
            for key in transfer.ADDED_IN_2[part]:
                del obj[key]
    return doc


@pytest.fixture
def played(published, arbiter):
    """5 pairs, round 1 published (1 v 3, 2 v 4, 5 rests), table 1 entered, pair 2 penalised."""
    table = published.tables.get(number=1)
    services.save_score_sheet(table=table, hands=[services.HandInput(ns=300, ew=100)] * 4, by=arbiter)
    services.add_penalty(pair=published.tournament.pairs.get(number=2), vp=Decimal("1"), reason="ritardo",
                         by=arbiter)
    return published.tournament


def counts():
    return Tournament.objects.count(), Table.objects.count(), AuditEntry.objects.count()


def test_a_version_1_file_of_a_pair_tournament_imports_as_the_same_tournament(played):
    v2 = transfer.export_tournament(played)
    v1 = json.dumps(as_version_1(json.loads(v2))).encode()
    empty_database()

    result = transfer.import_tournament(data=v1)

    # every key version 2 added takes the value a pair tournament without groups has, and the
    # audit's coded actor is read from its label as the services write it: the same file
    assert transfer.export_tournament(result.tournament) == without_accounts(v2)
    assert result.messages == []   # no account created, even in an empty database
    entry = AuditEntry.objects.get(tournament=result.tournament, action="tournament_imported")
    assert entry.reason == "importato da file (versione 1)" and entry.new["version"] == 1
    assert AuditEntry.objects.filter(tournament=result.tournament, actor_code="arbiter").exists()


def test_a_version_1_file_of_an_individual_tournament_is_refused(played):
    doc = as_version_1(json.loads(transfer.export_tournament(played)))
    doc["tournament"]["kind"] = "individual"
    before = counts()
    with pytest.raises(ArbiterError, match="versione 1 di un torneo individuale.*Esportalo di nuovo"):
        transfer.import_tournament(data=json.dumps(doc).encode(), slug="nuova")
    assert counts() == before


def test_a_version_1_file_of_a_tournament_in_groups_is_refused(played):
    doc = as_version_1(json.loads(transfer.export_tournament(played)))
    doc["rounds"][0]["pairing_request"]["groups"] = [[1, 3, 5], [2, 4]]
    before = counts()
    with pytest.raises(ArbiterError, match="versione 1 di un torneo diviso in gironi"):
        transfer.import_tournament(data=json.dumps(doc).encode(), slug="nuova")
    assert counts() == before


def test_a_version_1_file_with_round_robin_in_the_plan_but_no_groups_drawn_warns(played):
    doc = as_version_1(json.loads(transfer.export_tournament(played)))
    doc["tournament"]["plan"] = "MRR"
    result = transfer.import_tournament(data=json.dumps(doc).encode(), slug="nuova")
    assert result.tournament.groups == 1
    assert any("i gironi non ci sono" in m for m in result.messages)


def test_a_version_2_file_missing_a_version_2_key_is_refused(played):
    doc = json.loads(transfer.export_tournament(played))
    del doc["pairs"][0]["group"]
    del doc["rounds"][0]["line_members"]
    with pytest.raises(ArbiterError) as info:
        transfer.import_tournament(data=json.dumps(doc).encode(), slug="nuova")
    assert info.value.details == ["pairs[0]: manca «group»", "rounds[0]: manca «line_members»"]


def test_a_file_written_before_team_penalties_imports_its_pair_penalty(played):
    """Files written before team penalties (rules.md §15) have no ``team`` in a penalty:
    missing = not a team's penalty; the pair's penalty comes back as it was."""
    v2 = transfer.export_tournament(played)
    doc = json.loads(v2)
    assert doc["penalties"][0]["team"] is None
    del doc["penalties"][0]["team"]
    empty_database()

    result = transfer.import_tournament(data=json.dumps(doc).encode())

    assert transfer.export_tournament(result.tournament) == without_accounts(v2)
    penalty = result.tournament.penalties.get()
    assert (penalty.pair.number, penalty.team, penalty.vp) == (2, None, 1)


def test_groups_travel(played, arbiter):
    """Groups set by hand on the file: group numbers and the split come back as written."""
    doc = json.loads(transfer.export_tournament(played))
    doc["tournament"].update(groups=2, group_split="lot", group_seed=77)
    for pair in doc["pairs"]:
        pair["group"] = 1 if pair["number"] in (1, 3, 5) else 2
    result = transfer.import_tournament(data=json.dumps(doc).encode(), slug="gironi")
    t = result.tournament
    assert (t.groups, t.group_split, t.group_seed) == (2, "lot", 77)
    assert dict(Pair.objects.filter(tournament=t).values_list("number", "group")) == {1: 1, 2: 2, 3: 1, 4: 2, 5: 1}


def test_bad_references_of_version_2_are_listed_with_their_place(played):
    doc = json.loads(transfer.export_tournament(played))
    doc["pairs"][0]["round"] = 9                                  # no round 9
    doc["players"][0]["number"] = 1
    doc["players"][1]["number"] = 1                               # twice
    doc["rounds"][0]["line_members"] = [
        {"pair": 2, "player": 1, "seat": 1},                      # pair 2 is a registered pair
        {"pair": 2, "player": 44, "seat": 3},                     # no player 44, seat 3
    ]
    doc["penalties"][0]["player"] = 1                             # pair 2 and player 1
    with pytest.raises(ArbiterError) as info:
        transfer.import_tournament(data=json.dumps(doc).encode(), slug="nuova")
    assert info.value.details == [
        "players[1].number: giocatore ripetuto",
        "pairs[0].round: il turno 9 non è nel file",
        "rounds[0].line_members[0].pair: la coppia 2 non è formata per questo turno",
        "rounds[0].line_members[1].pair: la coppia 2 non è formata per questo turno",
        "rounds[0].line_members[1].player: il giocatore 44 non è nel file",
        "rounds[0].line_members[1].seat: atteso 1 o 2",
        "penalties[0]: una penalità va a una coppia, a un giocatore o a una squadra (uno solo dei tre)",
    ]


def test_version_refusals_speak_english_too(played):
    from django.utils import translation

    doc = as_version_1(json.loads(transfer.export_tournament(played)))
    doc["tournament"]["kind"] = "individual"
    with translation.override("en"), pytest.raises(ArbiterError) as info:
        transfer.import_tournament(data=json.dumps(doc).encode(), slug="nuova")
    assert info.value.message == (
        "Version-1 file of an individual tournament: it holds neither the players' numbers nor the partnerships "
        "formed each round. Export it again with this version of Arbitro from the database it came from. "
        "Nothing was imported.")
