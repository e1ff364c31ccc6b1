"""Browser test: "Stampa pacchetto" on the round page shows a progress bar that
fills as the job runs (static/js/printpack.js polls the status, no inline script) and then
the download link, which serves the joined PDF."""
from __future__ import annotations

import os
import shutil

import pytest

from tests.e2e.helpers import arbiter_context

pytestmark = pytest.mark.skipif(
    shutil.which("chromium") is None and not os.environ.get("CI"), reason="Debian Chromium not installed"
)


def _round_page(chromium, live_server, round_in_play):  # noqa: F811
    """The arbiter's round page in a fresh browser context; also the list of console errors."""
    arbiter, rnd = round_in_play
    ctx = arbiter_context(chromium, live_server, arbiter)
    page = ctx.new_page()
    errors = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(live_server.url + f"/tornei/{rnd.tournament.slug}/turni/{rnd.number}/")
    return ctx, page, rnd, errors


def _download_when_ready(page, live_server):
    """Wait for the progress page's link, then fetch it: the served file must be a PDF."""
    page.wait_for_selector("#pack-link", state="visible", timeout=60_000)
    response = page.request.get(live_server.url + page.get_attribute("#pack-link", "href"))
    assert response.status == 200 and response.headers["content-type"] == "application/pdf"
    assert response.body().startswith(b"%PDF")


def test_print_pack_click_progress_then_link(chromium, live_server, round_in_play, settings):  # noqa: F811
    settings.ARBITRO_PRINT_BACKGROUND = True  # as in the server: the click answers at once
    ctx, page, rnd, errors = _round_page(chromium, live_server, round_in_play)
    with page.expect_navigation():
        page.click("#print-pack-start")
    assert page.is_visible("#pack-progress")
    page.wait_for_selector("#pack-link", state="visible", timeout=60_000)
    assert page.evaluate("document.getElementById('pack-progress').value") == \
        page.evaluate("document.getElementById('pack-progress').max")
    _download_when_ready(page, live_server)
    assert not errors
    ctx.close()


def test_big_score_sheets_progress_then_link(chromium, live_server, round_in_play, settings):  # noqa: F811
    """Printing – big single PDFs: above ARBITRO_INLINE_PDF_PAGES the round page's "Score da
    stampare (PDF)" opens the same progress page (a background job for that document alone),
    whose link then serves the PDF."""
    settings.ARBITRO_PRINT_BACKGROUND = True
    settings.ARBITRO_INLINE_PDF_PAGES = 0  # every document counts as big
    ctx, page, rnd, errors = _round_page(chromium, live_server, round_in_play)
    with page.expect_navigation():
        page.click(f"a[href$='turno-{rnd.number}/score.pdf']")
    assert "/documenti/stampa/" in page.url and page.is_visible("#pack-progress")
    _download_when_ready(page, live_server)
    assert not errors
    ctx.close()
