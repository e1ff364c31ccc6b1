"""The tournament form follows the kind on the server too (rules.md §9, §15): a team
tournament gets no Mitchell round from a plan the arbiter did not write, an individual one
never keeps head-to-head, and the settings page is live while the kind may still change."""
from __future__ import annotations

import re

from django.urls import reverse

from tests.forms_data import tournament_settings
from tournaments.models import Tournament

CREATE = {
    "name": "Giovedì", "slug": "giovedi", "date": "2026-12-10", "venue": "", "plan": "MMMD",
    "hands_per_round": 4, "vp_scale": "vp20-4h", "mitchell_step": 1, "first_round": "number",
    "rematch_window": "all", "bye_percent": "70", "bye_mp": "zero",
    "tiebreaks": "vp,mp_difference,head_to_head,mp_scored", "rule_set": "fibur",
}


def test_teams_with_the_untouched_plan_get_round_robin_rounds(arbiter_client):
    resp = arbiter_client.post(reverse("tournament_create"), {**CREATE, "kind": "teams"})
    assert resp.status_code == 302
    assert Tournament.objects.get(slug="giovedi").plan == "RRRD"  # M → R, the D kept


def test_teams_with_mitchell_rounds_written_are_refused_with_a_sentence(arbiter_client):
    resp = arbiter_client.post(reverse("tournament_create"), {**CREATE, "kind": "teams", "plan": "MMDD"})
    body = resp.content.decode()
    assert resp.status_code == 200 and "il Mitchell (M) non vale per le squadre (es. RRDD)" in body
    assert not Tournament.objects.filter(slug="giovedi").exists()


def test_individual_drops_head_to_head_from_the_default_order(arbiter_client):
    resp = arbiter_client.post(reverse("tournament_create"), {**CREATE, "kind": "individual"})
    assert resp.status_code == 302
    assert Tournament.objects.get(slug="giovedi").tiebreaks == "vp,mp_difference,mp_scored"


def test_settings_page_is_live_while_the_kind_may_change(arbiter_client, tournament):
    html = arbiter_client.get(reverse("tournament_edit", args=[tournament.slug])).content.decode()
    assert "data-kind-select" in html and "data-number-labels" in html
    resp = arbiter_client.post(reverse("tournament_edit", args=[tournament.slug]),
                               tournament_settings(tournament, kind="teams"))
    assert resp.status_code == 302
    tournament.refresh_from_db()
    assert (tournament.kind, tournament.plan) == ("teams", "RRRD")


def test_settings_page_of_a_tournament_with_entrants_shows_its_kind_only(arbiter_client, tournament, make_pairs):
    make_pairs(tournament, 2)
    html = arbiter_client.get(reverse("tournament_edit", args=[tournament.slug])).content.decode()
    assert "data-kind-select" not in html and 'name="team_result"' not in html
    assert re.search(r'<select name="kind"[^>]*disabled', html)
