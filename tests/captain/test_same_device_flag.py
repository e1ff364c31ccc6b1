"""The live board's "same browser?" hint: an entry and its countersignature from the same
device (same device cookie, or no cookie and the same User-Agent, or a device born after the
entry such as a private tab) are flagged, never refused; two phones are not flagged.
"""
import json

import pytest
from django.test import Client
from django.urls import reverse

from tournaments.captains.devices import DEVICE_COOKIE, same_browser
from tournaments.models import ScoreSheet

HANDS = [[600, 200], [400, 150], [250, 300], [300, 195]]
PHONE_UA = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148"


def save(client, table, line="ns", version=0, **extra):
    body = {"line": line, "hands": HANDS, "version": version, "declared": None}
    return client.post(reverse("captain_save", args=[table.token]), data=json.dumps(body),
                       content_type="application/json", **extra)


def confirm(client, table, version, line="ew", **extra):
    body = {"line": line, "version": version}
    return client.post(reverse("captain_confirm", args=[table.token]), data=json.dumps(body),
                       content_type="application/json", **extra)


@pytest.mark.parametrize("entry_device, entry_agent, confirm_device, confirm_agent, expected", [
    ("a" * 32, "u1", "a" * 32, "u2", True),     # same device cookie: same browser
    ("a" * 32, "u1", "b" * 32, "u1", False),    # two phones of the same model
    ("a" * 32, "u1", "", "u1", True),           # cookie absent on the confirmation, same UA
    ("", "u1", "b" * 32, "u1", True),           # cookie absent on the entry, same UA
    ("", "u1", "", "u1", True),                 # no ids, same UA
    ("", "u1", "", "u2", False),                # no ids, other UA
    ("", "", "", "", False),                    # nothing known
])
def test_same_browser_rule(entry_device, entry_agent, confirm_device, confirm_agent, expected):
    assert same_browser(entry_device, entry_agent, confirm_device, confirm_agent) is expected


def test_captain_page_sets_a_long_lived_device_cookie(client, tables):
    response = client.get(reverse("captain", args=[tables[1].token]))
    cookie = response.cookies[DEVICE_COOKIE]
    assert len(cookie.value) == 32 and int(cookie["max-age"]) >= 300 * 24 * 3600
    # kept, not replaced, on the next visit
    assert DEVICE_COOKIE not in client.get(reverse("captain", args=[tables[1].token])).cookies


def _board(arbiter):
    board = Client()
    board.force_login(arbiter)
    return board.get(reverse("board", args=["prova", 1])).content.decode()


def test_board_flags_a_confirmation_from_the_same_device(tables, arbiter):
    """A private tab (no saved-sheet cookie) may confirm its own sheet as the other line.
    Same device cookie on both sides: the board says "same browser?" (a hint, not a refusal)."""
    t = tables[1]
    entry = Client(HTTP_USER_AGENT=PHONE_UA)
    entry.get(reverse("captain", args=[t.token]))
    device = entry.cookies[DEVICE_COOKIE].value
    assert save(entry, t).status_code == 200
    private = Client(HTTP_USER_AGENT=PHONE_UA)
    private.cookies[DEVICE_COOKIE] = device
    assert confirm(private, t, version=1).status_code == 200   # not refused
    sheet = ScoreSheet.objects.get(table=t)
    assert sheet.entry_device == sheet.confirm_device == device
    assert "stesso browser?" in _board(arbiter)


def test_board_flags_a_confirmation_without_device_cookie_and_same_user_agent(tables, arbiter):
    t = tables[2]
    entry = Client(HTTP_USER_AGENT=PHONE_UA)
    entry.get(reverse("captain", args=[t.token]))
    assert save(entry, t).status_code == 200
    assert confirm(Client(HTTP_USER_AGENT=PHONE_UA), t, version=1).status_code == 200
    assert "Tavolo 2: stesso browser?" in _board(arbiter)


