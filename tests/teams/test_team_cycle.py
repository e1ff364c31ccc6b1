"""A team tournament's round cycle (issue 15 items 2–4): crossed seating, rests, standings."""
from decimal import Decimal

from tournaments import selectors, services, team_selectors
from tournaments.models import Match, Seat
from tournaments.simulation import table_hands


def play(t, arbiter, rnd, seed=1):
    rnd = services.publish_round(round=rnd, by=arbiter)
    for table in rnd.tables.filter(bye="").order_by("number"):
        services.save_score_sheet(table=table, by=arbiter, validate=True,
                                  hands=table_hands(seed=seed, round_number=rnd.number, table_number=table.number,
                                                    hands=4))
    return services.close_round(round=rnd, by=arbiter)


def test_smoke_five_teams_round_robin(make_teams_tournament, arbiter):
    t = make_teams_tournament(5)
    for _ in range(5):
        rnd = services.generate_round(tournament=t, by=arbiter)
        assert rnd.check_messages == []
        play(t, arbiter, rnd)
    rows = selectors.standings_after(t).rows
    assert len(rows) == 5
    assert all(r.played == 5 and r.rests == 1 for r in rows)
