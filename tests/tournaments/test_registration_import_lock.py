"""The write lock's bound: "no import or registration upload holds the database's write lock for
more than about a second". tests/transfer/test_import_lock.py measures a tournament file;
this measures a registration file: captains of another tournament save their sheets while
the arbiter uploads and confirms a 2000-pair CSV through the import page
(``bench/import_saves.py`` in a process of its own: a file database in WAL mode, as in
production). The preview parses and stores the rows outside any transaction; the
confirmation writes them in bulk, so no captain's save waits more than a second."""
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_captain_saves_wait_at_most_a_second_during_a_2000_pair_registration_upload():
    # as in test_import_lock: a latency bound means nothing on a machine running several
    # times more work than it has cores
    load = os.getloadavg()[0] / (os.cpu_count() or 1)
    if load > 2:
        pytest.skip(f"machine overloaded (load {load:.1f} per core): latency not measurable")
    outputs = []
    for _attempt in range(2):   # the better of two runs (one run's worst save is one moment of the scheduler)
        run = subprocess.run([sys.executable, str(ROOT / "bench" / "import_saves.py"), "--pairs", "2000"],
                             capture_output=True, text=True, timeout=600, cwd=ROOT)
        assert run.returncode == 0, run.stderr[-2000:]
        last = run.stdout.strip().splitlines()[-1]
        found = re.match(r"import_saves: (\d+) pairs imported in \d+ ms \(write \d+ ms\), (\d+) captain saves, "
                         r"max (\d+) ms", last)
        assert found, last
        pairs, saves, worst = map(int, found.groups())
        assert pairs == 2000 and saves > 0
        assert "refused: 0 " in run.stdout
        outputs.append(run.stdout)
        if worst <= 1000:
            break
    assert worst <= 1000, "\n".join(outputs)
