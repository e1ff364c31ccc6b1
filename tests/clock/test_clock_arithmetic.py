"""The round clock's arithmetic, with a fixed time source: every
expected value is counted by hand in the comment next to it."""
import ast
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from tournaments import clock
from tournaments.clock import ClockError, ClockState

T0 = datetime(2026, 11, 30, 15, 0, 0, tzinfo=timezone.utc)


def at(minutes=0, seconds=0):
    return T0 + timedelta(minutes=minutes, seconds=seconds)


def test_default_round_time_is_ten_minutes_a_hand_plus_two():
    # rules FAQ: 22 / 32 / 42 minutes for 2 / 3 / 4 hands
    assert [clock.default_round_minutes(h) for h in (2, 3, 4)] == [22, 32, 42]
    assert clock.round_minutes(4, None) == 42
    assert clock.round_minutes(4, 0) == 42


def test_preset_three_hands_in_35_minutes():
    hands, minutes = clock.PRESET_3_HANDS_35
    assert (hands, minutes) == (3, 35)
    assert clock.round_minutes(3, minutes) == 35


def test_not_started_shows_the_whole_time():
    state = ClockState(duration=42 * 60)
    assert clock.remaining(state, at(100)) == 2520      # 42 × 60, time does not run
    assert not state.started and not state.running


def test_start_then_time_runs():
    state = clock.start(ClockState(), at(0), 42 * 60)
    assert clock.remaining(state, at(0)) == 2520
    assert clock.remaining(state, at(10, 30)) == 2520 - 630     # 10:30 played → 31:30 = 1890
    assert clock.remaining(state, at(45)) == -180               # 3 minutes over


def test_start_twice_is_refused():
    state = clock.start(ClockState(), at(0), 600)
    with pytest.raises(ClockError) as exc:
        clock.start(state, at(1), 600)
    assert exc.value.code == "started"


def test_pause_stops_the_count_and_resume_goes_on():
    state = clock.start(ClockState(), at(0), 32 * 60)           # 1920 s
    state = clock.pause(state, at(10))                          # 600 played → 1320 left
    assert clock.remaining(state, at(10)) == 1320
    assert clock.remaining(state, at(25)) == 1320               # paused 15 minutes: unchanged
    state = clock.resume(state, at(25))
    assert state.paused_total == 900
    assert clock.remaining(state, at(30)) == 1320 - 300         # 5 more minutes played → 1020


def test_two_pauses_add_up():
    state = clock.start(ClockState(), at(0), 1000)
    state = clock.resume(clock.pause(state, at(0, 100)), at(0, 160))    # 60 s pause
    state = clock.resume(clock.pause(state, at(0, 200)), at(0, 230))    # 30 s pause
    assert state.paused_total == 90
    assert clock.remaining(state, at(0, 400)) == 1000 - (400 - 90)      # 690


def test_pause_when_not_running_and_resume_when_running_are_refused():
    with pytest.raises(ClockError) as exc:
        clock.pause(ClockState(duration=600), at(0))
    assert exc.value.code == "not_running"
    state = clock.start(ClockState(), at(0), 600)
    with pytest.raises(ClockError) as exc:
        clock.resume(state, at(1))
    assert exc.value.code == "not_paused"
    paused = clock.pause(state, at(1))
    with pytest.raises(ClockError) as exc:
        clock.pause(paused, at(2))
    assert exc.value.code == "not_running"


def test_minutes_for_the_room():
    state = clock.start(ClockState(), at(0), 42 * 60)
    state = clock.add_minutes(state, 5)
    assert clock.remaining(state, at(40)) == 2520 + 300 - 2400        # 420 s = 7:00
    state = clock.add_minutes(state, -2)                               # a slip corrected
    assert clock.remaining(state, at(40)) == 300


@pytest.mark.parametrize("minutes", [0, 121, -121, True, "5"])
def test_minutes_out_of_range_are_refused(minutes):
    with pytest.raises(ClockError) as exc:
        clock.add_minutes(ClockState(duration=600), minutes)
    assert exc.value.code == "minutes"


def test_table_extra_time_only_for_that_table():
    state = clock.start(ClockState(), at(0), 22 * 60)                  # 1320 s
    assert clock.remaining(state, at(22)) == 0                          # the room: time up
    assert clock.remaining(state, at(22), extra=180) == 180             # late start: 3 more minutes
    data = clock.as_json(state, at(22), extra=180)
    assert data == {"remaining": 180, "started": True, "running": True, "paused": False,
                    "over": False, "extra": 180}
    assert clock.as_json(state, at(22))["over"] is True


def test_pause_before_start_counts_nothing():
    state = clock.start(ClockState(added=120), at(0), 600)             # minutes given before the start stay
    assert clock.remaining(state, at(0)) == 720


def test_format_minutes_and_seconds():
    assert clock.format_mmss(1890) == "31:30"
    assert clock.format_mmss(5) == "0:05"
    assert clock.format_mmss(-190) == "\u22123:10"


def test_the_arithmetic_imports_no_django():
    source = Path(clock.__file__).read_text()
    modules = {n.module for n in ast.walk(ast.parse(source)) if isinstance(n, ast.ImportFrom)}
    modules |= {a.name for n in ast.walk(ast.parse(source)) if isinstance(n, ast.Import) for a in n.names}
    assert not any(m and m.startswith("django") for m in modules)


def test_remaining_milliseconds_agree_with_the_seconds():
    state = clock.start(ClockState(), at(0), 600)
    now = at(0, 10) + timedelta(milliseconds=250)           # 10.25 s played
    assert clock.remaining_ms(state, now) == 589_750
    assert clock.remaining(state, now) == 590               # whole seconds, rounded up
    paused = clock.pause(state, now)
    assert clock.remaining_ms(paused, at(5)) == 589_750     # a pause stops the milliseconds too
    resumed = clock.resume(paused, now + timedelta(seconds=30))
    assert clock.remaining_ms(resumed, now + timedelta(seconds=31)) == 588_750
