"""Optional e-mails to bookers (issue 33 item 3): the confirmation with the private link,
the promotion from the waiting list. Off unless ``BOOKINGS_EMAIL`` is true (environment
``ARBITRO_BOOKINGS_EMAIL=1``; SMTP from ``ARBITRO_EMAIL_*``): the laptop needs none. Only a
contact that looks like an e-mail address gets one; a failed send never fails the booking."""
from __future__ import annotations

import logging

from django.conf import settings
from django.core.mail import send_mail
from django.utils.translation import gettext as _

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
