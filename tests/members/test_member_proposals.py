"""The proposals while typing a player's name or number in a registration form (rules.md §16):
a member is proposed when every word typed starts a different word of his surname, first name
or membership number, case and accents ignored."""
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from clubs.models import default_club
from members import selectors
from members.models import Member
from members.names import member_words, name_words, search_terms, words_match

MEMBERS = [
    # (number, surname, first name, club)
    ("510016", "Ferrari", "Luca", "Circolo Aurora"),
    ("510017", "Ferrari", "Carla", "Circolo Aurora"),
    ("510018", "Rossi", "Luca", "Bridge Club Po"),
    ("510019", "Lucchesi", "Anna", "Circolo Aurora"),
    ("402617", "D'Angelo", "Nicolò", "Circolo Aurora"),
    ("402620", "De Luca", "Maria Grazia", ""),
    ("AB-77", "Neri", "Ada", "Circolo Sud"),
]


def matches(query: str, last: str, first: str, number: str = "") -> bool:
    return words_match(search_terms(query), member_words(last, first, number))


# ---------------------------------------------------------------- the rule, no database


@pytest.mark.pure
def test_the_words_of_a_name_are_read_on_to_the_field_end():
    assert name_words("D'Angelo") == ["dangelo", "angelo"]
    assert name_words("De Luca") == ["deluca", "luca"]
    assert name_words("Nicolò") == ["nicolo"]
    assert name_words("  ") == []
    assert member_words("Rossi", "Luca", "51-0016") == ["rossi", "luca", "510016"]
    assert member_words("Rossi", "Luca", None) == ["rossi", "luca"]


@pytest.mark.pure
def test_a_first_name_alone_or_a_word_of_either_name_in_any_order():
    assert matches("Luca", "Rossi", "Luca")
    assert matches("lu fe", "Ferrari", "Luca")
    assert matches("luca ferrari", "Ferrari", "Luca")
    assert matches("grazia", "De Luca", "Maria Grazia")


@pytest.mark.pure
def test_each_word_typed_must_start_a_different_word():
    assert matches("Ferrari L", "Ferrari", "Luca")
    assert not matches("Ferrari L", "Ferrari", "Carla")
    # «fe» and «ferr» both start only «ferrari»: one word cannot answer two
    assert not matches("fe ferr", "Ferrari", "Carla")
    assert matches("ro ro", "Rossi", "Romano")
    # «l» first tries the surname «lucchesi», which «lucc» alone can take: «l» moves to «luca»
    assert matches("l lucc", "Lucchesi", "Luca")
    assert not matches("l lucc", "Lucchesi", "Anna")


@pytest.mark.pure
def test_a_word_must_start_the_word_not_sit_inside_it():
    assert not matches("rari", "Ferrari", "Luca")
    assert not matches("uca", "Rossi", "Luca")
    assert not matches("0016", "Rossi", "Luca", "510016")


@pytest.mark.pure
def test_case_accents_apostrophes_and_blanks_do_not_count():
    assert matches("NICOLO", "D'Angelo", "Nicolò")
    assert matches("nicolò d'ang", "D'Angelo", "Nicolò")
    assert matches("dang", "D'Angelo", "Nicolò")  # typed without the apostrophe
    assert matches("angelo", "D'Angelo", "Nicolò")
    assert matches("deluca", "De Luca", "Maria Grazia")
    assert matches("ÉLODIE", "Martin", "Elodie")


@pytest.mark.pure
def test_the_membership_number_is_one_more_word():
    assert matches("5100", "Rossi", "Luca", "510016")
    assert matches("rossi 510016", "Rossi", "Luca", "510016")
    assert not matches("rossi 510017", "Rossi", "Luca", "510016")
    assert matches("ab77", "Neri", "Ada", "AB-77")
    assert matches("ab-7", "Neri", "Ada", "AB-77")
    assert not matches("5100", "Rossi", "Luca", "")


