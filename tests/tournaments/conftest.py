"""Fixtures shared by the tournament tests."""
import pytest

from tests.tournaments.helpers import with_plan


@pytest.fixture
def md_md(five, arbiter):
    """``five`` with the plan "MD|MD" (two sessions): the rest rule counts within a session
    (tests/tournaments/test_sessions.py)."""
    return with_plan(five, arbiter, "MD|MD")
