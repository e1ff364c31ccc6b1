"""Bookings' writes (rules.md §21): open and close, book, cancel and promote, pair singles.

Every decision about places (the cap, the waiting list, arrival order) is taken under the
tournament's row lock (``select_for_update``), the same lock the registration services take,
so 200 bookings arriving at once from several server processes are serialised by the
database: the cap is never exceeded and no two bookings share an arrival number.
"""
from __future__ import annotations

import datetime
import hashlib
import secrets
from dataclasses import dataclass

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.errors import ArbiterError
from tournaments.models import Tournament
from tournaments.registrations.player_data import PlayerData
from tournaments.services.guard import retry_when_busy
from tournaments.text import clean_line

from .models import Booking, BookingWindow
from .selectors import capacity, used_units, weight  # noqa: F401  (re-exported)

#: Public reference codes: no 0/O, 1/I/L, easy to say on the phone.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6


@dataclass(frozen=True)
class BookingResult:
    """What a new booking tells its booker: the booking, its private token (shown once)
    and its place in the waiting list (``None`` when booked)."""

    booking: Booking
    token: str
    position: int | None


def token_hash(token: str) -> str:
    """SHA-256 (hex) of a private link's secret: the database keeps only this."""
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def _new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def _lock(tournament: Tournament) -> Tournament:
    """The tournament's row, locked until the transaction ends (the bookings' serialiser)."""
    return Tournament.objects.select_for_update().get(pk=tournament.pk)


def window_of(tournament: Tournament) -> BookingWindow:
    """The tournament's booking window (created closed, cap 0, on first use)."""
    window, _created = BookingWindow.objects.get_or_create(tournament=tournament)
    return window


def waiting_position(booking: Booking) -> int | None:
    """1-based place of a waiting booking in its waiting list, ``None`` otherwise."""
    if booking.state != Booking.State.WAITING:
        return None
    return Booking.objects.filter(tournament_id=booking.tournament_id, state=Booking.State.WAITING,
                                  seq__lte=booking.seq).count()


@retry_when_busy
@transaction.atomic
def open_bookings(*, tournament: Tournament, cap: int, until: datetime.datetime | None = None,
                  opens_at: datetime.datetime | None = None, message: str = "") -> BookingWindow:
    """Open (or change) the tournament's bookings.

    Args:
        cap: places, in the tournament's entrants (pairs, players or teams), 1–1000.
        until / opens_at: aware datetimes, or ``None`` (no limit).
        message: shown on the public booking page (≤ 1000 characters).
    Raises:
        ArbiterError: a cap out of range, ``until`` before ``opens_at`` or past, a tournament
            already started.
    A cap raised promotes the waiting list's first bookings that now fit (rules.md §21)."""
    tournament = _lock(tournament)
    if not 1 <= cap <= 1000:
        raise ArbiterError(_("I posti devono essere tra 1 e 1000."))
    if tournament.rounds.exists():
        raise ArbiterError(_("Il torneo è già iniziato: le prenotazioni sono chiuse."))
    if until is not None and until <= timezone.now():
        raise ArbiterError(_("La chiusura delle prenotazioni è già passata."))
    if until is not None and opens_at is not None and until <= opens_at:
        raise ArbiterError(_("La chiusura delle prenotazioni deve seguire l'apertura."))
    window = window_of(tournament)
    window.is_open, window.cap, window.until, window.opens_at = True, cap, until, opens_at
    window.message = clean_line(message, label=_("Messaggio"), max_length=1000) if message else ""
    window.save()
    _promote(tournament, window)
    return window


@transaction.atomic
def close_bookings(*, tournament: Tournament) -> BookingWindow:
    """Close the tournament's bookings (those taken stay)."""
    tournament = _lock(tournament)
    window = window_of(tournament)
    window.is_open = False
    window.save(update_fields=["is_open"])
    return window


def closed_reason(tournament: Tournament, window: BookingWindow | None,
                  now: datetime.datetime | None = None) -> str | None:
    """Why the public cannot book now (a sentence), or ``None`` when bookings are open.
    ``window`` ``None``: bookings never opened."""
    now = now or timezone.now()
    if tournament.rounds.exists() or tournament.date < timezone.localdate(now):
        return _("Il torneo è già iniziato o passato: le prenotazioni sono chiuse.")
    if window is None or not window.is_open:
        return _("Le prenotazioni per questo torneo non sono aperte.")
    if window.opens_at and now < window.opens_at:
        return _("Le prenotazioni non sono ancora aperte.")
    if window.until and now > window.until:
        return _("Le prenotazioni sono chiuse.")
    return None


