"""Two tournaments of one club joining one simultaneous evening at the same moment (rules.md
§20: one tournament per club): the event's row lock serialises them, one joins, the other is
refused with the sentence naming the first. Only on a database server (PostgreSQL); SQLite
serialises every writer anyway."""
from __future__ import annotations

import pytest
from django.conf import settings

from tests.threads import together

pytestmark = [
    pytest.mark.skipif(settings.DATABASES["default"]["ENGINE"].endswith("sqlite3"),
                       reason="threads with their own connections need a database server (PostgreSQL)"),
    pytest.mark.django_db(transaction=True),
]


def test_one_club_two_tournaments_joining_at_once(arbiter, clubs, event):
    from simultaneous import services
    from tournaments import services as tournament_services
    from tournaments.errors import ArbiterError

    from .helpers import DAY

    made = [tournament_services.create_tournament(by=arbiter, club=clubs["a"], name=f"Sera {k}", slug=f"sera-{k}",
                                                  date=DAY, plan="M", hands_per_round=4, vp_scale="vp20-4h")
            for k in (1, 2)]
    results = together(*[(lambda t=t: services.join(event=event, tournament=t)) for t in made])
    refused = [r for r in results if isinstance(r, ArbiterError)]
    assert len(refused) == 1 and "gioca già la serata simultanea" in refused[0].message, results
    assert event.participations.count() == 1
