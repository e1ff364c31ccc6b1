"""Optional e-mails to bookers (rules.md §21, docs/arbitro-guida.md): off by default; the confirmation with the
private link and the promotion, checked with Django's test backend and once through a local
SMTP server the test starts."""
from __future__ import annotations

import datetime
import socketserver
import threading

import pytest
from django.core import mail

from bookings import services
from bookings.models import Booking

FORM = {"kind": "pair", "last_name_1": "Rossi", "first_name_1": "Anna", "last_name_2": "Verdi",
        "first_name_2": "Bruno", "contact": "anna@example.org"}


@pytest.fixture
def opened(tournament):
    tournament.date = datetime.date.today() + datetime.timedelta(days=7)
    tournament.save(update_fields=["date"])
    services.open_bookings(tournament=tournament, cap=1)
    return tournament


def test_off_by_default(client, opened):
    client.post("/prenota/prova/", FORM)
    assert mail.outbox == []


def test_confirmation_and_promotion(client, opened, settings):
    settings.BOOKINGS_EMAIL = True
    first = client.post("/prenota/prova/", FORM)["Location"]
    client.post("/prenota/prova/", {**FORM, "last_name_1": "Neri", "contact": "neri@example.org"})
    client.post("/prenota/prova/", {**FORM, "last_name_1": "Gialli", "contact": "333 123"})  # a phone: no mail
    assert [m.to for m in mail.outbox] == [["anna@example.org"], ["neri@example.org"]]
    assert first in mail.outbox[0].body and "prenotata" in mail.outbox[0].body
    assert "in lista d'attesa" in mail.outbox[1].body
    client.post(first, {"action": "cancel"})
    assert mail.outbox[2].to == ["neri@example.org"] and "confermata" in mail.outbox[2].subject


class _SMTP(socketserver.StreamRequestHandler):
    """Just enough SMTP to take one message (RFC 5321's commands, no extensions)."""

    received: list[bytes] = []

    def handle(self):
        self.wfile.write(b"220 test\r\n")
        data = False
        body = []
        for line in self.rfile:
            if data:
                if line in (b".\r\n", b".\n"):
                    data = False
                    _SMTP.received.append(b"".join(body))
                    self.wfile.write(b"250 ok\r\n")
                else:
                    body.append(line)
                continue
            verb = line[:4].upper()
            if verb == b"DATA":
                data = True
                self.wfile.write(b"354 go\r\n")
            elif verb == b"QUIT":
                self.wfile.write(b"221 bye\r\n")
                return
            else:
                self.wfile.write(b"250 ok\r\n")


def test_once_through_a_local_smtp_server(client, opened, settings):
    server = socketserver.TCPServer(("127.0.0.1", 0), _SMTP)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        settings.BOOKINGS_EMAIL = True
        settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
        settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", server.server_address[1]
        client.post("/prenota/prova/", FORM)
    finally:
        server.shutdown()
        server.server_close()
    assert len(_SMTP.received) == 1
    text = _SMTP.received[0].decode()
    assert "anna@example.org" in text and Booking.objects.get().code in text


def test_a_mail_server_down_never_loses_the_booking(client, opened, settings):
    settings.BOOKINGS_EMAIL = True
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT, settings.EMAIL_TIMEOUT = "127.0.0.1", 9, 2
    assert client.post("/prenota/prova/", FORM).status_code == 302
    assert Booking.objects.count() == 1


def test_after_the_last_round_each_booker_gets_his_page(opened, arbiter, settings, django_capture_on_commit_callbacks):
    """A one-round tournament: closing round 1 mails the booked pairs their page links."""
    from bookings import entrants
    from tournaments import services as ts

    settings.BOOKINGS_EMAIL = True
    services.open_bookings(tournament=opened, cap=10)
    ts.update_tournament(tournament=opened, by=arbiter, plan="M", public_enabled=True)
    opened.refresh_from_db()
    for k in range(4):
        r = services.book(tournament=opened, players=[services.PlayerData("Anna", f"Rossi{k}"),
                                                      services.PlayerData("Bruno", f"Verdi{k}")],
                          contact=f"p{k}@example.org")
        entrants.check_in(booking=r.booking, by=arbiter)
    mail.outbox.clear()
    rnd = ts.publish_round(round=ts.generate_round(tournament=opened, by=arbiter), by=arbiter,
                           acknowledge_warnings=True)
    hands = [ts.HandInput(600, 200), ts.HandInput(400, 150), ts.HandInput(250, 300), ts.HandInput(300, 195)]
    for table in rnd.tables.exclude(bye__gt=""):
        ts.save_score_sheet(table=table, hands=hands, by=arbiter, validate=True)
    with django_capture_on_commit_callbacks(execute=True):
        ts.close_round(round=rnd, by=arbiter)
    assert sorted(m.to[0] for m in mail.outbox) == [f"p{k}@example.org" for k in range(4)]
    assert "/p/prova/coppia/1/" in next(m.body for m in mail.outbox if m.to == ["p0@example.org"])
