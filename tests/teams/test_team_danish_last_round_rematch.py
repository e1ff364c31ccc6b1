"""«Ultimo turno: rivincite ammesse» for a team Danish tournament (rules.md §7 applied to
teams, §15): in the plan's last round the draw pairs 1st v 2nd by team standings even when
they have met; off (the default), or in any earlier round, no rematch.

Four teams, first round by number, 4 hands, vp20-4h (0–100 MP → 10–10, 305–500 → 12–8,
905–1100 → 15–5); a team scores the sum of its two tables' VP (§15). A match seats team A's
first pair N/S at table 2m − 1 and team B's second pair N/S at table 2m.

Round 1 (1 v 2, 3 v 4): table 1 1000–0 → team 1 15–5, table 2 0–0 → 10–10: 1 25, 2 15;
table 3 500–0 → team 3 12–8, table 4 0–0: 3 22, 4 18. Ranking 1, 3, 4, 2.
Round 2 (1 v 3, 4 v 2, no rematch either way): all four tables 0–0, every team +20:
1 45, 3 42, 4 38, 2 35 (margins +1000, +500, −500, −1000: no tie).
Round 3: natural 1 v 3 and 4 v 2 both repeat round 2. Without rematches the only pairing
left is 1 v 4, 3 v 2 (each team has one opponent it has not met)."""
from decimal import Decimal

import pytest
from django.urls import reverse

from tests.teams.helpers import matches, play
from tournaments import services
from tournaments.selectors.teams import team_standings_rows

R1 = {1: (1000, 0), 2: (0, 0), 3: (500, 0), 4: (0, 0)}
R2 = {1: (0, 0), 2: (0, 0), 3: (0, 0), 4: (0, 0)}


@pytest.fixture
def after_two_rounds(make_teams_tournament, arbiter):
    def build(plan, **settings):
        t = make_teams_tournament(4, plan=plan, first_round="number", **settings)
        r1 = services.generate_round(tournament=t, by=arbiter)
        assert matches(r1) == [(1, 1, 2, ""), (2, 3, 4, "")]
        play(arbiter, r1, scores=R1)
        r2 = services.generate_round(tournament=t, by=arbiter)
        # round 2 is not the last of either plan: 1st v 2nd (1 v 3) is not a rematch anyway
        assert "allow_rematch" not in r2.pairing_request
        assert matches(r2) == [(1, 1, 3, ""), (2, 4, 2, "")]
        play(arbiter, r2, scores=R2)
        rows = team_standings_rows(t, after_round=2)
        assert [(r.pair, r.vp, r.mp_difference) for r in rows] == [
            (1, Decimal(45), 1000), (3, Decimal(42), 500), (4, Decimal(38), -500), (2, Decimal(35), -1000)]
        return t, services.generate_round(tournament=t, by=arbiter)
    return build


def test_on_the_last_round_pairs_first_v_second_though_they_met(after_two_rounds, arbiter_client):
    t, r3 = after_two_rounds("DDD", last_round_rematches=True)
    assert r3.pairing_request["allow_rematch"] is True
    assert matches(r3) == [(1, 1, 3, ""), (2, 4, 2, "")]
    assert r3.check_messages == []  # a rematch the setting allows is no problem to confirm
    page = arbiter_client.get(reverse("round", args=[t.slug, 3])).content.decode()
    assert 'id="last-round-rematches"' in page


def test_off_the_last_round_avoids_the_rematch(after_two_rounds, arbiter_client):
    t, r3 = after_two_rounds("DDD")  # the default
    assert t.last_round_rematches is False
    assert "allow_rematch" not in r3.pairing_request
    assert matches(r3) == [(1, 1, 4, ""), (2, 3, 2, "")]
    page = arbiter_client.get(reverse("round", args=[t.slug, 3])).content.decode()
    assert 'id="last-round-rematches"' not in page


@pytest.mark.parametrize("plan", ["DDDD", "DDD|D"])  # "DDD|D": the last round of a session only
def test_on_a_round_before_the_last_keeps_the_no_rematch_rule(after_two_rounds, plan):
    _t, r3 = after_two_rounds(plan, last_round_rematches=True)
    assert "allow_rematch" not in r3.pairing_request
    assert matches(r3) == [(1, 1, 4, ""), (2, 3, 2, "")]
