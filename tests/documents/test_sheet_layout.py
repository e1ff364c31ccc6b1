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

from tests.documents.helpers import assert_qr_clear, boxes_by_class, layout, rect


def test_a4_sheet_qr_block_is_clear_of_the_pairs_and_one_page_per_table(played):
    """4 playing tables (8 pairs) → 4 A4 pages, one sheet each, QR block above the pairs' box."""
    pages = layout(played, a5=False)
    assert len(pages) == 4
    assert_qr_clear(pages, 1)


def test_a5_halves_qr_block_is_clear_of_the_pairs_and_two_sheets_a_page(played):
    """4 sheets two to a page → 2 A4 landscape pages, each half with its QR block clear."""
    pages = layout(played, a5=True)
    assert len(pages) == 2
    assert_qr_clear(pages, 2)
    for page in pages:  # each half stays inside its 148.5 mm (≈ 561 px) column
        for sheet in boxes_by_class(page, "sheet"):
            left, top, right, bottom = rect(sheet)
            for qr in boxes_by_class(page, "qrbox"):
                q = rect(qr)
                if left <= q[0] < right:
                    assert q[2] <= right and q[3] <= bottom
