"""From bookings to entrants (rules.md §21, §16): check-in at the door and registering the
booked bookings, through the tournament's own registration services.

Idempotent both ways: a booking becomes one entrant at most. The conditional update
``registered_at IS NULL → now`` and the registration run in one transaction under the
tournament's row lock, so the check-in page and ``manage.py bookings --register`` racing
on one booking register it once; a refused registration (a membership number already
registered by hand) rolls the mark back and leaves the booking unregistered.
"""
from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments import services as tournament_services
from tournaments.demo.simulation import simulator_user
from tournaments.errors import ArbiterError
from tournaments.models import Tournament
from tournaments.registrations.player_data import PlayerData
from tournaments.services.guard import retry_when_busy

from .models import Booking
from .services import partner_of


def teams_refusal() -> str:
    """Why a teams tournament's booking does not become an entrant by itself: it holds the
    team's place in its captain's name, and a team is registered with its 4 to 6 players
    (rules.md §15) on the teams page; the check-in desk only marks the captain present."""
    return _("In un torneo a squadre la prenotazione tiene il posto della squadra a nome del capitano: "
             "la squadra si iscrive con i suoi giocatori dalla pagina Squadre.")


def _players(booking: Booking) -> list[PlayerData]:
    out = [PlayerData(first_name=booking.first_name_1, last_name=booking.last_name_1,
                      membership_number=booking.membership_1)]
    if not booking.single:
        out.append(PlayerData(first_name=booking.first_name_2, last_name=booking.last_name_2,
                              membership_number=booking.membership_2))
    return out


def _actor(tournament: Tournament, by):
    if by is not None:
        return by
    return tournament.created_by or simulator_user()


@retry_when_busy
@transaction.atomic
def register(*, booking: Booking, by) -> list[int]:
    """Make ``booking`` an entrant (a pair, or players of an individual tournament), linked
    to the club's members as registration links them (§16). Two paired singles become one
    pair (both bookings marked). Returns the new entrant numbers, ``[]`` when the booking is
    already registered (idempotent).

    Raises ArbiterError: a waiting or cancelled booking, a single without a partner in a
    pairs tournament (the arbiter pairs him first), a teams tournament (register teams on
    the teams page), or the registration service's refusal (the tournament started, a
    membership number already registered)."""
    tournament = Tournament.objects.select_for_update().get(pk=booking.tournament_id)
    booking = Booking.objects.select_for_update().get(pk=booking.pk)
    if booking.registered_at is not None:
        return []
    if booking.state != Booking.State.BOOKED:
        raise ArbiterError(_("Solo una prenotazione confermata (non in attesa, non annullata) diventa un'iscrizione."))
    by = _actor(tournament, by)
    now = timezone.now()
    if tournament.kind == Tournament.Kind.TEAMS:
        raise ArbiterError(teams_refusal())
    if tournament.kind == Tournament.Kind.INDIVIDUAL:
        numbers = [tournament_services.add_player(tournament=tournament, player=p, by=by).number
                   for p in _players(booking)]
        marked = [booking.pk]
    else:
        players, marked = _players(booking), [booking.pk]
        if booking.single:
            partner = partner_of(booking)
            if partner is None:
                raise ArbiterError(_("%(name)s cerca ancora un compagno: abbinalo prima di iscriverlo.")
                                   % {"name": booking.names})
            if partner.state != Booking.State.BOOKED:
                raise ArbiterError(_("Il compagno di %(name)s è in lista d'attesa.") % {"name": booking.names})
            players += _players(partner)
            marked.append(partner.pk)
        numbers = [tournament_services.add_pair(tournament=tournament, players=players, by=by).number]
    # conditional: only bookings still unregistered are marked; a second caller saw the
    # mark above under the same locks and returned []
    done = Booking.objects.filter(pk__in=marked, registered_at__isnull=True).update(
        registered_at=now, entrant_numbers=numbers)
    if done != len(marked):  # pragma: no cover - the row locks above make this impossible
        raise ArbiterError(_("La prenotazione è già diventata un'iscrizione."))
    return numbers


@transaction.atomic
def check_in(*, booking: Booking, by) -> list[int]:
    """The arbiter marks ``booking`` present at the door and registers it (:func:`register`);
    idempotent. Returns the new entrant numbers (``[]`` when already registered, and in a
    teams tournament, where the captain is only marked present: :func:`teams_refusal`)."""
    if tournament_kind(booking) == Tournament.Kind.TEAMS:
        if booking.state != Booking.State.BOOKED:
            raise ArbiterError(_("Solo una prenotazione confermata (non in attesa, non annullata) diventa un'iscrizione."))
        Booking.objects.filter(pk=booking.pk).update(present=True)
        return []
    numbers = register(booking=booking, by=by)
    Booking.objects.filter(pk=booking.pk).update(present=True)
    partner = partner_of(booking)
    if partner is not None and tournament_kind(booking) == Tournament.Kind.PAIRS:
        Booking.objects.filter(pk=partner.pk).update(present=True)
    return numbers


def tournament_kind(booking: Booking) -> str:
    return Tournament.objects.values_list("kind", flat=True).get(pk=booking.tournament_id)


def register_booked(*, tournament: Tournament, by) -> int:
    """Register every booked booking not yet an entrant, in arrival order (``manage.py
    bookings SLUG --register``). Singles without a partner are left for the arbiter.
    Returns how many bookings became entrants; a refusal stops at that booking with its
    sentence (those before it stay registered). Raises ArbiterError in a teams tournament
    (:func:`teams_refusal`)."""
    if tournament.kind == Tournament.Kind.TEAMS:
        raise ArbiterError(teams_refusal())
    count = 0
    for booking in tournament.bookings.filter(state=Booking.State.BOOKED, registered_at__isnull=True).order_by("seq"):
        if booking.single and tournament.kind == Tournament.Kind.PAIRS and partner_of(booking) is None:
            continue
        booking.refresh_from_db()
        if booking.registered_at is None and register(booking=booking, by=by):
            count += 1 + (booking.single and tournament.kind == Tournament.Kind.PAIRS)
    return count


@transaction.atomic
def leave_out_no_shows(*, tournament: Tournament, by) -> int:
    """Before the first draw: remove the entrants registered from bookings whose players were
    not checked in (rules.md §21: only those present are drawn). Returns how many entrants
    were removed. Raises ArbiterError once a round exists (art. 33 governs latecomers)."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.rounds.exists():
        raise ArbiterError(_("Il torneo è già iniziato: i ritardatari seguono l'art. 33."))
    by = _actor(tournament, by)
    removed = 0
    absent = tournament.bookings.filter(registered_at__isnull=False, present=False)
    for booking in list(absent):
        for number in booking.entrant_numbers:
            if tournament.kind == Tournament.Kind.INDIVIDUAL:
                player = tournament.players.filter(number=number, pair__isnull=True).first()
                if player:
                    tournament_services.remove_player(player=player, by=by)
                    removed += 1
            else:
                pair = tournament.pairs.filter(number=number, round__isnull=True).first()
                if pair:
                    tournament_services.remove_pair(pair=pair, by=by)
                    removed += 1
    absent.update(registered_at=None, entrant_numbers=[])
    return removed
