"""Steps the end-to-end tournaments share (Playwright sync API): the arbiter logs in and
creates a tournament, types a score sheet on the desk, a table captain sends one from a
phone, and the arbiter enters the rest, validates and closes the round.

Each step asserts what the page must show on the way, so a test reads as the story of its
tournament; the numbers (tables, hands, VP) stay in the test that computes them by hand.
"""
from __future__ import annotations

from typing import Callable, Iterable

from django.test import Client

PHONE = {"width": 360, "height": 740}
ITALIAN = "it-IT"   # Accept-Language: the texts the tests wait for are the Italian ones
RIGHT = [[600, 200], [400, 150], [250, 300], [300, 195]]   # 1550–845, difference 705 → 14–6 (vp20-4h)
ARBITER, PASSWORD = "arbitro", "segreta-123"


def submit(page, selector: str) -> None:
    """Click ``selector`` (a form's button or a link) and wait until the page it leads to has
    loaded: reading ``page.content()`` while the answer is still arriving gives an empty page."""
    with page.expect_navigation():
        page.click(selector)


def log_in_arbiter(page, base: str, django_user_model) -> None:
    """Create the arbiter's account and log in on ``page`` (``base``: the live server's URL)."""
    django_user_model.objects.create_user(username=ARBITER, password=PASSWORD)
    page.goto(base + "/accounts/login/?next=/")
    page.fill('input[name="username"]', ARBITER)
    page.fill('input[name="password"]', PASSWORD)
    submit(page, "button.primary")


def create_tournament(page, base: str, *, name: str, slug: str, date: str, kind: str, plan: str,
                      vp_scale: str) -> None:
    """Fill the new-tournament form (``date``: ISO ``YYYY-MM-DD``; ``kind``: the type's value,
    e.g. ``individual``, ``teams``) and land on the tournament's page."""
    page.goto(base + "/tornei/nuovo/")
    page.fill('input[name="name"]', name)
    page.fill('input[name="slug"]', slug)
    page.fill('input[name="date"]', date)
    page.select_option('select[name="kind"]', kind)
    page.fill('input[name="plan"]', plan)
    page.select_option('select[name="vp_scale"]', vp_scale)
    submit(page, "button.primary")
    assert page.url.endswith(f"/tornei/{slug}/")


def import_entrants(page, base: str, slug: str, path, *, count: int, ready: str, done: str,
                    listed: str) -> None:
    """Import a registration file (``path``) on the tournament's import page: the preview says
    ``ready`` (e.g. "13 giocatori pronti"), the confirmation ``done``, and the list ``listed``
    (a table's CSS selector) then has ``count`` rows."""
    page.goto(base + f"/tornei/{slug}/importa/")
    page.set_input_files('input[name="file"]', str(path))
    submit(page, "button.primary")
    assert ready in page.content()
    submit(page, 'button[name="confirm"]')
    assert done in page.content()
    assert page.locator(f"{listed} tbody tr").count() == count


def type_hands(page, values: Iterable[int]) -> None:
    """Type a sheet's hands on the desk as an arbiter does: from hand 1 N/S, one value then
    Tab (``values``: hand by hand, N/S then E/W, in MP)."""
    page.locator('input[name="h1_ns"]').focus()
    for i, value in enumerate(values):
        if i:
            page.keyboard.press("Tab")
        page.keyboard.type(str(value))


def send_sheet(page) -> None:
    """Save the typed sheet with Enter; the desk moves on and shows no sheet error."""
    with page.expect_navigation():
        page.keyboard.press("Enter")
    assert page.locator("#sheet-errors").count() == 0


