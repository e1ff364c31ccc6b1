"""The data migration linking the players already on the server (rules.md §16)."""
import datetime
import importlib

import pytest
from django.apps import apps

from members.models import Member
from tournaments import services
from tournaments.models import Player

from .helpers import pair

pytestmark = pytest.mark.django_db
migration = importlib.import_module("tournaments.migrations.0019_members_linked")


def test_existing_players_are_linked_by_number_then_by_name_oldest_evening_first(arbiter):
    old = services.create_tournament(by=arbiter, name="a", slug="a", date=datetime.date(2026, 10, 1))
    new = services.create_tournament(by=arbiter, name="b", slug="b", date=datetime.date(2026, 10, 8))
    services.add_pair(tournament=new, by=arbiter, players=pair(("Rossi", "Mario", "1"), ("Neri", "Ada")))
    services.add_pair(tournament=old, by=arbiter, players=pair(("Rossi", "Mario", "1"), ("NERI", "Adà")))
    # as before the registry existed: no member at all
    Player.objects.update(member=None)
    Member.objects.all().delete()
    migration.link_existing_players(apps, None)
    assert Member.objects.count() == 2  # Rossi by number, Neri/NERI Adà by name
    assert Player.objects.filter(member__isnull=True).count() == 0
    neri = Player.objects.get(tournament=old, last_name="NERI").member
    assert (neri.last_name, neri.first_name) == ("NERI", "Adà")  # created by the older evening
    assert Player.objects.get(tournament=new, last_name="Neri").member == neri
