"""Export → import into an empty database → export: the same bytes.

Backend-agnostic: the same test runs on SQLite and on PostgreSQL; the file refers to rows
by natural keys only, so a file from one backend imports into the other."""
import json
import re

from tests.transfer.conftest import empty_database, without_accounts
from tests.transfer.helpers import snapshot
from tournaments import transfer
from tournaments.models import AuditEntry


def test_29_pairs_mmmd_round_trip_into_an_empty_database_gives_the_same_bytes(simulated):
    first = transfer.export_tournament(simulated)
    before = snapshot(simulated)
    empty_database()

    result = transfer.import_tournament(data=first)
    second = transfer.export_tournament(result.tournament)

    assert second == without_accounts(first)                     # the file's accounts are never applied
    after = snapshot(result.tournament)
    assert after[0] == before[0] and len(after[0]) == 4         # standings after rounds 1-4
    assert after[1] == before[1] and len(after[1]) == 1 + 4 + 3  # documents of 4 rounds, 3 PDFs
    assert "Serra" in after[1]["standings.pdf"]                  # pair 1 of registrations-29.csv
    assert after[2] == before[2]                                 # audit trail
    assert after[3] == before[3]                                 # links and PINs
    assert result.messages == []                                 # no account created
    imported = AuditEntry.objects.get(tournament=result.tournament, action="tournament_imported")
    assert imported.reason == "importato da file (versione 2)"


def test_the_file_is_versioned_secret_and_without_ids_or_export_time(simulated):
    doc = json.loads(transfer.export_tournament(simulated))
    assert (doc["format"], doc["version"]) == ("arbitro-tournament", 2)
    assert "SEGRETO" in doc["secret"] and "PIN" in doc["secret"]
    assert "id" not in doc["tournament"] and "id" not in doc["pairs"][0]
    # 29 pairs, Mitchell: 14 tables + the rest (pairing-io.md); 4 rounds, 4 hands a sheet
    assert len(doc["pairs"]) == 29 and len(doc["players"]) == 58 and len(doc["rounds"]) == 4
    table = doc["rounds"][0]["tables"][0]
    assert set(table) >= {"token", "pin", "ns", "ew", "sheet"} and len(table["sheet"]["hands"]) == 4
    assert transfer.export_tournament(simulated) == transfer.export_tournament(simulated)


def test_import_with_a_new_slug_into_the_same_database_matches_the_original(simulated):
    first = transfer.export_tournament(simulated)
    result = transfer.import_tournament(data=first, slug="t29-copia")
    copy = json.loads(transfer.export_tournament(result.tournament))
    original = without_accounts(json.loads(first))

    # what must differ: the slug, and the captain tokens (the original still uses them)
    assert copy["tournament"].pop("slug") == "t29-copia" and original["tournament"].pop("slug") == "t29"
    tokens = [[t.pop("token") for t in r["tables"]] for doc in (copy, original) for r in doc["rounds"]]
    assert set(sum(tokens[:4], [])).isdisjoint(sum(tokens[4:], []))
    assert copy == original                                      # PINs, sheets, audit… identical
    assert any("link nuovi" in m for m in result.messages)
    before, after = snapshot(simulated, pdf=False), snapshot(result.tournament, pdf=False)
    assert after[0] == before[0] and after[2] == before[2]
    # the printed documents differ only by the captain links (new tokens, new QR codes) and
    # the PIN page's address, which names the new slug
    assert after[1]["standings-document"] == before[1]["standings-document"]
    for k in range(1, 5):
        mask = [re.sub(r"/t/t29(-copia)?/pin/", "/t/SLUG/pin/",
                       re.sub(r"captain_url='[^']*', qr_src='[^']*'", "LINK", snap[1][f"round-document-{k}"]))
                for snap in (before, after)]
        assert mask[0] == mask[1] and "LINK" in mask[0]