def _team_name(tournament: Tournament, players: list[PlayerData], name: str) -> str:
    """A teams tournament's booking is a team in its captain's name (rules.md §15: a team is
    registered with a name and its players, the first the captain): one name and the team's
    name, required; elsewhere no team name. Raises ArbiterError."""
    if tournament.kind != Tournament.Kind.TEAMS:
        return ""
    if len(players) != 1:
        raise ArbiterError(_("In un torneo a squadre si prenota a nome del capitano: un nome solo, "
                             "con il nome della squadra."))
    name = clean_line(name, label=_("Nome della squadra"), max_length=120)
    if not name:
        raise ArbiterError(_("Il nome della squadra è obbligatorio."))
    return name


def _clean_name(player: PlayerData) -> PlayerData:
    # names validated like registrations (tournaments/services/pairs.py clean_player): a
    # sentence for a NUL, a control character or a name too long, never a 500
    first = clean_line(player.first_name, label=_("Nome"), max_length=80)
    last = clean_line(player.last_name, label=_("Cognome"), max_length=80)
    number = clean_line(player.membership_number, label=_("Tessera"), max_length=30)
    if not first or not last:
        raise ArbiterError(_("Nome e cognome di ogni giocatore sono obbligatori."))
    return PlayerData(first_name=first, last_name=last, membership_number=number)


@retry_when_busy
@transaction.atomic
def book(*, tournament: Tournament, players: list[PlayerData], contact: str = "",
         check_window: bool = True, team_name: str = "") -> BookingResult:
    """Take a booking: two players (a pair) or one (a single «cerco compagno»; in an
    individual tournament a player; in a teams tournament the team's captain, with
    ``team_name``, required there and ignored elsewhere).

    The booking is booked if its places fit under the cap and nobody waits (arrival order,
    rules.md §21), otherwise it joins the waiting list. ``check_window`` False (the
    arbiter, the shell) books even when the public page is closed, never past the start
    nor before bookings were ever opened (no cap yet).
    Raises ArbiterError: bookings closed or never opened, a missing or bad name, a membership number
    already booked. Returns the booking, its private token and its waiting position."""
    tournament = _lock(tournament)
    window = window_of(tournament)
    if check_window:
        reason = closed_reason(tournament, window)
        if reason:
            raise ArbiterError(reason)
    elif tournament.rounds.exists():
        raise ArbiterError(_("Il torneo è già iniziato: le prenotazioni sono chiuse."))
    elif window.cap == 0:
        # never opened: with no places every booking would wait for a cap that is not there
        raise ArbiterError(_("Le prenotazioni di questo torneo non sono mai state aperte: "
                             "aprile prima, indicando i posti."))
    if len(players) not in (1, 2):
        raise ArbiterError(_("Una prenotazione è di una coppia (due nomi) o di un giocatore solo."))
    players = [_clean_name(p) for p in players]
    team_name = _team_name(tournament, players, team_name)
    contact = clean_line(contact, label=_("Telefono o e-mail"), max_length=200)
    numbers = [p.membership_number for p in players if p.membership_number]
    if len(numbers) != len(set(numbers)):
        raise ArbiterError(_("Lo stesso giocatore (tessera) non può comparire due volte nella coppia."))
    live = tournament.bookings.exclude(state=Booking.State.CANCELLED)
    for number in numbers:
        if live.filter(membership_1=number).exists() or live.filter(membership_2=number).exists():
            raise ArbiterError(_("La tessera %(number)s ha già una prenotazione per questo torneo.")
                               % {"number": number})
    booking = Booking(tournament=tournament, seq=window.next_seq, single=len(players) == 1,
                      last_name_1=players[0].last_name, first_name_1=players[0].first_name,
                      membership_1=players[0].membership_number, contact=contact, team_name=team_name)
    if len(players) == 2:
        booking.last_name_2, booking.first_name_2 = players[1].last_name, players[1].first_name
        booking.membership_2 = players[1].membership_number
    fits = used_units(tournament) + weight(tournament, booking) <= capacity(tournament, window.cap)
    waiting = tournament.bookings.filter(state=Booking.State.WAITING).exists()
    booking.state = Booking.State.BOOKED if fits and not waiting else Booking.State.WAITING
    token = secrets.token_urlsafe(24)
    booking.token_hash = token_hash(token)
    taken = set(tournament.bookings.values_list("code", flat=True))
    booking.code = _new_code()
    while booking.code in taken:
        booking.code = _new_code()
    booking.save()
    window.next_seq += 1
    window.save(update_fields=["next_seq"])
    return BookingResult(booking=booking, token=token, position=waiting_position(booking))


