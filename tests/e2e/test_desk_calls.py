"""Browser test of the bar of calls at the top of the arbiter's pages: a captain's «Chiama
l'arbitro» appears on the round page without a reload, is answered «Arrivo» and «Risolto» from
the bar; on the score-entry grid «Arrivo» leaves the sheet being typed as it is; on a phone the
bar fits the screen, and it is never printed.

Mitchell with 8 pairs: round 1 at tables 1–4.
"""
from __future__ import annotations

import os
import shutil

import pytest

from tests.e2e.helpers import ITALIAN, arbiter_context

from .helpers import eight_pairs_round_1

pytestmark = pytest.mark.skipif(
    shutil.which("chromium") is None and not os.environ.get("CI"), reason="Debian Chromium not installed"
)

PHONE = {"width": 390, "height": 844}


@pytest.fixture
def round_1_in_play(transactional_db, django_user_model):
    """8 pairs, round 1 published: tables 1–4."""
    return eight_pairs_round_1(django_user_model)


def phone_context_of(chromium, live_server, user):
    """A phone-sized browser context logged in as ``user`` (the session made by Django's test client)."""
    from django.test import Client

    client = Client()
    client.force_login(user)
    ctx = chromium.new_context(viewport=PHONE, is_mobile=True, has_touch=True, locale=ITALIAN)
    host = live_server.url.split("//", 1)[1].split(":")[0]
    ctx.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value, "domain": host, "path": "/"}])
    return ctx


def captain_calls(chromium, live_server, table, reason):
    """The table's captain taps «Chiama l'arbitro» with ``reason``; returns his phone's context and page."""
    ctx = chromium.new_context(viewport=PHONE, is_mobile=True, has_touch=True, locale=ITALIAN)
    phone = ctx.new_page()
    phone.set_default_timeout(20_000)
    phone.goto(live_server.url + f"/c/{table.token}/")
    phone.select_option("#call-reason", reason)
    phone.click("#call-btn")
    phone.wait_for_selector("#call-state >> text=Arbitro chiamato")
    return ctx, phone


def test_a_call_reaches_the_round_page_and_is_answered_from_the_bar(chromium, live_server, round_1_in_play):
    from tournaments.models import ArbiterCall

    arbiter, rnd = round_1_in_play
    desk_ctx = arbiter_context(chromium, live_server, arbiter)
    desk = desk_ctx.new_page()
    desk.set_default_timeout(20_000)
    desk.goto(live_server.url + "/tornei/e2e/turni/1/")
    assert desk.locator("#desk-calls").is_hidden()                 # no call: nothing shown
    desk.evaluate("window.__noReload = 7")

    table = rnd.tables.get(number=3)
    captain_ctx, captain = captain_calls(chromium, live_server, table, "card")
    desk.wait_for_selector("#desk-calls li >> text=Tavolo 3")     # the bar's next poll (5 s)
    bar = desk.inner_text("#desk-calls")
    assert "turno 1" in bar and "carta mancante" in bar and "ora" in bar
    assert desk.evaluate("window.__noReload") == 7                  # swapped in, not reloaded
    box = desk.locator("#desk-calls").bounding_box()
    assert box["y"] < desk.locator("h1").first.bounding_box()["y"]   # at the top of the page

    desk.click("#desk-calls li:has-text('Tavolo 3') button:has-text('Arrivo')")
    desk.wait_for_selector("#desk-calls li.taken >> text=arrivo")
    assert ArbiterCall.objects.get(table=table).state == "taken"
    captain.wait_for_selector("#call-state >> text=sta arrivando")  # the phone's next poll
    desk.click("#desk-calls li:has-text('Tavolo 3') button:has-text('Risolto')")
    desk.wait_for_selector("#desk-calls", state="hidden")
    assert ArbiterCall.objects.get(table=table).state == "resolved"
    assert desk.evaluate("window.__noReload") == 7
    for ctx in (desk_ctx, captain_ctx):
        ctx.close()


def test_arrivo_on_the_grid_keeps_the_sheet_being_typed(chromium, live_server, round_1_in_play):
    from tournaments.models import ArbiterCall

    arbiter, rnd = round_1_in_play
    table = rnd.tables.get(number=2)
    captain_ctx, _captain = captain_calls(chromium, live_server, table, "time")
    desk_ctx = arbiter_context(chromium, live_server, arbiter)
    desk = desk_ctx.new_page()
    desk.set_default_timeout(20_000)
    desk.goto(live_server.url + "/tornei/e2e/turni/1/tavoli/1/")
    desk.wait_for_selector("#desk-calls li >> text=Tavolo 2")       # open when the page was made
    desk.fill('input[name="h1_ns"]', "615")
    desk.click("#desk-calls button:has-text('Arrivo')")
    desk.wait_for_selector("#desk-calls li.taken")
    assert ArbiterCall.objects.get(table=table).state == "taken"
    assert desk.input_value('input[name="h1_ns"]') == "615"         # still on the page, still typed
    for ctx in (desk_ctx, captain_ctx):
        ctx.close()


def test_the_bar_fits_a_phone_and_is_not_printed(chromium, live_server, round_1_in_play):
    from tournaments import services

    arbiter, rnd = round_1_in_play
    for number, reason in ((1, "dispute"), (4, "other")):
        services.call_arbiter(table=rnd.tables.get(number=number), by=services.Actor(label="capitano"), reason=reason)
    ctx = phone_context_of(chromium, live_server, arbiter)
    page = ctx.new_page()
    page.set_default_timeout(20_000)
    page.goto(live_server.url + "/tornei/e2e/classifica/")
    page.wait_for_selector("#desk-calls li >> text=Tavolo 4")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], width                           # nothing wider than the phone
    for button in page.locator("#desk-calls button").all():
        b = button.bounding_box()
        assert b["x"] >= 0 and b["x"] + b["width"] <= PHONE["width"], b
    page.emulate_media(media="print")
    assert page.locator("#desk-calls").is_hidden()
    assert page.locator("#desk-call-sound").is_hidden()
    ctx.close()


def test_the_sound_buttons_say_whether_the_sound_is_on(chromium, live_server, round_1_in_play):
    """Off by default; one click turns it on, the button says so in words (not by its colour
    alone), the choice survives a reload and is the live board's too (one choice per browser)."""
    arbiter, _rnd = round_1_in_play
    ctx = arbiter_context(chromium, live_server, arbiter)
    page = ctx.new_page()
    page.set_default_timeout(20_000)
    page.goto(live_server.url + "/tornei/e2e/turni/1/")
    assert page.inner_text("#desk-call-sound") == "Suono delle chiamate: spento"
    page.click("#desk-call-sound")
    assert page.inner_text("#desk-call-sound") == "Suono delle chiamate: acceso"
    page.reload()
    assert page.inner_text("#desk-call-sound") == "Suono delle chiamate: acceso"
    page.goto(live_server.url + "/tornei/e2e/turni/1/tabellone-live/")
    assert page.inner_text("#call-sound") == "Suono delle chiamate: acceso"
    page.click("#call-sound")
    assert page.inner_text("#call-sound") == "Suono delle chiamate: spento"
    ctx.close()
