"""The table list's seat finder stamped a row at a time, or one form a page shape when a name takes two lines (``printing.stamp.render_finder``,
``printing.worker.render_tablelist_timed``): the table list of the print pack has, page by
page, the text WeasyPrint lays out from the whole document (rules.md §10), footers included
("pagina 3 / 4": the pages by table are rendered apart, so the numbers are stamped values).

130 pairs at 65 tables: 260 players, more than the first finder page's two columns of 52
(documents.FINDER_LINES_FIRST) and a second page's two of 56, so three finder pages, two
shapes plus the last, partly filled.
"""
from __future__ import annotations

import io

import pytest
from pypdf import PdfReader

from tests.documents.helpers import text_lines as _lines
from tournaments.printing import documents, stamp, worker

NAMES = ["Rossi", "Bianchi", "D'Amico", "Esposito", "Romano", "Colombo", "Ricci", "Marino", "Greco", "Bruno"]


def _doc(long: int = 0) -> documents.RoundDocument:
    """65 tables; pair ``long``'s first player (none when 0) with a name of two lines in the
    finder's column."""
    def pair(n):
        first = ("Romano Bartolomeo-Fiorentini", "Massimiliano Gianfranco") if n == long else \
            (NAMES[n % 10] + str(n), "Anna")
        return documents.PairInfo(n, (first, (NAMES[(3 * n) % 10], "Bruno")))

    tables = tuple(documents.TableInfo(number=k, ns=pair(2 * k - 1), ew=pair(2 * k), pin=f"{k:04d}")
                   for k in range(1, 66))
    return documents.RoundDocument(
        tournament="Prova", date=None, venue="Circolo", round_number=2, system="Mitchell", hands_per_round=4,
        scale_name="20 VP", scale_bands=(documents.ScaleBand("0–100", "10–10"),), tables=tables)


@pytest.mark.parametrize("long", [0, 40])
def test_the_stamped_table_list_has_the_text_of_the_whole_one(db, long):
    # long=40: a name of two lines, which the finder's rows stamped one at a time refuse
    # (stamp.NotStampable): its pages are then stamped one form a page shape, as before
    doc = _doc(long)
    assert len(doc.seat_finder_pages) == 3
    whole = PdfReader(io.BytesIO(worker.weasyprint_render(documents.tablelist_html(doc, qr=False)))).pages
    (tables, finder), _cpu = worker.render_tablelist_timed(
        (documents.tablelist_html(doc, qr=False, part="tables"),
         documents.tablelist_html(doc, qr=False, part="finder"), len(doc.seat_finder_pages)))
    got = list(PdfReader(io.BytesIO(tables)).pages) + list(PdfReader(io.BytesIO(finder)).pages)
    assert len(got) == len(whole)
    for n, (g, w) in enumerate(zip(got, whole, strict=True), start=1):
        assert _lines(g) == _lines(w), f"page {n}: text differs"
    last = _lines(got[-1])[0][1]  # the footer, bottom line: title and "pagina N / N"
    assert last.endswith(f"pagina{len(whole)}/{len(whole)}")
    # the finder pages are stamped: their pages draw a form (XObject), not WeasyPrint's page
    # (but the one with a name of two lines); a row at a time (row forms /R<n>) unless a
    # name takes two lines
    pages = PdfReader(io.BytesIO(finder)).pages
    forms = sum("/F0" in p.get("/Resources", {}).get("/XObject", {}) for p in pages)
    assert forms == (len(pages) if long == 0 else len(pages) - 1)
    assert any("/R0" in p["/Resources"]["/XObject"] for p in pages) == (long == 0)


def test_a_name_of_two_lines_is_not_stamped_a_row_at_a_time(db):
    html = documents.tablelist_html(_doc(40), qr=False, part="finder").replace("FINDERPAGES", "5")
    with pytest.raises(stamp.NotStampable):
        stamp._finder_rows(stamp.FINDER_PAGE_TOKEN.sub("2", html))


def test_an_unknown_part_of_the_table_list_is_refused():
    with pytest.raises(ValueError):
        documents.tablelist_html(_doc(), part="tutto")
