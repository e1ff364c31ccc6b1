"""The write lock's bound: "no import or registration upload holds the database's write lock for
more than about a second". tests/transfer/test_import_lock.py measures a tournament file;
this measures a registration file: captains of another tournament save their sheets while
the arbiter uploads and confirms a 2000-pair CSV through the import page
(``bench/import_saves.py`` in a process of its own: a file database in WAL mode, as in
production). The preview parses and stores the rows outside any transaction; the
confirmation writes them in bulk, so no captain's save waits more than a second."""
import pytest

from tests.transfer.helpers import assert_saves_wait_at_most_a_second


@pytest.mark.slow
def test_captain_saves_wait_at_most_a_second_during_a_2000_pair_registration_upload():
    assert_saves_wait_at_most_a_second(
        "import_saves.py",
        r"import_saves: (\d+) pairs imported in \d+ ms \(write \d+ ms\), (\d+) captain saves, max (\d+) ms")
