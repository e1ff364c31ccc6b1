"""``bench/busiest_minute.py`` kept from rotting: a tiny evening, run briefly.

No timing is asserted (figures are the script's output): only that it prints its lines,
that every last sheet was saved, confirmed and stored once, that no phone was refused,
that every player's phone showed its new table (the right one) and that the pack was ready.
"""
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow  # a real server, 16 phones polling every 1-2 s and a print pack
def test_tiny_busiest_minute_loses_nothing_and_every_phone_finds_its_new_table():
    result = subprocess.run(
        [sys.executable, "bench/busiest_minute.py", "--tables", "4", "--seconds", "6", "--last", "2",
         "--open-seconds", "1", "--poll", "1-2"],
        cwd=ROOT, capture_output=True, text=True, timeout=240,
    )
    out = result.stdout
    assert result.returncode == 0, result.stderr[-3000:]
    # 4 tables: 8 captains' phones + 8 players' phones (one per pair); the last 2 sheets by phone
    assert out.splitlines()[-1] == ("busiest[sqlite]: 4 tables, 16 phones, 2 last sheets, 2 saved, 2 confirmed, "
                                    "2 stored once, 0 lost, 0 refused, pack ready"), out + result.stderr[-3000:]
    assert re.search(r"publish → player's phone shows its new table: p50 [\d.]+ s, p99 [\d.]+ s, max [\d.]+ s "
                     r"\(8 of 8 phones, 0 showing a wrong table\)", out), out
    assert re.search(r"close → captain's phone shows its round closed: .*\(8 of 8 phones\)", out), out
    assert re.search(r"print pack, click → PDF ready: [\d.]+ s", out), out
    assert re.search(r"arbiter pages during the run: \d+ requests, p50 \d+ ms, p99 \d+ ms", out), out
    assert re.search(r"load average before the run [\d.]+ [\d.]+ [\d.]+", out), out
    assert re.search(r"CPU time: server [\d.]+ s", out), out
    for step in ("validate all", "close", "generate", "publish"):
        assert re.search(rf"step {step} +302 ", out), out
