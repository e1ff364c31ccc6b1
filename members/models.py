"""The club's member registry (rules.md §16): people kept from one evening to the next.

This app sits below ``tournaments`` and above ``clubs``: a tournament's ``Player`` points at a
``Member``, a ``Member`` at the ``Club`` that owns him (rules.md §20); nothing here imports
``tournaments``.
"""
from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from clubs.models import Club, default_club_id

from .names import name_key

#: The most members the registry holds (rules.md §16 asks at least 20,000): an import or a new
#: member beyond it is refused with a sentence. The search stays under 50 ms a keystroke at
#: this size on SQLite (bench/season.py measures 5000).
MAX_MEMBERS = 50_000


class Member(models.Model):
    """A club member (*socio*, rules.md §16).

    ``club`` is the club whose registry holds him (rules.md §20); ``registered_club`` the
    *circolo di tesseramento*, the club he is registered with at the federation (free text of
    a member list's ``circolo`` column). ``membership_number`` (*tessera*) is unique within
    the club when given (the same *tessera* in two clubs is two members of one person); a member without one
    is known by ``name_key`` (the full name with case, accents, spaces and apostrophes ignored).
    ``expires_on`` is the membership's expiry (*scadenza del tesseramento*); ``category`` is free
    text the club chooses (*Dame*, *Seniores*…). ``source`` says where the member came from.
    """

    class Source(models.TextChoices):
        LIST = "list", _("elenco importato")
        REGISTRATION = "registration", _("iscrizione a un torneo")
        MANUAL = "manual", _("inserito a mano")

    membership_number = models.CharField(_("tessera"), max_length=30, null=True, blank=True)
    last_name = models.CharField(_("cognome"), max_length=80)
    first_name = models.CharField(_("nome"), max_length=80)
    name_key = models.CharField(max_length=170, db_index=True, editable=False)
    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="members", default=default_club_id,
                             verbose_name=_("circolo"))
    registered_club = models.CharField(_("circolo di tesseramento"), max_length=120, blank=True)
    category = models.CharField(_("categoria"), max_length=60, blank=True)
    expires_on = models.DateField(_("scadenza"), null=True, blank=True)
    source = models.CharField(_("origine"), max_length=12, choices=Source.choices, default=Source.MANUAL)
    # True once the number appeared in an imported member list (an "unknown" number is one
    # that never did, §16).
    listed = models.BooleanField(_("in un elenco importato"), default=False)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    # Set when the member was erased on request (personal data): the row stays, named
    # «Socio cancellato #id», so the evenings he played keep their results.
    erased_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["last_name", "first_name"]
        verbose_name = _("socio")
        verbose_name_plural = _("soci")
        constraints = [
            models.UniqueConstraint(fields=["club", "membership_number"],
                                    condition=Q(membership_number__isnull=False),
                                    name="member_number_unique_in_club"),
            models.CheckConstraint(condition=~Q(membership_number=""), name="member_number_null_not_blank"),
        ]

    def __str__(self) -> str:
        return self.display_name

    def save(self, *args, **kwargs):
        """Keeps ``name_key`` in step with the names (a blank number is stored as null)."""
        self.name_key = name_key(self.last_name, self.first_name)
        if not self.membership_number:
            self.membership_number = None
        if kwargs.get("update_fields") is not None:
            kwargs["update_fields"] = set(kwargs["update_fields"]) | {"name_key", "membership_number"}
        super().save(*args, **kwargs)

    @property
    def display_name(self) -> str:
        return f"{self.last_name} {self.first_name}"


class MemberEvent(models.Model):
    """The registry's own audit trail (who, when, what): a member added, edited, merged,
    erased, a list imported. ``member_id`` is a plain number, kept after an erasure; ``details``
    holds ids, counts and field names, never a person's name or number (personal data)."""

    at = models.DateTimeField(auto_now_add=True, db_index=True)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                             related_name="+")
    actor = models.CharField(max_length=150)
    action = models.CharField(max_length=30)
    member_id = models.PositiveBigIntegerField(null=True, blank=True, db_index=True)
    details = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["-at", "-id"]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.actor} {self.action} {self.member_id or ''}"
