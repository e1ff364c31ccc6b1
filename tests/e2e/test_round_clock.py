"""Browser test of the round clock with a fake server clock.

The server's time source (``tournaments.server.timesource.now``) is replaced by a
:class:`~tournaments.server.timesource.FakeClock` that runs with real time but can jump ahead; the
pages only count down from the seconds the server gives them. The projector's clock page,
a captain's phone and the arbiter's live board must show the same remaining time (±1 s),
all see a pause within one update (≤ 10 s + a margin), and all show the end message. A rest
table's phone (no score sheet to poll) follows the clock in the same way.

With ARBITRO_SCREENSHOTS=1 the run also saves the screenshots linked from the README:
docs/projector-clock-1920x1080.png and docs/captain-clock-390x844.png
(``scripts/clock-screenshots.sh``).
"""
from __future__ import annotations

import os
import re
import shutil
import time
from pathlib import Path

import pytest

from tests.e2e.helpers import arbiter_context

pytestmark = pytest.mark.skipif(
    shutil.which("chromium") is None and not os.environ.get("CI"), reason="Debian Chromium not installed"
)

SHOTS = os.environ.get("ARBITRO_SCREENSHOTS") == "1"
DOCS = Path(__file__).resolve().parents[2] / "docs"
END = "tempo scaduto: finite il giro fino allo scarto del mazziere"
UPDATE_MS = 10_000 + 3_000     # "within one update (≤ 10 s)", plus a margin for a slow CI


def seconds(text: str) -> int:
    m = re.fullmatch(r"\s*([−-]?)(\d+):(\d\d)\s*", text)
    assert m, text
    value = int(m.group(2)) * 60 + int(m.group(3))
    return -value if m.group(1) else value


@pytest.fixture
def fake_clock(monkeypatch):
    from django.utils import timezone

    from tournaments.server import timesource

    fake = timesource.FakeClock(timezone.now(), running=True)
    monkeypatch.setattr(timesource, "now", fake.now)
    return fake


