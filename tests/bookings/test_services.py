"""Bookings' services (rules.md §21): the cap in entrants, the waiting list in arrival
order, cancellations promoting the first in line, private links, singles paired."""
from __future__ import annotations

import pytest

from bookings import selectors, services
from bookings.models import Booking
from tournaments.errors import ArbiterError
from tournaments.registrations.player_data import PlayerData


def P(last, first="Anna", number=""):
    return PlayerData(first_name=first, last_name=last, membership_number=number)


def pair(k):
    return [P(f"Rossi{k}"), P(f"Verdi{k}", "Bruno")]


@pytest.fixture
def future(tournament):
    """The conftest's tournament, dated a week from today (bookings are for a coming evening)."""
    import datetime

    from django.utils import timezone

    tournament.date = timezone.localdate() + datetime.timedelta(days=7)
    tournament.save(update_fields=["date"])
    return tournament


@pytest.fixture
def opened(future):
    tournament = future
    services.open_bookings(tournament=tournament, cap=2)
    return tournament


def test_closed_bookings_refuse_the_public(future):
    with pytest.raises(ArbiterError, match="non sono aperte"):
        services.book(tournament=future, players=pair(1))


def test_a_past_tournament_refuses_the_public(opened):
    import datetime

    opened.date = datetime.date(2026, 1, 1)
    opened.save(update_fields=["date"])
    with pytest.raises(ArbiterError, match="passato"):
        services.book(tournament=opened, players=pair(1))


def test_beyond_the_cap_bookings_wait_in_arrival_order(opened):
    results = [services.book(tournament=opened, players=pair(k), check_window=False) for k in range(4)]
    assert [r.booking.state for r in results] == ["booked", "booked", "waiting", "waiting"]
    assert [r.position for r in results] == [None, None, 1, 2]
    assert [r.booking.seq for r in results] == [1, 2, 3, 4]


def test_a_single_counts_as_half_a_pair(opened):
    # cap 2 pairs = 4 players: a pair (2) + two singles (1 + 1) fill it; a third single waits
    states = [services.book(tournament=opened, players=pair(1)).booking.state,
              services.book(tournament=opened, players=[P("Bianchi")]).booking.state,
              services.book(tournament=opened, players=[P("Neri")]).booking.state,
              services.book(tournament=opened, players=[P("Gialli")]).booking.state]
    assert states == ["booked", "booked", "booked", "waiting"]


def test_a_single_behind_a_waiting_pair_waits_too(opened):
    """Nobody jumps the line: a pair waits, a single arrives when one place is free: he
    waits behind the pair (rules.md §21 arrival order)."""
    services.book(tournament=opened, players=pair(1))
    services.book(tournament=opened, players=[P("Bianchi")])
    waiting_pair = services.book(tournament=opened, players=pair(2))
    late_single = services.book(tournament=opened, players=[P("Neri")])
    assert (waiting_pair.booking.state, late_single.booking.state) == ("waiting", "waiting")
    assert late_single.position == 2


def test_two_cancellations_promote_the_waiting_list_in_order(opened):
    codes = [services.book(tournament=opened, players=pair(k)).booking.code for k in range(5)]
    first = Booking.objects.get(code=codes[0])
    second = Booking.objects.get(code=codes[1])
    assert services.cancel(booking=second).code == codes[2]
    assert services.cancel(booking=first).code == codes[3]
    data = selectors.bookings_json(opened)
    assert [b["code"] for b in data["booked"]] == [codes[2], codes[3]]
    assert [b["code"] for b in data["waiting"]] == [codes[4]]
    assert data["cap"] == 2


def test_cancelling_twice_is_refused(opened):
    b = services.book(tournament=opened, players=pair(1)).booking
    services.cancel(booking=b)
    with pytest.raises(ArbiterError, match="già annullata"):
        services.cancel(booking=b)


def test_private_link_wrong_foreign_and_used(opened, arbiter):
    from tournaments import services as ts

    other = ts.create_tournament(by=arbiter, name="Altro", slug="altro", date=opened.date)
    services.open_bookings(tournament=other, cap=3)
    mine = services.book(tournament=opened, players=pair(1))
    theirs = services.book(tournament=other, players=pair(2))
    assert services.by_token(opened, mine.token) == mine.booking
    assert mine.token not in (mine.booking.code, mine.booking.token_hash)  # secret ≠ reference
    assert services.by_token(opened, "sbagliato") is None
    assert services.by_token(opened, theirs.token) is None  # another tournament's link
    assert services.by_token(opened, mine.booking.code) is None  # the public code opens nothing
    services.cancel(booking=mine.booking)
    assert services.by_token(opened, mine.token) is None  # dead once cancelled


def test_names_are_validated_with_a_sentence(opened):
    with pytest.raises(ArbiterError, match="obbligatori"):
        services.book(tournament=opened, players=[P(""), P("Verdi")])
    with pytest.raises(ArbiterError):
        services.book(tournament=opened, players=[P("Ros\x00si"), P("Verdi")])
    with pytest.raises(ArbiterError):
        services.book(tournament=opened, players=[P("R" * 81), P("Verdi")])
    services.book(tournament=opened, players=[P("Rossi", number="7"), P("Verdi", number="8")])
    with pytest.raises(ArbiterError, match="tessera 7"):
        services.book(tournament=opened, players=[P("Rossi", number="7"), P("Neri")])
    assert Booking.objects.count() == 1


def test_bookings_never_create_members(opened):
    from members.models import Member

    before = Member.objects.count()
    services.book(tournament=opened, players=[P("Rossi", number="123"), P("Verdi", number="456")])
    assert Member.objects.count() == before


def test_singles_ask_accept_and_stay_counted_as_one_pair(opened):
    anna = services.book(tournament=opened, players=[P("Rossi", "Anna")]).booking
    bruno = services.book(tournament=opened, players=[P("Verdi", "Bruno")]).booking
    assert [b.public_name for b in selectors.free_singles(opened, excluding=anna)] == ["Bruno V."]
    services.ask_partner(booking=anna, other=bruno)
    with pytest.raises(ArbiterError):
        services.accept_partner(booking=anna, asker=bruno)  # Bruno never asked Anna
    services.accept_partner(booking=bruno, asker=anna)
    assert services.partner_of(bruno) == anna and services.partner_of(anna) == bruno
    assert selectors.free_singles(opened) == []
    # 2 halves + one pair = 2 pairs: the cap is full, the next pair waits
    services.book(tournament=opened, players=pair(1))
    assert services.book(tournament=opened, players=pair(2)).booking.state == "waiting"


def test_raising_the_cap_promotes(opened):
    for k in range(3):
        services.book(tournament=opened, players=pair(k))
    services.open_bookings(tournament=opened, cap=3)
    assert Booking.objects.filter(state="waiting").count() == 0


def test_individual_cap_counts_players(arbiter):
    import datetime

    from tournaments import services as ts

    t = ts.create_tournament(by=arbiter, name="Ind", slug="ind", date=datetime.date(2026, 11, 30),
                             kind="individual")
    services.open_bookings(tournament=t, cap=3)
    states = [services.book(tournament=t, players=[P(f"N{k}")], check_window=False).booking.state for k in range(4)]
    assert states == ["booked", "booked", "booked", "waiting"]
