"""Browser test: the grid's correction reason is required exactly when the service wants one.

Regression: over a captain's sheet the reason was marked
optional and the save was then refused. The correction kind (art. 31) behaves
the same way. Now the field says it is required and the
browser asks for it as soon as a value changes; an unchanged "Salva e valida" is a
validation and goes through without one.
"""
from __future__ import annotations

import os
import shutil

import pytest

from tests.e2e.helpers import arbiter_context

pytestmark = pytest.mark.skipif(
    shutil.which("chromium") is None and not os.environ.get("CI"), reason="Debian Chromium not installed"
)


def test_grid_reason_was_optional_over_a_captains_sheet(chromium, live_server, round_in_play):  # noqa: F811
    from tournaments import services
    from tournaments.models import ScoreSheet

    arbiter, rnd = round_in_play
    table = rnd.tables.get(number=2)
    services.save_score_sheet(table=table, by=services.Actor("capitano N/S tavolo 2"),
                              hands=[services.HandInput(0, 0)] * 4)
    ctx = arbiter_context(chromium, live_server, arbiter)
    page = ctx.new_page()
    page.goto(live_server.url + "/tornei/e2e/turni/1/tavoli/2/")
    assert page.is_visible("#reason-required")
    assert page.evaluate("document.getElementById('reason').required") is False   # nothing changed yet
    assert page.evaluate("document.getElementById('kind').required") is False
    page.fill("input[name=h1_ns]", "100")
    assert page.evaluate("document.getElementById('reason').required") is True
    assert page.evaluate("document.getElementById('kind').required") is True  # art. 31: every correction
    page.click("#save")                                     # the browser asks for the reason first
    assert page.evaluate("document.getElementById('reason').validity.valueMissing") is True
    assert ScoreSheet.objects.get(table=table).mp_ns == 0
    page.fill("#reason", "letto dal foglio")
    page.click("#save")                                     # then for the kind of correction
    assert page.evaluate("document.getElementById('kind').validity.valueMissing") is True
    page.select_option("#kind", "transcription")
    with page.expect_navigation():
        page.click("#save")
    assert ScoreSheet.objects.get(table=table).mp_ns == 100
    ctx.close()
