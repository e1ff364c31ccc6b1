"""Fixtures of the export/import tests (issue 13 items 4–5)."""
import pytest

from tests.conftest import DATA


@pytest.fixture
def simulated(db):
    """A 29-pair MMMD tournament played in full (4 hands per round) by the simulator."""
    from tournaments.simulation import simulate

    return simulate(registrations=DATA / "registrations-29.csv", plan="MMMD", hands=4, seed=13,
                    name="Torneo 29", slug="t29")


def empty_database():
    """Remove every tournament, custom scale and user: the database a file is carried to.
    (Rounds first: a seat protects its pair, and seats go with their round.)"""
    from django.contrib.auth import get_user_model

    from tournaments.models import CustomScale, Round, Tournament

    Round.objects.all().delete()
    Tournament.objects.all().delete()
    CustomScale.objects.all().delete()
    get_user_model().objects.all().delete()
