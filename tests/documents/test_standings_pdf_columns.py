"""The printed standings show every criterion the ranking uses (rules.md §8), under the
names of the arbiter's page and of the XLSX.

The 8-pair round of ``test_documents`` (worked by hand there): pairs 3 and 4 tie on VP (11),
MP difference (+200) and MP scored (600 each: 300+200+100+0 for N/S), so "MP fatti", the
fourth criterion, must be printed for the reader to see why they stay "3=". MP scored: pair
1 1000, pair 2 900, pairs 3 and 4 600, pairs 5–8 400 (four hands of 100).
"""
from __future__ import annotations

import io
import subprocess
from decimal import Decimal

import pytest
from django.urls import reverse
from openpyxl import load_workbook

from tests.teams.helpers import play as play_teams
from tests.tournaments.individual_helpers import play as play_individual
from tests.tournaments.individual_helpers import register
from tournaments import services
from tournaments.kinds import KINDS
from tournaments.models import Tournament
from tournaments.printing import documents, spreadsheets


def _pdf_text(pdf: bytes) -> str:
    return subprocess.run(["pdftotext", "-layout", "-", "-"], input=pdf, capture_output=True,
                          check=True).stdout.decode()


def test_standings_pdf_prints_mp_scored_and_the_order(played):
    doc = documents.standings_document(played)
    text = _pdf_text(documents.standings_pdf(doc))
    assert "MP fatti" in text and "Scarto MP" in text and "Penalità" in text
    assert "Ordine della classifica: VP totali → Scarto MP → Scontro diretto → MP fatti." in text
    rows = {line.split()[1]: line.split() for line in text.splitlines()
            if line.strip()[:1].isdigit() and len(line.split()) > 5}
    # position, pair, names…, VP, [penalty], MP difference, MP scored, rounds
    assert rows["1"][-3:] == ["600", "1000", "1"]
    assert rows["3"][-3:] == ["200", "600", "1"] and rows["4"][-3:] == ["200", "600", "1"]
    assert rows["8"][-4:] == ["−1", "-200", "400", "1"]  # the 1-VP penalty, then MP
    assert "«3=»: posizione a pari merito." in text


def test_pdf_headings_are_the_xlsx_headings(played):
    doc = documents.standings_document(played)
    text = _pdf_text(documents.standings_pdf(doc))
    ws = load_workbook(io.BytesIO(spreadsheets.standings_xlsx(doc))).active
    xlsx = [c.value for c in ws[1]]
    for heading in ("VP", "Penalità", "Scarto MP", "MP fatti", "Turni"):
        assert heading in xlsx and heading in text


def test_standings_page_names_mp_scored_as_the_pdf(arbiter_client, played):
    body = arbiter_client.get(reverse("standings", args=[played.slug])).content.decode()
    assert "MP fatti" in body and "MP totali" not in body


@pytest.mark.parametrize("tie", ["1=", "3="])
def test_tie_legend_quotes_the_tie_printed(tie):
    shared = tie.rstrip("=")
    rows = (documents.StandingLine(position=tie, pair=1, players=("A",), vp=Decimal(20), penalty=Decimal(0),
                                   mp_difference=0, mp_scored=500, played=1, rests=0, withdrawn=False),
            documents.StandingLine(position=tie, pair=2, players=("B",), vp=Decimal(20), penalty=Decimal(0),
                                   mp_difference=0, mp_scored=500, played=1, rests=0, withdrawn=False))
    doc = documents.StandingsDocument(tournament="T", date=None, venue="", after_round=1, final=False,
                                      rows=rows, kind_data=KINDS[Tournament.Kind.TEAMS].data)
    html = documents.standings_html(doc)
    assert f"«{tie}»: posizione a pari merito." in html
    other = "3=" if shared == "1" else "1="
    assert f"«{other}»" not in html


def _pdf_rows(text: str) -> dict[str, list[str]]:
    """{entrant number: the printed row's words} (position, number, names…, figures)."""
    return {line.split()[1]: line.split() for line in text.splitlines()
            if line.strip()[:1].isdigit() and len(line.split()) > 5}


