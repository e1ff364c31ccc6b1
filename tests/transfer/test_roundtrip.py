"""Export → import into an empty database → export: the same bytes.

Backend-agnostic: the same test runs on SQLite and on PostgreSQL; the file refers to rows
by natural keys only, so a file from one backend imports into the other."""
import io
import json
import re

from pypdf import PdfReader

from tests.transfer.conftest import empty_database, without_accounts
from tournaments import selectors, transfer
from tournaments.printing import documents
from tournaments.models import AuditEntry, Round, Table, Tournament


def pdf_text(data: bytes) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages)


def snapshot(tournament, *, pdf=True):
    """What the arbiter sees of a tournament: standings after each round, what every PDF
    prints (the documents' contents for every round; with ``pdf``, the text of the standings
    PDF and of the last round's PDFs: rendering all of them takes over a minute here), the
    audit trail (without the import's own entry), the captain links."""
    tournament = Tournament.objects.get(pk=tournament.pk)
    closed = list(tournament.rounds.filter(state=Round.State.CLOSED).order_by("number"))
    standings = {
        r.number: [(row.position, row.pair, str(row.vp), row.mp_difference)
                   for row in selectors.standings_after(tournament, r.number).rows]
        for r in closed
    }
    standings_doc = documents.standings_document(tournament)
    pdfs = {"standings-document": repr(standings_doc)}
    for rnd in closed:
        pdfs[f"round-document-{rnd.number}"] = repr(documents.round_document(rnd))
    if pdf:
        pdfs["standings.pdf"] = pdf_text(documents.standings_pdf(standings_doc))
        doc = documents.round_document(closed[-1])
        pdfs["scoresheets.pdf"] = pdf_text(documents.scoresheets_pdf(doc))
        pdfs["tablelist.pdf"] = pdf_text(documents.tablelist_pdf(doc))
    trail = [(e.at, e.actor, e.action, e.old, e.new, e.reason, e.round_number, e.table_number)
             for e in AuditEntry.objects.filter(tournament=tournament).exclude(action="tournament_imported")
             .order_by("at", "id")]
    links = sorted(Table.objects.filter(round__tournament=tournament)
                   .values_list("round__number", "number", "token", "pin"))
    return standings, pdfs, trail, links


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
