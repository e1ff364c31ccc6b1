"""The captain's phone re-sends a save only when another try may get
another answer (static/js/retry.js, used by captain.js): network error (0), 429, 5xx.
400 (10^30 MP), 403, 404, 409 (another phone's sheet) and 410 stop the retries: before,
a 500 on 10^30 made the phone retry forever. Run with node (no browser needed)."""
import json
import shutil
import subprocess
from pathlib import Path

import pytest

RETRY_JS = Path(__file__).resolve().parents[2] / "static" / "js" / "retry.js"
EXPECTED = {0: True, 200: False, 400: False, 403: False, 404: False, 409: False, 410: False,
            429: True, 500: True, 502: True, 503: True, 599: True}


@pytest.mark.skipif(shutil.which("node") is None, reason="node not installed")
def test_phone_stops_retrying_on_answers_that_will_not_change():
    script = (f"const r = require({json.dumps(str(RETRY_JS))}).retryable;"
              f"console.log(JSON.stringify({json.dumps(list(EXPECTED))}.map(s => [s, r(s)])));")
    out = subprocess.run(["node", "-e", script], capture_output=True, text=True, timeout=30, check=True)
    assert {status: decision for status, decision in json.loads(out.stdout)} == EXPECTED


def test_captain_page_loads_the_retry_decision_before_captain_js(client, tables):
    from django.urls import reverse

    html = client.get(reverse("captain", args=[tables[1].token])).content.decode()
    assert html.index("js/retry.js") < html.index("js/captain.js")
