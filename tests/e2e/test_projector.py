"""Browser test of the projector page (``/p/<slug>/proiettore/``) on common projector screens.

Regression: each screen holds up to 16 rows, but only 10–11 fitted at 1920×1080,
1280×720 or 1024×768, with no scrolling, so some tables and standings were never
shown. The rows are now sized from the viewport height; here the last row of every
screen must lie inside the viewport, at each size, for a 29-pair tournament:
round 2 published (14 tables + 1 rest = 15 rows, one screen) and the standings
after round 1 (29 rows: screens of 16 and 13).

With ARBITRO_SCREENSHOTS=1 the run saves var/screenshots/projector-<w>x<h>-s<k>.png.
"""
from __future__ import annotations

import datetime
import os
import shutil
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(
    shutil.which("chromium") is None and not os.environ.get("CI"), reason="Debian Chromium not installed"
)

SIZES = [(1920, 1080), (1280, 720), (1024, 768)]
SHOTS = os.environ.get("ARBITRO_SCREENSHOTS") == "1"
SHOT_DIR = Path(__file__).resolve().parents[2] / "var" / "screenshots"

# Long Italian surnames and names, so that a row is as wide as at a real club.
SURNAMES = [
    "Abbondanza", "Bartolomei", "Castellani", "D'Alessandro", "Esposito", "Fiorentini", "Giacomelli",
    "Lombardini", "Marchesini", "Nicolosi", "Ottaviani", "Pellegrini", "Quagliarella", "Santangelo",
    "Tagliaferri", "Valentini", "Zanfagnini", "Bevilacqua", "Cavalcanti", "Dell'Orefice", "Francescon",
    "Guglielmetti", "Lanzavecchia", "Mastrangelo", "Montanari", "Piccinini", "Ricciardelli", "Scarpellini",
    "Vitalianti",
]
FIRST = ["Annamaria", "Giovanbattista", "Mariagrazia", "Pierfrancesco"]


@pytest.fixture
def projector_tournament(transactional_db, django_user_model):
    """29 pairs: round 1 played and closed (every sheet validated), round 2 published."""
    from tournaments import services

    arbiter = django_user_model.objects.create_user(username="arbitro", password="segreta-123")
    tournament = services.create_tournament(
        by=arbiter, name="Torneo sociale di Burraco a coppie del giovedì", slug="proiettore",
        date=datetime.date(2026, 5, 7),
    )
    for k, surname in enumerate(SURNAMES):
        services.add_pair(tournament=tournament, by=arbiter, players=[
            services.PlayerData(first_name=FIRST[k % 4], last_name=surname),
            services.PlayerData(first_name=FIRST[(k + 1) % 4], last_name=SURNAMES[-1 - k] + "-Bonaccorsi"),
        ])
    rnd = services.publish_round(round=services.generate_round(tournament=tournament, by=arbiter),
                                 by=arbiter, acknowledge_warnings=True)
    hands = [services.HandInput(ns=400, ew=200)] * tournament.hands_per_round
    for table in rnd.tables.filter(bye=""):
        services.save_score_sheet(table=table, hands=hands, by=arbiter, validate=True)
    services.close_round(round=rnd, by=arbiter)
    services.publish_round(round=services.generate_round(tournament=tournament, by=arbiter),
                           by=arbiter, acknowledge_warnings=True)
    services.update_tournament(tournament=tournament, by=arbiter, projector_enabled=True)
    return tournament


@pytest.mark.parametrize("width,height", SIZES)
def test_projector_last_row_of_every_screen_is_inside_the_viewport(chromium, live_server, projector_tournament,
                                                                      width, height):
    """Regression: at 1920×1080, 1280×720 and 1024×768 only 10–11 of a screen's 16 rows were visible."""
    context = chromium.new_context(viewport={"width": width, "height": height}, locale="it-IT")
    page = context.new_page()
    url = f"{live_server.url}/p/proiettore/proiettore/"
    expected_rows = [15, 16, 13]        # round 2's tables, standings 1–16, standings 17–29
    seen_pairs = set()
    for screen, expected in enumerate(expected_rows):
        page.goto(f"{url}?s={screen}")
        rows = page.locator("tbody tr")
        assert rows.count() == expected
        last = rows.nth(expected - 1).bounding_box()
        assert last is not None
        assert last["y"] >= 0 and last["y"] + last["height"] <= height, (screen, last, height)
        assert last["x"] >= 0 and last["x"] + last["width"] <= width, (screen, last, width)
        # nothing hidden below or beside: the page does not scroll
        scroll = page.evaluate("[document.documentElement.scrollHeight, document.documentElement.scrollWidth]")
        assert scroll[0] <= height and scroll[1] <= width, (screen, scroll)
        if screen:
            seen_pairs.update(page.locator("tbody tr td:nth-child(2)").all_inner_texts())
        if SHOTS:
            SHOT_DIR.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(SHOT_DIR / f"projector-{width}x{height}-s{screen}.png"))
    assert len(seen_pairs) == 29          # every pair of the standings is shown on some screen
    context.close()
