"""A club's member registry (rules.md §16 per club, §20): membership numbers unique within a
club, searches and registrations never proposing or linking another club's member."""
import datetime

import pytest
from django.db import IntegrityError, transaction
from django.urls import reverse

from clubs.models import Club, ClubRole, default_club
from members import importer, selectors, services
from members.models import Member
from tournaments import services as tournament_services
from tournaments.kinds import kind_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def clubs():
    return default_club(), Club.objects.create(name="Bridge Borgo", slug="borgo")


def add(club, number, last, first):
    return services.create_member(data=services.MemberData(last_name=last, first_name=first,
                                                           membership_number=number), by=None, club=club)


def test_the_same_tessera_in_two_clubs_is_two_members(clubs):
    a, b = clubs
    anna_a = add(a, "880007", "Serra", "Anna")
    anna_b = add(b, "880007", "Serra", "Anna")
    assert anna_a.pk != anna_b.pk
    with pytest.raises(services.MemberError, match="già di un altro socio"):
        add(a, "880007", "Serra", "Annamaria")
    with pytest.raises(IntegrityError), transaction.atomic():  # the database says so too
        Member.objects.create(club=b, membership_number="880007", last_name="X", first_name="Y")


def test_a_list_imported_into_a_club_updates_its_members_only(clubs):
    a, b = clubs
    add(a, "1001", "Serra", "Anna")
    parsed = importer.parse("soci.csv", b"tessera,cognome,nome,circolo\n1001,Serra,Anna Maria,Aurora\n", club=b)
    assert parsed.ok and parsed.new_numbers == 1  # new to club B although club A has it
    assert importer.save(parsed, club=b) == (1, 0)
    assert Member.objects.get(club=a).first_name == "Anna"  # club A's member untouched
    assert (Member.objects.get(club=b).first_name, Member.objects.get(club=b).registered_club) == (
        "Anna Maria", "Aurora")


def test_search_and_proposals_never_offer_another_clubs_member(clubs):
    a, b = clubs
    add(a, "1001", "Ferrari", "Luca")
    mine = add(b, "2002", "Ferrari", "Carla")
    assert selectors.propose("ferrari", club=b) == [mine]
    assert selectors.search("ferrari", club=b) == [mine]
    assert selectors.search("1001", club=b) == []
    assert list(selectors.registry(club=b)) == [mine]
    assert selectors.membership_flags(["1001"], datetime.date(2026, 12, 3), club=b) == {}


def test_the_suggestion_endpoint_answers_from_the_asked_club_only_if_the_arbiter_works_there(
        clubs, client, django_user_model):
    a, b = clubs
    add(a, "1001", "Ferrari", "Luca")
    add(b, "2002", "Ferrari", "Carla")
    user = django_user_model.objects.create_user("bea", password="x-Pass-1234")
    ClubRole.objects.create(user=user, club=b)
    client.force_login(user)
    url = reverse("members:search")
    names = lambda resp: [m["first_name"] for m in resp.json()["members"]]  # noqa: E731
    assert names(client.get(url, {"q": "ferrari"})) == ["Carla"]  # his current club: B
    assert names(client.get(url, {"q": "ferrari", "club": b.pk})) == ["Carla"]
    assert names(client.get(url, {"q": "ferrari", "club": a.pk})) == []  # not his club
    assert names(client.get(url, {"q": "ferrari", "club": "x"})) == []
    # the registry page and a member of A
    page = client.get(reverse("members:registry"))
    assert b"Carla" in page.content and b"Luca" not in page.content
    luca = Member.objects.get(club=a)
    assert client.get(reverse("members:detail", args=[luca.pk])).status_code == 404
    assert client.post(reverse("members:erase", args=[luca.pk])).status_code == 404
    assert Member.objects.get(pk=luca.pk).erased_at is None


def test_a_registration_import_links_only_the_tournaments_club_members(clubs, django_user_model):
    a, b = clubs
    arbiter = django_user_model.objects.create_user("bea", password="x-Pass-1234")
    ClubRole.objects.create(user=arbiter, club=b)
    theirs = add(a, "402616", "Serra", "Anna")  # same number in club A
    add(a, "", "Santoro", "Marta")               # same name in club A, no number
    mine = add(b, "133915", "Martinelli", "Lucia")
    t = tournament_services.create_tournament(by=arbiter, club=b, name="Serata", slug="serata",
                                              date=datetime.date(2026, 12, 3))
    assert t.club == b
    csv = ("coppia,cognome_1,nome_1,tessera_1,cognome_2,nome_2,tessera_2,circolo\n"
           "1,Serra,Anna,402616,Santoro,Marta,,Ponte\n"
           "2,Martinelli,Lucia,133915,Caruso,Daniela,208771,Ponte\n").encode()
    parsed = kind_of(t).parse_registrations(t, "iscritti.csv", csv)
    assert parsed.ok, parsed.errors
    tournament_services.import_pairs(tournament=t, rows=parsed.rows, by=arbiter)
    members = {p.last_name: p.member for p in t.players.select_related("member")}
    assert {m.club_id for m in members.values()} == {b.pk}
    assert members["Serra"] != theirs and members["Martinelli"] == mine
    assert Member.objects.filter(club=a).count() == 2  # nothing created or changed in club A
    assert members["Serra"].registered_club == "Ponte"


def test_an_arbiter_of_two_clubs_names_the_club_of_a_new_tournament(clubs, django_user_model):
    a, b = clubs
    both = django_user_model.objects.create_user("both", password="x-Pass-1234")
    ClubRole.objects.create(user=both, club=a)
    ClubRole.objects.create(user=both, club=b)
    from tournaments.errors import ArbiterError

    with pytest.raises(ArbiterError, match="scegli il circolo"):
        tournament_services.create_tournament(by=both, name="S", slug="s", date=datetime.date(2026, 12, 3))
    assert tournament_services.create_tournament(by=both, club=b, name="S", slug="s",
                                                 date=datetime.date(2026, 12, 3)).club == b
