"""Pure team match results (rules.md §15; scoring/teams.py), values by hand from vp20-4h."""
from decimal import Decimal

import pytest

from scoring import teams
from scoring import vp as vp_rules

SCALE = vp_rules.builtin_scales()["vp20-4h"]
TEAM40 = vp_rules.scale_from_dict({"id": "team40", "name": "Squadre 40", "total": 40, "bands": [
    {"min": 0, "max": 200, "winner": 20, "loser": 20},
    {"min": 205, "max": 1000, "winner": 25, "loser": 15},
    {"min": 1005, "max": None, "winner": 32, "loser": 8}]})


def test_sum_mode_adds_each_teams_two_tables():
    # table 1: A N/S 1620 v B E/W 1115 → 505 → 13–7; table 2: B N/S 1000 v A E/W 800 → 200 → 11–9 for B
    r = teams.match_result(teams.TableScore(1620, 1115, 13, 7), teams.TableScore(1000, 800, 11, 9))
    assert (r.vp_a, r.vp_b) == (Decimal(22), Decimal(18))
    assert (r.mp_a, r.mp_b, r.margin) == (2420, 2115, 305)


def test_level_match_is_20_20():
    r = teams.match_result(teams.TableScore(500, 500, 10, 10), teams.TableScore(700, 700, 10, 10))
    assert (r.vp_a, r.vp_b) == (20, 20)


def test_margin_mode_converts_the_summed_margin_by_the_team_scale():
    r = teams.match_result(teams.TableScore(1620, 1115, 13, 7), teams.TableScore(1000, 800, 11, 9),
                           mode="margin", team_scale=TEAM40)
    assert (r.vp_a, r.vp_b) == (25, 15)  # +305 MP → band 205–1000


def test_margin_mode_loser_side():
    # A loses table 1 by 1000 and table 2 by 105: margin −1105 → 8–32
    r = teams.match_result(teams.TableScore(0, 1000, 5, 15), teams.TableScore(105, 0, 11, 9),
                           mode="margin", team_scale=TEAM40)
    assert (r.vp_a, r.vp_b) == (8, 32)


def test_margin_mode_needs_a_team_scale():
    with pytest.raises(ValueError):
        teams.match_result(teams.TableScore(0, 0, 10, 10), teams.TableScore(0, 0, 10, 10), mode="margin")


def test_rest_is_70_percent_of_a_match_28_of_40():
    assert teams.team_rest_vp(SCALE) == 28
    assert teams.match_max_vp(SCALE) == 40
    assert teams.team_rest_vp(SCALE, 50) == 20
    assert teams.team_rest_vp(SCALE, mode="margin", team_scale=TEAM40) == Decimal("22.4")


from hypothesis import given  # noqa: E402
from hypothesis import strategies as st

mp = st.integers(min_value=-200, max_value=800).map(lambda k: 5 * k)


def table(a, b):
    vp_ns, vp_ew = vp_rules.convert(a, b, SCALE)
    return teams.TableScore(a, b, vp_ns, vp_ew)


@given(mp, mp, mp, mp)
def test_a_match_always_shares_40_vp_and_swapping_the_teams_mirrors_it(a, b, c, d):
    first, second = table(a, b), table(c, d)
    r = teams.match_result(first, second)
    assert r.vp_a + r.vp_b == 40  # two tables of the 20-VP scale
    assert r.margin == (a - b) + (d - c)
    # the same match seen from B: B's first pair sat N/S at the second table
    mirrored = teams.match_result(table(c, d), table(a, b))
    assert (mirrored.vp_a, mirrored.vp_b, mirrored.margin) == (r.vp_b, r.vp_a, -r.margin)
    m = teams.match_result(first, second, mode="margin", team_scale=TEAM40)
    assert m.vp_a + m.vp_b == 40 and (m.vp_a > m.vp_b) == (m.margin > 200)
