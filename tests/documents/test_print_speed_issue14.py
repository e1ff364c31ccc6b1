"""Issue 14, "Printing a big event": what was changed to make the print pack fast keeps
what the pages show (rules.md §10).

- the seat finder is cut into A4 pages of two columns in Python (``documents.finder_pages``)
  instead of CSS columns: every player still printed, in order, no column running off its page;
- the captains' QR codes are PNG images (``links.qr_png_uri``) that encode the link;
- the print workers pause Python's garbage collector only while they render;
- a finished pack's status says what each part cost (``bench/printing.py`` prints it).
"""
from __future__ import annotations

import base64
import gc
import io

import segno
from PIL import Image
from pypdf import PdfReader

from tournaments import links
from tournaments.printing import documents, pack as printpack, worker as printworker

from .test_documents import played  # noqa: F401  (fixture)


def _row(name: str, k: int = 1) -> documents.SeatFinder:
    return documents.SeatFinder(name, "", k, k, "N/S")


# --------------------------------------------------------------------------- seat finder pages


def test_finder_pages_fill_left_then_right_then_the_next_page():
    """Budget 3 lines a column on page 1, 4 after it; row 5's name is longer than
    FINDER_WRAP (25) characters, so it counts as two lines. By hand:
    page 1: left 1, 2, 3 (3 lines) | right 4, 5 (1 + 2 = 3 lines);
    page 2: left 6, 7, 8, 9 (4 lines) | right 10, 11."""
    rows = [_row(f"R{k}", k) for k in range(1, 12)]
    rows[4] = _row("Mastrogiacomo-Bartolomucci", 5)  # 26 characters and an empty first name
    pages = documents.finder_pages(rows, first=3, lines=4)
    assert [[[r.pair for r in column] for column in page] for page in pages] == [
        [[1, 2, 3], [4, 5]],
        [[6, 7, 8, 9], [10, 11]],
    ]


def test_finder_pages_last_page_may_have_one_column_and_nobody_gives_one_empty_page():
    rows = [_row(f"R{k}", k) for k in range(1, 5)]
    assert [[len(c) for c in page] for page in documents.finder_pages(rows, first=3, lines=4)] == [[3, 1]]
    assert [[len(c) for c in page] for page in documents.finder_pages(rows[:2], first=3, lines=4)] == [[2]]
    assert documents.finder_pages([]) == [[[]]]


def _crowded_round(tables: int) -> documents.RoundDocument:
    """``tables`` tables, four players each, every "Surname Name" exactly FINDER_WRAP (25)
    characters long with a bold surname: the widest names that still count as one line."""
    people = [(f"Bartolomuc{chr(97 + k // 26 % 26)}{chr(97 + k % 26)}", "Massimiliano")  # 12 + 1 + 12
              for k in range(4 * tables)]
    assert {len(f"{last} {first}") for last, first in people} == {documents.FINDER_WRAP}
    return documents.RoundDocument(
        tournament="Prova lunga", date=None, venue="", round_number=1, system="Mitchell",
        hands_per_round=4, scale_name="s", scale_bands=(), state="",
        tables=tuple(
            documents.TableInfo(
                t + 1,
                documents.PairInfo(2 * t + 1, (people[4 * t], people[4 * t + 1])),
                documents.PairInfo(2 * t + 2, (people[4 * t + 2], people[4 * t + 3])),
            )
            for t in range(tables)
        ),
    )


def test_a_crowded_seat_finder_prints_every_player_on_the_pages_planned():
    """130 tables, 520 players: columns of 52 (page 1) then 56 lines →
    page 1: 104; pages 2-5: 112, 112, 112, 80 (= 520 - 104 - 336) → 5 finder pages, each
    with its column headers, every player's pair number printed once."""
    doc = _crowded_round(130)
    pages = doc.seat_finder_pages
    assert [sum(len(c) for c in page) for page in pages] == [104, 112, 112, 112, 80]
    reader = PdfReader(io.BytesIO(documents.tablelist_pdf(doc, qr=False)))
    texts = [page.extract_text() for page in reader.pages]
    finder = [t for t in texts if "Giocatore" in t]
    assert len(finder) == 5  # no column ran over onto a page of its own
    assert "dove siedo" in finder[0]
    printed = "\n".join(finder)
    for last, first in {p for t in doc.tables for pair in (t.ns, t.ew) for p in pair.people}:
        assert last in printed