def captain_sends_sheet(chromium, live_server, *, slug: str, round_number: int, table_number: int,
                        hands: Iterable[tuple[int, int]], lines: tuple[str, str] | None = None,
                        vp: tuple[int, int] | None = None) -> None:
    """The N/S captain of a table opens its private link on a phone, types the hands
    (``hands``: ``(N/S, E/W)`` MP per hand) and sends the sheet, which waits for the
    arbiter's validation. ``lines``: texts the phone must show for N/S and E/W before the
    captain says who he is; ``vp``: the VP (N/S, E/W) the phone must show before sending."""
    from tournaments.models import Table

    table = Table.objects.get(round__tournament__slug=slug, round__number=round_number, number=table_number)
    ctx = chromium.new_context(viewport=PHONE, is_mobile=True, has_touch=True, locale="it-IT")
    phone = ctx.new_page()
    phone.set_default_timeout(20_000)
    phone.goto(live_server.url + f"/c/{table.token}/")
    if lines is not None:
        shown = phone.inner_text(".lines")
        assert lines[0] in shown and lines[1] in shown, shown
    phone.click(".who button[data-line=ns]")
    for k, (a, b) in enumerate(hands, start=1):
        phone.fill(f"input[name=ns{k}]", str(a))
        phone.fill(f"input[name=ew{k}]", str(b))
    if vp is not None:
        assert (phone.text_content("#vp0"), phone.text_content("#vp1")) == (str(vp[0]), str(vp[1]))
    phone.click("#send")
    phone.wait_for_selector("#net:has-text('Salvato')")
    ctx.close()


def enter_validate_and_close(page, enter_sheet: Callable[[object], int], tables: Iterable[int],
                             captained: Iterable[int] = ()) -> None:
    """On a published round's page: enter every table still waiting through "next table"
    (``enter_sheet(page)`` types one and returns its table number), check that exactly the
    ``tables`` not ``captained`` were entered, validate the captains' sheets one by one,
    then all, and close the round."""
    tables, captained = set(tables), set(captained)
    entered = set()
    while page.locator("#next-table").count():
        page.click("#next-table")
        entered.add(enter_sheet(page))
    assert entered == tables - captained
    for t in sorted(captained):
        with page.expect_navigation():
            page.locator(f"#table-{t} button.validate").click()
    submit(page, "#validate-all")
    assert page.locator('tr[data-status="validated"]').count() == len(tables)
    submit(page, "#close-round")
    submit(page, "#confirm-button")
    assert page.locator("#round-state").inner_text() == "Chiuso"


def standings_cells(page) -> list[list[str]]:
    """The cells of the standings table (``#standings``), row by row, stripped."""
    rows = page.locator("#standings tbody tr")
    return [[c.strip() for c in rows.nth(i).locator("td").all_inner_texts()] for i in range(rows.count())]


def eight_pairs_round_1(django_user_model, *, name: str = "Torneo e2e", slug: str = "e2e"):
    """The arbiter ``arbitro`` and a pair tournament of 8 pairs (Anna/Bruno k) dated 1 May
    2026 with round 1 (Mitchell, tables 1–4) drawn and published; returns ``(arbiter, round)``."""
    import datetime

    from tournaments import services

    arbiter = django_user_model.objects.create_user(username=ARBITER, password=PASSWORD)
    tournament = services.create_tournament(by=arbiter, name=name, slug=slug, date=datetime.date(2026, 5, 1))
    for k in range(1, 9):
        services.add_pair(tournament=tournament, by=arbiter, players=[
            services.PlayerData(first_name=f"Anna{k}", last_name=f"Rossi{k}"),
            services.PlayerData(first_name=f"Bruno{k}", last_name=f"Verdi{k}"),
        ])
    rnd = services.generate_round(tournament=tournament, by=arbiter)
    return arbiter, services.publish_round(round=rnd, by=arbiter, acknowledge_warnings=True)


def arbiter_context(browser, live_server, user):
    """A browser context logged in as ``user`` (session cookie made by Django's test client)."""
    client = Client()
    client.force_login(user)
    context = browser.new_context(locale=ITALIAN)
    host = live_server.url.split("//", 1)[1].split(":")[0]
    context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value,
                          "domain": host, "path": "/"}])
    return context


def fill_sheet(page, hands):
    for number, (ns, ew) in enumerate(hands, start=1):
        page.fill(f"input[name=ns{number}]", str(ns))
        page.fill(f"input[name=ew{number}]", str(ew))
