"""Browser test of a simultaneous evening (rules.md §20): the arbiters of two clubs each log
in, create their club's tournament from the event on «Simultanei» and play it (the results
by services, as the season's test does: one Mitchell round, arbitral scores); the public
combined standings say «provvisoria» while club B's round is open, «definitiva» after.

Results and the hand computation: tests/simultaneous/test_combined_standings.py (a1 first
with +600, b1 second with +200, a2 and b2 sharing 3=).
"""
from __future__ import annotations

import datetime
import os
import shutil

import pytest

from tests.simultaneous.helpers import RESULTS, play

from .helpers import submit

pytestmark = pytest.mark.skipif(
    shutil.which("chromium") is None and not os.environ.get("CI"), reason="Debian Chromium not installed"
)
PASSWORD = "segreta-123"


def log_in(browser, base, username):
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="it-IT")
    page = context.new_page()
    page.set_default_timeout(20_000)
    page.goto(base + "/accounts/login/?next=/simultanei/")
    page.fill('input[name="username"]', username)
    page.fill('input[name="password"]', PASSWORD)
    submit(page, "button.primary")
    return context, page


def create_club_tournament(page, base, *, slug: str) -> None:
    """On «Simultanei», the only open form is the arbiter's club's: create its tournament."""
    page.goto(base + "/simultanei/")
    assert page.locator("#event-sim-dic form").count() == 1
    page.fill('#event-sim-dic input[name="tournament_slug"]', slug)
    submit(page, "#event-sim-dic form button")
    assert page.url.endswith(f"/tornei/{slug}/")


def test_two_clubs_play_one_simultaneous_evening(chromium, live_server, transactional_db, django_user_model):
    from clubs.models import Club
    from clubs.services import add_arbiter
    from simultaneous import services
    from tournaments import services as tournament_services
    from tournaments.models import Tournament
    from tournaments.services.entrants import PlayerData

    base = live_server.url
    users = {}
    for slug in ("a", "b"):
        Club.objects.create(name=f"Circolo {slug.upper()}", slug=slug)
        users[slug] = django_user_model.objects.create_user(username=f"arbitro-{slug}", password=PASSWORD)
        add_arbiter(club=Club.objects.get(slug=slug), username=f"arbitro-{slug}")
    services.create_event(slug="sim-dic", name="Simultaneo di dicembre", date=datetime.date(2026, 12, 3), plan="M",
                          hands=4, clubs=["a", "b"], public=True)
    contexts = []
    for slug in ("a", "b"):
        context, page = log_in(chromium, base, f"arbitro-{slug}")
        contexts.append(context)
        create_club_tournament(page, base, slug=f"t-{slug}")
        t = Tournament.objects.get(slug=f"t-{slug}")
        assert (t.club.slug, t.plan, t.hands_per_round) == (slug, "M", 4)
        for k in range(1, 5):
            tournament_services.add_pair(tournament=t, by=users[slug], players=[
                PlayerData(last_name=f"{slug.upper()}{k}a", first_name="Anna"),
                PlayerData(last_name=f"{slug.upper()}{k}b", first_name="Bruno")])

    play(users["a"], Tournament.objects.get(slug="t-a"), RESULTS["a"])
    public = chromium.new_context(locale="it-IT").new_page()
    public.goto(base + "/simultaneo/sim-dic/")
    assert "Classifica provvisoria" in public.locator("#simultaneous-state").inner_text()

    play(users["b"], Tournament.objects.get(slug="t-b"), RESULTS["b"])
    public.reload()
    assert "Classifica definitiva" in public.locator("#simultaneous-state").inner_text()
    rows = public.locator("#simultaneous-standings tbody tr")
    cells = [[rows.nth(i).locator("td").nth(j).inner_text() for j in (0, 1, 2, 4)] for i in range(4)]
    assert cells == [["1", "Circolo A", "1", "15"], ["2", "Circolo B", "1", "15"],
                     ["3=", "Circolo A", "2", "12"], ["3=", "Circolo B", "2", "12"]]
    for context in contexts:
        context.close()
