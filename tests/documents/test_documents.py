"""Printed documents (rules.md §10): table list, score sheets, standings; PDF and XLSX.

The played round below is worked by hand. 8 pairs, round 1 Mitchell by pair number:
N/S 1–4 at tables 1–4, E/W 5–8 (rules.md §6). Each N/S line scores four hands; with the
4-hand scale (vp20-4h: 0–100 10–10, 105–300 11–9, 305–500 12–8, 505–700 13–7):

- table 1: 1 v 5, 1000 – 400, difference 600 → 13–7
- table 2: 2 v 6,  900 – 400, difference 500 → 12–8
- table 3: 3 v 7,  600 – 400, difference 200 → 11–9
- table 4: 4 v 8,  600 – 400, difference 200 → 11–9

Pair 8 gets a 1-VP penalty. Standings: 1 (13), 2 (12), pairs 3 and 4 tied on VP, MP
difference (+200), MP scored (600), never met → "3=", "3="; 5: pair 7 (9 VP, −200);
6: pair 8 (9 − 1 = 8 VP, −200); 7: pair 6 (8 VP, −500); 8: pair 5 (7 VP, −600).
"""
from __future__ import annotations

import io
import re
import shutil
import subprocess
import tempfile
from decimal import Decimal

import pytest
from django.urls import reverse
from openpyxl import load_workbook

from tournaments.models import Round
from tournaments.printing import documents, spreadsheets


def page_count(pdf: bytes) -> int:
    """Pages of a PDF, read back by poppler's ``pdfinfo`` (scripts/system-deps.sh installs it);
    WeasyPrint compresses its objects, so counting "/Type /Page" in the bytes does not work."""
    if not shutil.which("pdfinfo"):
        pytest.skip("pdfinfo (poppler-utils) not installed")
    with tempfile.NamedTemporaryFile(suffix=".pdf") as f:
        f.write(pdf)
        f.flush()
        info = subprocess.run(["pdfinfo", f.name], capture_output=True, check=True, text=True).stdout
    return int(re.search(r"^Pages:\s+(\d+)", info, re.M).group(1))


# --------------------------------------------------------------------------- table list


def test_tablelist_lists_every_table_and_every_player_alphabetically(drafted):
    rnd = drafted.rounds.get(number=1)
    doc = documents.round_document(rnd)
    # 5 pairs: T = 3, phantom at table 3 N/S; N/S 1, 2; E/W 3, 4, 5 at tables 1, 2, 3 → 5 rests.
    assert [(t.number, t.ns.number, t.ew.number if t.ew else None, t.bye) for t in doc.tables] == [
        (1, 1, 3, ""), (2, 2, 4, ""), (3, 5, None, "rest")
    ]
    html = documents.tablelist_html(doc)
    for k in range(1, 6):
        assert f"Rossi{k} Anna{k}" in html and f"Verdi{k} Bruno{k}" in html
    assert "Riposo" in html
    finder = html.split("dove siedo")[1]
    order = [m.group(1) for m in re.finditer(r"<b>(Rossi\d|Verdi\d)</b>", finder)]
    assert order == [f"Rossi{k}" for k in range(1, 6)] + [f"Verdi{k}" for k in range(1, 6)]
    # player → pair → table, line: Rossi4 is in pair 4, E/W at table 2; Rossi5 rests at table 3
    assert re.search(r"<b>Rossi4</b> Anna4</td><td class=\"num\">4</td><td class=\"num b\">2</td><td>E/O", finder)
    assert re.search(r"<b>Rossi5</b> Anna5</td><td class=\"num\">5</td><td class=\"num b\">3</td><td>riposo", finder)
    assert html.count('<img class="qrimg" src="data:image/png;base64,') == 2  # one QR per playing table
    assert documents.tablelist_html(documents.round_document(rnd, qr=False), qr=False).count("<img") == 0


def test_tablelist_pdf_renders(drafted):
    pdf = documents.tablelist_pdf(documents.round_document(drafted.rounds.get(number=1)))
    assert pdf.startswith(b"%PDF")
    assert page_count(pdf) == 2  # by table, then the alphabetical list on its own page


def test_seat_finder_ignores_accents_and_case():
    people = [("Zeta", "Ugo"), ("Èrcoli", "Ada")]
    doc = documents.RoundDocument(
        tournament="T", date=None, venue="", round_number=1, system="Mitchell", hands_per_round=4,
        scale_name="s", scale_bands=(), state="",
        tables=(documents.TableInfo(1, documents.PairInfo(1, tuple(people)), documents.PairInfo(2, (("de Luca", "Ivo"), ("Esposito", "Lia")))),),
    )
    assert [s.last_name for s in doc.seat_finder] == ["de Luca", "Èrcoli", "Esposito", "Zeta"]


