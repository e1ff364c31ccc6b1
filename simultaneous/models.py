"""A simultaneous evening (*simultaneo*, rules.md §20): one set of settings played by several
clubs, each in its own tournament, ranked together.

This app sits above ``tournaments`` (like ``championships``): an event lists the clubs it
invites and, per club, the tournament that club plays; ``tournaments`` never imports it. The
combined standings are never stored: ``simultaneous.selectors`` computes them from the
attached tournaments' current results, so a correction at any club moves them.
"""
from __future__ import annotations

from decimal import Decimal

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from clubs.models import Club
from tournaments.models import Tournament
from tournaments.models.tournament import DEFAULT_TIEBREAKS

#: The event's settings a club's tournament must share (``Tournament`` field names), in the
#: order a refusal names them (rules.md §20: plan, hands, scale, tie-breaks, rest, date).
SHARED_SETTINGS = ("kind", "plan", "hands_per_round", "vp_scale", "tiebreaks", "bye_percent", "bye_mp", "date")


class SimultaneousEvent(models.Model):
    """One simultaneous evening: its settings (the ``Tournament`` fields of
    :data:`SHARED_SETTINGS`, the VP scale a built-in one: custom scales belong to one club),
    the invited clubs, a prize list over the combined field and per club (rules.md §18,
    scopes ``overall`` and ``club:SLUG``) and the switches of its public page and projector."""

    slug = models.SlugField(_("indirizzo breve"), max_length=80, unique=True)
    name = models.CharField(_("nome"), max_length=200)
    date = models.DateField(_("data"))
    kind = models.CharField(_("tipo"), max_length=12, choices=Tournament.Kind.choices, default=Tournament.Kind.PAIRS)
    plan = models.CharField(_("piano dei turni"), max_length=40, default="MMMD")
    hands_per_round = models.PositiveSmallIntegerField(_("smazzate per turno"), default=4)
    vp_scale = models.CharField(_("tabella VP"), max_length=60, default="vp20-4h")
    tiebreaks = models.CharField(_("spareggi"), max_length=120, default=DEFAULT_TIEBREAKS)
    bye_percent = models.DecimalField(_("riposo: % dei VP massimi"), max_digits=5, decimal_places=2,
                                      default=Decimal("70"))
    bye_mp = models.CharField(_("riposo: MP accreditati"), max_length=20, choices=Tournament.ByeMP.choices,
                              default=Tournament.ByeMP.ZERO)
    clubs = models.ManyToManyField(Club, related_name="simultaneous_events", verbose_name=_("circoli invitati"))
    prize_list = models.JSONField(_("premi"), default=list, blank=True)
    # off until the operator publishes the event (names of players on a page without login,
    # docs/security.md), as a tournament's and a championship's pages
    public_enabled = models.BooleanField(_("pagina pubblica attiva"), default=False)
    projector_enabled = models.BooleanField(_("vista proiettore attiva"), default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-date", "-created_at"]
        verbose_name = _("serata simultanea")
        verbose_name_plural = _("serate simultanee")
        constraints = [
            models.CheckConstraint(condition=Q(hands_per_round__gte=1), name="simultaneous_hands_positive"),
            models.CheckConstraint(condition=Q(bye_percent__gte=0) & Q(bye_percent__lte=100),
                                   name="simultaneous_bye_percent_range"),
        ]

    def __str__(self) -> str:
        return self.name

    def settings(self) -> dict:
        """The shared settings as ``Tournament`` field → value (:data:`SHARED_SETTINGS`)."""
        return {key: getattr(self, key) for key in SHARED_SETTINGS}


class Participation(models.Model):
    """The tournament a club plays for an event: one per club and event, and a tournament
    belongs to one event at most (rules.md §20)."""

    event = models.ForeignKey(SimultaneousEvent, on_delete=models.CASCADE, related_name="participations")
    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="+")
    tournament = models.OneToOneField(Tournament, on_delete=models.CASCADE, related_name="simultaneous_participation")
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["event", "club__name", "id"]
        verbose_name = _("partecipazione a un simultaneo")
        verbose_name_plural = _("partecipazioni ai simultanei")
        constraints = [
            models.UniqueConstraint(fields=["event", "club"], name="simultaneous_one_tournament_per_club"),
        ]

    def __str__(self) -> str:
        return f"{self.event_id}:{self.club_id}:{self.tournament_id}"
