"""The captain's page: a small language form that comes back to the same page (on the PIN
page too), HTML + CSS + JS under 50 KB, the state box's lines, and a closed round's page
read-only.

- Round closed (rules.md §3: afterwards only the arbiter corrects, on his pages): the page shows
  the sheet and its state, without the "Io sono: N/S / E/O" choice, the paper totals (the sheet
  has none), the send bar, and every hand field is read-only. captain.js keeps the same rule
  (``mode() === "read"``) after a poll.
- An open round keeps the line choice and editable fields.
"""
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
    # the PIN page is per tournament
    html = client.get(reverse("captain_pin", args=[tournament.slug])).content.decode()
    assert '<form class="lang"' in html and f'value="/t/{tournament.slug}/pin/"' in html


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


def _attrs(html: str, marker: str) -> str:
    """The opening tag that contains ``marker``."""
    at = html.index(marker)
    return html[html.rindex("<", 0, at):html.index(">", at) + 1]


def _close(rnd, arbiter):
    for table in rnd.tables.filter(bye=""):
        services.save_score_sheet(table=table, hands=[services.HandInput(*h) for h in HANDS], by=arbiter,
                                  validate=True)
    return services.close_round(round=rnd, by=arbiter)


def test_closed_round_captain_page_is_read_only(client, published_round, tables, arbiter):
    _close(published_round, arbiter)
    response = client.get(reverse("captain", args=[tables[1].token]))
    assert response.status_code == 200
    html = response.content.decode()
    assert " hidden" in _attrs(html, 'class="who"')                 # no line choice
    assert " hidden" in _attrs(html, 'id="decl"')                   # no paper totals (none declared)
    assert " hidden" in _attrs(html, 'class="bar"')                 # no send / ± buttons
    inputs = [_attrs(html, f'name="{side}{n}"') for n in range(1, 5) for side in ("ns", "ew")]
    assert len(inputs) == 8 and all(" readonly" in tag for tag in inputs)
    data = json.loads(html.split('id="captain-data" type="application/json">')[1].split("</script>")[0])
    assert data["sheet"]["round_open"] is False and data["sheet"]["locked"] is True
    assert data["sheet"]["hands"][0] == [600, 200]                  # the sheet itself is shown
    assert data["text"]["closed"] == "Il turno è chiuso: lo score è in sola lettura."


def test_open_round_captain_page_keeps_the_line_choice_and_fields(client, tables):
    html = client.get(reverse("captain", args=[tables[1].token])).content.decode()
    assert " hidden" not in _attrs(html, 'class="who"')
    assert " hidden" not in _attrs(html, 'id="decl"') and " hidden" not in _attrs(html, 'class="bar"')
    assert " readonly" not in _attrs(html, 'name="ns1"')
