"""The per-round-version cache of the round page's and the live board's rows
(tournaments/views/round_cache.py): a second answer with nothing written reads fewer
queries and shows the same rows; any write (a save, a rename) gives the new rows."""
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tournaments import services
from tournaments.services import HandInput
from tournaments.views import round_cache

WIN = [HandInput(600, 200), HandInput(400, 150), HandInput(250, 300), HandInput(300, 195)]  # 1550–845, 14–6


@pytest.fixture(autouse=True)
def _empty_cache():
    round_cache.clear()
    yield
    round_cache.clear()


def count(client, url):
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url)
    assert response.status_code == 200
    return len(captured), response.content.decode()


@pytest.mark.parametrize("name", ["round", "board"])
def test_second_answer_reuses_the_rows_until_a_write(arbiter_client, arbiter, published, name):
    url = reverse(name, args=["prova", 1])
    first, html = count(arbiter_client, url)
    second, again = count(arbiter_client, url)
    assert second < first
    assert "14–6</td>" not in again and again.count("<tr") == html.count("<tr")
    services.save_score_sheet(table=published.tables.get(number=1), hands=WIN, by=arbiter)
    third, fresh = count(arbiter_client, url)
    assert "14–6</td>" in fresh       # table 1's VP, shown at once


def test_a_rename_reaches_the_round_page(arbiter_client, arbiter, published):
    url = reverse("round", args=["prova", 1])
    assert "Rossi1" in arbiter_client.get(url).content.decode()
    pair = published.tournament.pairs.get(number=1)
    services.update_pair(pair=pair, by=arbiter, players=[
        services.PlayerData(first_name="Anna1", last_name="Rosi1", membership_number="A1"),
        services.PlayerData(first_name="Bruno1", last_name="Verdi1", membership_number="B1")])
    assert "Rosi1" in arbiter_client.get(url).content.decode()
