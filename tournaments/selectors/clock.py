"""The round clock as the screens read it (rules.md §11): the stored state, the remaining
time as JSON, the tag the pollers add to their ETag, a table's remaining seconds at a score
entry. The clock's actions (start, pause, …) are the writes of ``services.clock``; the
arithmetic is ``tournaments.clock``."""
from __future__ import annotations

from .. import clock
from ..models import Round, Table
from ..server import timesource


def clock_state(rnd: Round) -> clock.ClockState:
    """The round's stored clock as a :class:`tournaments.clock.ClockState`."""
    return clock.ClockState(duration=rnd.clock_duration, started_at=rnd.clock_started_at,
                            paused_at=rnd.clock_paused_at, paused_total=rnd.clock_paused_seconds,
                            added=rnd.clock_added_seconds)


def round_duration(rnd: Round) -> int:
    """Seconds of ``rnd``: the tournament's minutes per round, or 10 × hands + 2 minutes."""
    t = rnd.tournament
    return 60 * clock.round_minutes(t.hands_per_round, t.minutes_per_round)


def clock_json(rnd: Round, table: Table | None = None, now=None) -> dict:
    """:func:`tournaments.clock.as_json` of ``rnd`` at ``now`` (default ``timesource.now()``),
    for ``table`` (its extra seconds) or for the room; before the start ``remaining`` is the
    round's full time. Adds ``remaining_ms`` (the same to the millisecond, so screens
    count down in step), ``duration`` (seconds), ``closed`` (round closed) and ``text``
    (``"31:30"``; ``"0:00"`` once over)."""
    state = clock_state(rnd)
    if not state.started:
        state = clock.ClockState(duration=round_duration(rnd), added=state.added)
    now = now or timesource.now()
    extra = table.clock_extra_seconds if table else 0
    data = clock.as_json(state, now, extra)
    data["remaining_ms"] = clock.remaining_ms(state, now, extra)
    data["duration"] = state.duration
    data["closed"] = rnd.state == Round.State.CLOSED
    data["text"] = clock.format_mmss(max(data["remaining"], 0) if data["over"] else data["remaining"])
    return data


def clock_tag(rnd: Round, table_extra: int = 0) -> str:
    """A short string that changes with every clock action (not with time passing):
    what the pollers' ETag/stamp add so a pause or extra minutes reach the screens."""
    return clock_tag_of(rnd.clock_started_at, rnd.clock_paused_at, rnd.clock_paused_seconds,
                        rnd.clock_added_seconds, rnd.clock_duration, table_extra)


def clock_tag_of(started_at, paused_at, paused_seconds, added, duration, table_extra=0) -> str:
    """:func:`clock_tag` from the column values (for the captain's one-query 304 path)."""
    start = f"{started_at.timestamp():.0f}" if started_at else "0"
    pause = f"{paused_at.timestamp():.0f}" if paused_at else "0"
    return f"k{start}.{pause}.{paused_seconds}.{added}.{duration}.{table_extra}"


def entry_clock_seconds(table: Table, rnd: Round) -> int | None:
    """The table's remaining clock seconds now (negative: over time), or None when the
    round's clock has not started: stored on a sheet when it is entered (the board
    shows slow tables)."""
    state = clock_state(rnd)
    if not state.started:
        return None
    return clock.remaining(state, timesource.now(), table.clock_extra_seconds)
