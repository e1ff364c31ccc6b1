"""From bookings to entrants (rules.md §21, §16): check-in and ``--register`` make each
booking one entrant at most; no-shows left out before the first draw."""
from __future__ import annotations

import datetime
import re
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from bookings import entrants, services
from bookings.models import Booking
from tournaments.errors import ArbiterError
from tournaments.registrations.player_data import PlayerData


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


@pytest.fixture
def teams_opened(arbiter):
    from tournaments import services as ts

    t = ts.create_tournament(by=arbiter, name="Squadre", slug="squadre", kind="teams", plan="DDDD",
                             date=datetime.date.today() + datetime.timedelta(days=7))
    services.open_bookings(tournament=t, cap=2)
    return t


def test_teams_booking_checks_the_captain_in_and_the_team_registers_on_its_page(teams_opened, arbiter):
    # rules.md §15: a team is 4 to 6 players, so a booking in its captain's name holds the
    # team's place; at the desk the captain is marked present and nothing is registered
    captain = services.book(tournament=teams_opened, players=[P("Rossi")], team_name="I Bucanieri").booking
    assert captain.names == "I Bucanieri (Rossi Anna)"
    assert entrants.check_in(booking=captain, by=arbiter) == []
    captain.refresh_from_db()
    assert captain.present and captain.registered_at is None and teams_opened.teams.count() == 0
    with pytest.raises(CommandError, match="pagina Squadre"):
        call_command("bookings", "squadre", "--register", stdout=StringIO())
    # the no-shows action removes nothing it did not register
    assert entrants.leave_out_no_shows(tournament=teams_opened, by=arbiter) == 0


def test_check_in_page_of_a_teams_tournament_says_where_the_team_registers(teams_opened, arbiter_client):
    captain = services.book(tournament=teams_opened, players=[P("Rossi")], team_name="I Bucanieri").booking
    answer = arbiter_client.post("/tornei/squadre/prenotazioni/accoglienza/presente/", {"booking": captain.pk},
                                 follow=True)
    text = answer.content.decode()
    assert answer.status_code == 200 and "I Bucanieri (Rossi Anna): presente." in text and "pagina Squadre" in text


@pytest.mark.parametrize("kind", ["individual", "teams"])
def test_one_name_bookings_do_not_seek_a_partner_outside_pairs(arbiter, client, kind):
    from bookings import selectors
    from tournaments import services as ts

    t = ts.create_tournament(by=arbiter, name="Una", slug="una", kind=kind,
                             **({"plan": "DDDD"} if kind == "teams" else {}), date=datetime.date.today() + datetime.timedelta(days=7))
    services.open_bookings(tournament=t, cap=4)
    team = {"team_name": "Squadra"} if kind == "teams" else {}
    a = services.book(tournament=t, players=[P("Rossi")], **team)
    b = services.book(tournament=t, players=[P("Verdi", "Bruno")], **team)
    assert selectors.free_singles(t) == []
    with pytest.raises(ArbiterError, match="torneo a coppie"):
        services.ask_partner(booking=a.booking, other=b.booking)
    with pytest.raises(ArbiterError, match="torneo a coppie"):
        services.pair_singles(a=a.booking, b=b.booking)
    page = client.get(f"/prenota/una/{a.token}/").content.decode()
    assert "cercano compagno" not in page and "Bruno" not in page


def test_a_team_present_at_the_door_gets_the_teams_form_filled_with_its_name_and_captain(teams_opened,
                                                                                        arbiter_client):
    from urllib.parse import parse_qs, urlparse

    captain = services.book(tournament=teams_opened, players=[P("Rossi", number="77")], team_name="I Bucanieri").booking
    arbiter_client.post("/tornei/squadre/prenotazioni/accoglienza/presente/", {"booking": captain.pk})
    desk = arbiter_client.get("/tornei/squadre/prenotazioni/accoglienza/").content.decode()
    link = re.search(r'<a href="([^"]+)" class="team-form-link">', desk).group(1).replace("&amp;", "&")
    assert parse_qs(urlparse(link).query) == {"name": ["I Bucanieri"], "players": ["Rossi, Anna, 77\n"]}
    form = arbiter_client.get(link).content.decode()
    assert 'value="I Bucanieri"' in form and ">Rossi, Anna, 77\n</textarea>" in form
