"""The cheap part of a player's page ETag (its *results tag*) and the standings the pages
share, both kept a moment in the process (:mod:`.pages` uses them)."""
from __future__ import annotations

import hashlib
import time

from django.conf import settings
from django.db.models import Max

from .. import selectors
from ..models import AuditAction, AuditEntry, Round, Tournament

#: The rounds a player sees: published or closed (a draft stays private).
VISIBLE = (Round.State.PUBLISHED, Round.State.CLOSED)
#: Audit actions that never change what a player's page shows: the captains' and the
#: arbiter's work on the sheets of the round in play (shown only once the round closes),
#: drafts (private), PIN guards and the calls to the arbiter. Any other write (publishing,
#: closing, a correction, a penalty, a withdrawal, a name respelt…) changes the page's tag.
IN_PLAY_ACTIONS = (
    AuditAction.SHEET_SAVED, AuditAction.SHEET_CONFIRMED, AuditAction.SHEET_DISPUTED, AuditAction.SHEET_VALIDATED,
    AuditAction.SHEET_VALIDATED_UNCONFIRMED, AuditAction.SHEET_UNVALIDATED, AuditAction.SHEET_DRAFT_SAVED,
    AuditAction.SHEET_DRAFT_DISCARDED, AuditAction.ROUND_GENERATED, AuditAction.ROUND_REDRAWN, AuditAction.DRAFT_SWAP,
    AuditAction.DRAFT_BY_HAND, AuditAction.IDLE_PAIRS_SEATED, AuditAction.LINEUP_SET, AuditAction.PIN_TOURNAMENT_LOCKED,
    AuditAction.PIN_TABLE_LOCKED, AuditAction.PIN_TABLE_UNLOCKED, AuditAction.PIN_TOURNAMENT_UNLOCKED,
    AuditAction.ARBITER_CALLED, AuditAction.ARBITER_CALL_TAKEN, AuditAction.ARBITER_CALL_RESOLVED,
)


_TAGS: dict[int, tuple[float, str]] = {}

# What else a player's page shows, from apps above this one (the championships' season
# sentence): each part names what its text depends on, and the tag changes with it.
_TAG_PARTS: list = []


def register_tag_part(part) -> None:
    """Add ``part(tournament) -> str`` to :func:`results_tag`: a short text that changes
    whenever what ``part``'s app adds to the players' pages may change ("" when it adds
    nothing). It runs when the tag is read again, so it should cost a query or two."""
    if part not in _TAG_PARTS:
        _TAG_PARTS.append(part)


def results_tag(tournament: Tournament) -> str:
    """A short string that changes whenever a player's page of ``tournament`` may change:
    the visible rounds' states, publication, closing and clock instants, the last audit
    entry that is not in-play work (:data:`IN_PLAY_ACTIONS`), and the registered parts
    (:func:`register_tag_part`: the season sentence of a public championship). Two narrow
    queries, and the parts'.

    Kept in this process for ``ARBITRO_PLAYER_TAG_SECONDS`` (default 2 s; 500 phones poll
    every 5 s, so the queries run a few times a second at most, whatever the room): a change
    reaches the phones within that plus one poll, well inside the room's 10 s."""
    ttl = float(getattr(settings, "ARBITRO_PLAYER_TAG_SECONDS", 2.0))
    now = time.monotonic()
    held = _TAGS.get(tournament.pk)
    if held and ttl > 0 and now - held[0] < ttl:
        return held[1]
    rounds = list(Round.objects.filter(tournament=tournament, state__in=VISIBLE).order_by("number").values_list(
        "number", "state", "published_at", "closed_at", "clock_started_at", "clock_paused_at",
        "clock_paused_seconds", "clock_added_seconds", "clock_duration"))
    last = (AuditEntry.objects.filter(tournament=tournament).exclude(action__in=IN_PLAY_ACTIONS)
            .aggregate(last=Max("id"))["last"])
    raw = repr((rounds, last, [part(tournament) for part in _TAG_PARTS])).encode()
    tag = hashlib.blake2b(raw, digest_size=9).hexdigest()
    _TAGS[tournament.pk] = (now, tag)
    return tag


_PUBLIC: dict[str, tuple[float, str]] = {}


def note_public(slug: str, tag: str) -> None:
    """Note that the tournament ``slug`` was just read with its public pages on and its
    :func:`results_tag` is ``tag`` (the players' page view, after reading it)."""
    if len(_PUBLIC) > 64:
        _PUBLIC.clear()
    _PUBLIC[slug] = (time.monotonic(), tag)


def recent_public_tag(slug: str) -> str | None:
    """The results tag :func:`note_public` noted for ``slug`` less than
    ``ARBITRO_PLAYER_TAG_SECONDS`` ago, else None. A poll whose ETag is made of it is
    answered ``304`` without a query: the 500 phones of a room then cost the tournament's
    read a few times a second. Switching the public pages off reaches them within that time."""
    ttl = float(getattr(settings, "ARBITRO_PLAYER_TAG_SECONDS", 2.0))
    held = _PUBLIC.get(slug)
    if held and ttl > 0 and time.monotonic() - held[0] < ttl:
        return held[1]
    return None


_STANDINGS: dict[tuple[int, str], selectors.Standings] = {}


def standings_for(tournament: Tournament, tag: str) -> selectors.Standings:
    """``selectors.standings_after(tournament)`` computed once per :func:`results_tag` in this
    process: after a round closes, a thousand phones fetch their page once each, and they
    share one standings computation (500 pairs: about 30 ms each otherwise)."""
    key = (tournament.pk, tag)
    view = _STANDINGS.get(key)
    if view is None:
        view = selectors.standings_after(tournament)
        if len(_STANDINGS) > 16:
            _STANDINGS.clear()
        _STANDINGS[key] = view
    return view
