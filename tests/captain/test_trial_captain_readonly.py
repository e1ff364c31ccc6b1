"""New-user trial: a closed round's captain page is read-only; the arbiter's empty grid shows
one "—" for the VP; "score", not "schede", in the round page's messages.

- Round closed (rules.md §3: afterwards only the arbiter corrects, on his pages): the page shows
  the sheet and its state, without the "Io sono: N/S / E/O" choice, the paper totals (the sheet
  has none), the send bar, and every hand field is read-only. captain.js keeps the same rule
  (``mode() === "read"``) after a poll.
- An open round keeps the line choice and editable fields.
"""
import json

from django.urls import reverse

from tournaments import services

HANDS = [services.HandInput(ns=600, ew=200), services.HandInput(ns=400, ew=150),
         services.HandInput(ns=250, ew=300), services.HandInput(ns=300, ew=195)]


def _attrs(html: str, marker: str) -> str:
    """The opening tag that contains ``marker``."""
    at = html.index(marker)
    return html[html.rindex("<", 0, at):html.index(">", at) + 1]


def _close(rnd, arbiter):
    for table in rnd.tables.filter(bye=""):
        services.save_score_sheet(table=table, hands=HANDS, by=arbiter, validate=True)
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


def test_arbiter_empty_grid_vp_placeholder_is_one_dash(arbiter_client, tables):
    """Before anything is typed: "Differenza — · VP —", the "–" between the two VP hidden
    (entry.js shows it only with a result)."""
    html = arbiter_client.get(reverse("sheet", args=["prova", 1, 1])).content.decode()
    live = html.split('<p class="live"', 1)[1].split("</p>", 1)[0]
    assert '<b id="difference">—</b> · VP <b id="vp-ns">—</b><span id="vp-sep" hidden>–</span><b id="vp-ew"></b>' in live


def test_validate_all_message_says_score(arbiter_client, published_round, tables, arbiter):
    """2 of 4 sheets entered by the arbiter → "2 score validati (tavoli 1, 2)."; Italian
    "score" is invariable (never "schede")."""
    for n in (1, 2):
        services.save_score_sheet(table=tables[n], hands=HANDS, by=arbiter)
    page = arbiter_client.post(reverse("round_validate_all", args=["prova", 1]), follow=True).content.decode()
    assert "2 score validati (tavoli 1, 2)." in page and "schede" not in page
