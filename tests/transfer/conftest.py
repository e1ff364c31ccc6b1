"""Fixtures of the export/import tests."""
import pytest

from tests.conftest import DATA


@pytest.fixture
def simulated(db):
    """A 29-pair MMMD tournament played in full (4 hands per round) by the simulator."""
    from tournaments.demo.simulation import simulate

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


def without_accounts(data):
    """A tournament file (bytes, or its parsed object: returned in the same form) as its
    imported copy exports it: no owner, no arbiters, no user on its audit entries and
    penalties. An import never applies the file's accounts (the copy belongs to whoever
    imports it); everything else comes back byte for byte."""
    import json

    from tournaments.transfer import dumps

    doc = json.loads(data) if isinstance(data, (bytes, str)) else json.loads(json.dumps(data))
    doc["tournament"]["created_by"] = None
    doc["tournament"]["arbiters"] = []
    for entry in doc.get("audit", []):
        entry["user"] = None
    for penalty in doc.get("penalties", []):
        penalty["created_by"] = None
    return dumps(doc) if isinstance(data, (bytes, str)) else doc
