"""A 2000-pair tournament file uploaded through the import page while captains of another
tournament save their sheets: the file is read and checked outside the transaction and
written in one short transaction of prepared bulk inserts, so no captain's save waits more
than a second (the file held SQLite's write lock for the whole import before: a 100,000-pair
file locked the room's captains out for 88 s). Runs ``bench/import_file_saves.py`` in a
process of its own (a file database in WAL mode, as in production; threads as waitress's)."""
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def assert_saves_wait_at_most_a_second(script: str, summary: str) -> None:
    """Run ``bench/<script> --pairs 2000`` (an import while captains of another tournament save)
    and check its last line, matched by the regex ``summary`` (groups: pairs, saves, worst ms):
    2000 pairs, some saves, none refused, the worst save ≤ 1 s in the better of two runs.

    A latency bound means nothing on a machine running several times more work than it has
    cores (seen: load 15 on 2 cores, where the same run took 1.4 s once and 23 s the next): the
    test is skipped there. The better of two runs: one run's worst save is one moment of the
    scheduler (the suite's other worker shares the 2 cores); nothing may be refused in either."""
    load = os.getloadavg()[0] / (os.cpu_count() or 1)
    if load > 2:
        pytest.skip(f"machine overloaded (load {load:.1f} per core): latency not measurable")
    outputs = []
    for _attempt in range(2):
        run = subprocess.run([sys.executable, str(ROOT / "bench" / script), "--pairs", "2000"],
                             capture_output=True, text=True, timeout=600, cwd=ROOT)
        assert run.returncode == 0, run.stderr[-2000:]
        last = run.stdout.strip().splitlines()[-1]
        found = re.match(summary, last)
        assert found, last
        pairs, saves, worst = map(int, found.groups())
        assert pairs == 2000 and saves > 0
        assert "refused: 0 " in run.stdout
        outputs.append(run.stdout)
        if worst <= 1000:
            break
    assert worst <= 1000, "\n".join(outputs)


@pytest.mark.slow
def test_captain_saves_wait_at_most_a_second_during_a_2000_pair_file_import():
    assert_saves_wait_at_most_a_second(
        "import_file_saves.py",
        r"import_file_saves: (\d+) pairs imported in \d+ ms, (\d+) captain saves, max (\d+) ms")
