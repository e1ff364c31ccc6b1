"""Who sees and manages which club (rules.md §20, clubs.access): the one place asked."""
import pytest

from clubs import access
from clubs.models import Club, ClubRole, FederationRole, default_club

pytestmark = pytest.mark.django_db


@pytest.fixture
def user(django_user_model):
    def make(name, **extra):
        return django_user_model.objects.create_user(username=name, password="x-Pass-1234", **extra)
    return make


def slugs(qs):
    return sorted(c.slug for c in qs)


def test_migrate_leaves_one_club_named_circolo_that_every_account_belongs_to(user):
    assert list(Club.objects.values_list("name", "slug")) == [("Circolo", "circolo")]
    plain = user("plain")
    assert access.one_club()
    assert slugs(access.clubs_of(plain)) == ["circolo"]
    assert access.role_in(plain, default_club()) == "arbiter"
    assert slugs(access.managed_clubs(plain)) == []
    assert not access.is_federation(plain)


def test_default_club_is_made_again_after_a_flush_and_named_by_the_environment(monkeypatch):
    Club.objects.all().delete()
    monkeypatch.setenv("ARBITRO_CLUB_NAME", "Circolo del Ponte")
    club = default_club()
    assert (club.name, club.slug) == ("Circolo del Ponte", "circolo-del-ponte")
    assert default_club() == club  # not a second one


def test_with_two_clubs_roles_decide(user):
    a = default_club()
    b = Club.objects.create(name="Bridge Borgo", slug="borgo")
    manager, arbiter, nobody, both = user("manager"), user("arbiter"), user("nobody"), user("both")
    ClubRole.objects.create(user=manager, club=a, role=ClubRole.Role.MANAGER)
    ClubRole.objects.create(user=arbiter, club=b)
    ClubRole.objects.create(user=both, club=a)
    ClubRole.objects.create(user=both, club=b)
    assert not access.one_club()
    assert slugs(access.clubs_of(manager)) == ["circolo"] and slugs(access.managed_clubs(manager)) == ["circolo"]
    assert access.may_manage(manager, a) and not access.may_manage(manager, b) and not access.may_see(manager, b)
    assert slugs(access.clubs_of(arbiter)) == ["borgo"] and slugs(access.managed_clubs(arbiter)) == []
    assert access.role_in(arbiter, b) == "arbiter" and access.role_in(arbiter, a) is None
    # an account without a club belongs to none once the server has two
    assert slugs(access.clubs_of(nobody)) == [] and access.role_in(nobody, a) is None
    assert slugs(access.clubs_of(both)) == ["borgo", "circolo"]


def test_federation_reads_every_club_and_manages_none(user):
    a = default_club()
    Club.objects.create(name="Bridge Borgo", slug="borgo")
    fed = user("fed")
    FederationRole.objects.create(user=fed)
    assert access.is_federation(fed)
    assert slugs(access.readable_clubs(fed)) == ["borgo", "circolo"]
    assert slugs(access.clubs_of(fed)) == [] and slugs(access.managed_clubs(fed)) == []
    assert access.may_see(fed, a) and not access.may_work_in(fed, a) and not access.may_manage(fed, a)


def test_superuser_sees_and_manages_every_club(user):
    Club.objects.create(name="Bridge Borgo", slug="borgo")
    root = user("root", is_superuser=True, is_staff=True)
    assert slugs(access.clubs_of(root)) == slugs(access.managed_clubs(root)) == ["borgo", "circolo"]
    assert access.is_federation(root)


def test_anonymous_and_inactive_accounts_have_no_club(user):
    from django.contrib.auth.models import AnonymousUser

    gone = user("gone", is_active=False)
    assert slugs(access.clubs_of(AnonymousUser())) == slugs(access.clubs_of(gone)) == []
    assert not access.is_federation(AnonymousUser())


def test_the_club_of_new_data_is_named_when_an_arbiter_has_two(user):
    a = default_club()
    b = Club.objects.create(name="Bridge Borgo", slug="borgo")
    both, only_b = user("both"), user("only_b")
    ClubRole.objects.create(user=both, club=a)
    ClubRole.objects.create(user=both, club=b)
    ClubRole.objects.create(user=only_b, club=b)
    assert access.club_for_new_data(only_b) == b
    assert access.club_for_new_data(both, b) == b
    with pytest.raises(access.ClubChoiceError):
        access.club_for_new_data(both)
    with pytest.raises(access.ClubChoiceError):
        access.club_for_new_data(only_b, a)  # not his club


def test_club_for_command_names_the_clubs_when_several():
    assert access.club_for_command(None) == default_club()
    Club.objects.create(name="Bridge Borgo", slug="borgo")
    with pytest.raises(access.ClubChoiceError) as refused:
        access.club_for_command(None)
    assert "borgo, circolo" in refused.value.message
    assert access.club_for_command("borgo").slug == "borgo"
    with pytest.raises(access.ClubChoiceError):
        access.club_for_command("nessuno")
