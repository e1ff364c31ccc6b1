"""Browser test: correcting a sheet of a closed round (rules.md §3, art. 31).

After «Correggi» the grid's fields stay read-only until a «Tipo di correzione» is chosen;
the page says so right above the fields and the locked state is visible (the note is shown,
the fields are dimmed), and both go away once a kind is chosen.
"""
from __future__ import annotations

import os
import shutil

import pytest

from tests.e2e.helpers import arbiter_context

pytestmark = pytest.mark.skipif(
    shutil.which("chromium") is None and not os.environ.get("CI"), reason="Debian Chromium not installed"
)


def test_closed_round_fields_say_they_wait_for_a_correction_kind(chromium, live_server, round_in_play):  # noqa: F811
    from tournaments import services
    from tournaments.models import ScoreSheet

    arbiter, rnd = round_in_play
    for table in rnd.tables.filter(bye=""):
        services.save_score_sheet(table=table, by=arbiter, hands=[services.HandInput(0, 0)] * 4, validate=True)
    services.close_round(round=rnd, by=arbiter)
    ctx = arbiter_context(chromium, live_server, arbiter)
    page = ctx.new_page()
    page.goto(live_server.url + "/tornei/e2e/turni/1/tavoli/1/")
    assert not page.is_visible("#kind-first-note")            # read-only, «Correggi» to start
    page.click("#start-correction")
    page.wait_for_selector("#kind-first-note", state="visible")
    assert "scegli prima il «Tipo di correzione»" in page.inner_text("#kind-first-note")
    assert page.is_visible("#kind-first-hint")               # said at the select too (it has the focus)
    cell = page.locator("input[name=h1_ns]")
    assert cell.evaluate("i => i.readOnly") is True
    assert "Tipo di correzione" in (cell.get_attribute("title") or "")   # said on the field too
    assert page.evaluate("getComputedStyle(document.querySelector('input[name=h1_ns]')).cursor") == "not-allowed"
    page.click("#kind-first-note a")                          # the link takes the arbiter to the select
    assert page.evaluate("location.hash") == "#kind"
    page.select_option("#kind", "transcription")
    assert not page.is_visible("#kind-first-note") and not page.is_visible("#kind-first-hint")
    assert cell.evaluate("i => i.readOnly") is False and cell.get_attribute("title") is None
    cell.fill("100")
    page.fill("#reason", "letto male dal foglio")
    with page.expect_navigation():
        page.click("#save")
    assert ScoreSheet.objects.get(table__round=rnd, table__number=1).mp_ns == 100
    ctx.close()
