"""Browser test: the arbiter's live board on a 360 px phone.

Regression: at 360 px the MP, VP, Chi and Valida columns were cut off. Now the page
itself does not overflow sideways, and the "Valida" button of a sheet the arbiter
entered can be brought into view and pressed.
"""
from __future__ import annotations

import os
import shutil

import pytest

from tests.e2e.helpers import PHONE, arbiter_context

pytestmark = pytest.mark.skipif(
    shutil.which("chromium") is None and not os.environ.get("CI"), reason="Debian Chromium not installed"
)


def test_board_columns_were_cut_off_at_360_px(chromium, live_server, round_in_play):  # noqa: F811
    from tournaments import services
    from tournaments.models import ScoreSheet

    arbiter, rnd = round_in_play
    table = rnd.tables.get(number=1)
    services.save_score_sheet(table=table, by=arbiter,
                              hands=[services.HandInput(600, 200), services.HandInput(400, 150),
                                     services.HandInput(250, 300), services.HandInput(300, 195)])
    ctx = arbiter_context(chromium, live_server, arbiter)
    page = ctx.new_page()
    page.set_viewport_size(PHONE)
    page.goto(live_server.url + "/tornei/e2e/turni/1/tabellone-live/")
    button = page.locator("#t1 button:has-text('Valida')")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    button.scroll_into_view_if_needed()
    box = button.bounding_box()
    assert box is not None and 0 <= box["x"] and box["x"] + box["width"] <= PHONE["width"]
    assert "1550–845" in page.text_content("#t1")           # MP visible in the row
    button.click()
    page.wait_for_selector("#t1[data-state=validated]")
    assert ScoreSheet.objects.get(table=table).state == ScoreSheet.State.VALIDATED
    ctx.close()
