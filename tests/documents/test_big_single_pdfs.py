"""Big single PDFs are never rendered inside the web request (printing – big single PDFs).

The table list, score sheets and standings downloads render at once while the document is
small; above the setting ``ARBITRO_INLINE_PDF_PAGES`` (score-sheet pages; a page of the table
list or the standings counts as 3, ``printpack.PAGE_WEIGHT``) the view starts the print
pack's background job for exactly that document and redirects to its progress page (or
straight to the file when that state was rendered before). In tests the jobs render
synchronously (conftest: ``ARBITRO_PRINT_BACKGROUND = False``, no worker processes).

Hand counts (the ``played`` fixture of test_documents.py, test_print_pack.py's docstring):
8 pairs, round 1 closed, 4 tables, no rest →
- score sheets: 4 pages (one a table);
- table list: the 4 tables fit one page (16 with QR codes), the 16 players' seat finder one
  page → 2 pages; weighted 2 × 3 = 6;
- standings after round 1: 8 rows + 1 penalty note → 1 page; weighted 3.
"""
from __future__ import annotations

import dataclasses
import io
import time
from decimal import Decimal

import pytest
from django.urls import reverse
from django.utils import translation
from pypdf import PdfReader

from tests.documents.helpers import E_W_HANDS
from tournaments import services
from tournaments.printing import documents
from tournaments.printing import pack as printpack


@pytest.fixture
def public_url(monkeypatch):
    """The phones' address, so a job prepared here and one prepared by a view agree."""
    monkeypatch.setenv("ARBITRO_PUBLIC_URL", "http://192.168.1.20:8000")


def _round_doc(t, n=1):
    return documents.round_document(t.rounds.get(number=n), qr=False)


def _pages(response) -> int:
    data = b"".join(response.streaming_content) if response.streaming else response.content
    return len(PdfReader(io.BytesIO(data)).pages)


def _correct_table_3(t, arbiter):
    """Table 3 (3 v 7, 600 – 400 → 11–9) corrected: hand 1 N/S 300 → 800, so 1100 – 400,
    difference 700 → 13–7 (vp20-4h: 505–700 13–7); pair 3 goes from 11 to 13 VP."""
    table = t.rounds.get(number=1).tables.get(number=3)
    hands = [services.HandInput(ns=a, ew=b, ns_base=a - 50 if a else 0, ns_cards=50 if a else 0)
             for a, b in zip([800, 200, 100, 0], E_W_HANDS, strict=True)]
    services.save_score_sheet(table=table, hands=hands, by=arbiter, kind="transcription",
                              reason="errore di trascrizione", validate=True)


# --------------------------------------------------------------------------- size


def test_estimated_pages_by_hand(played):  # noqa: F811
    doc = _round_doc(played)
    assert printpack.estimated_pages("sheets", doc) == 4
    assert printpack.estimated_pages("tablelist", doc) == 2
    assert printpack.estimated_pages("tablelist", doc, qr=False) == 2
    assert printpack.estimated_pages("standings", documents.standings_document(played)) == 1
    # 5 times the tables (20, 80 players, short names): with QR codes 20 / 16 → 2 pages by
    # table, without 20 / 32 → 1; the seat finder's 80 lines fit the first page's two
    # columns of 52 → 1 page.
    big = dataclasses.replace(doc, tables=doc.tables * 5)
    assert printpack.estimated_pages("tablelist", big) == 3
    assert printpack.estimated_pages("tablelist", big, qr=False) == 2
    assert printpack.estimated_pages("sheets", big) == 20


def test_the_estimates_are_the_real_page_counts(played):  # noqa: F811
    doc = printpack.with_qr(_round_doc(played))
    assert len(PdfReader(io.BytesIO(documents.tablelist_pdf(doc))).pages) == 2
    assert len(PdfReader(io.BytesIO(documents.scoresheets_pdf(doc))).pages) == 4
    standings = documents.standings_pdf(documents.standings_document(played))
    assert len(PdfReader(io.BytesIO(standings)).pages) == 1


