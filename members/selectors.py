"""Reads of the member registry (rules.md §16)."""
from __future__ import annotations

import datetime as dt
from typing import Iterable

from django.db.models import Q, QuerySet

from .models import Member
from .names import search_terms
from .numbers import membership_number_refusal, normal_membership_number

UNKNOWN = "unknown"
EXPIRED = "expired"


def _as_number(query: str) -> str:
    """``query`` in the stored form of a membership number (``members.numbers``: full-width
    digits folded) when it can be one, else unchanged: «８８０» looks up 880…"""
    return query if membership_number_refusal(query) else normal_membership_number(query)


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
    number = _as_number(query)
    hits = Member.objects.filter(erased_at__isnull=True).filter(
        by_name | Q(membership_number__startswith=number))
    found = list(hits.order_by("last_name", "first_name", "id")[:limit])
    exact = [m for m in found if m.membership_number == number]
    if not exact:
        exact = list(Member.objects.filter(membership_number=number, erased_at__isnull=True))
    return exact + [m for m in found if m not in exact][: limit - len(exact)]


def _prefix(field: str, start: str) -> Q:
    """``field`` starts with ``start``, written as a range so SQLite and PostgreSQL walk the
    field's index instead of scanning the table (``LIKE 'x%'`` does not use it on SQLite)."""
    return Q(**{f"{field}__gte": start, f"{field}__lt": start + "\U0010ffff"})


def propose(query: str, *, limit: int = 10) -> list[Member]:
    """The proposals while typing in a registration form (rules.md §16), at most ``limit``:
    a query of digits proposes the members whose number starts with it; any other the members
    whose surname starts with its first word and whose full name holds its other words (case,
    accents, spaces, apostrophes ignored: ``"d'ang ni"`` → D'Angelo Nicolò), in name order.
    Both walk an index (bench/season.py: ≤ 50 ms a keystroke at 5000 members). Erased members
    are never proposed; an empty query gives none."""
    query = _as_number(query.strip())
    live = Member.objects.filter(erased_at__isnull=True)
    if query.isascii() and query.isdigit():  # «①» is a digit to isdigit, never in a number
        return list(live.filter(_prefix("membership_number", query)).order_by("membership_number")[:limit])
    terms = search_terms(query)
    if not terms:
        return []
    hits = live.filter(_prefix("name_key", terms[0]))
    for term in terms[1:]:
        hits = hits.filter(name_key__contains=term)
    return list(hits.order_by("name_key", "id")[:limit])


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
