"""Fixtures of the export/import tests (issue 13 items 4–5)."""
import pytest

from tests.conftest import DATA


@pytest.fixture
def simulated(db):
    """A 29-pair MMMD tournament played in full (4 hands per round) by the simulator."""
    from tournaments.simulation import simulate

    return simulate(registrations=DATA / "registrations-29.csv", plan="MMMD", hands=4, seed=13,
                    name="Torneo 29", slug="t29")