def test_inline_ok_weighs_pages_against_the_setting(played, settings):  # noqa: F811
    doc, standings = _round_doc(played), documents.standings_document(played)
    settings.ARBITRO_INLINE_PDF_PAGES = 4
    assert printpack.inline_ok("sheets", doc)  # 4 ≤ 4
    assert printpack.inline_ok("standings", standings)  # 1 × 3 = 3 ≤ 4
    assert not printpack.inline_ok("tablelist", doc)  # 2 × 3 = 6 > 4
    settings.ARBITRO_INLINE_PDF_PAGES = 3
    assert not printpack.inline_ok("sheets", doc)
    assert printpack.inline_ok("standings", standings)
    settings.ARBITRO_INLINE_PDF_PAGES = 6
    assert printpack.inline_ok("tablelist", doc)
    settings.ARBITRO_INLINE_PDF_PAGES = 0
    assert not printpack.inline_ok("standings", standings)


def test_the_default_keeps_a_club_evening_inline(played, settings):  # noqa: F811
    """Default 40: a 10-table evening's 10 sheets, 2-page table list, 1-page standings."""
    assert settings.ARBITRO_INLINE_PDF_PAGES == 40
    doc = _round_doc(played)
    ten = dataclasses.replace(doc, tables=(doc.tables * 3)[:10])
    assert printpack.inline_ok("sheets", ten) and printpack.inline_ok("tablelist", ten)
    forty_one = dataclasses.replace(doc, tables=(doc.tables * 11)[:41])
    assert not printpack.inline_ok("sheets", forty_one)


# --------------------------------------------------------------------------- pages: inline


def test_small_documents_download_at_once(arbiter_client, played, settings):  # noqa: F811
    for url, pages in [(reverse("scoresheets_pdf", args=[played.slug, 1]), 4),
                       (reverse("tablelist_pdf", args=[played.slug, 1]), 2),
                       (reverse("tablelist_pdf", args=[played.slug, 1]) + "?qr=0", 2),
                       (reverse("standings_pdf", args=[played.slug]) + "?dopo=1", 1)]:
        response = arbiter_client.get(url)
        assert response.status_code == 200 and response["Content-Type"] == "application/pdf", url
        assert _pages(response) == pages
    assert not list(printpack.cache_dir().glob("*.pdf"))  # no job, nothing cached


# --------------------------------------------------------------------------- pages: background


def test_big_score_sheets_go_to_a_job_then_download(arbiter_client, played, settings, public_url):  # noqa: F811
    settings.ARBITRO_INLINE_PDF_PAGES = 3  # 4 sheets > 3
    response = arbiter_client.get(reverse("scoresheets_pdf", args=[played.slug, 1]))
    pack = printpack.prepare_document("sheets", rnd=played.rounds.get(number=1))
    assert pack.key.startswith(f"t{played.id}-r1-score-")
    assert response.status_code == 302
    assert response["Location"] == reverse("print_job_pdf", args=[played.slug, pack.key])
    pdf = arbiter_client.get(response["Location"])
    assert pdf.status_code == 200 and pdf["Content-Type"] == "application/pdf"
    assert f'filename="{played.slug}-score-turno-1.pdf"' in pdf["Content-Disposition"]
    assert pdf["Content-Disposition"].startswith("inline")
    assert _pages(pdf) == 4
    text = [p.extract_text() for p in PdfReader(str(printpack.pdf_path(pack.key))).pages]
    assert [f"Tavolo {n}" in t for n, t in zip(range(1, 5), text, strict=False)] == [True] * 4


def test_a_second_request_reuses_the_rendered_document(arbiter_client, played, settings, monkeypatch):  # noqa: F811
    settings.ARBITRO_INLINE_PDF_PAGES = 3
    url = reverse("scoresheets_pdf", args=[played.slug, 1])
    first = arbiter_client.get(url)

    def must_not_render(pack, after=()):
        raise AssertionError("rendered again although nothing changed")

    monkeypatch.setattr(printpack, "run", must_not_render)
    assert arbiter_client.get(url)["Location"] == first["Location"]


