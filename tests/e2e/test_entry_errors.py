"""Browser test: every wrong value of a sheet is listed at once, on the arbiter's grid as he
types and on the captain's page when he sends (rules.md §2: MP are whole multiples of 5).
Round 1 of 8 pairs, Mitchell, 4 hands; hand 1 N/S «abc», hand 2 E/W «1o0», hand 3 N/S 453."""
from __future__ import annotations

import os
import shutil

import pytest

from tests.e2e.helpers import ITALIAN, PHONE, arbiter_context

pytestmark = pytest.mark.skipif(
    shutil.which("chromium") is None and not os.environ.get("CI"), reason="Debian Chromium not installed"
)

VALUES = {("ns", 1): "abc", ("ew", 1): "200", ("ns", 2): "400", ("ew", 2): "1o0", ("ns", 3): "453",
          ("ew", 3): "300", ("ns", 4): "300", ("ew", 4): "195"}


def test_grid_and_captain_page_list_every_error(chromium, live_server, round_in_play):  # noqa: F811
    from tournaments.models import ScoreSheet

    arbiter, rnd = round_in_play
    ctx = arbiter_context(chromium, live_server, arbiter)
    page = ctx.new_page()
    page.goto(live_server.url + "/tornei/e2e/turni/1/tavoli/1/")
    for (line, hand), value in VALUES.items():
        page.fill(f"input[name=h{hand}_{line}]", value)
    items = page.locator("#invalid-list li").all_inner_texts()
    assert items == ["Smazzata 1, linea N/S: «abc» non è un numero intero",
                     "Smazzata 2, linea E/O: «1o0» non è un numero intero",
                     "Smazzata 3, linea N/S: 453 non è multiplo di 5"]
    ctx.close()

    table = rnd.tables.get(number=2)
    phone = chromium.new_context(viewport=PHONE, is_mobile=True, has_touch=True, locale=ITALIAN)
    page = phone.new_page()
    page.goto(live_server.url + f"/c/{table.token}/")
    page.click(".who button[data-line=ns]")
    for (line, hand), value in VALUES.items():
        page.fill(f"input[name={line}{hand}]", value)
    page.click("#send")
    items = page.locator("#msg li").all_inner_texts()
    assert len(items) == 3
    assert items[0].startswith("Smazzata 1, N/S: «abc» non è un numero intero")
    assert items[1].startswith("Smazzata 2, E/O: «1o0» non è un numero intero")
    assert items[2].startswith("Smazzata 3, N/S: «453» non è un numero multiplo di 5")
    assert ScoreSheet.objects.get(table=table).version == 0  # nothing sent
    phone.close()
