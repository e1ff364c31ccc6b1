"""Browser fixtures for the end-to-end tests (Playwright sync API, Debian Chromium).

Playwright's sync API runs an event loop in the test thread, so Django's
"async unsafe" guard must be lifted for the ORM calls of the fixtures.
The browser is launched once per module; each test gets a fresh page.
"""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.e2e.helpers import eight_pairs_round_1

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
    "--disable-sync", "--no-first-run",
]


@pytest.fixture(scope="module")
def browser():
    if not CHROMIUM.exists():
        if os.environ.get("CI"):
            pytest.fail("Chromium missing at /usr/bin/chromium: scripts/system-deps.sh should have installed it")
        pytest.skip("Chromium not installed at /usr/bin/chromium")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True)
        yield browser
        browser.close()


@pytest.fixture
def chromium(browser):
    """The module's browser, for tests that open several contexts of their own
    (captains' phones, the arbiter's board, projector screens)."""
    return browser


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="it-IT")
    page = context.new_page()
    page.set_default_timeout(20_000)
    yield page
    context.close()


@pytest.fixture
def round_in_play(transactional_db, django_user_model):
    """A tournament of 8 pairs with round 1 (Mitchell) published; returns (arbiter, round)."""
    return eight_pairs_round_1(django_user_model)
