"""Who opens which tournament (rules.md §20): a club manager every tournament of his clubs,
an arbiter those he directs in his clubs; the federation role nothing through the arbiter's
pages; a co-director works for the tournament's club; a championship gathers its own club's
evenings."""
import datetime

import pytest
from django.test import Client

from championships import services as championship_services
from clubs.models import Club, ClubRole, FederationRole
from tournaments import services
from tournaments.errors import ArbiterError
from tournaments.selectors import directs, listed_tournaments_of, tournaments_of

pytestmark = pytest.mark.django_db

DAY = datetime.date(2026, 12, 1)


@pytest.fixture
def clubs():
    return Club.objects.create(name="Alfa", slug="alfa"), Club.objects.create(name="Beta", slug="beta")


def account(django_user_model, name, club=None, role=ClubRole.Role.ARBITER):
    user = django_user_model.objects.create_user(name, password="x-Pass-1234")
    if club is not None:
        ClubRole.objects.create(user=user, club=club, role=role)
    return user


def evening(by, club, slug):
    return services.create_tournament(by=by, club=club, name=slug.title(), slug=slug, date=DAY)


def test_a_manager_sees_every_tournament_of_his_club_an_arbiter_those_he_directs(clubs, django_user_model):
    alfa, beta = clubs
    manager = account(django_user_model, "capo", alfa, ClubRole.Role.MANAGER)
    anna = account(django_user_model, "anna", alfa)
    bruno = account(django_user_model, "bruno", alfa)
    other = account(django_user_model, "carla", beta, ClubRole.Role.MANAGER)
    of_anna, of_bruno, of_beta = evening(anna, alfa, "di-anna"), evening(bruno, alfa, "di-bruno"), evening(other, beta, "di-beta")
    assert set(tournaments_of(manager)) == {of_anna, of_bruno}
    assert set(tournaments_of(anna)) == {of_anna}
    assert set(tournaments_of(other)) == {of_beta}
    assert directs(manager, of_bruno) and not directs(anna, of_bruno) and not directs(manager, of_beta)
    client = Client()
    client.force_login(manager)
    home = client.get("/").content.decode()
    assert "Di-Anna" in home and "Di-Bruno" in home and "Di-Beta" not in home
    assert client.get("/tornei/di-bruno/").status_code == 200
    assert client.get("/tornei/di-beta/").status_code == 404


def test_the_listed_tournaments_are_those_one_opens(clubs, django_user_model):
    """The home page's list (narrowed to the account's clubs first, for the database's index)
    holds exactly the tournaments the account opens: a manager, an arbiter of two clubs, an
    arbiter named on another club's tournament, that club's manager, a superuser."""
    alfa, beta = clubs
    manager = account(django_user_model, "capo", alfa, ClubRole.Role.MANAGER)
    anna = account(django_user_model, "anna", alfa)
    ClubRole.objects.create(user=anna, club=beta, role=ClubRole.Role.ARBITER)
    bruno = account(django_user_model, "bruno", alfa)
    other = account(django_user_model, "carla", beta, ClubRole.Role.MANAGER)
    root = django_user_model.objects.create_superuser("root", password="x-Pass-1234")
    evening(anna, alfa, "di-anna"), evening(anna, beta, "di-anna-beta"), evening(bruno, alfa, "di-bruno")
    evening(other, beta, "lasciata").arbiters.add(bruno)  # named there, but he works for Alfa only
    for user in (manager, anna, bruno, other, root):
        assert set(listed_tournaments_of(user)) == set(tournaments_of(user)), user.username
    assert {t.slug for t in listed_tournaments_of(anna)} == {"di-anna", "di-anna-beta"}
    assert {t.slug for t in listed_tournaments_of(bruno)} == {"di-bruno"}


def test_an_arbiter_named_on_another_clubs_tournament_does_not_open_it(clubs, django_user_model):
    alfa, beta = clubs
    anna = account(django_user_model, "anna", alfa)
    t = evening(anna, alfa, "serata")
    ClubRole.objects.filter(user=anna).update(club=beta)  # she now works for Beta only
    assert not directs(anna, t) and list(tournaments_of(anna)) == []


def test_the_federation_role_reads_and_writes_nothing_through_the_arbiter_pages(clubs, django_user_model):
    alfa, _ = clubs
    anna = account(django_user_model, "anna", alfa)
    t = evening(anna, alfa, "serata")
    championship_services.create_championship(by=anna, slug="camp", name="Campionato", tournaments=["serata"])
    fed = account(django_user_model, "federazione")
    FederationRole.objects.create(user=fed)
    assert list(tournaments_of(fed)) == []
    client = Client()
    client.force_login(fed)
    for url in ("/tornei/serata/", "/tornei/serata/impostazioni/", "/tornei/serata/registro/",
                "/campionati/camp/", "/tornei/nuovo/"):
        assert client.get(url).status_code == 404, url
    assert client.post("/tornei/serata/impostazioni/", {"name": "Cambiato"}).status_code == 404
    assert client.post("/tornei/nuovo/", {"name": "Nuovo", "slug": "nuovo"}).status_code == 404
    assert "Campionato" not in client.get("/campionati/").content.decode()
    t.refresh_from_db()
    assert t.name == "Serata" and not t.arbiters.filter(pk=fed.pk).exists()


def test_a_co_director_must_work_for_the_tournaments_club(clubs, django_user_model):
    alfa, beta = clubs
    anna = account(django_user_model, "anna", alfa)
    account(django_user_model, "bruno", alfa)
    account(django_user_model, "carla", beta)
    t = evening(anna, alfa, "serata")
    with pytest.raises(ArbiterError) as refused:
        services.add_arbiter(tournament=t, username="carla", by=anna)
    # the same sentence as for no account at all: nothing tells Carla exists elsewhere
    with pytest.raises(ArbiterError) as unknown:
        services.add_arbiter(tournament=t, username="nessuno", by=anna)
    assert refused.value.message.replace("carla", "X") == unknown.value.message.replace("nessuno", "X")
    assert services.add_arbiter(tournament=t, username="bruno", by=anna).username == "bruno"
    assert sorted(t.arbiters.values_list("username", flat=True)) == ["anna", "bruno"]


def test_a_championship_refuses_another_clubs_tournament(clubs, django_user_model):
    alfa, beta = clubs
    both = account(django_user_model, "anna", alfa)
    ClubRole.objects.create(user=both, club=beta)
    evening(both, alfa, "in-alfa")
    evening(both, beta, "in-beta")
    with pytest.raises(ArbiterError, match="un altro circolo"):
        championship_services.create_championship(by=both, slug="camp", name="Campionato",
                                                  tournaments=["in-alfa", "in-beta"], club=alfa)
    c = championship_services.create_championship(by=both, slug="camp", name="Campionato",
                                                  tournaments=["in-alfa"], club=alfa)
    with pytest.raises(ArbiterError, match="un altro circolo"):
        championship_services.add_tournaments(championship=c, by=both, tournaments=["in-beta"])
    assert list(c.tournaments.values_list("slug", flat=True)) == ["in-alfa"]
