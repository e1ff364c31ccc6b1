"""The bookings' pages: the public form (honeypot, rate limit, closed), the private link,
the arbiter's pages (his tournaments only), the check-in desk."""
from __future__ import annotations

import datetime
import re

import pytest

from bookings import services
from bookings.models import Booking


@pytest.fixture
def opened(tournament):
    tournament.date = datetime.date.today() + datetime.timedelta(days=7)
    tournament.save(update_fields=["date"])
    services.open_bookings(tournament=tournament, cap=1, message="Si gioca alle 21")
    return tournament


FORM = {"kind": "pair", "last_name_1": "Rossi", "first_name_1": "Anna", "last_name_2": "Verdi",
        "first_name_2": "Bruno", "contact": "anna@example.org"}


def _private_url(response):
    assert response.status_code == 302, response.content[:500]
    return response["Location"]


def test_book_wait_cancel_promote_through_the_pages(client, opened):
    page = client.get("/prenota/prova/")
    assert page.status_code == 200 and "Si gioca alle 21" in page.content.decode()
    first = _private_url(client.post("/prenota/prova/", FORM))
    second = _private_url(client.post("/prenota/prova/", {**FORM, "last_name_1": "Neri", "last_name_2": "Gialli"}))
    assert "sei al posto 1" in client.get(second).content.decode()
    assert client.post(first, {"action": "cancel"}).status_code == 200
    assert client.get(first).status_code == 404  # dead once cancelled
    assert "Posto confermato" in client.get(second).content.decode()
    # the public never sees a contact
    assert "anna@example.org" not in client.get("/prenota/prova/").content.decode()


def test_honeypot_and_bad_names_get_a_sentence(client, opened):
    assert client.post("/prenota/prova/", {**FORM, "sito": "http://spam"}).status_code == 400
    bad = client.post("/prenota/prova/", {**FORM, "last_name_1": "R\x00ssi"})
    assert bad.status_code == 400
    assert client.post("/prenota/prova/", {**FORM, "last_name_2": ""}).status_code == 400
    assert Booking.objects.count() == 0


def test_rate_limit_per_address(client, opened, settings):
    settings.BOOKINGS_RATE_ADDRESS = "3/m"
    codes = [client.post("/prenota/prova/", {**FORM, "last_name_1": f"R{k}"}).status_code for k in range(4)]
    assert codes == [302, 302, 302, 429]


def test_closed_and_unknown(client, opened):
    services.close_bookings(tournament=opened)
    assert "non sono aperte" in client.get("/prenota/prova/").content.decode()
    assert client.post("/prenota/prova/", FORM).status_code == 200 and Booking.objects.count() == 0
    assert client.get("/prenota/nessuno/").status_code == 404
    assert client.get("/prenota/prova/token-sbagliato/").status_code == 404


def test_singles_ask_and_accept_from_their_links(client, opened):
    services.open_bookings(tournament=opened, cap=3)
    single = {"kind": "single", "last_name_1": "Rossi", "first_name_1": "Anna"}
    anna = _private_url(client.post("/prenota/prova/", single))
    bruno = _private_url(client.post("/prenota/prova/", {**single, "last_name_1": "Verdi", "first_name_1": "Bruno"}))
    page = client.get(anna).content.decode()
    assert "Bruno V." in page and "Verdi" not in page  # first name and initial only
    bruno_pk = Booking.objects.get(last_name_1="Verdi").pk
    client.post(anna, {"action": "ask", "other": bruno_pk})
    anna_pk = Booking.objects.get(last_name_1="Rossi").pk
    client.post(bruno, {"action": "accept", "other": anna_pk})
    assert "Giochi in coppia con Anna R." in client.get(bruno).content.decode()


def test_arbiter_pages_are_his_alone(client, arbiter_client, opened, django_user_model):
    assert arbiter_client.get("/tornei/prova/prenotazioni/").status_code == 200
    other = django_user_model.objects.create_user(username="altro", password="x")
    client.force_login(other)
    assert client.get("/tornei/prova/prenotazioni/").status_code == 404
    assert client.post("/tornei/prova/prenotazioni/accoglienza/presente/", {"booking": "1"}).status_code == 404


