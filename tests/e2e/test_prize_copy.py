"""Browser test of copying a prize list from another evening (rules.md §18): the box is filled
with the scopes in the words the page's help text teaches («assoluto», «categoria:Dame»),
never the stored English ones, and saving it as it is gives the same winners.

Evenings (4 pairs each, one round, VP by arbitral score, MP 0):
gio-1 (P1 20, P2 12, P3 8, P4 0), its prize list typed by the arbiter;
gio-2 (Q1 0, Q2 20, Q3 15, Q4 5), both players of Q3 and Q4 *Dame*:
1° assoluto → pair 2 (20 VP), 2° assoluto → pair 3 (15), 1ª coppia Dame → pair 4 (pair 3, the
best Dame pair, already has a prize; prizes not cumulative).
"""
from __future__ import annotations

import datetime
import os
import shutil

import pytest

from tests.championships.helpers import pairs_evening, people

from .helpers import log_in_arbiter, submit

pytestmark = pytest.mark.skipif(
    shutil.which("chromium") is None and not os.environ.get("CI"), reason="Debian Chromium not installed"
)

TYPED = "1° assoluto | assoluto\n2° assoluto | assoluto\n1ª coppia Dame | categoria:Dame"


def test_copied_prizes_read_as_the_arbiter_types_them(page, live_server, transactional_db, django_user_model):
    from django.core.cache import cache

    cache.clear()
    base = live_server.url
    log_in_arbiter(page, base, django_user_model)
    arbiter = django_user_model.objects.get(username="arbitro")
    pairs_evening(arbiter, "gio-1", datetime.date(2026, 11, 5), people("P", 4), {1: 20, 2: 12, 3: 8, 4: 0})
    dame = {f"Q{k}{s}": "Dame" for k in (3, 4) for s in "ab"}
    pairs_evening(arbiter, "gio-2", datetime.date(2026, 11, 12), people("Q", 4), {1: 0, 2: 20, 3: 15, 4: 5},
                  categories=dame)

    page.goto(base + "/tornei/gio-1/premi/")
    page.fill('#prize-form textarea[name="prizes"]', TYPED)
    submit(page, "#prize-form button.primary")
    assert page.input_value('#prize-form textarea[name="prizes"]') == TYPED

    page.goto(base + "/tornei/gio-2/premi/")
    page.select_option('#prize-copy select[name="source"]', "gio-1")
    submit(page, "#prize-copy button")
    box = page.input_value('#prize-form textarea[name="prizes"]')
    assert box == TYPED
    assert "overall" not in box and "category" not in box

    submit(page, "#prize-form button.primary")       # saved as it is: the same list, the same winners
    assert page.input_value('#prize-form textarea[name="prizes"]') == TYPED
    rows = page.locator("#prize-awards tbody tr")
    assert rows.count() == 3
    assert "Q2a Anna – Q2b Bruno" in rows.nth(0).inner_text()
    assert "Q3a Anna – Q3b Bruno" in rows.nth(1).inner_text()
    assert "Q4a Anna – Q4b Bruno" in rows.nth(2).inner_text()
