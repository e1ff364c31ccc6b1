"""The federation's record of results files (rules.md §20: the federation wants every
club tournament's results within 10 days): the first download of a tournament's results
file, with who and when."""
from __future__ import annotations

from django.utils import timezone

from ..models import ResultsDownload, Tournament
from ..selectors.federation import is_closed


def record_results_download(tournament: Tournament, user, file_format: str, *, now=None) -> bool:
    """Record that ``user`` (an account, or None) downloaded ``tournament``'s results file
    (``file_format`` ``"csv"`` or ``"xlsx"``) at ``now`` (an aware datetime; default: now).
    Only a closed tournament's file counts (its final results; a file of a tournament in
    play is provisional): returns whether the tournament is closed.

    Only the first download counts: the row is inserted with ON CONFLICT DO NOTHING on the
    tournament's unique key, so two downloads at the same instant leave one row, the
    database choosing (never a read-then-write). No audit entry: nothing of the results
    changes. Raises nothing for a second download."""
    if not is_closed(tournament):
        return False
    who = user if user is not None and getattr(user, "is_authenticated", False) else None
    ResultsDownload.objects.bulk_create(
        [ResultsDownload(tournament=tournament, downloaded_by=who, downloaded_at=now or timezone.now(),
                         file_format=str(file_format)[:4])],
        ignore_conflicts=True)
    return True
