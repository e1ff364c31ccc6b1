"""A tournament file is input like any form: every tampered copy of a valid export is
refused, naming the path of its first bad value, and creates nothing; the valid export still
imports. The kinds are in ``tests/transfer/tampering.py`` (shared with ``bench/fuzz_import.py``)."""
import json

import pytest

from tests.transfer import tampering
from tournaments import transfer
from tournaments.errors import ArbiterError
from tournaments.models import AuditEntry, Pair, Round, Table, Tournament

_BASE: dict = {}


@pytest.fixture
def base(arbiter) -> bytes:
    """The base file, built once per test session (its bytes do not depend on the database)."""
    if "file" not in _BASE:
        _BASE["file"] = tampering.build_base(arbiter)
        Round.objects.all().delete()
        Tournament.objects.all().delete()
    return _BASE["file"]


def counts():
    return (Tournament.objects.count(), Round.objects.count(), Table.objects.count(), Pair.objects.count(),
            AuditEntry.objects.count())


def test_the_base_file_is_a_valid_export_and_imports(base, arbiter):
    doc = json.loads(base)
    assert [r["state"] for r in doc["rounds"]] == ["closed", "published"]
    assert doc["rounds"][1]["tables"][0]["sheet"]["sum_error"] is True
    result = transfer.import_tournament(data=base, owner=arbiter, by=arbiter)
    assert result.tournament.rounds.count() == 2


@pytest.mark.parametrize("name", sorted(tampering.TAMPERS))
def test_a_tampered_file_is_refused_naming_the_first_bad_value(base, name):
    before = counts()
    with pytest.raises(ArbiterError) as refused:
        transfer.import_tournament(data=tampering.tampered(base, name))
    path = tampering.TAMPERS[name][1]
    details = refused.value.details
    assert details, refused.value.message
    first = details[0]
    assert first.startswith((path + ":", path + ".", path + "[")), (name, details)
    assert counts() == before


def test_a_refusal_reads_as_a_sentence_with_its_path(base):
    with pytest.raises(ArbiterError) as refused:
        transfer.import_tournament(data=tampering.tampered(base, "vp_999_0"))
    assert refused.value.message == "Il file del torneo contiene errori: nulla è stato importato."
    # 300-100 in 4 hands: 200 MP of difference, band 105-300 of vp20-4h: 11-9 (shared/data/vp_scales.json)
    assert refused.value.details[0] == ("rounds[0].tables[0].sheet.vp_ns: 999.00 nel file, 11 calcolato dalle "
                                        "smazzate e dalla tabella VP")


def test_json_nested_thousands_deep_is_refused_before_reading():
    data = b'{"format": "arbitro-tournament", "version": 2, "x": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"
    with pytest.raises(ArbiterError, match="annidato oltre 40 livelli"):
        transfer.import_tournament(data=data)


def test_a_file_of_100000_pairs_is_refused_before_its_values_are_read(base):
    doc = json.loads(base)
    doc["pairs"] = [dict(doc["pairs"][0], number=k) for k in range(1, 100_001)]
    with pytest.raises(ArbiterError) as refused:
        transfer.import_tournament(data=json.dumps(doc).encode())
    assert refused.value.details[0] == "pairs: 100000 coppie iscritte, al massimo 2000"


@pytest.mark.parametrize("key, count, expected", [
    ("players", 4001, "players: 4001 giocatori, al massimo 4000"),
    ("teams", 501, "teams: 501 squadre, al massimo 500"),
])
def test_players_and_teams_beyond_their_caps_are_refused_before_their_values_are_read(base, key, count, expected):
    """The registration caps hold for tournament files too (4000 players, 500
    teams; pairs and rounds above and in tampering.TAMPERS). The list's items are not even
    looked at: copies of one entry, numbers repeated."""
    doc = json.loads(base)
    doc[key] = [{"number": 1}] * count
    before = counts()
    with pytest.raises(ArbiterError) as refused:
        transfer.import_tournament(data=json.dumps(doc).encode())
    assert refused.value.message == "Il file del torneo supera i limiti di Arbitro: nulla è stato importato."
    assert refused.value.details == [expected]
    assert counts() == before


def test_a_round_of_1001_tables_is_refused_with_its_path(base):
    doc = json.loads(base)
    doc["rounds"][0]["tables"] = [doc["rounds"][0]["tables"][0]] * 1001
    with pytest.raises(ArbiterError) as refused:
        transfer.import_tournament(data=json.dumps(doc).encode())
    assert refused.value.details == ["rounds[0].tables: 1001 tavoli, al massimo 1000"]
