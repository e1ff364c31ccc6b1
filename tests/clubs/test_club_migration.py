"""The migration of a one-club database (rules.md §20): the clubs migration creates the
default club and the club foreign keys give it every existing member, tournament,
championship and custom VP scale; membership numbers become unique per club."""
import datetime

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("members", "0003_membership_numbers_stored_form"), ("tournaments", "0022_membership_numbers_stored_form"),
          ("championships", "0002_evening_placings"), ("clubs", None)]


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_existing_data_moves_into_the_default_club(monkeypatch):
    monkeypatch.setenv("ARBITRO_CLUB_NAME", "Circolo del Ponte")
    executor = MigrationExecutor(connection)
    # later apps' migrations that depend on these are unapplied too
    executor.migrate(BEFORE)
    try:
        _check(executor)
    finally:  # the database as the other tests expect it, whatever happened
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())


def _check(executor):
    old = executor.loader.project_state([node for node in BEFORE if node[1]]).apps
    Tournament = old.get_model("tournaments", "Tournament")
    Member = old.get_model("members", "Member")
    member = Member.objects.create(membership_number="880007", last_name="Serra", first_name="Anna",
                                   name_key="serra anna", club="Circolo Aurora")
    tournament = Tournament.objects.create(name="Serata", slug="serata", date=datetime.date(2026, 12, 1))
    scale = old.get_model("tournaments", "CustomScale").objects.create(scale_id="mia", name="Mia", data={})
    championship = old.get_model("championships", "Championship").objects.create(slug="camp", name="Camp")

    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
    from championships.models import Championship
    from clubs.models import Club
    from members.models import Member as NewMember
    from tournaments.models import CustomScale
    from tournaments.models import Tournament as NewTournament

    assert list(Club.objects.values_list("name", "slug")) == [("Circolo del Ponte", "circolo-del-ponte")]
    club = Club.objects.get()
    moved = NewMember.objects.get(pk=member.pk)
    assert (moved.club, moved.registered_club, moved.membership_number) == (club, "Circolo Aurora", "880007")
    assert NewTournament.objects.get(pk=tournament.pk).club == club
    assert CustomScale.objects.get(pk=scale.pk).club == club
    assert Championship.objects.get(pk=championship.pk).club == club
    # the same tessera in another club is another member (unique per club only)
    other = Club.objects.create(name="Borgo", slug="borgo")
    NewMember.objects.create(club=other, membership_number="880007", last_name="Serra", first_name="Anna")
    assert NewMember.objects.filter(membership_number="880007").count() == 2
