"""The printed score sheet's layout (rules.md §10: one sheet a page, A4 or two A5 halves).

The QR block (code, "Capitano: inquadra il codice", PIN, the PIN address) must not run into
the box with the two lines' pairs, as it did when it was placed absolutely over the top
right corner and only the heading kept clear of it. The block sits in a row of its own
(``.top``) beside a column holding the heading and the pairs' box, so the pairs' box is narrower, never under the block, and the hands table starts below the
taller of the two. These tests lay the sheets out with WeasyPrint and compare
the boxes' positions: the QR block's rectangle must not meet the pairs' box or the hands
table, on A4 and on the A5 halves, and each sheet stays on its own page (A4) or half (A5).
"""
from __future__ import annotations

import weasyprint

from tournaments.printing import documents

from .test_documents import played  # noqa: F401  (fixture)


def _rect(box) -> tuple[float, float, float, float]:
    """(left, top, right, bottom) of a box's border box, in CSS px."""
    x, y = box.border_box_x(), box.border_box_y()
    return x, y, x + box.border_width(), y + box.border_height()


def _meet(a, b) -> bool:
    """Whether two rectangles share any area (touching edges do not count)."""
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _boxes_by_class(page, name: str) -> list:
    """Every box of a laid-out page whose element carries CSS class ``name``, in page order;
    one per element (the first box of an element: each of these blocks is a single box)."""
    found, seen = [], set()
    for box in page._page_box.descendants():
        element = getattr(box, "element", None)
        if element is None or id(element) in seen:
            continue
        if name in (element.get("class") or "").split():
            seen.add(id(element))
            found.append(box)
    return found


def _layout(played, *, a5: bool):
    doc = documents.round_document(played.rounds.get(number=1))  # with the QR codes
    assert all(t.qr_src for t in doc.playing_tables) and doc.pin_url
    html = documents.scoresheets_html(doc, a5=a5)
    return weasyprint.HTML(string=html).render().pages


def _assert_qr_clear(pages, sheets_a_page: int):
    for page in pages:
        qrs = _boxes_by_class(page, "qrbox")
        lines = _boxes_by_class(page, "lines")
        hands = _boxes_by_class(page, "hands")
        assert len(qrs) == len(lines) == sheets_a_page
        for qr, ln, hd in zip(qrs, lines, hands):
            q, pairs, table = _rect(qr), _rect(ln), _rect(hd)
            assert not _meet(q, pairs), (q, pairs)
            assert not _meet(q, table), (q, table)
            assert q[3] <= table[1]  # the whole block above the hands table
            for child in qr.descendants():  # the image, the caption, the PIN and the address
                if child is not qr and hasattr(child, "border_box_y"):
                    c = _rect(child)
                    assert not _meet(c, pairs) and c[3] <= table[1], (c, pairs, table)


def test_a4_sheet_qr_block_is_clear_of_the_pairs_and_one_page_per_table(played):
    """4 playing tables (8 pairs) → 4 A4 pages, one sheet each, QR block above the pairs' box."""
    pages = _layout(played, a5=False)
    assert len(pages) == 4
    _assert_qr_clear(pages, 1)


def test_a5_halves_qr_block_is_clear_of_the_pairs_and_two_sheets_a_page(played):
    """4 sheets two to a page → 2 A4 landscape pages, each half with its QR block clear."""
    pages = _layout(played, a5=True)
    assert len(pages) == 2
    _assert_qr_clear(pages, 2)
    for page in pages:  # each half stays inside its 148.5 mm (≈ 561 px) column
        for sheet in _boxes_by_class(page, "sheet"):
            left, top, right, bottom = _rect(sheet)
            for qr in _boxes_by_class(page, "qrbox"):
                q = _rect(qr)
                if left <= q[0] < right:
                    assert q[2] <= right and q[3] <= bottom