def test_individual_standings_pdf_prints_the_per_player_order_and_mp_scored(indiv, arbiter):
    """Individual (rules.md §9, vp20-4h): 8 players by number, table 1 1+2 v 3+4 400–200,
    table 2 5+6 v 7+8 300–100; both differences 200 → 11–9. Players 1, 2: 11 VP, +200, 400 MP
    scored; 5, 6: 11, +200, 300; 3, 4: 9, −200, 200; 7, 8: 9, −200, 100. Only "MP fatti", the
    third criterion here (no head-to-head per player), separates 1, 2 (1=) from 5, 6 (3=) and
    3, 4 (5=) from 7, 8 (7=): the PDF must print it and say the order."""
    register(indiv, arbiter, 8)
    play_individual(services.generate_round(tournament=indiv, by=arbiter), arbiter, {1: (400, 200), 2: (300, 100)})
    text = _pdf_text(documents.standings_pdf(documents.standings_document(indiv)))
    flat = " ".join(text.split())
    assert ("Ordine della classifica: VP totali → Scarto MP → MP fatti (per giocatore; lo scontro diretto non "
            "si applica in un torneo individuale, regole §9).") in flat
    assert "MP fatti" in text and "Scarto MP" in text
    rows = _pdf_rows(text)
    # position, number, name…, VP, MP difference, MP scored, rounds
    expected = {"1": ("1=", "11", "200", "400"), "2": ("1=", "11", "200", "400"),
                "5": ("3=", "11", "200", "300"), "6": ("3=", "11", "200", "300"),
                "3": ("5=", "9", "-200", "200"), "4": ("5=", "9", "-200", "200"),
                "7": ("7=", "9", "-200", "100"), "8": ("7=", "9", "-200", "100")}
    for number, (position, vp, difference, scored) in expected.items():
        row = rows[number]
        assert (row[0], *row[-4:]) == (position, vp, difference, scored, "1"), row
    assert "«1=»: posizione a pari merito." in text


def test_team_standings_pdf_prints_the_team_order(make_teams_tournament, arbiter):
    """Teams (rules.md §15: VP, match margin, head-to-head), Danish round 1 by number, 1 v 2 and
    3 v 4, "sum of two tables", vp20-4h. Table 1 (1 N/S v 2 E/W) 1000–0 → 15–5, table 2 (2 N/S
    v 1 E/W) 0–0 → 10–10: team 1 25 VP, margin +1000; team 2 15, −1000. Table 3 500–0 →
    12–8, table 4 0–0: team 3 22, +500; team 4 18, −500."""
    t = make_teams_tournament(4, plan="DDD")
    play_teams(arbiter, services.generate_round(tournament=t, by=arbiter),
               scores={1: (1000, 0), 2: (0, 0), 3: (500, 0), 4: (0, 0)})
    text = _pdf_text(documents.standings_pdf(documents.standings_document(t)))
    assert "Ordine della classifica: VP totali → Scarto MP → Scontro diretto." in " ".join(text.split())
    rows = _pdf_rows(text)
    assert [(rows[n][0], rows[n][-4], rows[n][-3]) for n in ("1", "3", "4", "2")] == [
        ("1", "25", "1000"), ("2", "22", "500"), ("3", "18", "-500"), ("4", "15", "-1000")]
    assert "pari merito" not in text


def test_standings_pdf_legend_only_with_a_tie():
    """The «N=» legend is printed only when some position is shared."""
    line = dict(pair=1, players=("A B",), vp=0, penalty=0, mp_difference=0, mp_scored=0, played=1,
                rests=0, withdrawn=False)
    no_tie = documents.StandingsDocument(
        tournament="T", date=None, venue="", after_round=1, final=False,
        rows=(documents.StandingLine(position="1", **line), documents.StandingLine(position="2", **{**line, "pair": 2})),
    )
    assert not no_tie.has_ties
    assert "«3=»" not in documents.standings_html(no_tie)
    tie = documents.StandingsDocument(
        tournament="T", date=None, venue="", after_round=1, final=False,
        rows=(documents.StandingLine(position="1=", **line), documents.StandingLine(position="1=", **{**line, "pair": 2})),
    )
    assert tie.has_ties and "«1=»" in documents.standings_html(tie)  # the legend quotes the tie printed