# --------------------------------------------------------------------------- score sheets


def test_blank_scoresheets_one_page_per_playing_table(drafted):
    rnd = drafted.rounds.get(number=1)
    doc = documents.round_document(rnd)
    html = documents.scoresheets_html(doc)
    assert html.count('class="sheet"') == 2  # the rest gets no sheet
    assert "Tavolo 1" in html and "Tavolo 2" in html and "Tavolo 3" not in html
    assert "Rossi1 Anna1 – Verdi1 Bruno1" in html and "Rossi3 Anna3 – Verdi3 Bruno3" in html
    for t in rnd.tables.filter(bye=""):
        assert f'<span class="pin v">{t.pin}</span>' in html
    assert "105–300" in html and "11–9" in html and "≥ 2005" in html  # the VP scale in a corner
    assert "Firma linea N/S" in html and "Firma linea E/O" in html
    assert html.count('<img class="qrimg v" src="data:image/png;base64,') == 2
    first_sheet = _unmarked(html).split('class="sheet"')[1]
    assert re.findall(r'<td class="hn">(\d)</td><td></td><td></td><td></td>', first_sheet) == ["1", "2", "3", "4"]
    pdf = documents.scoresheets_pdf(doc)
    assert pdf.startswith(b"%PDF") and page_count(pdf) == 2


def _unmarked(html: str) -> str:
    """Sheet HTML without the marks of the values that change from table to table
    (``<span class="v">``, read by ``printing.stamp``), to read the cells as printed."""
    return re.sub(r'<span class="v">([^<]*)</span>', r"\1", html)


def test_filled_scoresheet_shows_hands_totals_difference_and_vp(played):
    doc = documents.round_document(played.rounds.get(number=1))
    t1 = doc.tables[0]
    assert (t1.mp_ns, t1.mp_ew, t1.difference, t1.vp_ns, t1.vp_ew) == (1000, 400, 600, 13, 7)
    html = documents.scoresheets_html(doc)
    sheet1 = _unmarked(html).split('class="sheet"')[1]
    # hand 1 of table 1: N/S base 350, cards 50, total 400; E/W total 100, no base/cards entered
    assert '<td class="hn">1</td><td>350</td><td>50</td><td class="b">400</td><td class="split"></td><td></td><td class="b">100</td>' in sheet1
    assert "<td>1000</td>" in sheet1 and "<td>400</td>" in sheet1
    assert ">600</td>" in sheet1 and "N/S 13" in sheet1 and "E/O 7" in sheet1
    assert page_count(documents.scoresheets_pdf(doc)) == 4


# --------------------------------------------------------------------------- standings


def test_standings_shows_shared_position_and_penalty(played):
    doc = documents.standings_document(played)
    got = [(r.position, r.pair, r.vp, r.penalty, r.mp_difference) for r in doc.rows]
    assert got == [
        ("1", 1, 13, 0, 600), ("2", 2, 12, 0, 500), ("3=", 3, 11, 0, 200), ("3=", 4, 11, 0, 200),
        ("5", 7, 9, 0, -200), ("6", 8, 8, 1, -200), ("7", 6, 8, 0, -500), ("8", 5, 7, 0, -600),
    ]
    assert doc.final is False and doc.after_round == 1
    html = documents.standings_html(doc)
    assert html.count('<td class="pos">3=</td>') == 2
    assert '<td class="num pen">−1</td>' in html
    assert "Ritardo ripetuto" in html
    assert "Classifica dopo il turno 1" in html
    assert "Rossi8 Anna8 – Verdi8 Bruno8" in html
    assert documents.standings_pdf(doc).startswith(b"%PDF")


def _synthetic_standings(n: int) -> documents.StandingsDocument:
    rows = tuple(
        documents.StandingLine(position=str(k), pair=k, players=(f"Cognome{k} Nome", f"Altro{k} Nome"),
                               vp=Decimal(200 - k % 200), penalty=Decimal(0), mp_difference=1000 - k,
                               mp_scored=5000, played=10, rests=0, withdrawn=False)
        for k in range(1, n + 1)
    )
    return documents.StandingsDocument(tournament="Grande torneo", date=None, venue="", after_round=10,
                                       final=True, rows=rows)


def test_standings_500_pairs_paginate_with_repeated_header():
    doc = _synthetic_standings(500)
    pdf = documents.standings_pdf(doc)
    pages = page_count(pdf)
    # about 60 rows per A4 page at 9 pt: between 7 and 14 pages
    assert 7 <= pages <= 14
    if shutil.which("pdftotext"):
        text = subprocess.run(["pdftotext", "-", "-"], input=pdf, capture_output=True, check=True).stdout.decode()
        assert text.count("Scarto MP") == pages  # the header row on every page
        assert "Cognome500" in text


