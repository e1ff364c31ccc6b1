"""A table's call to the arbiter from the captain's phone («Chiama l'arbitro»).

At most one open call per table (a table belongs to one round, so this is also "per table
and round"): a partial unique constraint on the table while the call is not resolved, so a
second tap, or two phones of the same table tapping at once, can never store a second one
(``tournaments.services.calls.call_arbiter`` inserts it only when none is open).
"""
from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from .rounds import Round, Table


class ArbiterCall(models.Model):
    """One call: who called (the captain's line label), why (optional), and the arbiter's
    answers «Arrivo» (``taken_at``) and «Risolto» (``resolved_at``)."""

    class Reason(models.TextChoices):
        NONE = "", _("—")
        DISPUTE = "dispute", _("contestazione")
        CARD = "card", _("carta mancante")
        TIME = "time", _("tempo")
        OTHER = "other", _("altro")

    class State(models.TextChoices):
        OPEN = "open", _("chiamata")
        TAKEN = "taken", _("l'arbitro arriva")
        RESOLVED = "resolved", _("risolta")

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="arbiter_calls")
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="arbiter_calls")
    reason = models.CharField(_("motivo"), max_length=10, choices=Reason.choices, blank=True, default="")
    state = models.CharField(max_length=10, choices=State.choices, default=State.OPEN)
    called_by = models.CharField(max_length=60, blank=True)
    called_at = models.DateTimeField()
    taken_at = models.DateTimeField(null=True, blank=True)
    taken_by = models.CharField(max_length=80, blank=True)
    resolved_at = models.DateTimeField(null=True, blank=True)
    resolved_by = models.CharField(max_length=80, blank=True)

    class Meta:
        ordering = ["round", "called_at", "id"]
        verbose_name = _("chiamata dell'arbitro")
        verbose_name_plural = _("chiamate dell'arbitro")
        constraints = [
            models.UniqueConstraint(fields=["table"], condition=~Q(state="resolved"),
                                    name="arbiter_call_one_open_per_table"),
            models.CheckConstraint(
                condition=Q(state="open", taken_at__isnull=True, resolved_at__isnull=True)
                | Q(state="taken", taken_at__isnull=False, resolved_at__isnull=True)
                | Q(state="resolved", resolved_at__isnull=False),
                name="arbiter_call_state_consistent",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table} {self.state}"
