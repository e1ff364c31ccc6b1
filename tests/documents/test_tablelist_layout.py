"""The printed table list's header cells hold their text (rules.md §10).

The «QR capitano» heading must not spill out of its narrow column. Laid out with WeasyPrint,
every heading's text boxes must lie inside its cell, with and without the QR column.
"""
from __future__ import annotations

import weasyprint

from tests.documents.helpers import rect
from tournaments.printing import documents


def _headings(html: str) -> list:
    page = weasyprint.HTML(string=html).render().pages[0]
    return [box for box in page._page_box.descendants()
            if getattr(box, "element_tag", "") == "th" and type(box).__name__ == "TableCellBox"]


def _texts_inside(cell) -> bool:
    """Every line of the heading within the cell's content box (inside its padding: a
    text touching the cell's border reads as spilling out of it)."""
    left = cell.content_box_x()
    right = left + cell.width
    for child in cell.descendants():
        if type(child).__name__ == "TextBox":
            x = rect(child)
            if x[0] < left - 0.5 or x[2] > right + 0.5:
                return False
    return True


def test_qr_heading_stays_inside_its_cell(drafted):
    doc = documents.round_document(drafted.rounds.get(number=1))
    cells = _headings(documents.tablelist_html(doc, qr=True))
    qr = [c for c in cells if "qrh" in (c.element.get("class") or "")]
    assert len(qr) == 1
    for cell in cells:
        assert _texts_inside(cell), cell.element.text


def test_headings_inside_their_cells_without_qr(drafted):
    doc = documents.round_document(drafted.rounds.get(number=1), qr=False)
    for cell in _headings(documents.tablelist_html(doc, qr=False)):
        assert _texts_inside(cell), cell.element.text
