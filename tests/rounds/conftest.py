"""Helpers for the round-cycle pages (the ``five``/``published`` fixtures live in tests/conftest.py)."""
import pytest


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
