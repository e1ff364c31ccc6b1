"""``manage.py bookings SLUG …``: one JSON line per call, a refusal a sentence and exit 1
(issue's shell interface, rules.md §21)."""
from __future__ import annotations

import datetime
import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from bookings.models import Booking


def run(*args) -> dict:
    out = StringIO()
    call_command("bookings", *args, stdout=out)
    lines = out.getvalue().strip().splitlines()
    assert len(lines) == 1
    return json.loads(lines[0])


@pytest.fixture
def prova(tournament):
    tournament.date = datetime.date.today() + datetime.timedelta(days=7)
    tournament.save(update_fields=["date"])
    return tournament


def test_open_add_cancel_json(prova):
    assert run("prova", "--open", "--cap", "1")["cap"] == 1
    first = run("prova", "--add", "Rossi Anna", "De Luca Bruno", "--tessere", "11", "12")
    assert first["state"] == "booked" and first["position"] is None
    second = run("prova", "--add", "Bianchi Carla", "--single")
    third = run("prova", "--add", "Neri Dario", "--single")
    assert (second["state"], second["position"]) == ("waiting", 1)
    assert (third["state"], third["position"]) == ("waiting", 2)
    b = Booking.objects.get(code=first["code"])
    assert (b.last_name_2, b.first_name_2, b.membership_2) == ("De Luca", "Bruno", "12")
    # the pair's two places free: both singles fit (half a pair each)
    assert run("prova", "--cancel", first["code"]) == {"promoted": second["code"]}
    data = run("prova", "--json")
    assert data == {"cap": 1, "waiting": [],
                    "booked": [{"code": second["code"], "names": "Bianchi Carla", "state": "booked"},
                               {"code": third["code"], "names": "Neri Dario", "state": "booked"}]}


@pytest.mark.parametrize("args, sentence", [
    (["--open"], "--cap"),
    (["--open", "--cap", "0"], "tra 1 e 1000"),
    (["--open", "--cap", "5", "--until", "domani"], "YYYY-MM-DDTHH:MM"),
    (["--add", "Rossi Anna"], "--single"),
    (["--add", "Rossi", "Verdi Bruno"], "cognome e nome"),
    (["--cancel", "ZZZZZZ"], "ZZZZZZ"),
])
def test_refusals_are_sentences(prova, args, sentence):
    with pytest.raises(CommandError, match=sentence):
        call_command("bookings", "prova", *args, stdout=StringIO())


def test_unknown_tournament(db):
    with pytest.raises(CommandError, match="inesistente"):
        call_command("bookings", "nessuno", "--json", stdout=StringIO())



def test_add_before_bookings_were_ever_opened_is_refused(prova):
    # rules.md §21: the cap is what decides booked or waiting; with no cap yet the booking
    # would silently wait for a place that does not exist
    with pytest.raises(CommandError, match="non sono mai state aperte"):
        call_command("bookings", "prova", "--add", "Rossi Anna", "Verdi Bruno", stdout=StringIO())
    assert Booking.objects.count() == 0
    assert run("prova", "--json") == {"cap": None, "booked": [], "waiting": []}


def test_a_teams_tournament_books_a_team_in_its_captains_name(prova):
    from tournaments.models import Tournament

    Tournament.objects.filter(pk=prova.pk).update(kind="teams")
    run("prova", "--open", "--cap", "1")
    first = run("prova", "--add", "Rossi Anna", "--single", "--team", "I Bucanieri")
    second = run("prova", "--add", "Verdi Bruno", "--single", "--team", "Gli Assi")
    assert (first["state"], second["state"], second["position"]) == ("booked", "waiting", 1)
    assert run("prova", "--json")["booked"] == [
        {"code": first["code"], "names": "I Bucanieri (Rossi Anna)", "state": "booked"}]
    with pytest.raises(CommandError, match="nome della squadra"):
        call_command("bookings", "prova", "--add", "Neri Carlo", "--single", stdout=StringIO())
    with pytest.raises(CommandError, match="un nome solo"):
        call_command("bookings", "prova", "--add", "Neri Carlo", "Gialli Dora", "--team", "X", stdout=StringIO())


def test_a_team_name_outside_a_teams_tournament_is_refused(prova):
    run("prova", "--open", "--cap", "2")
    with pytest.raises(CommandError, match="solo in un torneo a squadre"):
        call_command("bookings", "prova", "--add", "Rossi Anna", "--single", "--team", "X", stdout=StringIO())
    assert Booking.objects.count() == 0
