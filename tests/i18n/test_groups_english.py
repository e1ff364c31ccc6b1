"""Danish and Mitchell in groups (rules.md §19) in English: the grouped checker's messages
(a group's violation wraps the ordinary one, both translated) and the groups page."""
import json

from django.urls import reverse
from django.utils import translation

import pairing
from pairing.check import check
from tests.i18n.helpers import assert_english, page
from tournaments import services
from tournaments.i18n_messages import stored, stored_text

G1 = [1, 4, 5, 8, 9, 12, 13]
G2 = [2, 3, 6, 7, 10, 11, 14]


def test_grouped_checker_messages_in_english():
    request = {"system": "danish", "ranking": list(range(1, 15)), "groups": [G1, G2]}
    response = json.loads(json.dumps(pairing.run(request)))
    response["tables"][0]["ew"], response["tables"][3]["ew"] = 3, 4
    items = [stored(m) for m in check(request, response)]
    with translation.override("en"):
        shown = [stored_text(i) for i in items]
    assert "table 1: 1 (group 1) and 3 (group 2) are in different groups" in shown
    # the crossed pairs are missing from their own groups' tables
    assert "group 1: pair 1 is missing (neither at a table nor resting)" in shown
    assert "group 2: pair 3 is missing (neither at a table nor resting)" in shown


def test_groups_page_of_a_danish_plan_in_english(english, arbiter, tournament, make_pairs,
                                                 italian_to_english):
    services.update_tournament(tournament=tournament, by=arbiter, plan="DDD")
    make_pairs(tournament, 8)
    english.force_login(arbiter)
    html = page(english, reverse("groups", args=[tournament.slug]))
    assert_english(html, italian_to_english, present=["in Danish rounds (D) each group is paired by its own standings"],
                   absent=["ogni girone è abbinato"])
