"""Writes on the member registry (rules.md §16), each in a transaction and recorded as a
:class:`~members.models.MemberEvent` (ids and field names only, never a person's data)."""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, replace

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs.models import default_club

from .models import MAX_MEMBERS, Member, MemberEvent
from .names import ERASED_LAST_NAME, erased_first_name, erased_label
from .numbers import MembershipNumberError, normal_membership_number
from .signals import member_erasing
from .text import TextRefused, clean_line

EDITABLE = ("membership_number", "last_name", "first_name", "registered_club", "category", "expires_on")


class MemberError(ValueError):
    """A write refused, with the sentence to show (``message``)."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


@dataclass(frozen=True)
class MemberData:
    """A member as typed: texts stripped by the caller, ``expires_on`` a date or None."""

    last_name: str
    first_name: str
    membership_number: str = ""
    registered_club: str = ""
    category: str = ""
    expires_on: dt.date | None = None


def _actor(by) -> tuple[object | None, str]:
    if by is None or not getattr(by, "pk", None):
        return None, "sistema"
    return by, by.get_username()


def record(*, by, action: str, member_id: int | None = None, details: dict | None = None) -> MemberEvent:
    """One entry of the registry's audit trail: ``by`` a user (None = the shell/system)."""
    user, actor = _actor(by)
    return MemberEvent.objects.create(user=user, actor=actor, action=action, member_id=member_id,
                                      details=details or {})


def _cleaned(data: MemberData) -> MemberData:
    """``data`` with every text made storable and printable (:func:`members.text.clean_line`:
    control characters and bidirectional overrides removed, spaces trimmed; the length of
    the model's field). Raises :class:`MemberError` naming the field for a NUL or an
    over-long text."""
    texts = {}
    for name in ("membership_number", "last_name", "first_name", "registered_club", "category"):
        field = Member._meta.get_field(name)
        try:
            texts[name] = clean_line(getattr(data, name), label=str(field.verbose_name).capitalize(),
                                     max_length=field.max_length)
        except TextRefused as exc:
            raise MemberError(exc.message) from None
    return MemberData(expires_on=data.expires_on, **texts)


def _check(data: MemberData, *, club_id: int, exclude: Member | None = None) -> MemberData:
    """``data`` with its membership number in the one stored form (``members.numbers``);
    raises MemberError for a missing name, a bad number or one already another member's of
    the club ``club_id`` (unique per club, rules.md §20)."""
    if not data.last_name.strip() or not data.first_name.strip():
        raise MemberError(_("Cognome e nome del socio sono obbligatori."))
    try:
        number = normal_membership_number(data.membership_number)
    except MembershipNumberError as exc:
        raise MemberError(exc.message) from None
    data = replace(data, membership_number=number)
    if number:
        clash = Member.objects.filter(club_id=club_id, membership_number=number)
        if exclude is not None:
            clash = clash.exclude(pk=exclude.pk)
        if clash.exists():
            raise MemberError(_("La tessera %(number)s è già di un altro socio.") % {"number": number})
    return data


@transaction.atomic
def create_member(*, data: MemberData, by, club=None, source: str = Member.Source.MANUAL) -> Member:
    """Add a member by hand to ``club``'s registry (a ``clubs.models.Club``; None = the
    default club). Raises :class:`MemberError`: a missing name, a number already another
    member's of the club, a NUL or an over-long text (:func:`_cleaned`), or the club's
    registry full (:data:`members.models.MAX_MEMBERS`)."""
    club = club or default_club()
    data = _check(_cleaned(data), club_id=club.pk)
    if Member.objects.filter(club=club).count() >= MAX_MEMBERS:
        raise MemberError(_("L'anagrafica ha già %(max)s soci, il massimo.") % {"max": MAX_MEMBERS})
    try:
        with transaction.atomic():
            member = Member.objects.create(club=club, source=source, **{k: (getattr(data, k).strip() if isinstance(
                getattr(data, k), str) else getattr(data, k)) for k in EDITABLE})
    except IntegrityError as exc:
        raise MemberError(_("Socio non salvato: la tessera è già presente.")) from exc
    record(by=by, action="member_added", member_id=member.pk)
    return member


@transaction.atomic
def update_member(*, member: Member, data: MemberData, by) -> Member:
    """Change a member's number, names, club, category or expiry. Players already registered
    keep the names they were registered with. Raises :class:`MemberError` as
    :func:`create_member`, and for an erased member."""
    if member.erased_at:
        raise MemberError(_("Questo socio è stato cancellato: non si modifica."))
    data = _check(_cleaned(data), club_id=member.club_id, exclude=member)
    changed = []
    for name in EDITABLE:
        value = getattr(data, name)
        value = value.strip() if isinstance(value, str) else value
        if name == "membership_number":
            value = value or None
        if getattr(member, name) != value:
            setattr(member, name, value)
            changed.append(name)
    if changed:
        member.save()
        record(by=by, action="member_updated", member_id=member.pk, details={"fields": changed})
    return member


