"""Individual tournaments' outputs: simulate's files and results.json keys, the
PDF/XLSX standings per player, the public page."""
import json

import pytest
from django.core.management import call_command
from django.urls import reverse
from openpyxl import load_workbook

from tournaments import selectors
from tournaments.models import Tournament
from tournaments.printing import documents


@pytest.fixture
def simulated(db, tmp_path, data_dir):
    out = tmp_path / "out"
    call_command("simulate", "--kind", "individual", "--registrations", str(data_dir / "players-13.csv"),
                 "--plan", "DD", "--hands", "4", "--seed", "3", "--out", str(out), "--slug", "sim-indiv")
    return Tournament.objects.get(slug="sim-indiv"), out


def test_simulate_individual_writes_the_files_and_results_json(simulated):
    tournament, out = simulated
    names = sorted(p.name for p in out.iterdir())
    assert names == ["results.json", "scoresheets-round-1.pdf", "scoresheets-round-2.pdf", "standings.pdf",
                     "standings.xlsx", "tablelist-round-1.pdf", "tablelist-round-2.pdf"]
    data = json.loads((out / "results.json").read_text())
    assert data["tournament"]["kind"] == "individual"
    r1 = data["rounds"][0]
    # round 1 by number (rules.md §9): 1+2 v 3+4, 5+6 v 7+8, 9+10 v 11+12; 13 mod 4 = 1: player 13 rests
    assert [(t["table"], t["ns"], t["ew"]) for t in r1["tables"]] == [
        (1, [1, 2], [3, 4]), (2, [5, 6], [7, 8]), (3, [9, 10], [11, 12])]
    assert r1["rest"] == [{"player": 13, "vp": 14, "mp": 0}]  # 70 % of 20 VP, 0 MP (§5)
    r2 = data["rounds"][1]
    assert len(r2["rest"]) == 1 and r2["rest"][0]["player"] != 13  # no second rest in the session
    # every player scores the VP of his line: player 1's standings VP = T1's N/S VP of both rounds
    vp1 = sum(t["vp_ns"] if 1 in t["ns"] else t["vp_ew"] for r in data["rounds"] for t in r["tables"]
              if 1 in t["ns"] + t["ew"])
    vp1 += sum(x["vp"] for r in data["rounds"] for x in r["rest"] if x["player"] == 1)
    final = {row["player"]: row for row in data["standings"]}
    assert final[1]["vp"] == vp1 and len(final) == 13


def test_standings_pdf_and_xlsx_per_player(simulated):
    tournament, out = simulated
    doc = documents.standings_document(tournament)
    assert doc.kind_data.name == Tournament.Kind.INDIVIDUAL and len(doc.rows) == 13
    first = selectors.standings_after(tournament).rows[0]
    assert doc.rows[0].pair == first.pair and len(doc.rows[0].players) == 1
    ws = load_workbook(out / "standings.xlsx").active
    # the number column "N.", the name column "Giocatore" (polish – wording, as the page and the PDF)
    assert ws.cell(1, 3).value == "N." and ws.cell(1, 4).value == "Giocatore" and ws.cell(2, 3).value == first.pair


def test_public_page_lists_players(client, simulated):
    tournament, _out = simulated
    tournament.public_enabled = True
    tournament.save()
    body = client.get(reverse("public", args=[tournament.slug])).content.decode()
    assert "Rossi Mario" in body and "Giocatore" in body
