"""The money of an evening (rules.md §21): the fees, what each player paid, the refunds.

Money is ``Decimal`` with two decimals everywhere (``DecimalField(decimal_places=2)``), never
float. Prize amounts live in the tournament's prize list (§18, ``"amount"``/``"share"``); who
wins is computed from the standings, so nothing about prizes is stored here.
"""
from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

MONEY = {"max_digits": 9, "decimal_places": 2}


class FeeSchedule(models.Model):
    """A tournament's rates and prize pool (rules.md §21).

    ``member_rate``/``guest_rate``: the fee per player; ``category_rates``: ``{"Juniores":
    "5.00"}`` (category as in the member registry, compared case-blind, §16). The pool is
    ``pool_amount`` (fixed) or ``pool_percent`` of the collected fees (one of them, or none:
    no prizes in money), capped at ``pool_cap`` when given."""

    tournament = models.OneToOneField("tournaments.Tournament", on_delete=models.CASCADE, related_name="fees")
    member_rate = models.DecimalField(_("quota soci"), default=0, **MONEY)
    guest_rate = models.DecimalField(_("quota ospiti"), default=0, **MONEY)
    category_rates = models.JSONField(default=dict, blank=True)
    pool_amount = models.DecimalField(_("montepremi fisso"), null=True, blank=True, **MONEY)
    pool_percent = models.DecimalField(_("montepremi in percentuale"), null=True, blank=True, max_digits=5,
                                       decimal_places=2)
    pool_cap = models.DecimalField(_("tetto del montepremi"), null=True, blank=True, **MONEY)

    class Meta:
        constraints = [
            models.CheckConstraint(condition=Q(pool_amount__isnull=True) | Q(pool_percent__isnull=True),
                                   name="fees_one_pool_kind"),
        ]


class PlayerFee(models.Model):
    """One player's fee (rules.md §21): ``paid`` (the ``amount`` at the rate ``rate`` with a
    ``method``) or ``waived`` (with a ``reason``: owes nothing, pays nothing). No row: not yet
    paid. ``rate`` is ``member``, ``guest`` or ``category:NAME``."""

    class State(models.TextChoices):
        PAID = "paid", _("pagata")
        WAIVED = "waived", _("esonerata")

    class Method(models.TextChoices):
        CASH = "cash", _("contanti")
        CARD = "card", _("carta")
        OTHER = "other", _("altro")

    tournament = models.ForeignKey("tournaments.Tournament", on_delete=models.CASCADE, related_name="player_fees")
    player = models.OneToOneField("tournaments.Player", on_delete=models.CASCADE, related_name="fee")
    state = models.CharField(max_length=8, choices=State.choices)
    rate = models.CharField(max_length=80)
    amount = models.DecimalField(**MONEY)
    method = models.CharField(max_length=8, choices=Method.choices, blank=True)
    reason = models.CharField(max_length=200, blank=True)
    at = models.DateTimeField(auto_now=True)


class Refund(models.Model):
    """Money given back to an entrant (``entrant``: the pair's, player's or team's number),
    rules.md §21: collected = paid − refunds."""

    tournament = models.ForeignKey("tournaments.Tournament", on_delete=models.CASCADE, related_name="refunds")
    entrant = models.PositiveIntegerField()
    amount = models.DecimalField(**MONEY)
    reason = models.CharField(max_length=200, blank=True)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
