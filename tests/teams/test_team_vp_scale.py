"""The built-in 20-VP team table ``vp20-teams`` (rules.md §15, the "margin" result mode;
bands of /work/shared/data/vp_scales.json: 0–150 10–10, 155–350 11–9, 355–550 12–8, 555–800
13–7, 805–1050 14–6, 1055–1300 15–5, 1305–1600 16–4, 1605–1900 17–3, 1905–2200 18–2,
2205–2500 19–1, 2505+ 20–0), beside the default "sum of two tables" and custom team scales."""
from decimal import Decimal

import pytest
from django.urls import reverse

from scoring import teams as team_rules
from scoring import vp as vp_rules
from tests.teams.helpers import three_rounds
from tournaments import selectors

TEAMS = vp_rules.builtin_team_scales()["vp20-teams"]


@pytest.mark.parametrize("margin, expected", [
    (0, (10, 10)), (150, (10, 10)), (155, (11, 9)), (305, (11, 9)), (550, (12, 8)), (555, (13, 7)),
    (1050, (14, 6)), (1100, (15, 5)), (1600, (16, 4)), (1605, (17, 3)), (2100, (18, 2)), (2500, (19, 1)),
    (2505, (20, 0)), (9000, (20, 0)), (-805, (6, 14)),
])
def test_bands_by_hand(margin, expected):
    assert vp_rules.convert(margin, 0, TEAMS) == expected


def test_the_team_table_is_not_a_table_scale():
    assert set(vp_rules.builtin_pair_scales()) == {"vp20-3h", "vp20-4h"}
    assert set(vp_rules.builtin_team_scales()) == {"vp20-teams"}
    assert TEAMS.total == 20 and TEAMS.hands is None


def test_match_result_in_margin_mode():
    # table 1 A 1620 – B 1115, table 2 B 1000 – A 800: margin +505 − 200 = +305 → 11–9
    first = team_rules.TableScore(1620, 1115, 13, 7)
    second = team_rules.TableScore(1000, 800, 11, 9)
    result = team_rules.match_result(first, second, mode="margin", team_scale=TEAMS)
    assert (result.vp_a, result.vp_b) == (11, 9)
    # the default mode is unchanged: 13 + 9 = 22, 7 + 11 = 18
    default = team_rules.match_result(first, second)
    assert (default.vp_a, default.vp_b) == (22, 18)


def test_team_standings_with_the_built_in_team_table(make_teams_tournament, arbiter):
    t = make_teams_tournament(3, plan="RRR", team_result="margin", team_scale="vp20-teams")
    three_rounds(t, arbiter)
    rows = selectors.standings_after(t).rows
    # margins (test_team_cycle): 2 v 3 +305 → 11–9, 1 v 3 +1100 → 15–5, 2 v 1 +2100 → 18–2;
    # rest 70 % of 20 = 14. Team 2: 11 + 14 + 18 = 43; team 1: 14 + 15 + 2 = 31; team 3: 9 + 5 + 14 = 28
    assert [(r.pair, r.vp) for r in rows] == [(2, Decimal("43")), (1, Decimal("31")), (3, Decimal("28"))]


def test_settings_page_offers_it_and_says_it_is_unchecked(arbiter_client, make_teams_tournament):
    t = make_teams_tournament(3, plan="RRR")
    page = arbiter_client.get(reverse("tournament_edit", args=[t.slug])).content.decode()
    team_select = page.split('name="team_scale"')[1].split("</select>")[0]
    assert '<option value="vp20-teams">20 VP, scarto dell&#x27;incontro a squadre</option>' in team_select
    assert "Non è stato trovato un testo federale per verificarla" in page
    vp_select = page.split('name="vp_scale"')[1].split("</select>")[0]
    assert "vp20-teams" not in vp_select


def test_scales_page_marks_the_team_table(arbiter_client):
    page = arbiter_client.get(reverse("scales")).content.decode()
    card = page.split('id="scala-vp20-teams"')[1].split("</section>")[0]
    assert "scarto sommato di un incontro a squadre" in card
    assert "non è stato trovato un testo federale per verificarla" in card
