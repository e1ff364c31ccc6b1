"""The live board's stamp (``views/board_stamp.py``) is read once per poll: the fragment
answered after a change computed it twice (the 204 check, then the rows' cache key), and
the calls' part was two queries; the round page and the board poll every few seconds."""
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.captain.helpers import captain_save
from tournaments.views import round_cache


def _reads(client, url, table):
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url, {"stamp": "old"})
    assert response.status_code == 200
    return [q["sql"] for q in captured.captured_queries if f'FROM "{table}"' in q["sql"]]


def test_board_fragment_reads_the_stamp_once(client, arbiter_client, tables):
    round_cache.clear()
    captain_save(client, tables[1])  # a change: the fragment is rendered
    url = reverse("board_rows", args=["prova", 1])
    sheets = [sql for sql in _reads(arbiter_client, url, "tournaments_scoresheet") if 'SUM(' in sql]
    calls = _reads(arbiter_client, url, "tournaments_arbitercall")
    assert len(sheets) == 1  # the stamp's sheets part
    # the stamp's calls part (one query) and the calls listed on the board (rows cached: none)
    assert len(calls) == 1