def _promote(tournament: Tournament, window: BookingWindow) -> list[Booking]:
    """Move the waiting list's first bookings to booked while they fit (the caller holds the
    tournament's lock). Strict arrival order: the first that does not fit stops the rest
    (nobody is skipped, rules.md §21)."""
    free = capacity(tournament, window.cap) - used_units(tournament)
    promoted = []
    for booking in tournament.bookings.filter(state=Booking.State.WAITING).order_by("seq"):
        if weight(tournament, booking) > free:
            break
        free -= weight(tournament, booking)
        booking.state = Booking.State.BOOKED
        booking.save(update_fields=["state"])
        promoted.append(booking)
    return promoted


@retry_when_busy
@transaction.atomic
def cancel(*, booking: Booking) -> Booking | None:
    """Cancel ``booking`` (its private link dies with it) and promote the first in line
    (rules.md §21). Returns the first booking promoted, or ``None``.
    Raises ArbiterError for a booking already cancelled or already registered as an entrant
    (remove the entrant instead)."""
    tournament = _lock(booking.tournament)
    booking = Booking.objects.select_for_update().get(pk=booking.pk)
    if booking.state == Booking.State.CANCELLED:
        raise ArbiterError(_("La prenotazione è già annullata."))
    if booking.registered_at is not None:
        raise ArbiterError(_("La prenotazione è già diventata un'iscrizione: ritirala dall'elenco degli iscritti."))
    booking.state = Booking.State.CANCELLED
    booking.cancelled_at = timezone.now()
    booking.asks = None
    booking.save(update_fields=["state", "cancelled_at", "asks"])
    Booking.objects.filter(asks=booking).update(asks=None)
    if booking.partner_id:
        Booking.objects.filter(pk=booking.partner_id).update(partner=None)
        Booking.objects.filter(pk=booking.pk).update(partner=None)
    Booking.objects.filter(partner=booking).update(partner=None)
    promoted = _promote(tournament, window_of(tournament))
    return promoted[0] if promoted else None


@retry_when_busy
@transaction.atomic
def promote(*, booking: Booking) -> Booking:
    """The arbiter moves a waiting booking to booked, beyond the cap if need be (his call,
    rules.md §21: the cap is the room's, he may add a table). Raises ArbiterError when the
    booking is not waiting."""
    _lock(booking.tournament)
    booking = Booking.objects.select_for_update().get(pk=booking.pk)
    if booking.state != Booking.State.WAITING:
        raise ArbiterError(_("La prenotazione non è in lista d'attesa."))
    booking.state = Booking.State.BOOKED
    booking.save(update_fields=["state"])
    return booking


def by_token(tournament: Tournament, token: str) -> Booking | None:
    """The live booking of ``tournament`` whose private link carries ``token``, or ``None``
    (a wrong token, another tournament's, or a cancelled booking's: the link is dead)."""
    if not token or len(token) > 100:
        return None
    return (Booking.objects.filter(tournament=tournament, token_hash=token_hash(token))
            .exclude(state=Booking.State.CANCELLED).first())


def _single_check(booking: Booking) -> None:
    # a one-name booking seeks a partner only in a pairs tournament (rules.md §21)
    if booking.tournament.kind != Tournament.Kind.PAIRS:
        raise ArbiterError(_("Si cerca compagno solo in un torneo a coppie."))
    if not booking.single or booking.state == Booking.State.CANCELLED:
        raise ArbiterError(_("Solo chi cerca compagno può abbinarsi."))
    if booking.partner_id or Booking.objects.filter(partner=booking).exists():
        raise ArbiterError(_("%(name)s ha già un compagno.") % {"name": booking.public_name})
    if booking.registered_at is not None:
        raise ArbiterError(_("La prenotazione è già diventata un'iscrizione."))


