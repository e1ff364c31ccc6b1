"""The print pack's workers and images: what makes the pack fast keeps what the pages show
(rules.md §10).

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

from tournaments.captains import links
from tournaments.printing import pack as printpack
from tournaments.printing import worker as printworker

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
    assert state["cpu_html"] >= 0 and state["cpu_join"] >= 0 and state["cpu_join_early"] >= 0 and state["wall"] >= state["wall_render"] > 0
    assert state["workers"] == 0  # tests render in the server process (conftest)


def test_every_score_sheet_of_the_pack_carries_its_qr_code(played):  # noqa: F811
    """rules.md §10: each score sheet has the QR code of its captain link. The 8-pair pack
    is 7 pages (test_print_pack.py): 2 of table list, sheets of tables 1-4 on pages 3-6,
    standings. (The pack used to give its sheet parts the tables without their codes.)"""
    pack = printpack.prepare(played.rounds.get(number=1))
    (kind, tables), = [part for part in printpack._plan(pack) if part[0] == "sheets"]
    html = printpack._part_html(pack, kind, tables)
    assert html.count('<img class="qrimg v" src="data:image/png;base64,') == 4
    printpack.start(pack)
    reader = PdfReader(str(printpack.pdf_path(pack.key)))
    for number, page in zip(range(1, 5), reader.pages[2:6], strict=True):  # the text printed under the code
        text = " ".join(page.extract_text().split())
        assert f"Tavolo {number}" in text and "Capitano: inquadra il codice" in text


def test_parts_go_to_the_workers_standings_then_the_table_list_then_the_sheets():
    # stamped sheets (printing.stamp) cost less than the table list: it must start early
    plan = [("tablelist", ()), ("sheets", (1,)), ("sheets", (2,)), ("sheets", (3,)), ("standings", ())]
    assert printpack._submit_order(plan) == [4, 0, 1, 2, 3]


def test_the_forkserver_is_started_while_the_click_reads_the_database(settings, monkeypatch):
    """``printpack.warm_up`` (called first by ``prepare``) starts the workers' forkserver, which
    imports WeasyPrint, so the first job of a server process does not wait for that import;
    with rendering in the server process (``ARBITRO_PRINT_WORKERS`` 0) it starts nothing."""
    from multiprocessing import forkserver

    started = []
    monkeypatch.setattr(forkserver, "ensure_running", lambda: started.append(True))
    settings.ARBITRO_PRINT_WORKERS = 0
    printpack.warm_up()
    assert started == []
    settings.ARBITRO_PRINT_WORKERS = 2
    printpack.warm_up()
    assert started == [True]
