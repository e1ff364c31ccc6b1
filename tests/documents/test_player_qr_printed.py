"""The players' QR codes on the printouts: each score sheet carries, beside each line, the QR
code of that line's own page (the pair's; each player's of a partnership; the team's) and the
table list one code of the players' search page, only while the public pages are on (else
the code would open a 404). The score sheet's layout stays as tested in
test_sheet_layout.py: the captain's QR block clear of the pairs' box and the hands, one
sheet a page (A4) or a half (A5)."""
from __future__ import annotations

import pytest

from tests.documents.helpers import assert_qr_clear, boxes_by_class, layout, meet, rect
from tournaments import services
from tournaments.printing import documents


@pytest.fixture
def public(played, arbiter):
    services.update_tournament(tournament=played, by=arbiter, public_enabled=True)
    played.refresh_from_db()
    return played


def test_sheets_name_each_lines_page_only_when_public(played, arbiter):
    doc = documents.round_document(played.rounds.get(number=1), qr=False)
    assert all(t.ns_pages == () and t.ew_pages == () for t in doc.playing_tables) and doc.players_url == ""
    services.update_tournament(tournament=played, by=arbiter, public_enabled=True)
    played.refresh_from_db()
    doc = documents.round_document(played.rounds.get(number=1), qr=False)
    t1 = doc.playing_tables[0]
    # round 1 Mitchell of 8 pairs: table 1 is 1 v 5 (rules §6)
    assert t1.ns_pages == ("http://127.0.0.1:8000/p/prova/coppia/1/",)
    assert t1.ew_pages == ("http://127.0.0.1:8000/p/prova/coppia/5/",)
    assert doc.players_url == "http://127.0.0.1:8000/p/prova/cerca/"
    html = documents.scoresheets_html(doc)
    assert html.count('class="qrimg pq v"') == 2 * len(doc.playing_tables)
    assert documents.tablelist_html(doc).count('class="players"') == 1
    assert 'class="players"' not in documents.tablelist_html(doc, qr=False)


def _assert_line_codes_inside_their_lines(pages):
    """Each line's code stands inside that line's box, clear of the hands' grid (not
    over the E/O Base and Carte cells of hands 1–4)."""
    for page in pages:
        lines = [rect(b) for b in boxes_by_class(page, "ln")]
        hands = [rect(b) for b in boxes_by_class(page, "hands")]
        codes = [rect(b) for b in boxes_by_class(page, "pq")]
        assert codes and len(codes) == len(lines)
        for code, line in zip(codes, lines, strict=True):
            assert line[0] <= code[0] and code[2] <= line[2] + 0.5 and line[1] - 0.5 <= code[1] \
                and code[3] <= line[3] + 0.5, (code, line)
            assert not any(meet(code, grid) for grid in hands), (code, hands)


def test_a4_layout_with_the_players_codes(public):
    pages = layout(public, a5=False)
    assert len(pages) == 4
    assert_qr_clear(pages, 1)
    assert all(len(boxes_by_class(p, "pq")) == 2 for p in pages)
    _assert_line_codes_inside_their_lines(pages)


def test_a5_layout_with_the_players_codes(public):
    pages = layout(public, a5=True)
    assert len(pages) == 2
    assert_qr_clear(pages, 2)
    _assert_line_codes_inside_their_lines(pages)
