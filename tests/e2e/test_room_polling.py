"""Browser test of a room of phones: the captain page's poll is cheap and stops when hidden.

The page carries the tag of what it shows and sends back the last ``ETag`` in
``If-None-Match``; the server answers ``304`` while nothing changed (the first poll too); a hidden page (phone locked, another app) does not
poll, and polls at once when shown again.
"""
from __future__ import annotations

import os
import shutil

import pytest
from django.urls import reverse

from .helpers import eight_pairs_round_1

pytestmark = pytest.mark.skipif(
    shutil.which("chromium") is None and not os.environ.get("CI"), reason="Debian Chromium not installed"
)

PHONE = {"width": 360, "height": 740}


@pytest.fixture
def table(transactional_db, django_user_model):
    """Table 1 of a published round 1 (Mitchell, 8 pairs)."""
    _arbiter, rnd = eight_pairs_round_1(django_user_model, name="Sala", slug="sala")
    return rnd.tables.get(number=1)


def test_poll_sends_the_tag_back_gets_304_and_pauses_while_hidden(chromium, live_server, table):
    context = chromium.new_context(viewport=PHONE, locale="it-IT")
    page = context.new_page()
    polls = []
    page.on("response", lambda r: polls.append((r.status, r.request.headers.get("if-none-match"), r.headers.get("etag")))
            if "/stato/" in r.url else None)
    page.goto(live_server.url + reverse("captain", args=[table.token]))
    page_tag = page.evaluate("() => JSON.parse(document.getElementById('captain-data').textContent).tag")
    for _ in range(2):   # two polls: the first sends the page's own tag, the second the tag answered
        with page.expect_response(lambda r: "/stato/" in r.url, timeout=15_000):
            pass
    (first_status, first_sent, first_tag), (second_status, second_sent, _) = polls[:2]
    assert (first_status, first_sent) == (304, page_tag) and first_tag == page_tag
    assert (second_status, second_sent) == (304, page_tag)

    # Hidden: no poll for longer than the longest interval (6 s).
    page.evaluate("""() => {
        Object.defineProperty(document, 'hidden', {value: true, configurable: true});
        document.dispatchEvent(new Event('visibilitychange'));
    }""")
    page.wait_for_timeout(500)       # a poll already on its way may still answer
    before = len(polls)
    page.wait_for_timeout(7_000)
    assert len(polls) == before
    # Shown again: it asks at once, not after the next interval.
    with page.expect_response(lambda r: "/stato/" in r.url, timeout=3_000) as shown:
        page.evaluate("""() => {
            Object.defineProperty(document, 'hidden', {value: false, configurable: true});
            document.dispatchEvent(new Event('visibilitychange'));
        }""")
    assert shown.value.status == 304
    context.close()