@transaction.atomic
def merge_members(*, keep: Member, merged: Member, by) -> Member:
    """The same person registered twice: every evening of ``merged`` moves to ``keep`` and
    ``merged`` is deleted. ``keep``'s blank fields (number, club, category, expiry) take
    ``merged``'s values; it is ``listed`` if either was.

    Raises :class:`MemberError` when both are the same member, they belong to two clubs (two
    memberships of one person stay two members, §20), either was erased, or both played in the
    same tournament (two players of one tournament are two people, §16)."""
    keep = Member.objects.select_for_update().get(pk=keep.pk)
    merged = Member.objects.select_for_update().get(pk=merged.pk)
    if keep.pk == merged.pk:
        raise MemberError(_("Scegli due soci diversi."))
    if keep.club_id != merged.club_id:
        raise MemberError(_("I due soci sono di due circoli diversi: non si uniscono."))
    if keep.erased_at or merged.erased_at:
        raise MemberError(_("Un socio cancellato non si unisce."))
    shared = keep.players.filter(tournament_id__in=merged.players.values("tournament_id"))
    clash = shared.select_related("tournament").first()
    if clash is not None:
        raise MemberError(_("I due soci hanno giocato entrambi in «%(tournament)s»: sono due persone diverse, "
                            "non si uniscono.") % {"tournament": clash.tournament.name})
    moved = merged.players.update(member=keep)
    number = merged.membership_number
    filled = [name for name in ("registered_club", "category", "expires_on") if not getattr(keep, name) and getattr(merged, name)]
    for name in filled:
        setattr(keep, name, getattr(merged, name))
    keep.listed = keep.listed or merged.listed
    merged_id = merged.pk
    merged.delete()
    if number and not keep.membership_number:
        keep.membership_number = number
        filled.append("membership_number")
    keep.save()
    record(by=by, action="members_merged", member_id=keep.pk,
           details={"merged": merged_id, "evenings_moved": moved, "fields": filled})
    return keep


def export_member_data(member: Member) -> dict:
    """Everything the server keeps about ``member`` (the person's own copy of his data):
    the registry's fields, each evening he played (tournament, date, the names and number
    he was registered with, club) and the registry's audit entries about him."""
    evenings = [
        {"tournament": p.tournament.name, "slug": p.tournament.slug, "date": p.tournament.date.isoformat(),
         "last_name": p.last_name, "first_name": p.first_name, "membership_number": p.membership_number,
         "club": p.club}
        for p in member.players.select_related("tournament").order_by("tournament__date", "tournament_id")
    ]
    return {
        "member": {
            "id": member.pk, "membership_number": member.membership_number, "last_name": member.last_name,
            "first_name": member.first_name, "club": member.club.name,
            "registered_club": member.registered_club, "category": member.category,
            "expires_on": member.expires_on.isoformat() if member.expires_on else None,
            "source": member.source, "listed": member.listed,
            "created_at": member.created_at.isoformat(), "updated_at": member.updated_at.isoformat(),
        },
        "evenings": evenings,
        "registry_events": [
            {"at": e.at.isoformat(), "actor": e.actor, "action": e.action, "details": e.details}
            for e in MemberEvent.objects.filter(member_id=member.pk).order_by("at", "id")
        ],
    }


@transaction.atomic
def erase_member(*, member: Member, by) -> Member:
    """Erase a member on request (personal data). Every record that names him — the players
    of every tournament he played (closed ones too), their audit entries, the backups under
    ``var/`` — then says «Socio cancellato #id» instead of his name and number (the apps
    above the registry do it on :data:`members.signals.member_erasing`); the member's row
    stays under that name with no number, club, category or expiry, so the results of the
    evenings stand. The erasure's own audit entry names the arbiter and the id only.

    Raises :class:`MemberError` for a member already erased."""
    member = Member.objects.select_for_update().get(pk=member.pk)
    if member.erased_at:
        raise MemberError(_("Questo socio è già stato cancellato."))
    label = erased_label(member.pk)
    member_erasing.send(sender=Member, member=member, label=label, by=by)
    member.last_name, member.first_name = ERASED_LAST_NAME, erased_first_name(member.pk)
    member.membership_number = None
    member.registered_club = member.category = ""
    member.expires_on, member.listed, member.erased_at = None, False, timezone.now()
    member.save()
    record(by=by, action="member_erased", member_id=member.pk)
    return member