# --------------------------------------------------------------------------- spreadsheets


def test_standings_xlsx_has_bold_header_and_numbers(played):
    wb = load_workbook(io.BytesIO(spreadsheets.standings_xlsx(documents.standings_document(played))))
    ws = wb.active
    header = [c.value for c in ws[1]]
    assert header[:8] == ["Posizione", "Pari merito", "Coppia", "Giocatori", "VP", "Penalità", "Scarto MP",
                          "MP fatti"]
    assert all(c.font.bold for c in ws[1])
    rows = [[c.value for c in r] for r in ws.iter_rows(min_row=2)]
    # Position is an integer; the shared position's "=" sits in its own column.
    assert rows[2][:8] == [3, "=", 3, "Rossi3 Anna3 – Verdi3 Bruno3", 11, 0, 200, 600]
    assert rows[3][:3] == [3, "=", 4]
    assert rows[5][:7] == [6, None, 8, "Rossi8 Anna8 – Verdi8 Bruno8", 8, 1, -200]
    assert isinstance(rows[0][0], int) and isinstance(rows[0][4], int) and ws.column_dimensions["D"].width > 20


def test_scoresheets_xlsx_one_row_per_hand(played):
    wb = load_workbook(io.BytesIO(spreadsheets.scoresheets_xlsx(documents.round_document(played.rounds.get(number=1)))))
    hands = wb["Smazzate"]
    assert [c.value for c in hands[1]][:6] == ["Tavolo", "Smazzata", "Coppia N/S", "Base N/S", "Carte N/S", "Totale N/S"]
    assert hands[1][0].font.bold
    rows = [[c.value for c in r] for r in hands.iter_rows(min_row=2)]
    assert len(rows) == 16  # 4 tables × 4 hands
    assert rows[0] == [1, 1, 1, 350, 50, 400, 5, None, None, 100]
    tables = [[c.value for c in r] for r in wb["Tavoli"].iter_rows(min_row=2)]
    assert tables[1][:10] == [2, 2, "Rossi2 Anna2 – Verdi2 Bruno2", 6, "Rossi6 Anna6 – Verdi6 Bruno6",
                              900, 400, 500, 12, 8]


def test_scoresheets_xlsx_rest_row_has_the_rest_vp(drafted):
    """5 pairs: table 3 is the rest; default 70% of the 20-VP maximum = 14 VP (rules.md §5).
    The resting pair 5 is E/W at table 3 (the phantom sits N/S): its number, names and VP
    are in the E/O columns, "Riposo" where the N/S pair would be."""
    wb = load_workbook(io.BytesIO(spreadsheets.scoresheets_xlsx(documents.round_document(drafted.rounds.get(number=1)))))
    rows = [[c.value for c in r] for r in wb["Tavoli"].iter_rows(min_row=2)]
    header = [c.value for c in wb["Tavoli"][1]]
    rest = [r for r in rows if r[header.index("Stato")] == "Riposo"]
    assert len(rest) == 1
    assert rest[0][header.index("Coppia E/O")] == 5 and rest[0][header.index("Coppia N/S")] is None
    assert rest[0][header.index("Giocatori N/S")] == "Riposo"
    assert rest[0][header.index("VP E/O")] == 14 and rest[0][header.index("VP N/S")] is None


# --------------------------------------------------------------------------- dates


def test_printed_date_month_lowercase_in_italian_capital_in_english(played):
    """The fixture tournament is on 30/11/2026."""
    from django.utils import translation

    doc = documents.standings_document(played)
    assert "30 novembre 2026" in documents.standings_html(doc)
    rdoc = documents.round_document(played.rounds.get(number=1), qr=False)
    assert "30 novembre 2026" in documents.tablelist_html(rdoc, qr=False)
    assert "30 novembre 2026" in documents.scoresheets_html(rdoc)
    with translation.override("en"):
        assert "30 November 2026" in documents.standings_html(doc)
    assert documents.long_date(None) == ""


# --------------------------------------------------------------------------- views


def _urls(slug: str) -> list[str]:
    return [
        reverse("tablelist_pdf", args=[slug, 1]),
        reverse("scoresheets_pdf", args=[slug, 1]),
        reverse("scoresheets_xlsx", args=[slug, 1]),
        reverse("standings_pdf", args=[slug]),
        reverse("standings_xlsx", args=[slug]),
    ]


def test_document_views_require_login(client, played):
    for url in _urls(played.slug):
        response = client.get(url)
        assert response.status_code == 302 and "/accounts/login/" in response["Location"], url


