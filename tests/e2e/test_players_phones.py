"""Browser test of the players' phones: a player's page at 390×844 shows the next table as
soon as the arbiter publishes the round (no reload), and a captain's «Chiama l'arbitro»
appears at the top of the live board, the arbiter answers «Arrivo», the phone shows it.

Mitchell with 8 pairs (rules §6): round 2 is 1–8, 2–5, 3–6, 4–7 at tables 1–4.
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
def round_2_drafted(transactional_db, django_user_model):
    """8 pairs, round 1 closed (every table 1550–845), round 2 drawn as a draft, public pages on."""
    from tournaments import services

    arbiter, r1 = eight_pairs_round_1(django_user_model)
    tournament = r1.tournament
    hands = [services.HandInput(600, 200), services.HandInput(400, 150), services.HandInput(250, 300),
             services.HandInput(300, 195)]
    for table in r1.tables.all():
        services.save_score_sheet(table=table, hands=hands, by=arbiter, validate=True)
    services.close_round(round=r1, by=arbiter)
    services.update_tournament(tournament=tournament, by=arbiter, public_enabled=True)
    return arbiter, services.generate_round(tournament=tournament, by=arbiter)


def test_player_sees_next_table_on_publish_and_a_call_reaches_the_board(chromium, live_server, round_2_drafted):
    from tournaments import services
    from tournaments.models import ArbiterCall

    arbiter, r2 = round_2_drafted
    phone_ctx = chromium.new_context(viewport=PHONE, is_mobile=True, has_touch=True, locale=ITALIAN)
    phone = phone_ctx.new_page()
    phone.set_default_timeout(20_000)
    phone.goto(live_server.url + "/p/e2e/coppia/1/")
    phone.wait_for_selector("#next >> text=Il prossimo turno non è ancora pubblicato.")
    assert "1550–845" in phone.inner_text("#rounds")          # round 1 played, 14 VP
    phone.evaluate("window.__noReload = 7")
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], width                      # nothing wider than the phone

    services.publish_round(round=r2, by=arbiter, acknowledge_warnings=True)
    phone.wait_for_selector("#next .seat >> text=Tavolo 1")   # within one poll (4–6 s)
    assert "N/S" in phone.inner_text("#next .seat") and "Rossi8" in phone.inner_text("#next")
    assert phone.evaluate("window.__noReload") == 7           # swapped in, not reloaded

    board_ctx = arbiter_context(chromium, live_server, arbiter)
    board = board_ctx.new_page()
    board.set_default_timeout(20_000)
    board.goto(live_server.url + "/tornei/e2e/turni/2/tabellone-live/")
    board.wait_for_selector("#t2")
    assert board.query_selector("#board-calls") is None

    table = r2.tables.get(number=2)
    captain_ctx = chromium.new_context(viewport=PHONE, is_mobile=True, has_touch=True, locale=ITALIAN)
    captain = captain_ctx.new_page()
    captain.set_default_timeout(20_000)
    captain.goto(live_server.url + f"/c/{table.token}/")
    captain.select_option("#call-reason", "time")
    captain.click("#call-btn")
    captain.wait_for_selector("#call-state >> text=Arbitro chiamato")
    captain.click("#call-btn")                                 # a second tap changes nothing
    board.wait_for_selector("#board-calls #call-2 >> text=tempo")   # the board's next poll (3 s)
    assert ArbiterCall.objects.filter(table=table).count() == 1
    board.click("#call-2 button:has-text('Arrivo')")
    board.wait_for_selector("#call-2 .badge.taken")
    captain.wait_for_selector("#call-state >> text=sta arrivando")   # the phone's next poll
    board.click("#call-2 button:has-text('Risolto')")
    board.wait_for_selector("#board-calls", state="detached")
    assert ArbiterCall.objects.get(table=table).state == "resolved"
    for ctx in (phone_ctx, board_ctx, captain_ctx):
        ctx.close()