@pytest.mark.pure
def test_nothing_typed_matches_nobody():
    assert not words_match([], ["rossi", "luca"])
    assert not matches("' -", "Rossi", "Luca")


# ---------------------------------------------------------------- the registry's query


@pytest.fixture
def members(db):
    for number, last, first, club in MEMBERS:
        Member.objects.create(membership_number=number, last_name=last, first_name=first, registered_club=club)


def names(query: str, **kwargs) -> list[str]:
    return [m.display_name for m in selectors.propose(query, **kwargs)]


@pytest.mark.django_db
def test_propose_follows_the_rule_in_name_order(members):
    # «luca» does not start «lucchesi»
    assert names("Luca") == ["De Luca Maria Grazia", "Ferrari Luca", "Rossi Luca"]
    assert names("luc") == ["De Luca Maria Grazia", "Ferrari Luca", "Lucchesi Anna", "Rossi Luca"]
    assert names("Ferrari L") == ["Ferrari Luca"]
    assert names("lu fe") == ["Ferrari Luca"]
    assert names("ferrari") == ["Ferrari Carla", "Ferrari Luca"]
    assert names("NICOLÒ") == ["D'Angelo Nicolò"]
    assert names("rari") == []


@pytest.mark.django_db
def test_propose_by_number_in_number_order(members):
    assert [m.membership_number for m in selectors.propose("5100")] == ["510016", "510017", "510018", "510019"]
    assert [m.membership_number for m in selectors.propose("ab7")] == ["AB-77"]  # the hyphen does not count
    assert names("luca 510018") == ["Rossi Luca"]


@pytest.mark.django_db
def test_propose_stops_at_the_limit_and_skips_erased_members(members):
    assert names("luca", limit=2) == ["De Luca Maria Grazia", "Ferrari Luca"]
    Member.objects.filter(last_name="Rossi").update(erased_at="2026-12-01T10:00:00Z")
    assert names("luca") == ["De Luca Maria Grazia", "Ferrari Luca"]


@pytest.mark.django_db
def test_propose_is_one_query_whatever_the_registry_size(db):
    Member.objects.bulk_create(
        Member(membership_number=str(100000 + k), last_name=f"Socio{k:04d}", first_name="Luca",
               name_key=f"socio{k:04d} luca") for k in range(300))
    club = default_club()  # the caller names the club (the tournament's)
    with CaptureQueriesContext(connection) as queries:
        found = selectors.propose("luca", club=club)
    assert len(found) == 10 and len(queries) == 1
    with CaptureQueriesContext(connection) as queries:
        assert selectors.propose("luca nessuno", club=club) == []
    assert len(queries) == 1


# ---------------------------------------------------------------- the endpoint


@pytest.mark.django_db
def test_the_endpoint_answers_with_its_query_the_number_and_the_club(members, arbiter_client):
    data = arbiter_client.get(reverse("members:search"), {"q": "Ferrari L"}).json()
    luca = Member.objects.get(membership_number="510016")
    assert data == {"query": "Ferrari L", "members": [
        {"id": luca.pk, "membership_number": "510016", "last_name": "Ferrari", "first_name": "Luca",
         "club": "Circolo Aurora"}]}
    data = arbiter_client.get(reverse("members:search"), {"q": "luca"}).json()
    assert [(m["last_name"], m["membership_number"], m["club"]) for m in data["members"]] == [
        ("De Luca", "402620", ""), ("Ferrari", "510016", "Circolo Aurora"),
        ("Rossi", "510018", "Bridge Club Po")]


@pytest.mark.django_db
def test_the_endpoint_refuses_nothing_it_cannot_answer(members, arbiter_client):
    for q in ("", " ", "l", "'-", "x" * 500, "%", "_", "\\", "% _"):
        resp = arbiter_client.get(reverse("members:search"), {"q": q})
        assert resp.status_code == 200
        assert resp.json()["members"] == [] and resp.json()["query"] == q[:100]
