"""Rounds, tables and seats (rules.md §1, §5–§7): a table seats two lines, N/S and E/W."""
from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from ..i18n_messages import stored_text
from .entrants import Pair
from .tournament import RoundSystem, Tournament, new_pin, new_token


class Round(models.Model):
    System = RoundSystem  # defined with the tournament, whose plan names each round's system

    class State(models.TextChoices):
        DRAFT = "draft", _("Bozza")
        PUBLISHED = "published", _("Pubblicato")
        CLOSED = "closed", _("Chiuso")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField(_("turno"))
    system = models.CharField(_("sistema"), max_length=20, choices=System.choices)
    state = models.CharField(_("stato"), max_length=10, choices=State.choices, default=State.DRAFT)
    step = models.PositiveSmallIntegerField(_("salto"), default=1)
    seed = models.BigIntegerField(_("seme del sorteggio"), null=True, blank=True)
    pairing_request = models.JSONField(default=dict, blank=True)
    warnings = models.JSONField(default=list, blank=True)  # items: {"code", "params", "text"} or text
    explanations = models.JSONField(default=list, blank=True)
    check_report = models.JSONField(default=list, blank=True)  # items: {"code", "params", "text"} or text
    drawn_from = models.JSONField(
        default=dict,
        blank=True,
        help_text="What the draft was computed from (rules.md §12): the settings that affect "
        "pairing, the standings it ranked, the pairing request, and the state digest of the "
        "generate form that asked for it. Compared with the same values now to tell an "
        "outdated draft.",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    published_at = models.DateTimeField(null=True, blank=True)
    closed_at = models.DateTimeField(null=True, blank=True)
    # The round clock (rules.md §11), stored as instants (tournaments.clock.ClockState):
    # seconds of the round, start, running pause, seconds of ended pauses, seconds added.
    clock_duration = models.PositiveIntegerField(default=0)
    clock_started_at = models.DateTimeField(null=True, blank=True)
    clock_paused_at = models.DateTimeField(null=True, blank=True)
    clock_paused_seconds = models.PositiveIntegerField(default=0)
    clock_added_seconds = models.IntegerField(default=0)

    class Meta:
        ordering = ["tournament", "number"]
        verbose_name = _("turno")
        verbose_name_plural = _("turni")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="round_number_unique_in_tournament"),
            models.CheckConstraint(condition=Q(number__gte=1), name="round_number_positive"),
        ]

    @property
    def check_messages(self) -> list[str]:
        """The checker's report in the reader's language."""
        return [stored_text(item) for item in self.check_report or []]

    @property
    def warning_messages(self) -> list[str]:
        """The pairing warnings (``warnings``: ``{"code", "params", "text"}`` items, or the plain
        Italian strings of rounds drawn before they had codes) in the reader's language."""
        return [stored_text(item) for item in self.warnings or []]

    def __str__(self) -> str:
        return f"{self.tournament} – turno {self.number}"


class Table(models.Model):
    """A table of a round. A rest (*riposo*) is a table with one seat only (``bye``)."""

    class Bye(models.TextChoices):
        NONE = "", _("—")
        REST = "rest", _("Riposo")
        FORCED = "forced", _("Riposo forzato")

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField(_("tavolo"))
    bye = models.CharField(_("riposo"), max_length=6, choices=Bye.choices, default=Bye.NONE, blank=True)
    token = models.CharField(max_length=64, unique=True, default=new_token)
    pin = models.CharField(max_length=4, default=new_pin)
    # Extra seconds of the round clock for this table only (a late start, rules.md §11).
    clock_extra_seconds = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["round", "number"]
        verbose_name = _("tavolo")
        verbose_name_plural = _("tavoli")
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="table_number_unique_in_round"),
            models.CheckConstraint(condition=Q(number__gte=1), name="table_number_positive"),
        ]

    def __str__(self) -> str:
        return f"T{self.number}"

    def _seat(self, line: str) -> "Pair | None":
        for seat in self.seats.all():
            if seat.line == line:
                return seat.pair
        return None

    @property
    def ns(self) -> "Pair | None":
        return self._seat(Seat.Line.NS)

    @property
    def ew(self) -> "Pair | None":
        return self._seat(Seat.Line.EW)

    @property
    def is_bye(self) -> bool:
        return bool(self.bye)

    @property
    def resting_pair(self) -> "Pair | None":
        return self.ns or self.ew if self.bye else None


class Seat(models.Model):
    class Line(models.TextChoices):
        NS = "ns", _("N/S")
        EW = "ew", _("E/O")

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="seats")
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    # RESTRICT, not PROTECT: a pair with a seat cannot be deleted, except together with the
    # round that formed it (rules.md §9: deleting a draft deletes its formed partnerships).
    pair = models.ForeignKey(Pair, on_delete=models.RESTRICT, related_name="seats")
    line = models.CharField(max_length=2, choices=Line.choices)

    class Meta:
        ordering = ["table", "line"]
        constraints = [
            models.UniqueConstraint(fields=["round", "pair"], name="seat_pair_once_per_round"),
            models.UniqueConstraint(fields=["table", "line"], name="seat_one_pair_per_line"),
        ]

    def __str__(self) -> str:
        return f"{self.table} {self.line} {self.pair_id}"
