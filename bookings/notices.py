"""Optional e-mails to bookers (rules.md §21, docs/arbitro-guida.md): the confirmation with the private link,
the promotion from the waiting list. Off unless ``BOOKINGS_EMAIL`` is true (environment
``ARBITRO_BOOKINGS_EMAIL=1``; SMTP from ``ARBITRO_EMAIL_*``): the laptop needs none. Only a
contact that looks like an e-mail address gets one; a failed send never fails the booking."""
from __future__ import annotations

import logging

from django.conf import settings
from django.core.mail import send_mail
from django.utils.translation import gettext as _

from tournaments.captains.links import base_url
from tournaments.kinds import kind_of
from tournaments.models import Tournament

from .models import Booking

log = logging.getLogger(__name__)


def _address(booking: Booking) -> str | None:
    contact = booking.contact.strip()
    if not getattr(settings, "BOOKINGS_EMAIL", False) or "@" not in contact or " " in contact:
        return None
    return contact


def _send(booking: Booking, subject: str, body: str) -> bool:
    to = _address(booking)
    if to is None:
        return False
    try:
        send_mail(subject, body, None, [to])
    except Exception:  # noqa: BLE001 - a mail server down must not lose a booking
        log.exception("booking e-mail to %s not sent", booking.code)
        return False
    return True


def confirmation(booking: Booking, link: str) -> bool:
    """Send the booking's confirmation with its private link. Returns whether one was sent."""
    state = _("prenotata") if booking.state == Booking.State.BOOKED else _("in lista d'attesa")
    body = _("%(names)s: la prenotazione %(code)s per «%(tournament)s» è %(state)s.\n"
             "Il tuo link privato (per vedere il posto o annullare): %(link)s") % {
        "names": booking.names, "code": booking.code, "tournament": booking.tournament.name,
        "state": state, "link": link}
    return _send(booking, _("Prenotazione %(code)s") % {"code": booking.code}, body)


def promotion(booking: Booking) -> bool:
    """Tell a booking promoted from the waiting list that it now has a place."""
    body = _("%(names)s: si è liberato un posto, la prenotazione %(code)s per «%(tournament)s» è confermata.") % {
        "names": booking.names, "code": booking.code, "tournament": booking.tournament.name}
    return _send(booking, _("Prenotazione %(code)s confermata") % {"code": booking.code}, body)


def player_pages(tournament) -> int:
    """After the last round: send each registered booking that left an e-mail address the
    link of its player's page (``/p/<slug>/<word>/<n>/``; only when the tournament's public
    pages are on). Returns how many e-mails were sent."""
    from django.urls import reverse


    if not tournament.public_enabled or not getattr(settings, "BOOKINGS_EMAIL", False):
        return 0
    word, sent = kind_of(tournament).data.url_word, 0
    for booking in tournament.bookings.filter(registered_at__isnull=False).exclude(contact=""):
        links = [base_url() + reverse("player_page", args=[tournament.slug, word, n])
                 for n in booking.entrant_numbers]
        body = _("%(names)s: «%(tournament)s» è finito. La tua pagina con i risultati: %(links)s") % {
            "names": booking.names, "tournament": tournament.name, "links": " ".join(links)}
        sent += _send(booking, _("Risultati di «%(tournament)s»") % {"tournament": tournament.name}, body)
    return sent


def on_round_closed(sender, tournament, round_number, **kwargs) -> None:
    """Receiver of ``tournaments.signals.round_closed``: after the plan's last round, once the
    closing transaction commits, :func:`player_pages`."""
    from django.db import transaction

    if round_number >= tournament.rounds_planned and getattr(settings, "BOOKINGS_EMAIL", False):
        tournament_id = tournament.pk
        transaction.on_commit(lambda: _after_commit(tournament_id))


def _after_commit(tournament_id: int) -> None:
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is not None:
        player_pages(tournament)