# --------------------------------------------------------------------------- QR codes


def test_the_printed_qr_image_is_the_qr_code_of_the_captain_link():
    """Each module of segno's QR code of the link is one 4×4 black (dark) or white square of
    the PNG, after a 2-module quiet zone."""
    url = "http://192.168.1.20:8000/c/AbCdEfGhIjKlMnOpQrStUvWx0123456789ab/"
    uri = links.qr_png_uri(url)
    assert uri.startswith("data:image/png;base64,")
    image = Image.open(io.BytesIO(base64.b64decode(uri.split(",", 1)[1]))).convert("L")
    matrix = segno.make(url, error="m", mask=links.PRINT_QR_MASK).matrix
    assert image.size == ((len(matrix) + 4) * 4,) * 2
    for r, row in enumerate(matrix):
        for c, dark in enumerate(row):
            assert (image.getpixel(((c + 2) * 4 + 2, (r + 2) * 4 + 2)) < 128) == bool(dark)
    assert image.getpixel((1, 1)) > 128  # the quiet zone is white


# --------------------------------------------------------------------------- workers


def test_render_pauses_the_garbage_collector_only_while_rendering(monkeypatch):
    seen = []

    class FakeHTML:
        def __init__(self, string):
            seen.append(gc.isenabled())

        def write_pdf(self):
            return b"%PDF-fake"

    import weasyprint

    monkeypatch.setattr(weasyprint, "HTML", FakeHTML)
    assert gc.isenabled()
    pdf, cpu = printworker.render_timed("<p>x</p>")
    assert (pdf, seen, gc.isenabled()) == (b"%PDF-fake", [False], True)
    assert cpu >= 0


def test_a_worker_keeps_the_collector_off(monkeypatch):
    niceness = []
    monkeypatch.setattr(printworker.os, "nice", niceness.append)
    try:
        printworker.start_worker()
        assert niceness == [10] and not gc.isenabled()
    finally:
        gc.enable()


def test_a_finished_pack_says_what_each_part_cost(played):  # noqa: F811
    pack = printpack.prepare(played.rounds.get(number=1))
    state = printpack.start(pack)
    assert state["state"] == "done"
    assert state["part_kinds"] == ["tablelist", "sheets", "standings"]
    assert len(state["cpu_parts"]) == 3 and all(cpu > 0 for cpu in state["cpu_parts"])
    assert state["cpu_html"] >= 0 and state["cpu_join"] >= 0 and state["wall"] >= state["wall_render"] > 0
    assert state["workers"] == 0  # tests render in the server process (conftest)


def test_every_score_sheet_of_the_pack_carries_its_qr_code(played):  # noqa: F811
    """rules.md §10: each score sheet has the QR code of its captain link. The 8-pair pack
    is 7 pages (test_print_pack.py): 2 of table list, sheets of tables 1-4 on pages 3-6,
    standings. (The pack used to give its sheet parts the tables without their codes.)"""
    pack = printpack.prepare(played.rounds.get(number=1))
    (kind, tables), = [part for part in printpack._plan(pack) if part[0] == "sheets"]
    html = printpack._part_html(pack, kind, tables)
    assert html.count('<img class="qrimg" src="data:image/png;base64,') == 4
    printpack.start(pack)
    reader = PdfReader(str(printpack.pdf_path(pack.key)))
    for number, page in zip(range(1, 5), reader.pages[2:6]):  # the text printed under the code
        text = " ".join(page.extract_text().split())
        assert f"Tavolo {number}" in text and "Capitano: inquadra il codice" in text


def test_parts_go_to_the_workers_standings_and_first_sheets_then_the_table_list():
    plan = [("tablelist", ()), ("sheets", (1,)), ("sheets", (2,)), ("sheets", (3,)), ("standings", ())]
    assert printpack._submit_order(plan) == [4, 1, 0, 2, 3]
