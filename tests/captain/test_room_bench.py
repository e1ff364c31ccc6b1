"""``bench/room.py`` kept from rotting: a small room, run briefly.

No timing is asserted (figures are the script's output): only that every phone got
its answers and every sheet was saved and confirmed exactly once.
"""
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow  # a real server and 12 phones polling every 1-2 s (the pages: 4-6 s) for a few seconds
def test_small_room_loses_nothing_and_refuses_no_phone():
    """The burst (every sheet at once, phones from 4 addresses); the ``one`` run is the next
    test's, with the players' pages beside it."""
    result = subprocess.run(
        [sys.executable, "bench/room.py", "--tables", "6", "--seconds", "10", "--open-seconds", "1",
         "--runs", "burst", "--sources", "4", "--poll", "1-2"],
        cwd=ROOT, capture_output=True, text=True, timeout=240,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    lines = [line for line in result.stdout.splitlines() if line.startswith("room[")]
    assert len(lines) == 1, result.stdout + result.stderr[-3000:]
    for line in lines:
        found = re.fullmatch(r"room\[(\w+)\]: (\d+) tables, (\d+) phones, (\d+) saved, (\d+) confirmed, "
                             r"(\d+) stored once, (\d+) lost, (\d+) refused", line)
        assert found, line
        run, tables, phones, saved, confirmed, once, lost, refused = found.groups()
        assert (tables, phones, saved, confirmed, once) == ("6", "12", "6", "6", "6"), result.stdout
        assert (lost, refused) == ("0", "0"), result.stdout


@pytest.mark.slow  # a real server, 16 phones and 8 player pages polling every 1-2 s for a few seconds
def test_small_room_with_player_pages_refuses_none():
    """``--players``: the player pages poll beside the captains' phones; none is refused."""
    result = subprocess.run(
        [sys.executable, "bench/room.py", "--tables", "4", "--seconds", "10", "--open-seconds", "1",
         "--runs", "one", "--players", "8", "--poll", "1-2"],
        cwd=ROOT, capture_output=True, text=True, timeout=240,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    [line] = [line for line in result.stdout.splitlines() if line.startswith("room[")]
    assert line == "room[one]: 4 tables, 16 phones, 4 saved, 4 confirmed, 4 stored once, 0 lost, 0 refused", \
        result.stdout
    assert re.search(r"player poll +\d+ requests \{(200: \d+, )?304: \d+\}", result.stdout), result.stdout
