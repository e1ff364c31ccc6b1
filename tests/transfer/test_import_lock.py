"""A 2000-pair tournament file uploaded through the import page while captains of another
tournament save their sheets: the file is read and checked outside the transaction and
written in one short transaction of prepared bulk inserts, so no captain's save waits more
than a second (the file held SQLite's write lock for the whole import before: a 100,000-pair
file locked the room's captains out for 88 s). Runs ``bench/import_file_saves.py`` in a
process of its own (a file database in WAL mode, as in production; threads as waitress's)."""

import pytest

from tests.transfer.helpers import assert_saves_wait_at_most_a_second


@pytest.mark.slow
def test_captain_saves_wait_at_most_a_second_during_a_2000_pair_file_import():
    assert_saves_wait_at_most_a_second(
        "import_file_saves.py",
        r"import_file_saves: (\d+) pairs imported in \d+ ms, (\d+) captain saves, max (\d+) ms")
