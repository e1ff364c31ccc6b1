"""A4 score sheets stamped on one rendered form (``tournaments.printing.stamp``):
every page carries the text WeasyPrint would have laid out from the same HTML, at the same
places, whatever the sheets' shapes; a sheet whose value would not fit the form's line is
rendered whole.

The sheets below (4 hands, rules.md §3):
- table 1: entered with the hands' totals only (base and cards blank: the form lays out a
  placeholder there), 600 − 400 → difference 200;
- table 2: same shape, base and cards entered in every hand: its values go where table 1's
  placeholders were;
- table 3: blank (no state line: another shape);
- table 4: blank, with an N/S name far longer than its line: it wraps in the form, so the
  sheet is rendered whole by WeasyPrint.
"""
from __future__ import annotations

import io
from decimal import Decimal

from pypdf import PdfReader

from tests.documents.helpers import text_lines
from tournaments.captains import links
from tournaments.printing import documents, stamp

L, H = documents.LineHand, documents.SheetHand


def _pair(n: int, last: str = "Rossi") -> documents.PairInfo:
    return documents.PairInfo(n, ((f"{last}{n}", "Anna"), (f"Verdi{n}", "Bruno")))


def _table(n: int, **kw) -> documents.TableInfo:
    url = f"http://arbitro.test/c/tok{n}/"
    return documents.TableInfo(number=n, ns=kw.pop("ns", _pair(n)), ew=_pair(n + 10), pin=f"{n:04d}",
                               captain_url=url, qr_src=links.qr_png_uri(url), **kw)


def _doc() -> documents.RoundDocument:
    totals = tuple(H(k, L(None, None, s), L(None, None, 100)) for k, s in zip(range(1, 5), (300, 100, 100, 100), strict=True))
    full = tuple(H(k, L(150, 50 + k, 200 + k), L(-20, 5, -15)) for k in range(1, 5))
    filled = dict(filled=True, state="Validato", vp_ns=Decimal(12), vp_ew=Decimal(8))
    long_name = documents.PairInfo(4, (("Bartolomeo-Castelnuovo Della Gherardesca Valdambrini", "Massimiliano"),
                                       ("Sant'Ambrogio Di Montecristo Valguarnera", "Maria Vittoria")))
    tables = (
        _table(1, hands=totals, mp_ns=600, mp_ew=400, **filled),
        _table(2, hands=full, mp_ns=818, mp_ew=-60, **filled),
        _table(3),
        _table(4, ns=long_name),
    )
    return documents.RoundDocument(
        tournament="Prova", date=None, venue="Circolo", round_number=2, system="Mitchell", hands_per_round=4,
        scale_name="20 VP", scale_bands=(documents.ScaleBand("0–100", "10–10"),), tables=tables,
        pin_url="http://arbitro.test/t/prova/pin/",
    )


def test_stamped_sheets_carry_the_same_text_at_the_same_places(db):
    html = documents.scoresheets_html(_doc())
    stamped = PdfReader(io.BytesIO(stamp.render_sheets(html)))
    whole = PdfReader(io.BytesIO(documents.html_to_pdf(html)))
    assert len(stamped.pages) == len(whole.pages) == 4
    for n, (got, want) in enumerate(zip(stamped.pages, whole.pages, strict=True), start=1):
        assert text_lines(got) == text_lines(want), f"sheet {n}"
    on_a_form = [b"/F0 Do" in page.get_contents().get_data() for page in stamped.pages]
    assert on_a_form == [True, True, True, False]  # table 4's name wraps: rendered whole


def test_html_without_sheets_renders_as_it_is(db):
    html = documents.scoresheets_html(documents.RoundDocument(
        tournament="Prova", date=None, venue="", round_number=1, system="Mitchell", hands_per_round=4,
        scale_name="20 VP", scale_bands=(), tables=()))
    assert stamp.render_sheets(html).startswith(b"%PDF")


def test_a_part_the_stamping_cannot_read_is_rendered_whole(db, monkeypatch, caplog):
    from tournaments.printing import worker

    def broken(html):
        raise ValueError("unexpected sheet markup")

    monkeypatch.setattr(stamp, "render_sheets", broken)
    html = documents.scoresheets_html(_doc())
    pdf, cpu = worker.render_sheets_timed(html)
    assert len(PdfReader(io.BytesIO(pdf)).pages) == 4 and cpu > 0
    assert "stamping the score sheets failed" in caplog.text


def test_a5_pages_of_two_sheets_carry_the_same_text_at_the_same_places(db):
    # 4 tables two to a page: 2 pages; page 2 holds table 4 (its name wraps): rendered whole
    html = documents.scoresheets_html(_doc(), a5=True)
    stamped = PdfReader(io.BytesIO(stamp.render_sheets(html)))
    whole = PdfReader(io.BytesIO(documents.html_to_pdf(html)))
    assert len(stamped.pages) == len(whole.pages) == 2
    for n, (got, want) in enumerate(zip(stamped.pages, whole.pages, strict=True), start=1):
        assert text_lines(got) == text_lines(want), f"page {n}"
    assert [b"/F0 Do" in page.get_contents().get_data() for page in stamped.pages] == [True, False]


def test_team_and_partnership_sheets_carry_the_same_text_at_the_same_places(db):
    # rules.md §15 a team's pair "3A" under its team's name; §9 a partnership "11+12" with
    # each player's page as a QR code (two a line): other shapes, stamped all the same
    team = documents.PairInfo("3A", (("Rossi", "Anna"), ("Verdi", "Bruno")), team="Jolly Team")
    formed = documents.PairInfo("11+12", (("Neri", "Carla"), ("Bianchi", "Dario")))
    pages = tuple(f"http://arbitro.test/p/prova/giocatore/{n}/" for n in (11, 12))
    tables = (
        _table(1, ns=team, ns_pages=("http://arbitro.test/p/prova/squadra/3/",),
               ew_pages=("http://arbitro.test/p/prova/squadra/5/",)),
        _table(2, ns=formed, ns_pages=pages, ew_pages=pages),
    )
    doc = documents.RoundDocument(
        tournament="Prova", date=None, venue="", round_number=1, system="Danese", hands_per_round=3,
        scale_name="20 VP", scale_bands=(), tables=tables, pin_url="http://arbitro.test/t/prova/pin/")
    html = documents.scoresheets_html(doc)
    stamped = PdfReader(io.BytesIO(stamp.render_sheets(html)))
    whole = PdfReader(io.BytesIO(documents.html_to_pdf(html)))
    assert [text_lines(p) for p in stamped.pages] == [text_lines(p) for p in whole.pages]
    assert all(b"/F0 Do" in page.get_contents().get_data() for page in stamped.pages)
