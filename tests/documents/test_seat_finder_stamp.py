"""The table list's seat finder stamped on one form a page shape (``printing.stamp.render_finder``,
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
from tournaments.printing import documents, worker

NAMES = ["Rossi", "Bianchi", "D'Amico", "Esposito", "Romano", "Colombo", "Ricci", "Marino", "Greco", "Bruno"]


def _doc() -> documents.RoundDocument:
    def pair(n):
        return documents.PairInfo(n, ((NAMES[n % 10] + str(n), "Anna"), (NAMES[(3 * n) % 10], "Bruno")))

    tables = tuple(documents.TableInfo(number=k, ns=pair(2 * k - 1), ew=pair(2 * k), pin=f"{k:04d}")
                   for k in range(1, 66))
    return documents.RoundDocument(
        tournament="Prova", date=None, venue="Circolo", round_number=2, system="Mitchell", hands_per_round=4,
        scale_name="20 VP", scale_bands=(documents.ScaleBand("0–100", "10–10"),), tables=tables)


@pytest.mark.one_engine  # the renderer's output against a fixture; the reads it prints are tested on both engines
def test_the_stamped_table_list_has_the_text_of_the_whole_one(db):
    doc = _doc()
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
    assert all("/F0" in p["/Resources"]["/XObject"] for p in PdfReader(io.BytesIO(finder)).pages)


def test_an_unknown_part_of_the_table_list_is_refused():
    with pytest.raises(ValueError):
        documents.tablelist_html(_doc(), part="tutto")
