"""Reads of the member registry (rules.md §16)."""
from __future__ import annotations

import datetime as dt
from typing import Iterable

from django.db.models import Q, QuerySet

from .models import Member
from .names import search_terms

UNKNOWN = "unknown"
EXPIRED = "expired"


def search(query: str, *, limit: int = 20) -> list[Member]:
    """Members whose membership number starts with ``query`` or whose full name contains
    every word of it (case, accents, spaces and apostrophes ignored: ``"d'ang nic"`` finds
    D'Angelo Nicolò), best first: exact number, then by name. At most ``limit``; an empty
    query gives none. Erased members are never proposed."""
    query = query.strip()
    terms = search_terms(query)
    if not query or not terms:
        return []
    by_name = Q()
    for term in terms:
        by_name &= Q(name_key__contains=term)
    hits = Member.objects.filter(erased_at__isnull=True).filter(
        by_name | Q(membership_number__startswith=query))
    found = list(hits.order_by("last_name", "first_name", "id")[:limit])
    exact = [m for m in found if m.membership_number == query]
    if not exact:
        exact = list(Member.objects.filter(membership_number=query, erased_at__isnull=True))
    return exact + [m for m in found if m not in exact][: limit - len(exact)]


def registry(query: str = "") -> QuerySet:
    """The registry page's list: every member (erased ones too), or the search's hits."""
    qs = Member.objects.all()
    if query.strip():
        ids = [m.pk for m in search(query, limit=200)]
        qs = qs.filter(pk__in=ids)
    return qs.order_by("last_name", "first_name", "id")


def any_list_imported() -> bool:
    """Whether some member list was imported (else no number is *unknown*, §16)."""
    return Member.objects.filter(listed=True).exists()


def membership_flags(numbers: Iterable[str], on: dt.date) -> dict[str, str]:
    """``{membership number: "unknown" | "expired"}`` for the flagged numbers among
    ``numbers`` (blank ones ignored), for a tournament played on ``on`` (rules.md §16):

    - *unknown*: absent from every imported member list — only once a list was imported;
    - *expired*: the member's ``expires_on`` is before ``on`` (expiring that day is still valid).
    A number both unknown and expired is reported unknown."""
    numbers = {n.strip() for n in numbers if n and n.strip()}
    if not numbers:
        return {}
    lists = any_list_imported()
    members = {m.membership_number: m for m in Member.objects.filter(membership_number__in=numbers)}
    flags = {}
    for number in sorted(numbers):
        member = members.get(number)
        if lists and (member is None or not member.listed):
            flags[number] = UNKNOWN
        elif member is not None and member.expires_on is not None and member.expires_on < on:
            flags[number] = EXPIRED
    return flags


def evenings(member: Member) -> QuerySet:
    """The players ``member`` was, one per tournament, newest evening first (with the
    tournament selected)."""
    return member.players.select_related("tournament").order_by("-tournament__date", "-tournament_id")
