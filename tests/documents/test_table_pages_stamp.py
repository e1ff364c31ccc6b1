"""The standings' and the table list's pages cut in Python and stamped on one form a page
shape (``printing.stamp.render_table_pages``): the same pages, with the same text at the same
places, as WeasyPrint laying the whole document out; what it cannot cut is refused
(``NotStampable``), so the worker lays it out whole as before."""
from __future__ import annotations

import datetime
import io
from decimal import Decimal

import pytest
import weasyprint
from pypdf import PdfReader

from tests.documents.helpers import text_lines
from tournaments.printing import documents, stamp, worker

SURNAMES = ["Rossi", "Bianchi", "Esposito", "Romano", "Colombo", "Ricci", "Marino", "Greco", "De Luca"]
NAMES = ["Anna", "Marco", "Giulia", "Luca", "Sara", "Paolo"]


def _standings(pairs: int, *, long_names: int = 0) -> documents.StandingsDocument:
    """``pairs`` rows of standings; ``long_names`` of them (every tenth) with names that take
    two lines; pair 7 penalised, pair 11 withdrawn."""
    rows = []
    for k in range(1, pairs + 1):
        players = (f"{SURNAMES[k % 9]} {NAMES[k % 6]}", f"{SURNAMES[(3 * k) % 9]} {NAMES[(5 * k) % 6]}")
        if k % 10 == 5 and k // 10 < long_names:
            players = ("Dell'Acqua Bartolomeo-Fiorentini Massimiliano", "Santangelo Buonarroti Maria Antonietta")
        rows.append(documents.StandingLine(
            position=str(k), pair=k, players=players, vp=Decimal(20 - k % 21), penalty=Decimal(1 if k == 7 else 0),
            mp_difference=1000 - 25 * k, mp_scored=2000 - 5 * k, played=3, rests=0, withdrawn=k == 11))
    return documents.StandingsDocument(
        tournament="Torneo di prova", date=datetime.date(2026, 12, 3), venue="Circolo del Ponte",
        after_round=3, final=False, rows=tuple(rows),
        penalties=(documents.PenaltyNote(pair=7, vp=Decimal(1), reason="Ritardo", round_number=2),))


def _pages(pdf: bytes) -> list:
    return [text_lines(page) for page in PdfReader(io.BytesIO(pdf)).pages]


def test_standings_stamped_have_the_pages_and_text_of_the_whole_layout():
    html = documents.standings_html(_standings(120))
    whole = weasyprint.HTML(string=html).write_pdf()
    pdf, pages = stamp.render_table_pages(html)
    assert pages == 3  # 120 rows of 9 pt: page 1 under the title, two more (rules.md §10 print)
    assert _pages(pdf) == _pages(whole)


def test_rows_of_two_lines_are_measured_and_their_pages_laid_out_whole():
    # pairs 5, 15, 25, 35 and 45: their rows take two lines, so fewer rows fit their pages
    html = documents.standings_html(_standings(100, long_names=5))
    pdf, pages = stamp.render_table_pages(html)
    assert pages == 3
    assert _pages(pdf) == _pages(weasyprint.HTML(string=html).write_pdf())


def test_more_rows_of_two_lines_than_measured_are_laid_out_whole():
    html = documents.standings_html(_standings(100, long_names=stamp.MAX_LONG_ROWS + 1))
    with pytest.raises(stamp.NotStampable):
        stamp.render_table_pages(html)
    pdf, _cpu = worker.render_standings_timed(html)
    assert _pages(pdf) == _pages(weasyprint.HTML(string=html).write_pdf())


def test_standings_by_group_are_not_cut():
    html = documents.standings_html(_standings(10)).replace("<table class=\"st\">", '<h2 class="group">A</h2>'
                                                             '<table class="st">', 1)
    with pytest.raises(stamp.NotStampable):
        stamp.render_table_pages(html)


def _round(tables: int, *, qr: bool) -> documents.RoundDocument:
    """A round of ``tables`` playing tables and a forced rest (pair 2·tables+1), plain values."""
    infos = []
    for n in range(1, tables + 1):
        ns = documents.PairInfo(n, ((SURNAMES[n % 9], NAMES[n % 6]), (SURNAMES[(2 * n) % 9], NAMES[(n + 1) % 6])))
        ew = documents.PairInfo(tables + n, ((SURNAMES[(n + 4) % 9], NAMES[(n + 2) % 6]),
                                             (SURNAMES[(n + 7) % 9], NAMES[(n + 3) % 6])))
        url = f"http://arbitro.test/c/tok{n:03d}/"
        infos.append(documents.TableInfo(number=n, ns=ns, ew=ew, captain_url=url,
                                         qr_src=documents.captain_qr(url) if qr else ""))
    rest = documents.PairInfo(2 * tables + 1, (("Neri", "Ugo"), ("Verdi", "Ida")))
    infos.append(documents.TableInfo(number=tables + 1, ns=rest, ew=None, bye="forced"))
    return documents.RoundDocument(
        tournament="Torneo di prova", date=datetime.date(2026, 12, 3), venue="Circolo del Ponte", round_number=2,
        system="Mitchell", hands_per_round=4, scale_name="Prova", scale_bands=(), tables=tuple(infos))


@pytest.mark.parametrize("qr", [True, False])
def test_pages_by_table_stamped_a_row_at_a_time_read_as_the_whole_layout(qr):
    # 40 tables run over several pages (16 a page with the captains' QR codes, 32 without);
    # the forced rest's label «Riposo forzato» is a value of its row, so pypdf reads it on
    # the rest's line, not where the row's form was laid out
    doc = _round(40, qr=qr)
    html = documents.tablelist_html(doc, qr=qr, part="tables")
    finder = len(doc.seat_finder_pages)
    pdf, pages = stamp.render_table_pages(html, extra_pages=finder)
    whole = weasyprint.HTML(string=html).render()
    assert pages == len(whole.pages) - finder >= 2
    assert _pages(pdf) == _pages(whole.copy(whole.pages[:pages]).write_pdf())
    assert any("Riposoforzato" in text for page in _pages(pdf) for _y, text in page)
