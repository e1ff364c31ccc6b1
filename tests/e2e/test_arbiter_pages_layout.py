"""Layout of the arbiter's pages at a desk (1366×768) and on a phone (390×844), measured in
Chromium: what must stay on one line (the board's names, a closed round's links and
headings, a team's state), a select's chosen text read whole, the team captain's line-up
menus the same size and the saved message green, the Registro's filters within the phone's
width, and the tournament form hiding head-to-head for an individual tournament (rules.md §9).
"""
from __future__ import annotations

import datetime
import os
import shutil

import pytest
from django.test import Client

pytestmark = pytest.mark.skipif(
    shutil.which("chromium") is None and not os.environ.get("CI"), reason="Debian Chromium not installed"
)

DESK = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}
SURNAMES = ["Santangelo", "Martinelli", "D'Alessandro", "Castelnuovo", "Bevilacqua", "Buonarroti",
            "Mastroianni", "Lombardini", "Fontanarosa"]
HANDS = [(600, 200), (400, 150), (250, 300), (300, 195)]

# The number of lines an element's text takes: the tops of its text's rectangles, those
# less than 8 px apart counted as one line (a link in a smaller type sits a little lower).
LINES_JS = """el => { const r = document.createRange(); r.selectNodeContents(el);
  const tops = Array.from(r.getClientRects()).filter(q => q.width > 0).map(q => q.top).sort((a, b) => a - b);
  let lines = tops.length ? 1 : 0; for (let i = 1; i < tops.length; i++) { if (tops[i] - tops[i - 1] > 8) lines++; }
  return lines; }"""


@pytest.fixture
def evening(transactional_db, django_user_model):
    """9 pairs with long surnames; round 1 played and closed, round 2 published with its
    clock started and three sheets entered by the captains. Returns (arbiter, tournament)."""
    from tournaments import services
    from tournaments.services import Actor, HandInput

    arbiter = django_user_model.objects.create_user(username="arbitro", password="segreta-123")
    t = services.create_tournament(by=arbiter, name="Serata", slug="serata", date=datetime.date(2026, 12, 1))
    for k, surname in enumerate(SURNAMES, start=1):
        services.add_pair(tournament=t, by=arbiter, players=[
            services.PlayerData(first_name="Annamaria", last_name=surname),
            services.PlayerData(first_name="Gianfranco", last_name=SURNAMES[-k])])
    hands = [HandInput(a, b) for a, b in HANDS]
    rnd = services.publish_round(round=services.generate_round(tournament=t, by=arbiter), by=arbiter,
                                 acknowledge_warnings=True)
    for table in rnd.tables.filter(bye=""):
        services.save_score_sheet(table=table, hands=hands, by=arbiter, validate=True)
    services.close_round(round=rnd, by=arbiter)
    rnd2 = services.publish_round(round=services.generate_round(tournament=t, by=arbiter), by=arbiter,
                                  acknowledge_warnings=True)
    services.start_clock(round=rnd2, by=arbiter)
    for table in rnd2.tables.filter(bye="").order_by("number")[:3]:
        services.save_score_sheet(table=table, hands=hands, by=Actor(f"capitano N/S tavolo {table.number}"))
    return arbiter, t


def _context(browser, live_server, user, viewport):
    client = Client()
    client.force_login(user)
    context = browser.new_context(viewport=viewport, locale="it-IT")
    host = live_server.url.split("//", 1)[1].split(":")[0]
    context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value,
                          "domain": host, "path": "/"}])
    return context


def _open(browser, live_server, user, viewport, path):
    context = _context(browser, live_server, user, viewport)
    page = context.new_page()
    page.set_default_timeout(20_000)
    page.goto(live_server.url + path)
    return context, page


def test_board_names_on_one_line_at_a_desk(browser, live_server, evening):
    arbiter, t = evening
    context, page = _open(browser, live_server, arbiter, DESK, "/tornei/serata/turni/2/tabellone-live/")
    try:
        page.wait_for_selector("#board td.pair")
        cells = page.locator("#board td.pair")
        assert cells.count() >= 8
        for i in range(cells.count()):
            if cells.nth(i).inner_text().strip():
                assert cells.nth(i).evaluate(LINES_JS) == 1, cells.nth(i).inner_text()
        assert page.evaluate("document.documentElement.scrollWidth") <= DESK["width"]
    finally:
        context.close()


def test_closed_round_links_and_headings_on_one_line(browser, live_server, evening):
    arbiter, t = evening
    context, page = _open(browser, live_server, arbiter, DESK, "/tornei/serata/turni/1/")
    try:
        for selector in ("#tables thead th", "#tables td.row-actions"):
            cells = page.locator(selector)
            assert cells.count() >= 4
            for i in range(cells.count()):
                if cells.nth(i).inner_text().strip():
                    assert cells.nth(i).evaluate(LINES_JS) == 1, cells.nth(i).inner_text()
        rest = page.locator("#tables tr", has_text="Riposo")
        assert rest.count() == 1
    finally:
        context.close()


