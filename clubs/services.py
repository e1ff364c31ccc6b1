"""Writes on clubs and their accounts (rules.md §20). Each raises :class:`ClubError` with the
sentence to show; each runs in one transaction."""
from __future__ import annotations

import re

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from .models import Club, ClubRole, FederationRole

_SLUG = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")


class ClubError(ValueError):
    """A write refused; ``message`` is the sentence."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def _text(value: str, *, label: str, max_length: int, required: bool = False) -> str:
    value = " ".join((value or "").split())
    if required and not value:
        raise ClubError(_("%(label)s: obbligatorio.") % {"label": label})
    if len(value) > max_length:
        raise ClubError(_("%(label)s: al massimo %(max)s caratteri.") % {"label": label, "max": max_length})
    if any(ord(c) < 32 for c in value):
        raise ClubError(_("%(label)s: contiene un carattere di controllo.") % {"label": label})
    return value


@transaction.atomic
def create_club(*, slug: str, name: str, city: str = "", federation_code: str = "") -> Club:
    """A new club. ``slug``: lower-case letters, digits and hyphens, at most 60, unique on the
    server (a taken slug is refused without saying whose it is)."""
    slug = (slug or "").strip()
    if not _SLUG.match(slug) or len(slug) > 60:
        raise ClubError(_("Indirizzo breve «%(slug)s» non valido: lettere minuscole, cifre e trattini.")
                        % {"slug": slug})
    name = _text(name, label=_("Nome"), max_length=120, required=True)
    city = _text(city, label=_("Città"), max_length=80)
    code = _text(federation_code, label=_("Codice federale"), max_length=30)
    try:
        with transaction.atomic():
            return Club.objects.create(slug=slug, name=name, city=city, federation_code=code)
    except IntegrityError:
        raise ClubError(_("L'indirizzo breve «%(slug)s» è già in uso.") % {"slug": slug}) from None


def _user(username: str):
    user = get_user_model().objects.filter(username=(username or "").strip()).first()
    if user is None:
        raise ClubError(_("Nessun utente «%(username)s».") % {"username": username})
    return user


@transaction.atomic
def add_arbiter(*, club: Club, username: str, manager: bool = False) -> ClubRole:
    """Give the account ``username`` a role in ``club`` (*arbiter*, or *manager* with
    ``manager``); an existing role in that club is changed to it. Raises :class:`ClubError`
    for an unknown account."""
    user = _user(username)
    role = ClubRole.Role.MANAGER if manager else ClubRole.Role.ARBITER
    found, _created = ClubRole.objects.update_or_create(user=user, club=club, defaults={"role": role})
    return found


@transaction.atomic
def remove_arbiter(*, club: Club, username: str) -> None:
    """Take the account ``username`` out of ``club``. Raises :class:`ClubError` for an
    unknown account, one without a role in the club, or the club's last manager (a club keeps
    someone who manages it once it has one)."""
    user = _user(username)
    role = ClubRole.objects.select_for_update().filter(user=user, club=club).first()
    if role is None:
        raise ClubError(_("«%(username)s» non è arbitro di %(club)s.") % {"username": username, "club": club.name})
    if role.role == ClubRole.Role.MANAGER:
        managers = list(ClubRole.objects.select_for_update().filter(club=club, role=ClubRole.Role.MANAGER))
        if len(managers) == 1:
            raise ClubError(_("«%(username)s» è l'unico responsabile di %(club)s: nomina prima un altro "
                              "responsabile.") % {"username": username, "club": club.name})
    role.delete()


@transaction.atomic
def grant_federation(*, username: str) -> FederationRole:
    """Give the account ``username`` the federation's read-only view of every club
    (idempotent). Raises :class:`ClubError` for an unknown account."""
    found, _created = FederationRole.objects.get_or_create(user=_user(username))
    return found
