"""``bench/federation.py`` kept from rotting: 2 clubs × 2 evenings × 3 tables on SQLite, a
circuit of both clubs' evenings and a simultaneous evening of both clubs.

No timing is asserted (figures are the script's output): only that it builds what it says,
prints every figure, that the year's CSV holds every player of every evening (2 clubs × 2
evenings × 6 pairs × 2 players = 48 rows) and that the scoping's plans were explained.
"""
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow  # builds a database and runs two child processes: about 10 s
def test_tiny_federation_bench_prints_its_figures():
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "ARBITRO_VAR_DIR")}
    result = subprocess.run(
        [sys.executable, "bench/federation.py", "--clubs", "2", "--evenings", "2", "--tables", "3", "--members", "20",
         "--repeat", "3", "--circuit-clubs", "2", "--circuit-evenings", "2", "--simultaneous-clubs", "2"],
        cwd=ROOT, capture_output=True, text=True, timeout=300, env=env,
    )
    out = result.stdout
    assert result.returncode == 0, result.stderr[-3000:]
    assert "built 2 clubs × 2 evenings × 3 tables × 4 rounds: 4 tournaments, 48 tables, 40 members" in out, out
    assert re.search(r"arbiter's home page in club c002 .*: p50 [\d.]+ ms, p99 [\d.]+ ms \(3 requests\)", out), out
    assert re.search(r"member search while typing in club c002 .*: p50 [\d.]+ ms, p99 [\d.]+ ms", out), out
    assert re.search(r"download of a year .*, csv: [\d.]+ s, \d+ KB, 48 rows, peak resident \d+ MB", out), out
    assert re.search(r"download of a year .*, xlsx: [\d.]+ s, \d+ KB, peak resident \d+ MB", out), out
    # 2 clubs' 6 pairs: the same 12 membership numbers in both clubs are 12 people (rules.md §20)
    assert re.search(r"circuit of 2 clubs × 2 evenings ranked \(12 rows\): first read [\d.]+ s .*then [\d.]+ s "
                     r"\(target ≤ 1 s; \d{4}-\d\d-\d\d \d\d:\d\d UTC, load [\d.]+\)", out), out
    assert re.search(r"simultaneous evening of 2 clubs × 3 tables combined \(12 entrants, final True\): p50 [\d.]+ s, "
                     r"max [\d.]+ s \(target ≤ 1 s; \d{4}-\d\d-\d\d \d\d:\d\d UTC, load [\d.]+\)", out), out
    assert "members_member_club_id" in out, out  # the search's registry read through the club's index
    assert re.search(r"^federation\[sqlite\]: 2 clubs, 4 tournaments, 48 tables; home p99 [\d.]+ ms; search p99 "
                     r"[\d.]+ ms; year xlsx [\d.]+ s \d+ MB; year csv [\d.]+ s \d+ MB; circuit 2×2 [\d.]+ s; "
                     r"simultaneous 2×3 [\d.]+ s$", out.splitlines()[-1]), out


@pytest.mark.slow  # builds a database and runs two child processes: about 8 s
def test_only_the_download_is_timed_when_asked():
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "ARBITRO_VAR_DIR")}
    result = subprocess.run(
        [sys.executable, "bench/federation.py", "--clubs", "2", "--evenings", "2", "--tables", "3", "--members", "20",
         "--only", "download"], cwd=ROOT, capture_output=True, text=True, timeout=300, env=env)
    out = result.stdout
    assert result.returncode == 0, result.stderr[-3000:]
    assert "home page" not in out and "circuit" not in out and "simultaneous" not in out, out
    assert re.search(r"download of a year .*, csv: [\d.]+ s, \d+ KB, 48 rows, peak resident \d+ MB, [\d.]+ CPU-s "
                     r"in the child \(child process; load before [\d.]+\)", out), out
    assert re.search(r"download of a year .*, xlsx: [\d.]+ s, \d+ KB, peak resident \d+ MB, [\d.]+ CPU-s", out), out
    assert re.search(r"^federation\[sqlite\]: 2 clubs, 4 tournaments, 48 tables; year xlsx [\d.]+ s \d+ MB; "
                     r"year csv [\d.]+ s \d+ MB$", out.splitlines()[-1]), out
