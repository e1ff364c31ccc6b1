"""A room of 500 open phones: the captain page's poll stays cheap.

The fault: every captain page polled ``stato/`` every 4 s for the whole sheet, on a
kept-open connection, and ``manage.py serve`` kept waitress's default limit of 100
connections: about 100 open pages locked everyone out, the arbiter too. Now

- the poll answers "nothing new" with an empty ``304 Not Modified`` (ETag sent back in
  ``If-None-Match``) after a single query, and any change the page shows (save,
  confirmation, dispute, the arbiter's validation, the round closing) changes the tag;
- ``manage.py serve`` gives waitress a connection limit above 500 phones + the arbiter,
  short channel timeouts, ``poll()`` and a larger backlog.
"""
import json

import pytest
from django.core.management import call_command
from django.urls import reverse

from tournaments import services
from tournaments.management.commands import serve as serve_command
from tournaments.models import Round

HANDS = [[600, 200], [400, 150], [250, 300], [300, 195]]


def poll(client, table, tag=None):
    headers = {"HTTP_IF_NONE_MATCH": tag} if tag else {}
    return client.get(reverse("captain_state", args=[table.token]), HTTP_ACCEPT="application/json", **headers)


def save(client, table, version=0, line="ns"):
    return client.post(reverse("captain_save", args=[table.token]), content_type="application/json",
                       data=json.dumps({"line": line, "hands": HANDS, "version": version, "declared": None}))


def confirm(client, table, version, line="ew"):
    return client.post(reverse("captain_confirm", args=[table.token]), content_type="application/json",
                       data=json.dumps({"line": line, "version": version}))


# --------------------------------------------------------------------------- the poll


def test_poll_answers_nothing_new_with_empty_304_after_one_query(client, tables, django_assert_num_queries):
    t = tables[2]
    first = poll(client, t)
    assert first.status_code == 200
    tag = first["ETag"]
    assert tag.startswith('"') and tag.endswith('"')
    with django_assert_num_queries(1):          # the table with its round and sheet, nothing else
        again = poll(client, t, tag)
    assert again.status_code == 304
    assert again.content == b""
    assert again["ETag"] == tag
    assert "no-store" in again["Cache-Control"]  # never kept by a proxy: the page asks every time


def test_poll_without_tag_or_with_an_old_tag_gets_the_whole_sheet(client, tables):
    t = tables[1]
    assert poll(client, t, '"not-a-tag"').status_code == 200
    data = poll(client, t).json()
    assert data["sheet"]["state"] == "empty" and data["sheet"]["version"] == 0


def test_weak_and_listed_tags_are_recognised(client, tables):
    t = tables[1]
    tag = poll(client, t)["ETag"]
    assert poll(client, t, f'"other", W/{tag}').status_code == 304


def test_save_by_one_phone_reaches_the_other_phones_poll(client, other_client, tables):
    t = tables[3]
    tag = poll(other_client, t)["ETag"]
    assert save(client, t).status_code == 200
    answer = poll(other_client, t, tag)
    assert answer.status_code == 200
    sheet = answer.json()["sheet"]
    assert sheet["state"] == "entered" and sheet["entered_line"] == "ns" and sheet["version"] == 1
    # vp20-4h by hand: 1550 − 845 = 705 MP → band 705–900 → 14–6.
    assert sheet["mp"] == [1550, 845] and sheet["vp"] == ["14", "6"]
    assert answer["ETag"] != tag
    assert poll(other_client, t, answer["ETag"]).status_code == 304


def test_confirmation_reaches_the_phone_that_saved(client, other_client, tables):
    t = tables[3]
    save(client, t)
    tag = poll(client, t)["ETag"]
    assert confirm(other_client, t, version=1).status_code == 200
    answer = poll(client, t, tag)
    assert answer.status_code == 200
    sheet = answer.json()["sheet"]
    assert sheet["state"] == "confirmed" and sheet["locked"] is True


def test_dispute_reaches_the_phone_that_saved(client, other_client, tables):
    """The page used to re-draw only on a new version or lock: a dispute must show too."""
    t = tables[4]
    save(client, t)
    tag = poll(client, t)["ETag"]
    response = other_client.post(reverse("captain_dispute", args=[t.token]), content_type="application/json",
                                 data=json.dumps({"line": "ew", "version": 1, "note": "smazzata 3"}))
    assert response.status_code == 200
    answer = poll(client, t, tag)
    assert answer.status_code == 200
    assert answer.json()["sheet"]["state"] == "disputed"
    assert answer.json()["sheet"]["dispute_note"] == "smazzata 3"


