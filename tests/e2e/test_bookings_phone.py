"""Browser test of the bookings (rules.md §21) at 390×844: a player books from his phone, a
second books after the cap (1 pair) and waits, the first cancels from his private link, the
second is promoted at once; the first books again once the arbiter adds a place, and the
arbiter checks both in at the desk with the keyboard only (type, Enter)."""
from __future__ import annotations

import datetime
import os
import shutil

import pytest

from tests.e2e.helpers import ITALIAN, arbiter_context

pytestmark = pytest.mark.skipif(
    shutil.which("chromium") is None and not os.environ.get("CI"), reason="Debian Chromium not installed"
)

PHONE = {"width": 390, "height": 844}


@pytest.fixture
def evening(transactional_db, django_user_model):
    from bookings import services as bookings
    from tournaments import services

    arbiter = django_user_model.objects.create_user(username="arbitro", password="segreta-123")
    tournament = services.create_tournament(by=arbiter, name="Serata", slug="serata",
                                            date=datetime.date.today() + datetime.timedelta(days=3))
    bookings.open_bookings(tournament=tournament, cap=1, message="Inizio alle 21")
    return arbiter, tournament


def _book(phone, base, last_1, last_2):
    phone.goto(base + "/prenota/serata/")
    assert phone.evaluate("document.scrollingElement.scrollWidth") <= PHONE["width"]  # no sideways scroll
    phone.fill("#last_name_1", last_1)
    phone.fill("#first_name_1", "Anna")
    phone.fill("#last_name_2", last_2)
    phone.fill("#first_name_2", "Bruno")
    with phone.expect_navigation():
        phone.click("#booking-submit")
    assert "/prenota/serata/" in phone.url and phone.locator("#booking-code").count() == 1
    return phone.url


def test_book_wait_cancel_promote_and_check_in(chromium, live_server, evening):
    arbiter, tournament = evening
    base = live_server.url
    first = chromium.new_context(viewport=PHONE, locale=ITALIAN).new_page()
    second = chromium.new_context(viewport=PHONE, locale=ITALIAN).new_page()
    _book(first, base, "Rossi", "Verdi")
    assert "Posto confermato" in first.inner_text("#booking-state")
    second_link = _book(second, base, "Neri", "Gialli")
    assert "sei al posto 1" in second.inner_text("#booking-state")

    with first.expect_navigation():
        first.click("#booking-cancel")
    assert first.locator("#cancelled").count() == 1
    second.goto(second_link)
    assert "Posto confermato" in second.inner_text("#booking-state")

    desk = arbiter_context(chromium, live_server, arbiter).new_page()
    desk.goto(base + "/tornei/serata/prenotazioni/")
    desk.fill("#cap", "2")
    with desk.expect_navigation():
        desk.click("#open-bookings")
    _book(first, base, "Rossi", "Verdi")
    assert "Posto confermato" in first.inner_text("#booking-state")

    desk.goto(base + "/tornei/serata/prenotazioni/accoglienza/")
    for name in ("neri", "rossi"):
        desk.locator("#check-in-search").focus()
        desk.keyboard.type(name)
        with desk.expect_navigation():
            desk.keyboard.press("Enter")
        assert "presente" in desk.inner_text(".messages")
    assert sorted(p.last_name for p in tournament.players.all()) == ["Gialli", "Neri", "Rossi", "Verdi"]
    assert desk.locator("#check-in-list li.present").count() == 2
