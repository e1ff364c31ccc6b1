"""Second new-user trial: captain page language selector and size, public brand link and
final standings, penalty form in English."""
import json
import os
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse

from tournaments import services

HANDS = [[600, 200], [400, 150], [250, 300], [300, 195]]   # 1550–845, difference 705 → 14–6 (vp20-4h)
STATIC = Path(settings.BASE_DIR) / "static"


def test_captain_page_has_a_tiny_language_form_back_to_the_same_page(client, tables):
    url = reverse("captain", args=[tables[1].token])
    html = client.get(url).content.decode()
    form = re.search(r'<form class="lang" action="([^"]+)" method="post".*?</form>', html, re.S)
    assert form and form.group(1) == reverse("set_language")
    assert f'name="next" value="{url}"' in form.group(0)
    assert 'value="it"' in form.group(0) and 'value="en"' in form.group(0)
    # choosing EN comes back to the captain page, now in English
    resp = client.post(reverse("set_language"), {"language": "en", "next": url})
    assert resp.status_code == 302 and resp["Location"] == url
    assert '<html lang="en">' in client.get(url).content.decode()


def test_captain_page_with_css_and_js_stays_under_50_kb(client, tables):
    html = client.get(reverse("captain", args=[tables[1].token])).content
    total = len(html) + (STATIC / "css/captain.css").stat().st_size + (STATIC / "js/captain.js").stat().st_size
    assert total < 50 * 1024


def test_pin_page_has_the_language_form_too(client, tournament):
    # issue 10 item 3: the PIN page is per tournament
    html = client.get(reverse("captain_pin", args=[tournament.slug])).content.decode()
    assert '<form class="lang"' in html and f'value="/t/{tournament.slug}/pin/"' in html


def test_public_brand_links_to_the_public_page_not_the_login(client, arbiter, tournament, published_round):
    services.update_tournament(tournament=tournament, by=arbiter, public_enabled=True)
    html = client.get(reverse("public", args=["prova"])).content.decode()
    brand = re.search(r'<a class="brand" href="([^"]+)"', html).group(1)
    assert brand == reverse("public", args=["prova"])


def test_public_says_final_standings_after_the_last_planned_round(client, arbiter, tournament, tables,
                                                                   published_round):
    services.update_tournament(tournament=tournament, by=arbiter, plan="M", public_enabled=True,
                               projector_enabled=True)
    for t in tables.values():
        services.save_score_sheet(table=t, hands=[services.HandInput(*h) for h in HANDS], by=arbiter, validate=True)
    services.close_round(round=published_round, by=arbiter)
    html = client.get(reverse("public", args=["prova"])).content.decode()
    assert "Classifica finale" in html and "Classifica dopo il turno" not in html
    screen = client.get(reverse("projector", args=["prova"]), {"s": 1}).content.decode()
    assert "Classifica finale" in screen


def test_seed_demo_prints_the_url_it_is_given(db):
    from io import StringIO

    from django.core.management import call_command

    out = StringIO()
    call_command("seed_demo", "--url", "http://0.0.0.0:8123/", stdout=out)
    assert "http://0.0.0.0:8123/" in out.getvalue() and "8000" not in out.getvalue()


def test_dispute_note_and_sum_warning_are_separate_lines_in_the_browser(live_server, tables, other_client):
    """The state box shows the status, the dispute note (quoted) and the sum warning as three
    separate lines, not run together ("Nota: Mano 2 … Attenzione: …")."""
    chromium = Path("/usr/bin/chromium")
    if not chromium.exists():
        pytest.skip("Chromium not installed at /usr/bin/chromium")
    sync_api = pytest.importorskip("playwright.sync_api")
    os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    t = tables[2]

    def post(client, name, body):
        return client.post(reverse(name, args=[t.token]), data=json.dumps(body), content_type="application/json")

    # N/S saves with wrong written totals (sum error), E/O disputes from its phone.
    assert post(other_client, "captain_save", {"line": "ns", "hands": HANDS, "version": 0,
                                               "declared": [1000, 845]}).status_code == 200
    from django.test import Client
    assert post(Client(), "captain_dispute", {"line": "ew", "version": 1,
                                              "note": "Mano 2 era 350 per noi"}).status_code == 200
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(chromium), headless=True, args=[
            "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
            "--disable-sync", "--no-first-run"])
        try:
            page = browser.new_context(viewport={"width": 360, "height": 740}, locale="it-IT").new_page()
            page.goto(live_server.url + reverse("captain", args=[t.token]))
            page.click(".who button[data-line=ns]")
            page.wait_for_selector("#state.disputed")
            parts = page.eval_on_selector_all("#state > span", "els => els.map(e => e.textContent)")
        finally:
            browser.close()
    assert len(parts) == 3
    assert parts[0].startswith("Score contestato")
    assert parts[1] == "\u201cMano 2 era 350 per noi\u201d"
    assert parts[2].startswith("Attenzione:")
