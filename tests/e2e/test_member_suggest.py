"""End to end (rules.md §16): registering a pair by typing fast in the surname box and taking a
proposal with ArrowDown + Enter takes the member the box's text names, never one of a list
answering an older text (a list still on screen, or a slow answer arriving late)."""
import datetime
from urllib.parse import parse_qs, urlparse

from members.models import Member
from tournaments import services

from .helpers import log_in_arbiter

MEMBERS = [("510016", "Ferrari", "Luca", "Circolo Aurora"), ("510017", "Ferrari", "Carla", "Circolo Aurora"),
           ("510018", "Rossi", "Luca", "Bridge Club Po")]
SURNAME, FIRST, NUMBER, CLUB = ('input[name="last_name_1"]', 'input[name="first_name_1"]',
                                'input[name="membership_1"]', 'input[name="club_1"]')
LIST = 'input[name="last_name_1"] + .member-suggest'


def _desk(page, live_server, django_user_model):
    """The arbiter on a new pair's form; the registry holds MEMBERS. Every answer of the
    proposals endpoint is recorded in ``window.answers`` as ``[text, shown]``."""
    for number, last, first, club in MEMBERS:
        Member.objects.create(membership_number=number, last_name=last, first_name=first, registered_club=club)
    log_in_arbiter(page, live_server.url, django_user_model)
    arbiter = django_user_model.objects.get()
    services.create_tournament(by=arbiter, name="Giovedì 3", slug="gio-3", date=datetime.date(2026, 12, 3))
    page.goto(live_server.url + "/tornei/gio-3/coppie/nuova/")
    page.evaluate("""() => { window.answers = [];
        document.querySelector('input[name="last_name_1"]').addEventListener('member-suggest-answer',
            e => window.answers.push([e.detail.query, e.detail.shown])); }""")


def _wait_answer(page, text, shown):
    page.wait_for_function("([t, s]) => window.answers.some(a => a[0] === t && a[1] === s)", arg=[text, shown])


def _query(route) -> str:
    return parse_qs(urlparse(route.request.url).query).get("q", [""])[0]


def test_fast_typing_then_arrow_down_and_enter_takes_the_member_named(page, live_server, django_user_model):
    _desk(page, live_server, django_user_model)
    page.locator(SURNAME).press_sequentially("Ferrari L")
    # the list answering «Ferrari L» holds Ferrari Luca alone (Ferrari Carla has no word in L),
    # each with the number and the club
    _wait_answer(page, "Ferrari L", True)
    assert page.locator(LIST + " li").all_inner_texts() == ["Ferrari Luca · 510016 · Circolo Aurora"]
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Enter")
    assert page.url.endswith("/tornei/gio-3/coppie/nuova/")  # Enter took the proposal, nothing sent
    assert [page.input_value(s) for s in (SURNAME, FIRST, NUMBER, CLUB)] == [
        "Ferrari", "Luca", "510016", "Circolo Aurora"]
    assert page.locator(LIST).is_hidden()

    # a first name alone proposes its members, in name order
    page.locator('input[name="last_name_2"]').press_sequentially("luca")
    page.wait_for_selector('input[name="last_name_2"] + .member-suggest li >> nth=1')
    assert page.locator('input[name="last_name_2"] + .member-suggest li').all_inner_texts() == [
        "Ferrari Luca · 510016 · Circolo Aurora", "Rossi Luca · 510018 · Bridge Club Po"]
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Enter")
    assert page.input_value('input[name="membership_2"]') == "510018"


def test_a_slow_answer_to_an_older_text_is_dropped(page, live_server, django_user_model):
    _desk(page, live_server, django_user_model)
    held = []

    def hold_the_first(route):
        if _query(route) == "Fe" and not held:
            held.append(route)  # answered later, after the answer to the full text
        else:
            route.continue_()

    page.route("**/soci/cerca/**", hold_the_first)
    with page.expect_request(lambda request: "q=Fe&" in request.url + "&"):
        page.locator(SURNAME).press_sequentially("Fe")  # the request for «Fe» leaves, held by the route
    page.locator(SURNAME).press_sequentially("rrari L")
    _wait_answer(page, "Ferrari L", True)
    assert len(held) == 1
    held[0].continue_()                        # «Fe» answers Ferrari Carla, Ferrari Luca: too late
    _wait_answer(page, "Fe", False)
    assert page.locator(LIST + " li").all_inner_texts() == ["Ferrari Luca · 510016 · Circolo Aurora"]
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Enter")
    assert [page.input_value(s) for s in (FIRST, NUMBER)] == ["Luca", "510016"]


def test_enter_never_takes_from_the_list_of_an_older_text(page, live_server, django_user_model):
    """The list answering «Ferrari» (Carla first) is still on screen while «Ferrari L» is being
    answered: ArrowDown + Enter then take nothing from it, and Enter does what the form does
    (the browser asks for the empty first name; nothing is sent)."""
    _desk(page, live_server, django_user_model)
    page.locator(SURNAME).press_sequentially("Ferrari")
    page.wait_for_selector(LIST + " li >> nth=1")
    assert page.locator(LIST + " li").all_inner_texts() == [
        "Ferrari Carla · 510017 · Circolo Aurora", "Ferrari Luca · 510016 · Circolo Aurora"]
    held = []
    page.route("**/soci/cerca/**", lambda route: held.append(route))  # «Ferrari L» not answered yet
    page.locator(SURNAME).press_sequentially(" L")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Enter")
    assert page.locator(LIST).evaluate("el => el.hidden || el.classList.contains('stale')")
    assert [page.input_value(s) for s in (SURNAME, FIRST, NUMBER)] == ["Ferrari L", "", ""]
    assert page.url.endswith("/tornei/gio-3/coppie/nuova/")
    assert page.evaluate("document.activeElement.name") == "first_name_1"  # the form's own check
    page.unroute("**/soci/cerca/**")
    for route in held:
        route.continue_()