def test_projector_captain_and_board_show_the_same_clock(chromium, live_server, round_in_play,  # noqa: F811
                                                        fake_clock):
    from tournaments import selectors, services
    from tournaments.models import Tournament

    arbiter, rnd = round_in_play
    Tournament.objects.filter(pk=rnd.tournament_id).update(projector_enabled=True)
    table = rnd.tables.get(number=2)
    services.start_clock(round=rnd, by=arbiter)
    fake_clock.advance(600)                        # 10 of the 42 minutes played: 32:00 left

    projector_ctx = chromium.new_context(viewport={"width": 1920, "height": 1080}, locale="it-IT")
    projector = projector_ctx.new_page()
    projector.goto(live_server.url + "/p/e2e/orologio/")
    phone_ctx = chromium.new_context(viewport={"width": 390, "height": 844}, locale="it-IT",
                                     is_mobile=True, has_touch=True)
    phone = phone_ctx.new_page()
    phone.goto(live_server.url + f"/c/{table.token}/")
    board_ctx = arbiter_context(chromium, live_server, arbiter)
    board = board_ctx.new_page()
    board.goto(live_server.url + "/tornei/e2e/turni/1/tabellone-live/")
    cycle_ctx = chromium.new_context(viewport={"width": 1280, "height": 720}, locale="it-IT")
    cycle = cycle_ctx.new_page()                   # the projector's table list, clock in its header
    cycle.goto(live_server.url + "/p/e2e/proiettore/")
    clocks = {"projector": (projector, "#round-clock"), "phone": (phone, "#captain-clock"),
              "board": (board, "#board-clock"), "table list": (cycle, "#round-clock")}

    def shown(running: bool = False) -> dict[str, int]:
        """The four screens' seconds left. The screens are read one after another (a read can
        take most of a second on a loaded machine), so while the clock runs each reading is
        brought back to the instant of the first by adding the seconds elapsed since it."""
        values, first = {}, time.monotonic()
        for name, (page, sel) in clocks.items():
            value = seconds(page.text_content(sel + " .clock-time"))
            values[name] = value + (round(time.monotonic() - first) if running else 0)
        return values

    def agree(values: dict[str, int]) -> None:
        assert max(values.values()) - min(values.values()) <= 1, values

    now = shown(running=True)
    agree(now)
    assert 1920 - 15 <= min(now.values()) <= 1920, now      # 32:00 less the seconds the pages took

    # readable from the back of the hall: the figures fill the screen at 1920×1080 and 1280×720
    for width, height in ((1920, 1080), (1280, 720)):
        projector.set_viewport_size({"width": width, "height": height})
        box = projector.locator("#round-clock .clock-time").bounding_box()
        assert box["height"] >= 0.3 * height and box["x"] >= 0 and box["x"] + box["width"] <= width, box
    projector.set_viewport_size({"width": 1920, "height": 1080})
    header = cycle.locator("header").bounding_box()
    box = cycle.locator("#round-clock .clock-time").bounding_box()
    assert header["y"] <= box["y"] and box["y"] + box["height"] <= header["y"] + header["height"] + 1, (header, box)
    assert box["x"] + box["width"] <= 1280
    if SHOTS:
        DOCS.mkdir(exist_ok=True)
        projector.screenshot(path=str(DOCS / "projector-clock-1920x1080.png"))
        phone.screenshot(path=str(DOCS / "captain-clock-390x844.png"))

    # a pause reaches every screen within one update, and they agree; the captain is typing
    # (an unsent sheet): his phone still hears the pause (it used to stop polling while typing)
    phone.click(".who button[data-line=ns]")
    phone.fill("input[name=ns1]", "100")
    services.pause_clock(round=rnd, by=arbiter)
    for _name, (page, sel) in clocks.items():
        page.locator(sel + ".clock-paused").wait_for(timeout=UPDATE_MS)
    paused = shown()
    agree(paused)
    time.sleep(2)
    assert shown() == paused                               # nothing counts during the pause
    assert paused["projector"] == selectors.clock.clock_json(type(rnd).objects.get(pk=rnd.pk))["remaining"]

    # resumed, the server's time jumps to a few seconds past a whole minute, and the arbiter
    # takes the whole minutes back (a slip corrected): every screen hears it within one update
    # and counts the last seconds down to the end message
    left = paused["projector"]
    services.resume_clock(round=rnd, by=arbiter)
    fake_clock.advance(max(0, left % 60 - 6))
    services.add_clock_minutes(round=rnd, minutes=-(left // 60), by=arbiter)
    for _name, (page, sel) in clocks.items():
        page.locator(sel + ".clock-over").wait_for(timeout=UPDATE_MS + 8_000)
    for name, (page, sel) in clocks.items():
        assert page.text_content(sel + " .clock-time").strip() == "0:00", name
        assert END in page.text_content(sel + " .clock-note"), name
    # the board highlights the tables still playing (no sheet yet) now that time is up
    board.locator("#t2.late").wait_for(timeout=UPDATE_MS)
    assert phone.input_value("input[name=ns1]") == "100"    # what the captain typed is still there
    if SHOTS:
        projector.screenshot(path=str(DOCS / "projector-clock-over-1920x1080.png"))
        cycle.screenshot(path=str(Path(os.environ.get("TMPDIR", "/tmp")) / "projector-tables-clock-1280x720.png"))
    for ctx in (projector_ctx, phone_ctx, board_ctx, cycle_ctx):
        ctx.close()


@pytest.fixture
def round_with_a_rest(transactional_db, django_user_model):
    """5 pairs, round 1 (Mitchell) published: 1–3, 2–4, pair 5 rests at table 3."""
    import datetime

    from tournaments import services

    arbiter = django_user_model.objects.create_user(username="arbitro", password="segreta-123")
    tournament = services.create_tournament(by=arbiter, name="Torneo e2e", slug="e2e", date=datetime.date(2026, 5, 1))
    for k in range(1, 6):
        services.add_pair(tournament=tournament, by=arbiter, players=[
            services.PlayerData(first_name=f"Anna{k}", last_name=f"Rossi{k}"),
            services.PlayerData(first_name=f"Bruno{k}", last_name=f"Verdi{k}"),
        ])
    rnd = services.generate_round(tournament=tournament, by=arbiter)
    return arbiter, services.publish_round(round=rnd, by=arbiter, acknowledge_warnings=True)


def test_a_rest_tables_phone_follows_pause_resume_and_minutes(chromium, round_with_a_rest, live_server,
                                                              fake_clock):
    """The resting pair's phone used to show the time of the page load: now it hears a pause,
    the restart and the room's extra minutes within one update, like a playing table."""
    from tournaments import selectors, services

    arbiter, rnd = round_with_a_rest
    rest, playing = rnd.tables.get(number=3), rnd.tables.get(number=1)
    assert rest.bye
    services.start_clock(round=rnd, by=arbiter)
    fake_clock.advance(600)                        # 32:00 of the 42 minutes left
    ctx = chromium.new_context(viewport={"width": 390, "height": 844}, locale="it-IT", is_mobile=True,
                               has_touch=True)
    resting, player = ctx.new_page(), ctx.new_page()
    resting.goto(live_server.url + f"/c/{rest.token}/")
    player.goto(live_server.url + f"/c/{playing.token}/")

    def shown(page) -> int:
        return seconds(page.text_content("#captain-clock .clock-time"))

    def server() -> int:
        return selectors.clock.clock_json(type(rnd).objects.get(pk=rnd.pk))["remaining"]

    assert abs(shown(resting) - shown(player)) <= 1 and 1920 - 15 <= shown(resting) <= 1920

    services.pause_clock(round=rnd, by=arbiter)
    resting.locator("#captain-clock.clock-paused").wait_for(timeout=UPDATE_MS)
    assert shown(resting) == server()
    assert "orologio in pausa" in resting.text_content("#captain-clock .clock-note")

    services.resume_clock(round=rnd, by=arbiter)
    services.add_clock_minutes(round=rnd, minutes=5, by=arbiter)      # 5 minutes for the room
    for page in (resting, player):                 # about 32 + 5 minutes, no longer 32
        page.locator("#captain-clock:not(.clock-paused)").wait_for(timeout=UPDATE_MS)
        page.wait_for_function(
            "m => { const t = document.querySelector('#captain-clock .clock-time').textContent;"
            " const [a, b] = t.split(':'); return +a * 60 + +b >= m; }",
            arg=server() - 15, timeout=UPDATE_MS)
    assert abs(shown(resting) - server()) <= 1 and abs(shown(resting) - shown(player)) <= 1
    ctx.close()
