"""Fixtures of the team tournament tests."""
import datetime

import pytest

from tournaments import services
from tournaments.services.pairs import PlayerData


def players(prefix: str, n: int = 4) -> list[PlayerData]:
    return [PlayerData(first_name=f"N{k}", last_name=f"{prefix}{k}", membership_number="", club="")
            for k in range(1, n + 1)]


@pytest.fixture
def make_teams_tournament(db, arbiter):
    """make_teams_tournament(n, plan="RRRRR", **settings): a team tournament with n teams of four
    players (team k: surnames T{k}p1..T{k}p4), 4 hands, vp20-4h."""

    def make(n, plan="RRRRR", sizes=None, **settings):
        t = services.create_tournament(by=arbiter, name="Squadre", slug=f"squadre-{n}-{plan.lower()}",
                                       date=datetime.date(2026, 12, 1), kind="teams", plan=plan,
                                       hands_per_round=4, vp_scale="vp20-4h", **settings)
        for k in range(1, n + 1):
            services.add_team(tournament=t, name=f"Squadra {k}", players=players(f"T{k}p", (sizes or {}).get(k, 4)),
                              by=arbiter)
        return t

    return make