def test_arbiter_sees_contacts_cancels_and_checks_in(arbiter_client, opened):
    r = services.book(tournament=opened, players=[services.PlayerData("Anna", "Rossi"),
                                                  services.PlayerData("Bruno", "Verdi")], contact="333 1234567")
    assert "333 1234567" in arbiter_client.get("/tornei/prova/prenotazioni/").content.decode()
    desk = arbiter_client.get("/tornei/prova/prenotazioni/accoglienza/").content.decode()
    assert "Rossi Anna" in desk and "bookings_checkin.js" in desk
    arbiter_client.post("/tornei/prova/prenotazioni/accoglienza/presente/", {"booking": r.booking.pk})
    arbiter_client.post("/tornei/prova/prenotazioni/accoglienza/presente/", {"booking": r.booking.pk})
    assert opened.pairs.count() == 1
    assert arbiter_client.post("/tornei/prova/prenotazioni/accoglienza/presente/",
                               {"booking": "abc"}).status_code == 302  # a sentence, no 500


def test_pages_hold_no_inline_script(client, arbiter_client, opened):
    """The CSP (config/settings.py) runs no inline code: the bookings' pages carry none."""
    from tests.captain.helpers import inline_problems

    link = _private_url(client.post("/prenota/prova/", {**FORM, "kind": "single"}))
    pages = [client.get("/prenota/prova/"), client.get(link),
             arbiter_client.get("/tornei/prova/prenotazioni/"),
             arbiter_client.get("/tornei/prova/prenotazioni/accoglienza/")]
    for page in pages:
        assert page.status_code == 200
        assert inline_problems(page.content.decode()) == []


def test_arbiter_corrects_a_booking(arbiter_client, opened):
    r = services.book(tournament=opened, players=[services.PlayerData("Ana", "Rosi"),
                                                  services.PlayerData("Bruno", "Verdi")])
    form = {"action": "edit", "booking": r.booking.pk, "last_name_1": "Rossi", "first_name_1": "Anna",
            "last_name_2": "Verdi", "first_name_2": "Bruno", "contact": ""}
    assert arbiter_client.post("/tornei/prova/prenotazioni/", form).status_code == 302
    r.booking.refresh_from_db()
    assert (r.booking.names, r.booking.seq, r.booking.state) == ("Rossi Anna – Verdi Bruno", 1, "booked")
    arbiter_client.post("/tornei/prova/prenotazioni/", {**form, "last_name_1": "\x00"})
    r.booking.refresh_from_db()
    assert r.booking.last_name_1 == "Rossi"  # refused with a sentence, nothing changed


def test_arbiter_opens_from_a_moment_and_the_public_waits_for_it(client, arbiter_client, opened):
    later = (datetime.datetime.now() + datetime.timedelta(days=1)).strftime("%Y-%m-%dT%H:%M")
    answer = arbiter_client.post("/tornei/prova/prenotazioni/", {"action": "open", "cap": "5", "opens_at": later})
    assert answer.status_code == 302
    assert "non sono ancora aperte" in client.get("/prenota/prova/").content.decode()
    arbiter_client.post("/tornei/prova/prenotazioni/", {"action": "open", "cap": "abc"})  # a sentence
    assert "walk-ins" in arbiter_client.get("/tornei/prova/prenotazioni/accoglienza/").content.decode()


def test_individual_and_teams_book_one_name(client, opened):
    from tournaments.models import Tournament

    for kind in ("individual", "teams"):
        Tournament.objects.filter(pk=opened.pk).update(kind=kind)
        answer = client.post("/prenota/prova/", {"last_name_1": f"Rossi{kind}", "first_name_1": "Anna",
                                                 "team_name": "I Bucanieri"})
        assert answer.status_code == 302, answer.content[:300]
    assert Booking.objects.filter(single=True).count() == 2
    # the team name is kept only where there are teams
    assert sorted(Booking.objects.values_list("team_name", flat=True)) == ["", "I Bucanieri"]


def test_never_opened_page_says_bookings_are_not_open(client, tournament):
    tournament.date = datetime.date.today() + datetime.timedelta(days=3)
    tournament.save(update_fields=["date"])
    page = client.get("/prenota/prova/")
    assert page.status_code == 200
    text = page.content.decode()
    assert "non sono aperte" in text and 'id="booking-form"' not in text and 'id="places"' not in text
    assert client.post("/prenota/prova/", FORM).status_code == 200 and Booking.objects.count() == 0


