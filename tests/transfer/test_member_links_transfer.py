"""Export/import keeps a player's member by membership number (rules.md §16; schema.STRUCTURAL)."""
import datetime

import pytest

from members.models import Member
from tests.members.helpers import pair
from tournaments import services
from tournaments.models import Player, Round, Tournament
from tournaments.transfer import export_tournament, import_tournament

pytestmark = pytest.mark.django_db


def _tournament(arbiter):
    t = services.create_tournament(by=arbiter, name="Giovedì", slug="gio-1", date=datetime.date(2026, 12, 3))
    services.add_pair(tournament=t, by=arbiter, players=pair(("Serra", "Anna", "402616"), ("Neri", "Ada")))
    return t


def test_an_import_on_the_same_server_links_the_same_members(arbiter):
    t = _tournament(arbiter)
    members = set(Player.objects.filter(tournament=t).values_list("member_id", flat=True))
    copy = import_tournament(data=export_tournament(t), by=arbiter, slug="gio-1-copia").tournament
    assert set(Player.objects.filter(tournament=copy).values_list("member_id", flat=True)) == members
    assert Member.objects.count() == 2


def test_a_server_without_the_member_creates_it_by_its_number(arbiter):
    data = export_tournament(_tournament(arbiter))
    Round.objects.all().delete()
    Tournament.objects.all().delete()
    Member.objects.all().delete()
    t = import_tournament(data=data, by=arbiter).tournament
    serra = Player.objects.get(tournament=t, last_name="Serra").member
    assert (serra.membership_number, serra.last_name, serra.source) == ("402616", "Serra", "registration")
    assert Player.objects.get(tournament=t, last_name="Neri").member.membership_number is None


def test_an_import_beyond_the_registrys_cap_is_refused_and_writes_nothing(arbiter, monkeypatch):
    """The registry's cap (rules.md §16) counts the members a tournament file creates too:
    on a server with one member and room for two, its two new members are refused."""
    from tournaments.errors import ArbiterError

    data = export_tournament(_tournament(arbiter))
    Round.objects.all().delete()
    Tournament.objects.all().delete()
    Member.objects.all().delete()
    Member.objects.create(membership_number="1", last_name="Bianchi", first_name="Ugo", name_key="bianchiugo")
    monkeypatch.setattr("members.models.MAX_MEMBERS", 2)
    with pytest.raises(ArbiterError, match="ne aggiungerebbe 2 nuovi, oltre il massimo di 2"):
        import_tournament(data=data, by=arbiter)
    assert (Tournament.objects.count(), Player.objects.count(), Member.objects.count()) == (0, 0, 1)