@retry_when_busy
@transaction.atomic
def ask_partner(*, booking: Booking, other: Booking) -> Booking:
    """``booking`` (a single, from his private link) asks ``other`` (a single of the same
    tournament) to pair; ``other`` accepts from his own link (:func:`accept_partner`).
    Raises ArbiterError for anything but two distinct unpaired singles of one tournament."""
    _lock(booking.tournament)
    booking = Booking.objects.select_for_update().get(pk=booking.pk)
    other = Booking.objects.select_for_update().get(pk=other.pk)
    if booking.pk == other.pk or booking.tournament_id != other.tournament_id:
        raise ArbiterError(_("Scegli un altro giocatore che cerca compagno."))
    _single_check(booking)
    _single_check(other)
    booking.asks = other
    booking.save(update_fields=["asks"])
    return booking


def _join(a: Booking, b: Booking) -> None:
    _single_check(a)
    _single_check(b)
    a.partner, a.asks, b.asks = b, None, None
    a.save(update_fields=["partner", "asks"])
    b.save(update_fields=["asks"])
    Booking.objects.filter(asks__in=[a, b]).update(asks=None)


@retry_when_busy
@transaction.atomic
def accept_partner(*, booking: Booking, asker: Booking) -> Booking:
    """``booking`` accepts the request of ``asker`` (who asked him): the two singles are a
    pair from now on (still two half-pairs for the cap). Raises ArbiterError when ``asker``
    did not ask him or either is no longer free."""
    _lock(booking.tournament)
    booking = Booking.objects.select_for_update().get(pk=booking.pk)
    asker = Booking.objects.select_for_update().get(pk=asker.pk)
    if asker.asks_id != booking.pk:
        raise ArbiterError(_("Questa richiesta non c'è più."))
    _join(asker, booking)
    return asker


@retry_when_busy
@transaction.atomic
def pair_singles(*, a: Booking, b: Booking) -> Booking:
    """The arbiter pairs two singles of one tournament. Raises ArbiterError as
    :func:`ask_partner`."""
    _lock(a.tournament)
    a = Booking.objects.select_for_update().get(pk=a.pk)
    b = Booking.objects.select_for_update().get(pk=b.pk)
    if a.pk == b.pk or a.tournament_id != b.tournament_id:
        raise ArbiterError(_("Scegli due giocatori diversi che cercano compagno."))
    _join(a, b)
    return a


def partner_of(booking: Booking) -> Booking | None:
    """The single paired with ``booking``, either way round, or ``None`` (read from the
    database, not from the possibly stale ``booking``)."""
    return Booking.objects.filter(Q(partner=booking) | Q(partner_of=booking)).first()


@retry_when_busy
@transaction.atomic
def edit(*, booking: Booking, players: list[PlayerData], contact: str, team_name: str | None = None) -> Booking:
    """The arbiter corrects a booking's names, membership numbers and contact (its place,
    arrival number and kind stay). ``players``: one for a single, two for a pair.
    Raises ArbiterError: a cancelled or already registered booking (correct the entrant
    instead), a wrong number of players, a bad name, a membership number booked elsewhere.
    ``team_name`` (a teams tournament's booking; ``None`` leaves it) as :func:`book` checks it."""
    _lock(booking.tournament)
    booking = Booking.objects.select_for_update().get(pk=booking.pk)
    if booking.state == Booking.State.CANCELLED or booking.registered_at is not None:
        raise ArbiterError(_("Si correggono solo le prenotazioni non annullate e non ancora iscritte."))
    if len(players) != (1 if booking.single else 2):
        raise ArbiterError(_("Una prenotazione è di una coppia (due nomi) o di un giocatore solo."))
    players = [_clean_name(p) for p in players]
    if team_name is not None:
        booking.team_name = _team_name(booking.tournament, players, team_name)
    numbers = [p.membership_number for p in players if p.membership_number]
    if len(numbers) != len(set(numbers)):
        raise ArbiterError(_("Lo stesso giocatore (tessera) non può comparire due volte nella coppia."))
    others = booking.tournament.bookings.exclude(state=Booking.State.CANCELLED).exclude(pk=booking.pk)
    for number in numbers:
        if others.filter(Q(membership_1=number) | Q(membership_2=number)).exists():
            raise ArbiterError(_("La tessera %(number)s ha già una prenotazione per questo torneo.")
                               % {"number": number})
    booking.last_name_1, booking.first_name_1 = players[0].last_name, players[0].first_name
    booking.membership_1 = players[0].membership_number
    if not booking.single:
        booking.last_name_2, booking.first_name_2 = players[1].last_name, players[1].first_name
        booking.membership_2 = players[1].membership_number
    if not booking.contact_purged:
        booking.contact = clean_line(contact, label=_("Telefono o e-mail"), max_length=200)
    booking.save()
    return booking
