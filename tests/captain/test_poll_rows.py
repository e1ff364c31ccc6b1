"""The captains' polls answered from the round's rows read up to ``ARBITRO_POLL_ROWS_SECONDS``
ago (tournaments/captains/poll_rows.py): no query for a poll whose tag is current, one
query for the whole round when the rows are older, and never an older sheet than the phone
has: a phone whose tag differs from the rows' gets the exact answer."""
import json

import pytest
from django.urls import reverse

from tournaments.captains import poll_rows

HANDS = [[600, 200], [400, 150], [250, 300], [300, 195]]


@pytest.fixture
def rows_kept(settings, monkeypatch):
    """Rows kept 1 s, on a clock the test moves (``clock[0]``, seconds)."""
    settings.ARBITRO_POLL_ROWS_SECONDS = 1.0
    clock = [1000.0]
    monkeypatch.setattr(poll_rows.time, "monotonic", lambda: clock[0])
    return clock


def poll(client, table, tag=None):
    headers = {"HTTP_IF_NONE_MATCH": tag} if tag else {}
    return client.get(reverse("captain_state", args=[table.token]), HTTP_ACCEPT="application/json", **headers)


def save(client, table):
    return client.post(reverse("captain_save", args=[table.token]), content_type="application/json",
                       data=json.dumps({"line": "ns", "hands": HANDS, "version": 0, "declared": None}))


def test_current_tag_is_answered_without_a_query_once_the_round_is_read(
        client, tables, rows_kept, django_assert_num_queries):
    t1, t2 = tables[1], tables[2]
    tag1, tag2 = poll(client, t1)["ETag"], poll(client, t2)["ETag"]
    # the full answers taught the process the tokens' round: one query reads the round's rows
    with django_assert_num_queries(1):
        assert poll(client, t1, tag1).status_code == 304
    with django_assert_num_queries(0):      # t1 again, and t2: the round's rows
        assert poll(client, t1, tag1).status_code == 304
    with django_assert_num_queries(0):
        assert poll(client, t2, tag2).status_code == 304
    rows_kept[0] += 1.0                     # a second later the round is read again, once
    with django_assert_num_queries(1):
        assert poll(client, t1, tag1).status_code == 304
    with django_assert_num_queries(0):
        assert poll(client, t2, tag2).status_code == 304


def test_change_reaches_the_other_phone_within_the_rows_age(client, other_client, tables, rows_kept):
    t = tables[3]
    tag = poll(other_client, t)["ETag"]
    assert poll(other_client, t, tag).status_code == 304   # the round's rows, read now
    assert save(client, t).status_code == 200
    # the rows were read before the save: for up to a second the other phone hears "nothing new"
    assert poll(other_client, t, tag).status_code == 304
    rows_kept[0] += 1.0
    answer = poll(other_client, t, tag)
    assert answer.status_code == 200
    assert answer.json()["sheet"]["version"] == 1


def test_a_phone_newer_than_the_rows_gets_the_exact_answer(client, other_client, tables, rows_kept):
    t = tables[4]
    old = poll(other_client, t)["ETag"]
    assert poll(other_client, t, old).status_code == 304   # the round's rows hold version 0
    assert save(client, t).status_code == 200
    fresh = poll(other_client, t)                          # a reload: the whole sheet, read now
    assert fresh.json()["sheet"]["version"] == 1
    new = fresh["ETag"]
    # its tag differs from the rows' (version 0): the exact row answers, and it is current;
    # the rows never send it back to version 0
    again = poll(other_client, t, new)
    assert again.status_code == 304 and again["ETag"] == new


def test_unknown_token_is_never_answered_from_the_rows(client, tables, rows_kept):
    t = tables[1]
    tag = poll(client, t)["ETag"]
    stranger = reverse("captain_state", args=["x" * 32])
    assert client.get(stranger, HTTP_IF_NONE_MATCH=tag).status_code == 404
    assert "x" * 32 not in poll_rows._ROUND_OF


def test_rows_off_with_zero_seconds(client, tables, settings, django_assert_num_queries):
    settings.ARBITRO_POLL_ROWS_SECONDS = 0
    t = tables[1]
    tag = poll(client, t)["ETag"]
    for _ in range(2):
        with django_assert_num_queries(1):
            assert poll(client, t, tag).status_code == 304
    assert poll_rows._ROUND_OF == {}
