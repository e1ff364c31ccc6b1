"""The captain's page and the answers of its writes carry the poll's tag, so the phone's next
poll is an empty 304 when nothing else changed (a room of 500 phones: the first poll after
each page load, save and confirmation used to fetch the whole sheet again)."""
import json
import re

from django.urls import reverse

from tournaments import services

HANDS = [[600, 200], [400, 150], [250, 300], [300, 195]]


def page_data(client, table):
    html = client.get(reverse("captain", args=[table.token])).content.decode()
    return json.loads(re.search(r'<script id="captain-data" type="application/json">(.*?)</script>', html, re.S)
                      .group(1))


def poll(client, table, tag):
    return client.get(reverse("captain_state", args=[table.token]), HTTP_ACCEPT="application/json",
                      HTTP_IF_NONE_MATCH=tag)


def post(client, table, name, body):
    return client.post(reverse(name, args=[table.token]), content_type="application/json", data=json.dumps(body))


def test_the_pages_tag_makes_the_first_poll_a_304(client, tables):
    t = tables[1]
    data = page_data(client, t)
    assert data["tag"]
    assert poll(client, t, data["tag"]).status_code == 304


def test_the_pages_tag_follows_the_call_and_the_saved_sheet(client, other_client, tables):
    t = tables[2]
    services.call_arbiter(table=t, by=services.Actor(label="tavolo 2"))
    assert post(client, t, "captain_save", {"line": "ns", "hands": HANDS, "version": 0,
                                            "declared": None}).status_code == 200
    mine, other = page_data(client, t), page_data(other_client, t)
    assert mine["tag"] != other["tag"]          # the phone that saved hides «conferma»
    assert mine["sheet"]["saved_here"] and not other["sheet"]["saved_here"]
    assert poll(client, t, mine["tag"]).status_code == 304
    assert poll(other_client, t, other["tag"]).status_code == 304
    assert poll(other_client, t, mine["tag"]).status_code == 200


def test_a_saves_and_a_confirmations_answers_carry_the_next_polls_tag(client, other_client, tables):
    t = tables[3]
    old = page_data(other_client, t)["tag"]
    saved = post(client, t, "captain_save", {"line": "ns", "hands": HANDS, "version": 0, "declared": None})
    assert saved.status_code == 200 and saved.json()["call"] is None
    assert poll(client, t, saved["ETag"]).status_code == 304      # the saving phone: nothing new
    seen = poll(other_client, t, old)                               # the other phone: the sheet
    assert seen.status_code == 200 and seen["ETag"] != saved["ETag"]
    confirmed = post(other_client, t, "captain_confirm", {"line": "ew", "version": 1})
    assert confirmed.status_code == 200 and confirmed.json()["sheet"]["state"] == "confirmed"
    assert poll(other_client, t, confirmed["ETag"]).status_code == 304
    assert poll(client, t, saved["ETag"]).status_code == 200        # the first phone sees the confirmation


def test_a_refused_write_carries_no_tag(client, tables):
    t = tables[4]
    refused = post(client, t, "captain_confirm", {"line": "ew", "version": 0})
    assert refused.status_code == 400 and not refused.has_header("ETag")
