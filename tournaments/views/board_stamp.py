"""The live board's stamp: a short string that changes whenever what the board (and the
round page) shows of a round changes: sheets, PIN locks, the clock, the tables' calls. The
board answers 304 while it holds; the round page's cache is keyed by it."""
from __future__ import annotations

from django.db.models import Count, Max, Sum

from .. import clock, selectors
from ..models import PinGuard, Round, ScoreSheet, Table
from ..server import timesource
from .board_calls import calls_stamp


def board_stamp(rnd: Round) -> str:
    """A short string that changes whenever any sheet of ``rnd`` (or the round's state) changes."""
    agg = ScoreSheet.objects.filter(table__round=rnd).aggregate(
        last=Max("updated_at"), versions=Sum("version"), n=Count("id")
    )
    last = agg["last"].timestamp() if agg["last"] else 0
    # PIN locks: a lock or an unlock changes the board too
    pins = PinGuard.objects.filter(tournament_id=rnd.tournament_id, locked_at__isnull=False).aggregate(
        n=Count("id"), last=Max("locked_at"))
    pin_last = pins["last"].timestamp() if pins["last"] else 0
    return (f"{rnd.state}-{agg['n']}-{agg['versions'] or 0}-{last:.6f}-p{pins['n']}-{pin_last:.3f}"
            f"-{clock_stamp(rnd)}-{calls_stamp(rnd)}")


def clock_stamp(rnd: Round) -> str:
    """The clock's part of the board stamp (rules.md §11): every clock action, every table's
    extra time, and how many tables have run out of time (so the fragment is re-rendered, and
    late tables highlighted, as soon as time is up, not only on the next sheet change)."""
    if rnd.clock_started_at is None:
        return selectors.clock.clock_tag(rnd)
    state, now = selectors.clock.clock_state(rnd), timesource.now()
    extras = list(Table.objects.filter(round=rnd, bye="").values_list("clock_extra_seconds", flat=True))
    over = sum(1 for extra in extras if clock.remaining(state, now, extra) <= 0)
    return f"{selectors.clock.clock_tag(rnd)}.{sum(extras)}.o{over}"