def test_paired_singles_show_as_a_pair_on_the_arbiter_page_and_one_full_stop(client, arbiter_client, opened):
    services.open_bookings(tournament=opened, cap=3)
    single = {"kind": "single", "last_name_1": "Rossi", "first_name_1": "Anna"}
    anna = _private_url(client.post("/prenota/prova/", single))
    bruno = _private_url(client.post("/prenota/prova/", {**single, "last_name_1": "Verdi", "first_name_1": "Bruno"}))
    a, b = Booking.objects.get(last_name_1="Rossi"), Booking.objects.get(last_name_1="Verdi")
    assert "Richiesta inviata a Bruno V.<" in client.post(anna, {"action": "ask", "other": b.pk},
                                                          follow=True).content.decode()
    page = client.post(bruno, {"action": "accept", "other": a.pk}, follow=True).content.decode()
    assert "Ora giocate in coppia con Anna R.<" in page and "Giochi in coppia con Anna R.<" in page
    listing = arbiter_client.get("/tornei/prova/prenotazioni/").content.decode()
    assert f"in coppia con Verdi Bruno, {b.code}" in listing and f"in coppia con Rossi Anna, {a.code}" in listing
    assert "cerca compagno)" not in listing


def test_giving_a_waiting_booking_the_place_says_so(client, arbiter_client, opened):
    # the arbiter's «Dai il posto» (rules.md §21: beyond the cap, his call) answers with a sentence
    client.post("/prenota/prova/", FORM)
    client.post("/prenota/prova/", {**FORM, "last_name_1": "Neri", "last_name_2": "Gialli"})
    waiting = Booking.objects.get(state="waiting")
    page = arbiter_client.post("/tornei/prova/prenotazioni/", {"action": "promote", "booking": waiting.pk},
                               follow=True).content.decode()
    assert f"Promossa dalla lista d&#x27;attesa: {waiting.code}." in page
    assert Booking.objects.get(pk=waiting.pk).state == "booked"


def test_a_team_books_with_its_name_and_captain(client, opened):
    from tournaments.models import Tournament

    Tournament.objects.filter(pk=opened.pk).update(kind="teams")
    page = client.get("/prenota/prova/").content.decode()
    assert 'id="team_name"' in page and 'id="kind-single"' not in page
    answer = client.post("/prenota/prova/", {"last_name_1": "Rossi", "first_name_1": "Anna"})
    assert answer.status_code == 400 and "nome della squadra è obbligatorio" in answer.content.decode()
    answer = client.post("/prenota/prova/", {"last_name_1": "Rossi", "first_name_1": "Anna", "team_name": "I Bucanieri"})
    assert "I Bucanieri (Rossi Anna)" in client.get(answer["Location"]).content.decode()


def test_the_printed_list_names_its_tournament_and_day(arbiter_client, opened):
    # the paper list at the door is read away from the screen's tabs and crumbs
    page = arbiter_client.get("/tornei/prova/prenotazioni/?stampa=1").content.decode()
    expected = f"{opened.name}, " + {0: "Lunedì", 1: "Martedì", 2: "Mercoledì", 3: "Giovedì", 4: "Venerdì",
                                       5: "Sabato", 6: "Domenica"}[opened.date.weekday()]
    assert re.search(r'<span id="print-title">([^<]+)</span>', page).group(1).startswith(expected)


def test_the_arbiter_corrects_a_teams_name(client, arbiter_client, opened):
    from tournaments.models import Tournament

    Tournament.objects.filter(pk=opened.pk).update(kind="teams")
    client.post("/prenota/prova/", {"last_name_1": "Rossi", "first_name_1": "Anna", "team_name": "I Bucanieri"})
    b = Booking.objects.get()
    edit = {"action": "edit", "booking": b.pk, "last_name_1": "Rossi", "first_name_1": "Anna", "contact": ""}
    arbiter_client.post("/tornei/prova/prenotazioni/", {**edit, "team_name": "I Corsari"})
    assert Booking.objects.get().names == "I Corsari (Rossi Anna)"
    page = arbiter_client.post("/tornei/prova/prenotazioni/", {**edit, "team_name": ""}, follow=True)
    assert "nome della squadra è obbligatorio" in page.content.decode()
    assert Booking.objects.get().team_name == "I Corsari"
