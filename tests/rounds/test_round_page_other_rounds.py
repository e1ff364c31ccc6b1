"""What the round page shows of the tournament's other rounds (the next round's button,
a later Danish round already published, the rounds' bar, the standings it links), read in
one query of the tournament's rounds: the page is polled every second in the room.

Plan DD (two Danish rounds), round 1 closed and round 2 published: round 1's page links
round 2, warns that round 2 (Danish) is published, and links the standings after round 1;
round 2's page has no next round, no later Danish round, the standings after round 1."""
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tournaments.views import round_cache


@pytest.fixture(autouse=True)
def _empty_cache():
    round_cache.clear()
    yield
    round_cache.clear()


def _page(client, number):
    url = reverse("round", args=["prova", number])
    client.get(url)  # the rows cached: the poll's case
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url)
    assert response.status_code == 200
    reads = [q["sql"] for q in captured.captured_queries if 'FROM "tournaments_round"' in q["sql"]]
    return response.context, reads


def test_round_page_reads_the_other_rounds_once(arbiter_client, round2_published):
    first, reads_1 = _page(arbiter_client, 1)
    assert first["next_round"].number == 2 and first["later_danish"].number == 2
    assert first["round_numbers"] == [1, 2] and first["standings_after"] == 1 and not first["can_reopen"]
    second, reads_2 = _page(arbiter_client, 2)
    assert second["next_round"] is None and second["later_danish"] is None
    assert second["round_numbers"] == [1, 2] and second["standings_after"] == 1
    # the page's round, the other rounds once, and the generate
    # form's digest of the rounds (services.generation_state)
    assert len(reads_1) == 3 and len(reads_2) == 3
