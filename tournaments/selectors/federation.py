"""The federation's reads (rules.md §20): every club's tournaments of a period with their
state, and the closed tournaments whose results file is overdue.

A tournament is *closed* when its last planned round is closed (as the standings call
themselves final: ``after_round >= rounds_planned``); it closed at its last round's
``closed_at``. Its results file counts as downloaded once a
:class:`~tournaments.models.ResultsDownload` row exists.
"""
from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.db.models import Max, Q
from django.utils import timezone

from ..models import Round, Tournament

#: rules.md §20: the federation wants a tournament's results within this many days.
DEADLINE_DAYS = 10


@dataclass(frozen=True)
class FederationRow:
    """One tournament as the federation sees it: ``closed_at`` the instant its last round
    closed (None while in play), ``downloaded_at``/``downloaded_by`` its results file's first
    download (None, "" when never)."""

    tournament_id: int
    slug: str
    name: str
    club_name: str
    club_code: str
    date: datetime.date
    kind: str
    closed: bool
    closed_at: datetime.datetime | None
    downloaded_at: datetime.datetime | None
    downloaded_by: str


def _annotated(queryset):
    closed = Q(rounds__state=Round.State.CLOSED)
    return (queryset.select_related("club", "results_download", "results_download__downloaded_by")
            .annotate(last_closed_number=Max("rounds__number", filter=closed),
                      last_closed_at=Max("rounds__closed_at", filter=closed))
            .order_by("date", "club__name", "name", "id"))


def _row(t: Tournament) -> FederationRow:
    planned = t.rounds_planned
    closed = bool(planned) and t.last_closed_number is not None and t.last_closed_number >= planned
    closed_at = None
    if closed:  # a round closed without an instant (stored before closed_at): midnight of the date
        closed_at = t.last_closed_at or timezone.make_aware(datetime.datetime.combine(t.date, datetime.time()))
    try:
        download = t.results_download
    except Tournament.results_download.RelatedObjectDoesNotExist:
        download = None
    by = download.downloaded_by.get_username() if download and download.downloaded_by else ""
    return FederationRow(t.pk, t.slug, t.name, t.club.name, t.club.federation_code, t.date,
                         t.get_kind_display(), closed, closed_at,
                         download.downloaded_at if download else None, by)


def is_closed(tournament: Tournament) -> bool:
    """Whether ``tournament``'s last planned round is closed (the module's *closed*)."""
    planned = tournament.rounds_planned
    last = (Round.objects.filter(tournament=tournament, state=Round.State.CLOSED)
            .aggregate(n=Max("number"))["n"])
    return bool(planned) and last is not None and last >= planned


def period_rows(start: datetime.date, end: datetime.date) -> list[FederationRow]:
    """Every club's tournaments dated ``start``–``end`` (both included), by date, club and
    name, with their state."""
    qs = _annotated(Tournament.objects.filter(date__gte=start, date__lte=end))
    return [_row(t) for t in qs]


def overdue_rows(now: datetime.datetime | None = None, days: int = DEADLINE_DAYS) -> list[FederationRow]:
    """Every club's tournaments closed more than ``days`` days before ``now`` (aware; default
    now) whose results file was never downloaded (rules.md §20, the federation's deadline),
    oldest first. Not limited to a period: an overdue tournament stays listed until its file
    is downloaded."""
    limit = (now or timezone.now()) - datetime.timedelta(days=days)
    qs = _annotated(Tournament.objects.filter(results_download__isnull=True)).filter(last_closed_at__lt=limit)
    rows = [_row(t) for t in qs]
    return [r for r in rows if r.closed and r.closed_at < limit]


def closed_ids(start: datetime.date, end: datetime.date) -> list[int]:
    """The ids of the closed tournaments dated ``start``–``end``, by date, club and name: the
    tournaments of the federation's download of a period."""
    return [r.tournament_id for r in period_rows(start, end) if r.closed]
