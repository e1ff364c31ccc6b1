"""The arbiter's wording around the grid: an empty grid shows one "—" for the VP, and the
round page's messages say "score", not "schede"."""
from django.urls import reverse

from tournaments import services

HANDS = [services.HandInput(ns=600, ew=200), services.HandInput(ns=400, ew=150),
         services.HandInput(ns=250, ew=300), services.HandInput(ns=300, ew=195)]


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