def test_board_flags_a_private_tab_opened_after_the_entry(tables, arbiter):
    """A private tab gets a fresh device cookie when it loads the page to
    countersign. A device born after the entry counts as absent, so the same User-Agent
    flags it; another User-Agent does not."""
    import time

    from tournaments.captains.devices import device_born, new_device_id

    t, other = tables[3], tables[4]
    for table, agent, flagged in ((t, PHONE_UA, True), (other, PHONE_UA + " other", False)):
        entry = Client(HTTP_USER_AGENT=PHONE_UA)
        entry.get(reverse("captain", args=[table.token]))
        assert save(entry, table).status_code == 200
        private = Client(HTTP_USER_AGENT=agent)
        later = new_device_id(now=time.time() + 60)   # born a minute after the entry
        assert device_born(later) > ScoreSheet.objects.get(table=table).updated_at.timestamp()
        private.cookies[DEVICE_COOKIE] = later
        assert confirm(private, table, version=1).status_code == 200   # a hint, never a refusal
        assert ScoreSheet.objects.get(table=table).confirm_device == ""
        assert (f"Tavolo {table.number}: stesso browser?" in _board(arbiter)) is flagged


def test_board_does_not_flag_two_phones(tables, arbiter):
    t = tables[3]
    ns, ew = Client(HTTP_USER_AGENT=PHONE_UA), Client(HTTP_USER_AGENT=PHONE_UA)
    ns.get(reverse("captain", args=[t.token]))
    ew.get(reverse("captain", args=[t.token]))
    assert save(ns, t).status_code == 200
    assert confirm(ew, t, version=1).status_code == 200
    sheet = ScoreSheet.objects.get(table=t)
    assert sheet.entry_device and sheet.confirm_device and sheet.entry_device != sheet.confirm_device
    assert "stesso browser?" not in _board(arbiter)


CLUB_WIFI = "203.0.113.7"   # the club's one public address: every phone behind its Wi-Fi


def _born(monkeypatch, seconds_from_now):
    """New device ids made from now on are born ``seconds_from_now`` away from now."""
    import time

    from tournaments.captains import devices

    made = devices.new_device_id
    monkeypatch.setattr(devices, "new_device_id", lambda now=None: made(now=time.time() + seconds_from_now))


@pytest.mark.parametrize("first_page", ["pin", "public", "player"])
def test_two_phones_behind_the_club_wifi_are_told_apart_by_their_device(tables, arbiter, monkeypatch, first_page):
    """Two phones of one model behind one address, the E/W phone opening the
    captain page only after the entry. A phone that opened a page of the room before the
    entry (the PIN page, the players' pages) carries a device born then: its confirmation
    is not flagged, whatever the address; a browser that appears only after the entry (a
    private tab) still counts as absent (test_board_flags_a_private_tab_opened_after_the_entry)."""
    from tournaments.models import Tournament

    Tournament.objects.filter(slug="prova").update(public_enabled=True)
    t = tables[1]
    ns = Client(HTTP_USER_AGENT=PHONE_UA, REMOTE_ADDR=CLUB_WIFI)
    ew = Client(HTTP_USER_AGENT=PHONE_UA, REMOTE_ADDR=CLUB_WIFI)
    _born(monkeypatch, -120)                   # two minutes before the entry
    ew.get({"pin": reverse("captain_pin", args=["prova"]),
            "public": reverse("public", args=["prova"]),
            "player": reverse("player_page", args=["prova", "coppia", 3])}[first_page])
    assert DEVICE_COOKIE in ew.cookies
    ns.get(reverse("captain", args=[t.token]))
    assert save(ns, t).status_code == 200
    _born(monkeypatch, +60)                    # the E/W captain opens his link a minute later
    ew.get(reverse("captain", args=[t.token]))
    assert confirm(ew, t, version=1).status_code == 200
    sheet = ScoreSheet.objects.get(table=t)
    assert sheet.confirm_device and sheet.confirm_device != sheet.entry_device
    assert "stesso browser?" not in _board(arbiter)


def test_room_pages_give_a_device_cookie_once_and_keep_it_out_of_shared_caches(tables):
    from tournaments.models import Tournament

    Tournament.objects.filter(slug="prova").update(public_enabled=True)
    phone = Client()
    first = phone.get(reverse("public", args=["prova"]))
    assert first.status_code == 200 and "private" in first["Cache-Control"]
    device = first.cookies[DEVICE_COOKIE].value
    for url in (reverse("captain_pin", args=["prova"]), reverse("player_page", args=["prova", "coppia", 3]),
                reverse("captain", args=[tables[1].token])):
        assert DEVICE_COOKIE not in phone.get(url).cookies, url     # kept, not replaced
    assert phone.cookies[DEVICE_COOKIE].value == device