def test_arbiter_validation_and_closing_the_round_reach_the_phones(client, other_client, tables, arbiter,
                                                                   published_round):
    for _number, t in tables.items():
        save(client, t)
        services.validate_sheet(table=t, by=arbiter)
    t = tables[1]
    tag = poll(other_client, t)["ETag"]
    assert poll(other_client, t).json()["sheet"]["state"] == "validated"
    services.close_round(round=published_round, by=arbiter)
    assert Round.objects.get(pk=published_round.pk).state == Round.State.CLOSED
    answer = poll(other_client, t, tag)
    assert answer.status_code == 200
    assert answer.json()["sheet"]["round_open"] is False and answer.json()["sheet"]["locked"] is True


def test_the_tag_tells_the_browser_that_saved_from_the_other(client, other_client, tables):
    """The saving phone's page hides "confirm" (``saved_here``): its tag is its own."""
    t = tables[2]
    save(client, t)
    mine, theirs = poll(client, t), poll(other_client, t)
    assert mine.json()["sheet"]["saved_here"] is True and theirs.json()["sheet"]["saved_here"] is False
    assert mine["ETag"] != theirs["ETag"]
    assert poll(client, t, theirs["ETag"]).status_code == 200


@pytest.fixture
def rest_table(tournament, make_pairs, arbiter):
    """A published Mitchell round of 9 pairs: one table is a rest."""
    make_pairs(tournament, 9)
    rnd = services.generate_round(tournament=tournament, by=arbiter)
    rnd = services.publish_round(round=rnd, by=arbiter, acknowledge_warnings=True)
    return rnd.tables.exclude(bye="").get()


def test_rest_table_poll_answers_no_sheet_then_304(client, rest_table):
    first = poll(client, rest_table)
    assert first.status_code == 200 and first.json()["sheet"] is None
    assert set(first.json()) == {"sheet", "clock"}      # the rest table's phone follows the clock too
    assert poll(client, rest_table, first["ETag"]).status_code == 304


# --------------------------------------------------------------------------- the server


def test_serve_gives_waitress_the_room_settings(monkeypatch):
    """500 phones + the arbiter need more than waitress's 100 connections (the fault)."""
    import waitress

    seen = {}
    monkeypatch.setattr(waitress, "serve", lambda app, **kw: seen.update(kw, app=app))
    monkeypatch.setattr(serve_command, "raise_open_files_limit", lambda wanted: seen.setdefault("nofile", wanted))
    monkeypatch.setattr(serve_command, "freeze_startup_objects", lambda: seen.setdefault("frozen", True))
    call_command("serve", "--host", "127.0.0.1", "--port", "8123", "--workers", "1", stdout=open("/dev/null", "w"))
    assert seen["frozen"]  # the startup objects kept out of the collector's full passes
    assert seen["host"] == "127.0.0.1" and seen["port"] == 8123
    assert seen["connection_limit"] >= 1000          # 500 phones, twice over
    assert seen["nofile"] > seen["connection_limit"]  # one open file per socket, plus a margin
    # Idle connections close soon, but not between two polls of a visible page (4–6 s).
    assert 6 < seen["channel_timeout"] <= 30
    assert seen["cleanup_interval"] <= seen["channel_timeout"]
    assert seen["backlog"] >= 1024
    assert seen["asyncore_use_poll"] is True          # Linux: poll(), select() stops at 1024 descriptors
    assert seen["threads"] == 8
    assert seen["_server"] is serve_command.laned_server  # the arbiter's pages ahead of the phones'


def test_serve_options_on_the_command_line_win(monkeypatch):
    import waitress

    seen = {}
    monkeypatch.setattr(waitress, "serve", lambda app, **kw: seen.update(kw))
    monkeypatch.setattr(serve_command, "raise_open_files_limit", lambda wanted: None)
    call_command("serve", "--threads", "4", "--connection-limit", "100", "--workers", "1", stdout=open("/dev/null", "w"))
    assert seen["threads"] == 4 and seen["connection_limit"] == 100
    assert seen["channel_timeout"] == serve_command.SERVER_SETTINGS["channel_timeout"]


def test_open_files_limit_is_raised_up_to_the_hard_limit():
    resource = pytest.importorskip("resource")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = 2256 if hard == resource.RLIM_INFINITY else min(2256, hard)
    try:
        assert serve_command.raise_open_files_limit(2256) >= wanted
        assert resource.getrlimit(resource.RLIMIT_NOFILE)[0] >= wanted
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def test_blocked_address_still_polls_its_own_link_but_not_unknown_ones(client, tables):
    """Behind one address (NAT) a guesser must not block the room's polls,
    and an unknown token never gets the cheap 304: it is a 404, then a 429."""
    from tournaments.captains.access import GUESS_RATE

    t = tables[1]
    tag = poll(client, t)["ETag"]
    limit = int(GUESS_RATE.split("/")[0])
    codes = [client.get(reverse("captain_state", args=[f"unknown-{k}"]), HTTP_IF_NONE_MATCH=tag).status_code
             for k in range(limit + 1)]
    assert codes[:limit] == [404] * limit and codes[limit] == 429
    assert poll(client, t, tag).status_code == 304
