"""The club pages (rules.md §20): the header's club selector (only for an account of several
clubs), the current club deciding the registry and a new tournament's club, and a club
manager's page of the club's arbiters."""
import datetime

import pytest
from django.urls import reverse

from clubs.models import Club, ClubRole, default_club
from members import services as member_services
from tests.forms_data import tournament_settings
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def add_member(club, last):
    return member_services.create_member(
        data=member_services.MemberData(last_name=last, first_name="Anna"), by=None, club=club)


@pytest.fixture
def borgo():
    return Club.objects.create(name="Bridge Borgo", slug="borgo")


def login(client, django_user_model, name, **extra):
    user = django_user_model.objects.create_user(name, password="x-Pass-1234", **extra)
    client.force_login(user)
    return user


def test_with_one_club_no_page_shows_a_club(client, django_user_model):
    login(client, django_user_model, "anna")
    page = client.get(reverse("members:registry")).content.decode()
    assert 'id="club-choice"' not in page and "nav-club-arbiters" not in page
    assert "Circolo di tesseramento" in page  # the member's own column, renamed


def test_an_arbiter_of_two_clubs_chooses_the_current_one(client, django_user_model, borgo):
    user = login(client, django_user_model, "both")
    ClubRole.objects.create(user=user, club=default_club())
    ClubRole.objects.create(user=user, club=borgo)
    add_member(default_club(), "Pontina")
    add_member(borgo, "Borghese")
    page = client.get(reverse("members:registry")).content.decode()
    assert 'id="club-choice"' in page
    assert "Borghese" in page and "Pontina" not in page  # first by name: Bridge Borgo
    resp = client.post(reverse("clubs:choose"), {"club": default_club().pk, "next": reverse("members:registry")})
    assert resp.status_code == 302 and resp["Location"] == reverse("members:registry")
    page = client.get(reverse("members:registry")).content.decode()
    assert "Pontina" in page and "Borghese" not in page
    # a new tournament belongs to the current club
    form = tournament_settings(Tournament(name="Serata", slug="serata", date=datetime.date(2026, 12, 3), club=None))
    client.post(reverse("tournament_create"), form)
    assert Tournament.objects.get(slug="serata").club == default_club()


def test_choosing_a_club_one_does_not_work_for_is_refused(client, django_user_model, borgo):
    user = login(client, django_user_model, "anna")
    ClubRole.objects.create(user=user, club=default_club())
    client.post(reverse("clubs:choose"), {"club": borgo.pk})
    client.post(reverse("clubs:choose"), {"club": "x"})
    assert "arbitro_club_id" not in client.session


def test_a_manager_adds_and_removes_the_clubs_arbiters(client, django_user_model, borgo):
    manager = login(client, django_user_model, "capo")
    ClubRole.objects.create(user=manager, club=borgo, role=ClubRole.Role.MANAGER)
    django_user_model.objects.create_user("bruno", password="x-Pass-1234")
    url = reverse("clubs:arbiters", args=["borgo"])
    assert "nav-club-arbiters" in client.get(reverse("members:registry")).content.decode()
    client.post(url, {"action": "add", "username": "bruno"})
    assert ClubRole.objects.get(user__username="bruno").club == borgo
    page = client.get(url).content.decode()
    assert "bruno" in page and "capo" in page
    client.post(url, {"action": "remove", "username": "bruno"})
    assert not ClubRole.objects.filter(user__username="bruno").exists()
    resp = client.post(url, {"action": "add", "username": "nessuno"}, follow=True)
    assert "Nessun utente «nessuno»." in resp.content.decode()
    # another club's page does not exist for him
    assert client.get(reverse("clubs:arbiters", args=["circolo"])).status_code == 404


def test_an_arbiter_cannot_open_the_managers_page(client, django_user_model, borgo):
    user = login(client, django_user_model, "anna")
    ClubRole.objects.create(user=user, club=borgo)
    url = reverse("clubs:arbiters", args=["borgo"])
    assert client.get(url).status_code == 404
    client.post(url, {"action": "add", "username": "anna", "manager": "1"})
    assert ClubRole.objects.get(user=user).role == "arbiter"


def test_the_tournament_page_asks_suggestions_of_the_tournaments_club(client, django_user_model):
    user = login(client, django_user_model, "anna")
    t = Tournament.objects.create(name="Serata", slug="serata", date=datetime.date(2026, 12, 3))
    t.arbiters.add(user)
    page = client.get(reverse("pairs", args=["serata"])).content.decode()
    assert f'/soci/cerca/?club={t.club_id}"' in page
