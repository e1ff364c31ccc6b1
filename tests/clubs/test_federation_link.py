"""The header's link to the federation's view (rules.md §20): shown to the accounts that may
read it — the federation role, a superuser when the server has several clubs — and to no one
else; a one-club laptop's pages show nothing new (docs/clubs.md: one club on a laptop, nothing new on any page)."""
import pytest

from clubs.models import Club, ClubRole, FederationRole, default_club

pytestmark = pytest.mark.django_db

LINK = 'id="nav-federation"'


def header_of(client, user) -> str:
    client.force_login(user)
    return client.get("/").content.decode()


def test_shown_to_the_federation_role_and_to_a_superuser_of_several_clubs(client, django_user_model):
    borgo = Club.objects.create(name="Borgo", slug="borgo")
    fed = django_user_model.objects.create_user(username="fed", password="x-Pass-1234")
    FederationRole.objects.create(user=fed)
    root = django_user_model.objects.create_superuser(username="root", password="x-Pass-1234")
    body = header_of(client, fed)
    assert LINK in body and 'href="/federazione/"' in body
    assert LINK in header_of(client, root)
    manager = django_user_model.objects.create_user(username="man", password="x-Pass-1234")
    ClubRole.objects.create(user=manager, club=default_club(), role=ClubRole.Role.MANAGER)
    arbiter = django_user_model.objects.create_user(username="arb", password="x-Pass-1234")
    ClubRole.objects.create(user=arbiter, club=borgo)
    for user in (manager, arbiter):
        body = header_of(client, user)
        assert LINK not in body and "/federazione/" not in body
    assert client.get("/federazione/").status_code == 404  # and the page stays closed to them


def test_a_one_club_laptop_shows_no_link_but_to_the_federation_role(client, django_user_model):
    root = django_user_model.objects.create_superuser(username="root", password="x-Pass-1234")
    plain = django_user_model.objects.create_user(username="arb", password="x-Pass-1234")
    assert LINK not in header_of(client, root) and LINK not in header_of(client, plain)
    fed = django_user_model.objects.create_user(username="fed", password="x-Pass-1234")
    FederationRole.objects.create(user=fed)
    assert LINK in header_of(client, fed)


def test_an_inactive_federation_account_sees_no_link(rf, django_user_model):
    from clubs.context import header_clubs

    fed = django_user_model.objects.create_user(username="fed", password="x-Pass-1234", is_active=False)
    FederationRole.objects.create(user=fed)
    request = rf.get("/")
    request.user = fed
    request.session = {}
    assert header_clubs(request)["federation_link"] is False