def test_team_state_on_one_line(browser, live_server, make_teams_tournament, django_user_model):  # noqa: F811
    t = make_teams_tournament(5)
    arbiter = django_user_model.objects.get(username="arbitro")
    context, page = _open(browser, live_server, arbiter, DESK, f"/tornei/{t.slug}/squadre/")
    try:
        states = page.locator("#teams td.team-status .nowrap")
        assert states.count() == 5
        for i in range(5):
            assert states.nth(i).evaluate(LINES_JS) == 1
        page.locator("#team-1 summary", has_text="Link del capitano").click()
        assert page.locator("#team-1 .team-qr svg").is_visible()
        # once play has started each state is followed by «▶ Ritira»: still one line
        from tournaments import services

        services.publish_round(round=services.generate_round(tournament=t, by=arbiter), by=arbiter,
                               acknowledge_warnings=True)
        page.reload()
        cells = page.locator("#teams td.team-status")
        assert cells.count() == 5
        for i in range(5):
            state, ritira = cells.nth(i).locator(".nowrap").bounding_box(), cells.nth(i).locator("summary").bounding_box()
            assert abs(state["y"] - ritira["y"]) < 8 and ritira["x"] > state["x"] + state["width"], (state, ritira)
    finally:
        context.close()


# The widest choice of a select must fit its box: its text measured with the select's font.
CHOICE_FITS_JS = """sel => { const c = document.createElement('canvas').getContext('2d');
  const s = getComputedStyle(sel); c.font = s.font;
  const text = sel.options[sel.selectedIndex] ? sel.options[sel.selectedIndex].text : '';
  const room = sel.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight) - 18;
  return [text, c.measureText(text).width, room]; }"""


@pytest.mark.parametrize("viewport", [DESK, PHONE], ids=["1366", "390"])
def test_new_tournament_selects_show_their_choice_whole(browser, live_server, evening, viewport):
    arbiter, _t = evening
    context, page = _open(browser, live_server, arbiter, viewport, "/tornei/nuovo/")
    try:
        selects = page.locator("form select:visible")
        assert selects.count() >= 8
        for i in range(selects.count()):
            select = selects.nth(i)
            for value in select.evaluate("s => Array.from(s.options).map(o => o.value)"):
                select.select_option(value)
                text, width, room = select.evaluate(CHOICE_FITS_JS)
                assert width <= room, (text, width, room)
            select.select_option(index=0)
            page.select_option('select[name="kind"]', "pairs")
    finally:
        context.close()


def test_tiebreak_choices_follow_the_kind(browser, live_server, evening):
    arbiter, _t = evening
    context, page = _open(browser, live_server, arbiter, DESK, "/tornei/nuovo/")
    try:
        order = lambda: [page.input_value(f'select[name="tiebreaks_{i}"]') for i in range(4)]  # noqa: E731
        assert order() == ["vp", "mp_difference", "head_to_head", "mp_scored"]
        page.select_option('select[name="kind"]', "individual")
        assert order() == ["vp", "mp_difference", "mp_scored", ""]
        hidden = page.locator('select[name="tiebreaks_0"] option[value="head_to_head"]')
        assert hidden.evaluate("o => o.hidden && o.disabled")
        page.select_option('select[name="kind"]', "pairs")
        assert order() == ["vp", "mp_difference", "head_to_head", "mp_scored"]
        # teams rank by VP, match margin, head-to-head (rules.md §15): MP scored is not offered
        page.select_option('select[name="kind"]', "teams")
        assert order() == ["vp", "mp_difference", "head_to_head", ""]
        assert page.locator('select[name="tiebreaks_0"] option[value="mp_scored"]').evaluate(
            "o => o.hidden && o.disabled")
        page.select_option('select[name="kind"]', "individual")   # straight from teams
        assert order() == ["vp", "mp_difference", "mp_scored", ""]
        page.select_option('select[name="kind"]', "pairs")
        assert order() == ["vp", "mp_difference", "head_to_head", "mp_scored"]
    finally:
        context.close()


def test_team_captain_line_up_on_a_phone(browser, live_server, make_teams_tournament):  # noqa: F811
    t = make_teams_tournament(4)
    team = t.teams.get(number=1)
    context = browser.new_context(viewport=PHONE, locale="it-IT")
    page = context.new_page()
    try:
        page.goto(f"{live_server.url}/c/squadra/{team.token}/")
        selects = page.locator("#lineup-form select")
        assert selects.count() == 4
        boxes = [selects.nth(i).bounding_box() for i in range(4)]
        assert len({round(b["height"]) for b in boxes}) == 1 and boxes[0]["height"] >= 40
        assert len({round(b["width"]) for b in boxes}) == 1 and boxes[0]["width"] >= 0.85 * PHONE["width"]
        page.click("#save-lineup")
        saved = page.locator("#lineup-saved")
        assert saved.inner_text() == "Formazione salvata."
        assert saved.evaluate("e => getComputedStyle(e).backgroundColor") == "rgb(227, 241, 230)"
    finally:
        context.close()


def test_registro_filters_fit_a_phone(browser, live_server, evening):
    arbiter, _t = evening
    context, page = _open(browser, live_server, arbiter, PHONE, "/tornei/serata/registro/")
    try:
        form = page.locator("#audit-filters").bounding_box()
        assert form["x"] >= 0 and form["x"] + form["width"] <= PHONE["width"]
        page.select_option('select[name="who"]', "captain")
        page.click("#audit-filters button.primary")
        page.wait_for_url("**who=captain**")
        rows = page.locator("#audit tbody tr")
        assert rows.count() == 3 and all("capitano" in rows.nth(i).inner_text() for i in range(3))
    finally:
        context.close()
