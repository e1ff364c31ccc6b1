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

from tournaments import documents, spreadsheets

from .test_documents import played  # noqa: F401  (fixture)


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
                                      rows=rows, teams=True)
    html = documents.standings_html(doc)
    assert f"«{tie}»: posizione a pari merito." in html
    other = "3=" if shared == "1" else "1="
    assert f"«{other}»" not in html