def test_big_table_list_without_qr_and_standings_go_to_jobs(arbiter_client, played, settings):  # noqa: F811
    settings.ARBITRO_INLINE_PDF_PAGES = 2  # table list 6, standings 3 (module docstring)
    listed = arbiter_client.get(reverse("tablelist_pdf", args=[played.slug, 1]) + "?qr=0")
    assert "-r1-tabellonenoqr-" in listed["Location"] and listed["Location"].endswith(".pdf")
    pdf = arbiter_client.get(listed["Location"])
    assert f'filename="{played.slug}-tabellone-turno-1.pdf"' in pdf["Content-Disposition"]
    text = [p.extract_text() for p in PdfReader(io.BytesIO(b"".join(pdf.streaming_content))).pages]
    assert len(text) == 2 and "Tabellone del turno 1" in text[0] and "QR capitano" not in text[0]
    with_qr = arbiter_client.get(reverse("tablelist_pdf", args=[played.slug, 1]))
    assert "-r1-tabellone-" in with_qr["Location"] and with_qr["Location"] != listed["Location"]

    standings = arbiter_client.get(reverse("standings_pdf", args=[played.slug]) + "?dopo=1")
    assert "-r1-classifica-" in standings["Location"]
    pdf = arbiter_client.get(standings["Location"])
    assert f'filename="{played.slug}-classifica-turno-1.pdf"' in pdf["Content-Disposition"]
    text = PdfReader(io.BytesIO(b"".join(pdf.streaming_content))).pages[0].extract_text()
    assert "Classifica" in text and "Ritardo ripetuto" in text


def test_progress_page_while_the_job_runs(arbiter_client, played, settings, monkeypatch):  # noqa: F811
    settings.ARBITRO_INLINE_PDF_PAGES = 0
    settings.ARBITRO_PRINT_BACKGROUND = True
    started = []
    monkeypatch.setattr(printpack, "run", lambda p, after=(): started.append(p.key))
    url = reverse("standings_pdf", args=[played.slug]) + "?dopo=1"
    first, second = arbiter_client.get(url), arbiter_client.get(url)  # two clicks → one job
    for _ in range(50):
        if started:
            break
        time.sleep(0.02)
    assert len(started) == 1 and first["Location"] == second["Location"]
    key = started[0]
    assert first["Location"] == reverse("print_job", args=[played.slug, key])
    page = arbiter_client.get(first["Location"]).content.decode()
    assert 'id="pack-progress"' in page and "js/printpack.js" in page
    assert "<script>" not in page and " onclick=" not in page  # CSP: no inline code
    assert "Classifica dopo il turno 1" in page and "Documento grande" in page
    assert 'id="pack-restart" hidden' in page and 'id="pack-done" hidden' in page
    status = arbiter_client.get(reverse("print_job_status", args=[played.slug, key])).json()
    assert status == {"state": "running", "done": 0, "total": 1, "sheets": 0}
    assert arbiter_client.get(reverse("print_job_pdf", args=[played.slug, key])).status_code == 404


def test_a_failed_job_shows_an_error_and_a_retry_button(arbiter_client, played, settings, monkeypatch):  # noqa: F811
    from tournaments.printing import worker as printworker

    settings.ARBITRO_INLINE_PDF_PAGES = 0
    real, real_list = printworker.render, printworker.render_tablelist_timed

    def broken(html):
        raise RuntimeError("font missing")

    monkeypatch.setattr(printworker, "render", broken)
    # the table list's job has its own worker function (its seat finder is stamped)
    monkeypatch.setattr(printworker, "render_tablelist_timed", broken)
    url = reverse("tablelist_pdf", args=[played.slug, 1])
    response = arbiter_client.get(url + "?qr=0")
    key = response["Location"].rstrip("/").split("/")[-1]
    assert response["Location"] == reverse("print_job", args=[played.slug, key])
    assert printpack.status(key)["state"] == "failed"
    page = arbiter_client.get(response["Location"]).content.decode()
    assert '<p id="pack-failed" class="msg error">La preparazione non è riuscita' in page
    assert f'<form method="get" action="{url}"' in page
    assert '<input type="hidden" name="qr" value="0">' in page
    assert '<button id="pack-restart">Prepara di nuovo</button>' in page
    monkeypatch.setattr(printworker, "render", real)
    monkeypatch.setattr(printworker, "render_tablelist_timed", real_list)
    retry = arbiter_client.get(url, {"qr": "0"})  # what the button sends
    assert retry["Location"] == reverse("print_job_pdf", args=[played.slug, key])
    assert printpack.status(key)["state"] == "done"


