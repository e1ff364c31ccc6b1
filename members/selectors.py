"""Reads of the member registry (rules.md §16), each of ONE club's registry (§20): every
function takes ``club`` (a ``clubs.models.Club`` or its id; None = the default club, the
laptop's only one) and never reads another club's members."""
from __future__ import annotations

import datetime as dt
from typing import Iterable

from django.db.models import Q, QuerySet

from clubs.models import Club, default_club

from .models import Member
from .names import member_words, search_terms, words_match
from .numbers import membership_number_refusal, normal_membership_number

UNKNOWN = "unknown"
EXPIRED = "expired"
#: A player registered without a membership number (rules.md §16; flagged by the tournament's
#: own setting ``missing_membership``, once a member list was imported).
MISSING = "missing"


def _as_number(query: str) -> str:
    """``query`` in the stored form of a membership number (``members.numbers``: full-width
    digits folded) when it can be one, else unchanged: «８８０» looks up 880…"""
    return query if membership_number_refusal(query) else normal_membership_number(query)


def _club_id(club) -> int:
    if club is None:
        return default_club().pk
    return club.pk if isinstance(club, Club) else int(club)


def club_members(club=None) -> QuerySet:
    """Every member of ``club``'s registry (erased ones too): the one starting point of the
    reads below (rules.md §20: a club's arbiters see only its members)."""
    return Member.objects.filter(club_id=_club_id(club))


def search(query: str, *, club=None, limit: int = 20) -> list[Member]:
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
    members = club_members(club)
    hits = members.filter(erased_at__isnull=True).filter(
        by_name | Q(membership_number__startswith=number))
    found = list(hits.order_by("last_name", "first_name", "id")[:limit])
    exact = [m for m in found if m.membership_number == number]
    if not exact:
        exact = list(members.filter(membership_number=number, erased_at__isnull=True))
    return exact + [m for m in found if m not in exact][: limit - len(exact)]


#: A membership number holding a character that is not an ASCII letter or digit («51-0016»):
#: its word (:func:`members.names.letters`) is not a prefix test on the stored text, so such
#: members are always read and the words decide.
_NUMBER_WITH_SEPARATOR = r"[^0-9A-Za-z]"


def propose(query: str, *, club=None, limit: int = 10) -> list[Member]:
    """The proposals while typing in a registration form (rules.md §16), at most ``limit``: the
    members of whom every word of ``query`` starts a DIFFERENT word of the surname, the first
    name or the membership number, case and accents ignored (:func:`members.names.words_match`:
    «Luca» finds Rossi Luca, «lu fe» Ferrari Luca, «Ferrari L» Ferrari Luca and not Ferrari
    Carla, «4026» the numbers starting with it). A query of digits alone lists in number order,
    any other in name order. Erased members are never proposed; an empty query gives none.

    One query: the database keeps the members whose name key holds every word, or whose number
    starts with it (a superset, no table of words to keep in step); the exact rule is checked
    here on the rows read, in order, until ``limit`` are found."""
    query = _as_number(query.strip())  # «８８» looks up 88…
    terms = search_terms(query)
    if not terms:
        return []
    wanted = Q()
    for term in terms:
        wanted &= Q(name_key__contains=term) | Q(membership_number__istartswith=term)
    wanted |= Q(membership_number__regex=_NUMBER_WITH_SEPARATOR)
    order = ("membership_number", "id") if query.strip().isdigit() else ("name_key", "id")
    rows = club_members(club).filter(erased_at__isnull=True).filter(wanted).order_by(*order)
    found: list[Member] = []
    for member in rows.iterator(chunk_size=100):
        if words_match(terms, member_words(member.last_name, member.first_name, member.membership_number)):
            found.append(member)
            if len(found) == limit:
                break
    return found


def registry(query: str = "", *, club=None) -> QuerySet:
    """The registry page's list: every member of ``club`` (erased ones too), or the search's
    hits."""
    qs = club_members(club)
    if query.strip():
        ids = [m.pk for m in search(query, club=club, limit=200)]
        qs = qs.filter(pk__in=ids)
    return qs.order_by("last_name", "first_name", "id")


def any_list_imported(*, club=None) -> bool:
    """Whether some member list was imported into ``club``'s registry (else no number is
    *unknown*, §16)."""
    return club_members(club).filter(listed=True).exists()


def expired(member: Member, on: dt.date) -> bool:
    """Whether ``member``'s membership had expired on ``on`` (rules.md §16): ``expires_on``
    before that day; expiring that very day is still valid, no expiry date never expires."""
    return member.expires_on is not None and member.expires_on < on


def membership_flags(numbers: Iterable[str], on: dt.date, *, club=None) -> dict[str, str]:
    """``{membership number: "unknown" | "expired"}`` for the flagged numbers among
    ``numbers`` (blank ones ignored), for a tournament of ``club`` played on ``on`` (rules.md §16; the club's
    lists, §20):

    - *unknown*: absent from every imported member list — only once a list was imported;
    - *expired*: the member's ``expires_on`` is before ``on`` (expiring that day is still valid).
    A number both unknown and expired is reported unknown."""
    numbers = {n.strip() for n in numbers if n and n.strip()}
    if not numbers:
        return {}
    lists = any_list_imported(club=club)
    members = {m.membership_number: m for m in club_members(club).filter(membership_number__in=numbers)}
    flags = {}
    for number in sorted(numbers):
        member = members.get(number)
        if lists and (member is None or not member.listed):
            flags[number] = UNKNOWN
        elif member is not None and expired(member, on):
            flags[number] = EXPIRED
    return flags


def evenings(member: Member) -> QuerySet:
    """The players ``member`` was, one per tournament, newest evening first (with the
    tournament selected)."""
    return member.players.select_related("tournament").order_by("-tournament__date", "-tournament_id")
