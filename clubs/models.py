"""Clubs (*circoli*, rules.md §20): the owners of members, tournaments, championships and
custom VP scales; the accounts working for each and their role.

This app sits below ``members``, ``tournaments`` and ``championships``: they point at
:class:`Club`; nothing here imports them.

Roles: a :class:`ClubRole` gives an account the role *manager* (manages the club's arbiters
and member registry, sees every tournament of the club) or *arbiter* in one club; an account
may work for several clubs. The *federation* role (read-only over every club) is a
:class:`FederationRole` row, one per account: a flag of its own rather than a Django group,
so that it cannot be granted by accident with a group's permissions and is listed in the
admin beside the clubs. Who may see or manage what is answered by :mod:`clubs.access` only.
"""
from __future__ import annotations

import os

from django.conf import settings
from django.db import models
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _

#: The default club's name when ``ARBITRO_CLUB_NAME`` is not set.
DEFAULT_CLUB_NAME = "Circolo"


def default_club_name() -> str:
    """The default club's name: env ``ARBITRO_CLUB_NAME`` (blank → «Circolo»), at most 120
    characters."""
    return (os.environ.get("ARBITRO_CLUB_NAME", "").strip() or DEFAULT_CLUB_NAME)[:120]


def slug_for(name: str) -> str:
    """The short address made from a club's name (``slugify``; «circolo» when nothing is
    left, e.g. a name of symbols only), at most 60 characters."""
    return slugify(name)[:60].strip("-") or "circolo"


class Club(models.Model):
    """A club (*circolo*, rules.md §20). ``slug`` is its short address, unique on the server;
    ``federation_code`` the code the federation gives it (optional text)."""

    name = models.CharField(_("nome"), max_length=120)
    slug = models.SlugField(_("indirizzo breve"), max_length=60, unique=True)
    city = models.CharField(_("città"), max_length=80, blank=True)
    federation_code = models.CharField(_("codice federale"), max_length=30, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name", "id"]
        verbose_name = _("circolo")
        verbose_name_plural = _("circoli")

    def __str__(self) -> str:
        return self.name


class ClubRole(models.Model):
    """An account's role in one club: *manager* or *arbiter* (one row per account and club)."""

    class Role(models.TextChoices):
        MANAGER = "manager", _("responsabile del circolo")
        ARBITER = "arbiter", _("arbitro del circolo")

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="club_roles")
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="roles")
    role = models.CharField(_("ruolo"), max_length=10, choices=Role.choices, default=Role.ARBITER)

    class Meta:
        ordering = ["club", "user"]
        verbose_name = _("ruolo nel circolo")
        verbose_name_plural = _("ruoli nei circoli")
        constraints = [models.UniqueConstraint(fields=["user", "club"], name="club_role_one_per_user_and_club")]

    def __str__(self) -> str:
        return f"{self.user} · {self.club} · {self.role}"


class FederationRole(models.Model):
    """The *federation* role: the account reads every club's data and writes none (issue's
    federation view). One row per account; deleting it takes the role away."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="federation_role")
    granted_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("ruolo federale")
        verbose_name_plural = _("ruoli federali")

    def __str__(self) -> str:
        return str(self.user)


def default_club(using: str = "default") -> Club:
    """The server's default club: the oldest one (lowest id), created when the server has
    none (named by ``ARBITRO_CLUB_NAME``, default «Circolo»), so that it exists even after a
    test flushed the database. Services and commands fall back on it while the server has one
    club."""
    club = Club.objects.using(using).order_by("id").first()
    if club is None:
        name = default_club_name()
        club, _created = Club.objects.using(using).get_or_create(slug=slug_for(name), defaults={"name": name})
    return club


def default_club_id() -> int:
    """:func:`default_club`'s id: the model default of every ``club`` foreign key, so a row
    created without a club (an old caller, a test) belongs to the default club."""
    return default_club().pk