def test_the_progress_page_speaks_english(arbiter_client, played, settings):  # noqa: F811
    settings.ARBITRO_INLINE_PDF_PAGES = 0
    settings.ARBITRO_PRINT_BACKGROUND = True
    arbiter_client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    with translation.override("en"):
        pack = printpack.prepare_document("sheets", rnd=played.rounds.get(number=1))
    printpack._write_status(pack.key, state="done", done=1, total=1, sheets=4)
    (printpack.cache_dir() / f"{pack.key}.pdf").write_bytes(b"%PDF-1.7 fake")
    page = arbiter_client.get(reverse("print_job", args=[played.slug, pack.key])).content.decode()
    assert "Score sheets of round 1" in page and "Download the PDF" in page
    assert "A big document: the PDF is prepared separately" in page and "Back to the round" in page


# --------------------------------------------------------------------------- key


def test_a_sheet_correction_gives_new_keys_never_a_stale_pdf(arbiter_client, played, arbiter, settings,  # noqa: F811
                                                             public_url):
    settings.ARBITRO_INLINE_PDF_PAGES = 0
    sheets_url = reverse("scoresheets_pdf", args=[played.slug, 1])
    standings_url = reverse("standings_pdf", args=[played.slug]) + "?dopo=1"
    old_sheets, old_standings = arbiter_client.get(sheets_url), arbiter_client.get(standings_url)
    _correct_table_3(played, arbiter)
    new_sheets, new_standings = arbiter_client.get(sheets_url), arbiter_client.get(standings_url)
    assert new_sheets["Location"] != old_sheets["Location"]
    assert new_standings["Location"] != old_standings["Location"]
    # the corrected sheet: 1100 – 400, 13–7; pair 3 on 13 VP, tied with pair 1 (13)
    sheet_3 = PdfReader(io.BytesIO(b"".join(arbiter_client.get(new_sheets["Location"]).streaming_content)))
    assert "1100" in sheet_3.pages[2].extract_text()
    rows = [r for r in documents.standings_document(played, after_round=1).rows if r.pair == 3]
    assert rows[0].vp == Decimal(13)


def test_keys_follow_language_options_and_round(played):  # noqa: F811
    rnd = played.rounds.get(number=1)
    base = printpack.prepare_document("tablelist", rnd=rnd)
    assert printpack.prepare_document("tablelist", rnd=rnd).key == base.key
    assert printpack.prepare_document("tablelist", rnd=rnd, qr=False).key != base.key
    with translation.override("en"):
        assert printpack.prepare_document("tablelist", rnd=rnd).key != base.key
    # the same round document read with QR codes drawn gives the same key (links, not images)
    drawn = documents.round_document(rnd, qr=True)
    assert printpack.prepare_document("tablelist", rnd=rnd, round_doc=drawn).key == base.key
    final = printpack.prepare_document("standings", tournament=played, after_round=1)
    assert final.key.startswith(f"t{played.id}-r1-classifica-") and final.round_doc is None
    with pytest.raises(ValueError):
        printpack.prepare_document("poster", rnd=rnd)


# --------------------------------------------------------------------------- access


def test_job_pages_need_login_ownership_and_a_document_key(client, arbiter_client, played, settings,  # noqa: F811
                                                           django_user_model):
    settings.ARBITRO_INLINE_PDF_PAGES = 0
    key = arbiter_client.get(reverse("scoresheets_pdf", args=[played.slug, 1]))["Location"].split("/")[-1][:-4]
    urls = [reverse("print_job", args=[played.slug, key]), reverse("print_job_status", args=[played.slug, key]),
            reverse("print_job_pdf", args=[played.slug, key])]
    assert [arbiter_client.get(u).status_code for u in urls] == [200, 200, 200]
    # a document's key is not a print pack, nor the pack's key a document
    assert arbiter_client.get(reverse("print_pack_pdf", args=[played.slug, 1, key])).status_code == 404
    pack = printpack.prepare(played.rounds.get(number=1))
    printpack.start(pack)
    assert arbiter_client.get(reverse("print_job_pdf", args=[played.slug, pack.key])).status_code == 404
    assert arbiter_client.get(reverse("print_job", args=[played.slug, "t1-r1-score-zz"])).status_code == 404
    arbiter_client.logout()
    for url in urls:
        response = client.get(url)
        assert response.status_code == 302 and "login" in response["Location"]
    client.force_login(django_user_model.objects.create_user(username="altro", password="segreta-456"))
    for url in urls:
        assert client.get(url).status_code == 404  # another arbiter's tournament
