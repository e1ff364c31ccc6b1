"""Browser test: the live board's layout and a disputed sheet's "Valida" (trust).

- At desktop widths the MP and VP cells ("1550–845", "14–6") wrapped onto two lines; now
  each stays on one line. At 375 px the page itself still does not scroll sideways (the
  table scrolls inside its own box).
- A disputed sheet is not validated by one click: its board button opens the decision
  page, a blank decision is refused there, and the written one validates the sheet.

Figures by hand, scale vp20-4h: 600+400+250+300 = 1550 against 200+150+300+195 = 845,
difference 705 → band 705–900 → 14–6.
"""
from __future__ import annotations

import os
import shutil

import pytest

from tests.e2e.helpers import arbiter_context

pytestmark = pytest.mark.skipif(
    shutil.which("chromium") is None and not os.environ.get("CI"), reason="Debian Chromium not installed"
)

HANDS = [(600, 200), (400, 150), (250, 300), (300, 195)]
PHONE_375 = {"width": 375, "height": 740}

#: How many lines the text of a cell takes (one rectangle per line box).
LINES_OF = """sel => { const td = document.querySelector(sel); const r = document.createRange();
  r.selectNodeContents(td); const tops = new Set(); for (const q of r.getClientRects()) tops.add(Math.round(q.top));
  return tops.size; }"""


def _fill_round(rnd, arbiter):
    from tournaments import services
    from tournaments.services import Actor, HandInput

    hands = [HandInput(*h) for h in HANDS]
    for table in rnd.tables.filter(bye="").order_by("number"):
        services.save_score_sheet(table=table, hands=hands, by=Actor(f"capitano N/S tavolo {table.number}"))
    table = rnd.tables.get(number=1)
    services.dispute_sheet(table=table, by=Actor("capitano E/O tavolo 1"), note="smazzata 3: 250 non 300")
    return table


@pytest.mark.parametrize("width", [1280, 1024])
def test_board_mp_and_vp_stay_on_one_line_at_desktop_widths(chromium, live_server, round_in_play, width):  # noqa: F811
    arbiter, rnd = round_in_play
    _fill_round(rnd, arbiter)
    ctx = arbiter_context(chromium, live_server, arbiter)
    page = ctx.new_page()
    page.set_viewport_size({"width": width, "height": 900})
    page.goto(live_server.url + "/tornei/e2e/turni/1/tabellone-live/")
    for number in (1, 2, 3, 4):
        mp, vp = f"#t{number} td.num:nth-of-type(5)", f"#t{number} td.num:nth-of-type(6)"
        assert page.text_content(mp) == "1550–845" and page.text_content(vp) == "14–6"
        assert page.evaluate(LINES_OF, mp) == 1 and page.evaluate(LINES_OF, vp) == 1
    ctx.close()


def test_disputed_sheet_on_a_375_px_board_asks_for_the_decision(chromium, live_server, round_in_play):  # noqa: F811
    from tournaments.models import AuditEntry, ScoreSheet

    arbiter, rnd = round_in_play
    table = _fill_round(rnd, arbiter)
    ctx = arbiter_context(chromium, live_server, arbiter)
    page = ctx.new_page()
    page.set_viewport_size(PHONE_375)
    page.goto(live_server.url + "/tornei/e2e/turni/1/tabellone-live/")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE_375["width"]
    assert page.locator("#t1 button:has-text('Valida')").count() == 0          # no one-click form
    link = page.locator("#t1 a.validate-disputed")
    link.scroll_into_view_if_needed()
    link.click()
    page.wait_for_selector("#decision-form")
    assert "smazzata 3: 250 non 300" in page.text_content("#dispute-note")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE_375["width"]
    page.fill("textarea[name=reason]", "   ")                  # spaces only: the server refuses
    page.click("#validate-decided")
    page.wait_for_selector("#decision-errors")
    assert ScoreSheet.objects.get(table=table).state == ScoreSheet.State.DISPUTED
    page.fill("textarea[name=reason]", "Verificato lo score cartaceo: vale N/S")
    page.click("#validate-decided")
    page.wait_for_selector("#t1[data-state=validated]")
    assert ScoreSheet.objects.get(table=table).state == ScoreSheet.State.VALIDATED
    assert AuditEntry.objects.get(table_number=1, action="sheet_validated").reason \
        == "Verificato lo score cartaceo: vale N/S"
    ctx.close()
