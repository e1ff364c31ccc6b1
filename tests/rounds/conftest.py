"""Helpers for the round-cycle pages (the ``five``/``published`` fixtures live in tests/conftest.py)."""
import pytest

from tests.rounds.helpers import hands
from tournaments import services


def sheet_post(hands, declared=(None, None), version=None, action="save", parts=None):
    """POST data for the entry grid: ``hands`` as [(ns, ew), ...] totals (MP)."""
    data = {"action": action}
    for i, (ns, ew) in enumerate(hands, start=1):
        data[f"h{i}_ns"] = str(ns)
        data[f"h{i}_ew"] = str(ew)
    for key, value in (parts or {}).items():
        data[key] = str(value)
    if declared[0] is not None:
        data["declared_ns"] = str(declared[0])
    if declared[1] is not None:
        data["declared_ew"] = str(declared[1])
    if version is not None:
        data["expected_version"] = str(version)
    return data


@pytest.fixture
def post_sheet():
    return sheet_post


@pytest.fixture
def round1_closed(tournament, make_pairs, arbiter):
    tournament.plan = "DD"
    tournament.save()
    make_pairs(tournament, 4)
    r1 = services.publish_round(round=services.generate_round(tournament=tournament, by=arbiter), by=arbiter)
    for number, score in ((1, (1000, 0)), (2, (0, 0))):
        services.save_score_sheet(table=r1.tables.get(number=number), hands=hands(*score), by=arbiter,
                                  validate=True)
    return services.close_round(round=r1, by=arbiter)


@pytest.fixture
def round2_published(round1_closed, arbiter):
    r2 = services.generate_round(tournament=round1_closed.tournament, by=arbiter)
    return services.publish_round(round=r2, by=arbiter, acknowledge_warnings=True)
