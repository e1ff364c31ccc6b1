"""Score sheets and their hands (rules.md §3), and the kinds of correction (art. 31)."""
from __future__ import annotations

from decimal import Decimal

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from .rounds import Table


class CorrectionKind(models.TextChoices):
    """The kind of a correction to a score sheet (rules.md §3, seed code art. 31).

    Chosen by the arbiter and kept in the audit entry (``AuditEntry.new["kind"]``);
    the kind decides until when the correction is allowed
    (:func:`tournaments.services.corrections.correction_refusal`). Not a database field.
    """

    TRANSCRIPTION = "transcription", _("trascrizione")
    SUM_ERROR = "sum_error", _("errore di somma")
    SWAPPED_LINES = "swapped_lines", _("linee invertite")
    ARBITRAL = "arbitral", _("punteggio arbitrale")


class ScoreSheet(models.Model):
    """The score sheet (*score*) of one table in one round (rules.md §3).

    Totals, difference and VP are derived by ``scoring.sheets.sheet_totals`` and
    stored here only so standings read one row per table.
    """

    class State(models.TextChoices):
        EMPTY = "empty", _("Da inserire")
        ENTERED = "entered", _("Inserito")
        CONFIRMED = "confirmed", _("Confermato")
        DISPUTED = "disputed", _("Contestato")
        VALIDATED = "validated", _("Validato")

    table = models.OneToOneField(Table, on_delete=models.CASCADE, related_name="sheet")
    state = models.CharField(max_length=10, choices=State.choices, default=State.EMPTY)
    declared_ns = models.IntegerField(null=True, blank=True)
    declared_ew = models.IntegerField(null=True, blank=True)
    mp_ns = models.IntegerField(default=0)
    mp_ew = models.IntegerField(default=0)
    vp_ns = models.DecimalField(max_digits=6, decimal_places=2, default=Decimal("0"))
    vp_ew = models.DecimalField(max_digits=6, decimal_places=2, default=Decimal("0"))
    sum_error = models.BooleanField(default=False)
    arbitral = models.BooleanField(_("punteggio arbitrale"), default=False)
    arbitral_note = models.CharField(max_length=200, blank=True)
    version = models.PositiveIntegerField(default=0)
    content_hash = models.CharField(max_length=64, blank=True)
    entered_by = models.CharField(max_length=60, blank=True)
    entered_by_captain = models.BooleanField(default=False)
    confirmed_by = models.CharField(max_length=60, blank=True)
    dispute_note = models.CharField(max_length=300, blank=True)
    # Which browser entered and which confirmed (device cookie id, 32 hex, or
    # ""; a 16-hex hash of the User-Agent). Only a hint on the board, never a refusal.
    entry_device = models.CharField(max_length=32, blank=True)
    entry_agent = models.CharField(max_length=16, blank=True)
    confirm_device = models.CharField(max_length=32, blank=True)
    confirm_agent = models.CharField(max_length=16, blank=True)
    # rules.md §11: the table's remaining clock seconds when the sheet was last entered
    # (negative: after time was up); None when the clock was not started.
    entered_clock_seconds = models.IntegerField(null=True, blank=True)
    # The arbiter's unfinished grid of a sheet still empty, as typed
    # ({"cells": {"h1_ns": "150", ...}, "parts": bool}); None when there is none. Not counted
    # anywhere (the sheet stays empty), blocks closing the round, and captains get a 409.
    draft = models.JSONField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("score")
        verbose_name_plural = _("score")

    def __str__(self) -> str:
        return f"score {self.table}"

    @property
    def is_filled(self) -> bool:
        return self.state != self.State.EMPTY

    @property
    def is_draft(self) -> bool:
        """True while the arbiter's incomplete draft is stored."""
        return self.draft is not None


class HandRow(models.Model):
    """One hand (*smazzata*) of a score sheet: per line the base, the cards and the total."""

    sheet = models.ForeignKey(ScoreSheet, on_delete=models.CASCADE, related_name="hands")
    number = models.PositiveSmallIntegerField()
    ns_base = models.IntegerField(null=True, blank=True)
    ns_cards = models.IntegerField(null=True, blank=True)
    ns_score = models.IntegerField()
    ew_base = models.IntegerField(null=True, blank=True)
    ew_cards = models.IntegerField(null=True, blank=True)
    ew_score = models.IntegerField()

    class Meta:
        ordering = ["sheet", "number"]
        constraints = [
            models.UniqueConstraint(fields=["sheet", "number"], name="hand_number_unique_in_sheet"),
            models.CheckConstraint(condition=Q(number__gte=1), name="hand_number_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.sheet} h{self.number}"

