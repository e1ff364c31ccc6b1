"""Bookings of a tournament (rules.md §21): the tournament's booking window and its bookings."""
from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments.models import Tournament


class BookingWindow(models.Model):
    """Whether, when and how many a tournament takes bookings (one per tournament).

    ``cap`` is in the tournament's entrants (pairs, players or teams, rules.md §21);
    ``next_seq`` is the arrival number the next booking gets, read and advanced under the
    tournament's row lock."""

    tournament = models.OneToOneField(Tournament, on_delete=models.CASCADE, related_name="booking_window")
    is_open = models.BooleanField(_("prenotazioni aperte"), default=False)
    opens_at = models.DateTimeField(_("aperte dal"), null=True, blank=True)
    until = models.DateTimeField(_("aperte fino al"), null=True, blank=True)
    cap = models.PositiveIntegerField(_("posti"), default=0)
    message = models.TextField(_("messaggio"), blank=True, default="", max_length=1000)
    next_seq = models.PositiveIntegerField(default=1)


class Booking(models.Model):
    """One booking: a pair (two names) or a single player «cerco compagno»; in an individual
    tournament one or two players; in a teams tournament a team (its name and captain).

    ``code`` is the public reference (said on the phone, printed on the list); ``token_hash``
    the SHA-256 of the private link's secret, which only the booker holds. ``seq`` is the
    arrival order, unique in the tournament: the waiting list is the waiting bookings by
    ``seq``."""

    class State(models.TextChoices):
        BOOKED = "booked", _("Prenotata")
        WAITING = "waiting", _("In attesa")
        CANCELLED = "cancelled", _("Annullata")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="bookings")
    code = models.CharField(_("codice"), max_length=12)
    token_hash = models.CharField(max_length=64, unique=True)
    seq = models.PositiveIntegerField(_("ordine di arrivo"))
    single = models.BooleanField(_("cerco compagno"), default=False)
    state = models.CharField(_("stato"), max_length=10, choices=State.choices)
    last_name_1 = models.CharField(_("cognome"), max_length=80)
    first_name_1 = models.CharField(_("nome"), max_length=80)
    membership_1 = models.CharField(_("tessera"), max_length=30, blank=True, default="")
    last_name_2 = models.CharField(_("cognome del compagno"), max_length=80, blank=True, default="")
    first_name_2 = models.CharField(_("nome del compagno"), max_length=80, blank=True, default="")
    membership_2 = models.CharField(_("tessera del compagno"), max_length=30, blank=True, default="")
    # a teams tournament's booking: the team's name, the captain in the first player's fields
    team_name = models.CharField(_("nome della squadra"), max_length=120, blank=True, default="")
    contact = models.CharField(_("telefono o e-mail"), max_length=200, blank=True, default="")
    contact_purged = models.BooleanField(default=False)
    # singles: the single this one asked to pair with, and the partner once accepted
    asks = models.ForeignKey("self", null=True, blank=True, on_delete=models.SET_NULL, related_name="asked_by")
    partner = models.OneToOneField("self", null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="partner_of")
    present = models.BooleanField(_("presente"), default=False)
    registered_at = models.DateTimeField(null=True, blank=True)
    entrant_numbers = models.JSONField(default=list, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    cancelled_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["seq"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "seq"], name="booking_seq_unique"),
            models.UniqueConstraint(fields=["tournament", "code"], name="booking_code_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.code} {self.names}"

    @property
    def names(self) -> str:
        """«Cognome Nome» of each booked player, joined by « – »; a team's booking «Nome
        squadra (Cognome Nome)», its captain in brackets."""
        first = f"{self.last_name_1} {self.first_name_1}"
        if self.team_name:  # a team, booked by its captain
            return f"{self.team_name} ({first})"
        if self.single:
            return first
        return f"{first} – {self.last_name_2} {self.first_name_2}"

    @property
    def public_name(self) -> str:
        """What other singles see: first name and the surname's initial («Anna R.»)."""
        return f"{self.first_name_1} {self.last_name_1[:1]}."
