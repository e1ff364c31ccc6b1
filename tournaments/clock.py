"""The round clock's arithmetic (rules.md §11): pure functions, no Django import.

The clock is never a ticking process: it is a few instants stored on the round
(``Round.clock_*``) and a table's extra seconds (``Table.clock_extra_seconds``). Every
screen asks the server for the remaining seconds computed here from those instants and
a ``now`` given by the caller (``tournaments.server.timesource.now`` in the app, a fixed
instant in tests), so a restart or a reload loses nothing.

Remaining = duration + added (+ table extra) − played, where
played = now − started_at − paused_total − (now − paused_at, while paused).
Seconds are whole seconds (int); a negative remaining is time over.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime

#: Minutes per hand of the default round time (rules FAQ: 10 minutes a hand + 2).
MINUTES_PER_HAND = 10
#: Minutes added once per round to the hands' time.
EXTRA_MINUTES = 2
#: The preset "3 hands in 35 minutes" (hands, minutes).
PRESET_3_HANDS_35 = (3, 35)
#: The most minutes an arbiter may add at once, to the room or to one table.
MAX_ADD_MINUTES = 120


class ClockError(ValueError):
    """A clock action that does not apply to the clock's state. ``code`` names it:
    ``"started"`` (start twice), ``"not_started"``, ``"not_running"`` (pause while paused
    or not started), ``"not_paused"`` (resume while running), ``"minutes"`` (a number of
    minutes out of range)."""

    def __init__(self, code: str):
        super().__init__(code)
        self.code = code


def default_round_minutes(hands: int) -> int:
    """Minutes of a round of ``hands`` hands: 10 × hands + 2 (22, 32, 42 for 2, 3, 4)."""
    return MINUTES_PER_HAND * hands + EXTRA_MINUTES


def round_minutes(hands: int, minutes_per_round: int | None) -> int:
    """The round time in minutes: the tournament's setting, or :func:`default_round_minutes`
    when it is blank (None or 0)."""
    return minutes_per_round if minutes_per_round else default_round_minutes(hands)


@dataclass(frozen=True)
class ClockState:
    """What is stored of one round's clock.

    ``duration``: seconds of the round (fixed when the clock starts); ``started_at``: the
    instant of the start (None: not started); ``paused_at``: the instant of the running
    pause (None: running); ``paused_total``: seconds of the pauses already ended;
    ``added``: seconds given to the whole room (may be negative to correct a slip).
    """

    duration: int = 0
    started_at: datetime | None = None
    paused_at: datetime | None = None
    paused_total: int = 0
    added: int = 0

    @property
    def started(self) -> bool:
        return self.started_at is not None

    @property
    def paused(self) -> bool:
        return self.paused_at is not None

    @property
    def running(self) -> bool:
        return self.started and not self.paused


def _seconds(delta) -> float:
    return delta.total_seconds()


def played(state: ClockState, now: datetime) -> int:
    """Seconds of play since the start, pauses excluded (0 before the start)."""
    if state.started_at is None:
        return 0
    total = _seconds(now - state.started_at) - state.paused_total
    if state.paused_at is not None:
        total -= _seconds(now - state.paused_at)
    return max(0, int(total))


def remaining(state: ClockState, now: datetime, extra: int = 0) -> int:
    """Seconds left at ``now`` (negative: over time). ``extra``: a table's extra seconds.

    Before the start, the whole time (duration + added + extra)."""
    return state.duration + state.added + extra - played(state, now)


def remaining_ms(state: ClockState, now: datetime, extra: int = 0) -> int:
    """Milliseconds left at ``now`` (negative: over), for screens that count down in step:
    :func:`remaining` is this rounded up to a whole second while the clock runs."""
    if state.started_at is None:
        return 1000 * (state.duration + state.added + extra)
    end = state.started_at.timestamp() + state.duration + state.added + extra + state.paused_total
    at = (state.paused_at or now).timestamp()
    return int(round((end - at) * 1000))


def start(state: ClockState, now: datetime, duration: int) -> ClockState:
    """Start the clock with ``duration`` seconds. Raises ClockError("started") when it runs
    or is paused already."""
    if state.started:
        raise ClockError("started")
    return ClockState(duration=duration, started_at=now, paused_at=None, paused_total=0, added=state.added)


def pause(state: ClockState, now: datetime) -> ClockState:
    """Pause a running clock. ClockError("not_running") when not started or paused."""
    if not state.running:
        raise ClockError("not_running")
    return replace(state, paused_at=now)


def resume(state: ClockState, now: datetime) -> ClockState:
    """Resume a paused clock: the pause's seconds join ``paused_total``.
    ClockError("not_paused") when not started or running."""
    if not state.paused:
        raise ClockError("not_paused")
    return replace(state, paused_at=None,
                   paused_total=state.paused_total + max(0, int(_seconds(now - state.paused_at))))


def add_minutes(state: ClockState, minutes: int) -> ClockState:
    """Give ``minutes`` (1..MAX_ADD_MINUTES, or a negative correction down to −that) to the
    whole room. ClockError("minutes") for 0 or beyond the bound."""
    check_minutes(minutes, allow_negative=True)
    return replace(state, added=state.added + 60 * minutes)


def check_minutes(minutes: int, *, allow_negative: bool = False) -> None:
    """ClockError("minutes") unless 1 ≤ |minutes| ≤ MAX_ADD_MINUTES (negative only when allowed)."""
    if isinstance(minutes, bool) or not isinstance(minutes, int) or minutes == 0 \
            or abs(minutes) > MAX_ADD_MINUTES or (minutes < 0 and not allow_negative):
        raise ClockError("minutes")


def as_json(state: ClockState, now: datetime, extra: int = 0) -> dict:
    """What every screen reads: ``remaining`` seconds (int, negative when over),
    ``started``, ``running``, ``paused``, ``over`` (no time left), ``extra`` (this table's
    extra seconds). Screens count down from ``remaining`` with their own timer only
    between two answers."""
    left = remaining(state, now, extra)
    return {"remaining": left, "started": state.started, "running": state.running,
            "paused": state.paused, "over": state.started and left <= 0, "extra": extra}


def format_mmss(seconds: int) -> str:
    """``"12:05"``, ``"−0:30"`` (minus sign U+2212 when negative)."""
    sign = "\u2212" if seconds < 0 else ""
    seconds = abs(int(seconds))
    return f"{sign}{seconds // 60}:{seconds % 60:02d}"
