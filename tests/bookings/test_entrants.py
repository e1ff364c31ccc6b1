"""From bookings to entrants (rules.md §21, §16): check-in and ``--register`` make each
booking one entrant at most; no-shows left out before the first draw."""
from __future__ import annotations

import datetime
from io import StringIO

import pytest
from django.core.management import call_command

from bookings import entrants, services
from bookings.models import Booking
from tournaments.errors import ArbiterError
from tournaments.player_data import PlayerData


def P(last, first="Anna", number=""):
    return PlayerData(first_name=first, last_name=last, membership_number=number)


@pytest.fixture
def opened(tournament):
    tournament.date = datetime.date.today() + datetime.timedelta(days=7)
    tournament.save(update_fields=["date"])
    services.open_bookings(tournament=tournament, cap=3)
    return tournament


def test_check_in_and_register_together_make_one_entrant_each(opened, arbiter):
    a = services.book(tournament=opened, players=[P("Rossi"), P("Verdi", "Bruno")]).booking
    b = services.book(tournament=opened, players=[P("Neri"), P("Bianchi", "Carla")]).booking
    waiting = [services.book(tournament=opened, players=[P(f"X{k}"), P(f"Y{k}")]).booking for k in range(2)]
    assert waiting[1].state == "waiting"
    assert entrants.check_in(booking=a, by=arbiter) == [1]
    assert entrants.check_in(booking=a, by=arbiter) == []  # twice at the desk: still one
    call_command("bookings", "prova", "--register", stdout=StringIO())
    call_command("bookings", "prova", "--register", stdout=StringIO())
    assert entrants.check_in(booking=b, by=arbiter) == []  # already registered by --register
    # cap 3: a, b and waiting[0] were booked and are the three pairs; waiting[1] waits
    assert opened.pairs.count() == 3
    assert sorted(Booking.objects.exclude(registered_at=None).values_list("seq", flat=True)) == [1, 2, 3]
    with pytest.raises(ArbiterError, match="confermata"):
        entrants.register(booking=waiting[1], by=arbiter)


def test_paired_singles_become_one_pair_and_a_lone_single_waits_for_the_arbiter(opened, arbiter):
    anna = services.book(tournament=opened, players=[P("Rossi", "Anna")]).booking
    bruno = services.book(tournament=opened, players=[P("Verdi", "Bruno")]).booking
    carla = services.book(tournament=opened, players=[P("Neri", "Carla")]).booking
    with pytest.raises(ArbiterError, match="compagno"):
        entrants.check_in(booking=anna, by=arbiter)
    services.pair_singles(a=anna, b=bruno)
    assert entrants.register_booked(tournament=opened, by=arbiter) == 2  # Anna and Bruno; Carla waits
    pair = opened.pairs.get()
    assert sorted(p.last_name for p in pair.players) == ["Rossi", "Verdi"]
    assert entrants.check_in(booking=bruno, by=arbiter) == []
    carla.refresh_from_db()
    assert carla.registered_at is None


def test_registration_links_members_as_registration_does(opened, arbiter):
    """§16: a booked membership number becomes a member link when the booking becomes an
    entrant, not before."""
    from members.models import Member

    Member.objects.create(membership_number="501", last_name="Rossi", first_name="Anna")
    b = services.book(tournament=opened, players=[P("Rossi", number="501"), P("Verdi", "Bruno")]).booking
    entrants.check_in(booking=b, by=arbiter)
    player = opened.players.get(last_name="Rossi")
    assert player.member is not None and player.member.membership_number == "501"


def test_no_shows_are_left_out_before_the_first_draw(opened, arbiter):
    came = services.book(tournament=opened, players=[P("Rossi"), P("Verdi")]).booking
    services.book(tournament=opened, players=[P("Neri"), P("Bianchi")])
    entrants.register_booked(tournament=opened, by=arbiter)
    entrants.check_in(booking=came, by=arbiter)
    assert entrants.leave_out_no_shows(tournament=opened, by=arbiter) == 1
    assert [p.last_name for p in opened.players.order_by("last_name")] == ["Rossi", "Verdi"]
