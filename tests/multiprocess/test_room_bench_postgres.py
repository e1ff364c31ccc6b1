"""``bench/room.py --setups postgres`` kept from rotting: a small room on two server
processes sharing one PostgreSQL database. No timing asserted: only that every phone got its
answers and every sheet was saved and confirmed exactly once, and the side-by-side table."""
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow  # two server processes and a room of phones
@pytest.mark.skipif(settings.DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql"
                    or not os.environ.get("DATABASE_URL", "").startswith("postgres"),
                    reason="needs a PostgreSQL server (DATABASE_URL=postgres://…, as scripts/with-postgres.sh sets)")
def test_small_room_on_two_postgres_processes_loses_nothing():
    result = subprocess.run(
        [sys.executable, "bench/room.py", "--tables", "6", "--seconds", "10", "--open-seconds", "1", "--poll", "1-2",
         "--runs", "one", "--setups", "postgres", "--processes", "2", "--postgres-url", os.environ["DATABASE_URL"]],
        cwd=ROOT, capture_output=True, text=True, timeout=240,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    lines = [line for line in result.stdout.splitlines() if line.startswith("room[")]
    assert lines == ["room[one@postgres×2]: 6 tables, 12 phones, 6 saved, 6 confirmed, 6 stored once, "
                     "0 lost, 0 refused"], result.stdout + result.stderr[-3000:]
    assert re.search(r"PostgreSQL, 2 server processes", result.stdout)
