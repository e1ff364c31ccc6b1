"""Fixtures for the round-cycle pages: a 5-pair tournament (Mitchell, 3 tables, one rest).

Mitchell with 5 pairs (pairing-io.md): T = 3 tables, the phantom is N/S of table 3;
N/S line 1, 2 at tables 1, 2; E/W line 3, 4, 5. Round 1: 1 v 3 (table 1), 2 v 4
(table 2), 5 rests.
"""
import pytest


@pytest.fixture
def five(tournament, make_pairs):
    make_pairs(tournament, 5)
    return tournament


@pytest.fixture
def published(five, arbiter):
    from tournaments import services

    rnd = services.generate_round(tournament=five, by=arbiter)
    services.publish_round(round=rnd, by=arbiter)
    rnd.refresh_from_db()
    return rnd


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