def test_document_views_serve_pdf_and_xlsx(arbiter_client, played):
    assert _urls(played.slug)[0] == f"/tornei/{played.slug}/documenti/turno-1/tabellone.pdf"
    for url in _urls(played.slug):
        response = arbiter_client.get(url)
        assert response.status_code == 200, url
        if url.endswith(".pdf"):
            assert response["Content-Type"] == "application/pdf" and response.content.startswith(b"%PDF")
        else:
            assert response["Content-Type"].startswith("application/vnd.openxmlformats")
            assert response.content.startswith(b"PK")
    response = arbiter_client.get(reverse("standings_pdf", args=[played.slug]) + "?dopo=1")
    assert response.status_code == 200 and "classifica-turno-1" in response["Content-Disposition"]


def test_document_views_bad_input(arbiter_client, played):
    assert arbiter_client.get(reverse("tablelist_pdf", args=[played.slug, 9])).status_code == 404
    assert arbiter_client.get(reverse("standings_pdf", args=[played.slug]) + "?dopo=x").status_code == 404


def test_tablelist_view_qr_optional(arbiter_client, played, monkeypatch):
    seen = []
    real = documents.tablelist_html

    def spy(doc, *, qr=True):
        seen.append(qr)
        return real(doc, qr=qr)

    monkeypatch.setattr(documents, "tablelist_html", spy)
    arbiter_client.get(reverse("tablelist_pdf", args=[played.slug, 1]))
    arbiter_client.get(reverse("tablelist_pdf", args=[played.slug, 1]) + "?qr=0")
    assert seen == [True, False]


def test_round_document_query_count(played, django_assert_max_num_queries):
    rnd = Round.objects.get(tournament=played, number=1)
    with django_assert_max_num_queries(8):
        documents.round_document(rnd)


# --------------------------------------------------------------------------- text stays text, never a formula

HOSTILE = ["=1+1", '=HYPERLINK("x")', "+1", "-1", "@SUM(A1)"]


def _rename_players_hostile(tournament):
    """Pairs 1–5, seat 1: last name one of HOSTILE (first name kept)."""
    from tournaments.models import Player

    for k, name in enumerate(HOSTILE, start=1):
        Player.objects.filter(tournament=tournament, pair__number=k, seat=1).update(last_name=name)


def _string_cells(wb):
    return [c for ws in wb.worksheets for row in ws.iter_rows() for c in row if isinstance(c.value, str)]


def test_player_named_like_a_formula_became_a_formula_in_xlsx(played):
    """A player named ``=1+1`` or ``=HYPERLINK(...)`` was written as a formula; every text cell
    must read back as the literal string with data type "s"."""
    _rename_players_hostile(played)
    standings = load_workbook(io.BytesIO(spreadsheets.standings_xlsx(documents.standings_document(played))))
    sheets = load_workbook(io.BytesIO(spreadsheets.scoresheets_xlsx(
        documents.round_document(played.rounds.get(number=1)))))
    for wb in (standings, sheets):
        cells = _string_cells(wb)
        assert cells and all(c.data_type == "s" for c in cells), [(c.coordinate, c.value) for c in cells
                                                                   if c.data_type != "s"]
        values = {c.value for c in cells}
        for k, name in enumerate(HOSTILE, start=1):
            assert f"{name} Anna{k} – Verdi{k} Bruno{k}" in values, name
    # standings: pair 1's players cell, exactly as typed
    rows = {r[2].value: r for r in standings.active.iter_rows(min_row=2)}
    assert rows[1][3].value == "=1+1 Anna1 – Verdi1 Bruno1" and rows[1][3].data_type == "s"


@pytest.mark.parametrize("text", HOSTILE)
def test_append_row_keeps_formula_like_text_as_text(text):
    from openpyxl import Workbook

    wb = Workbook()
    spreadsheets.append_row(wb.active, [text, 7, None])
    out = io.BytesIO()
    wb.save(out)
    ws = load_workbook(io.BytesIO(out.getvalue())).active
    assert (ws["A1"].value, ws["A1"].data_type) == (text, "s")
    assert (ws["B1"].value, ws["B1"].data_type) == (7, "n")


def test_xlsx_download_keeps_formula_like_names_as_text(arbiter_client, played):
    _rename_players_hostile(played)
    for url in (reverse("standings_xlsx", args=[played.slug]), reverse("scoresheets_xlsx", args=[played.slug, 1])):
        wb = load_workbook(io.BytesIO(arbiter_client.get(url).content))
        cells = _string_cells(wb)
        assert any(c.value.startswith('=HYPERLINK("x")') for c in cells)
        assert all(c.data_type == "s" for c in cells)
