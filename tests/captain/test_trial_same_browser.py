"""New-user trial, issue 10 item 5: "Stesso browser?" flagged two separate phones.

Two separate browsers (separate cookie jars) with the same iPhone User-Agent: N/S loaded its
page and saved; E/W opened the link only after the entry and confirmed. The board said
"Confermato forse dallo stesso telefono". The cause: a device cookie born after the entry was
counted as absent, so the rule fell back to the User-Agent, which two iPhones on the same iOS
version share. Now the device id is recorded as sent; "absent" means the confirming (or
entering) request carried no device cookie, i.e. that browser did not keep the cookie the
captain page set (cookies disabled, a jar cleared such as a private tab): only then does the
same User-Agent flag it.
"""
import datetime
import json

from django.test import Client
from django.urls import reverse

from tournaments.devices import DEVICE_COOKIE
from tournaments.models import ScoreSheet

HANDS = [[600, 200], [400, 150], [250, 300], [300, 195]]
IPHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148"


def _page(client, table):
    response = client.get(reverse("captain", args=[table.token]))
    assert response.status_code == 200
    return response


def _save(client, table, line="ns", version=0):
    body = {"line": line, "hands": HANDS, "version": version, "declared": None}
    return client.post(reverse("captain_save", args=[table.token]), data=json.dumps(body),
                       content_type="application/json")


def _confirm(client, table, version=1, line="ew"):
    return client.post(reverse("captain_confirm", args=[table.token]),
                       data=json.dumps({"line": line, "version": version}), content_type="application/json")


def _flagged(arbiter, table) -> bool:
    board = Client()
    board.force_login(arbiter)
    html = board.get(reverse("board", args=["prova", 1])).content.decode()
    return f"Tavolo {table.number}: stesso browser?" in html


def test_two_phones_same_user_agent_each_loading_its_page_are_not_flagged(tables, arbiter):
    t = tables[1]
    ns, ew = Client(HTTP_USER_AGENT=IPHONE), Client(HTTP_USER_AGENT=IPHONE)
    _page(ns, t)
    _page(ew, t)
    assert _save(ns, t).status_code == 200
    assert _confirm(ew, t).status_code == 200
    sheet = ScoreSheet.objects.get(table=t)
    assert sheet.entry_agent == sheet.confirm_agent != ""        # one User-Agent for both
    assert sheet.entry_device == ns.cookies[DEVICE_COOKIE].value
    assert sheet.confirm_device == ew.cookies[DEVICE_COOKIE].value
    assert sheet.entry_device != sheet.confirm_device
    assert not _flagged(arbiter, t)


def test_the_trial_case_confirming_phone_first_opens_the_link_after_the_entry(tables, arbiter):
    """E/W loads the page a minute after N/S saved (its device cookie is newer than the entry):
    still two phones, not flagged."""
    t = tables[2]
    ns, ew = Client(HTTP_USER_AGENT=IPHONE), Client(HTTP_USER_AGENT=IPHONE)
    _page(ns, t)
    assert _save(ns, t).status_code == 200
    earlier = ScoreSheet.objects.get(table=t).updated_at - datetime.timedelta(minutes=1)
    ScoreSheet.objects.filter(table=t).update(updated_at=earlier)  # the entry is a minute old
    _page(ew, t)                                                    # E/W's first visit
    assert _confirm(ew, t).status_code == 200
    sheet = ScoreSheet.objects.get(table=t)
    assert sheet.confirm_device == ew.cookies[DEVICE_COOKIE].value != sheet.entry_device
    assert not _flagged(arbiter, t)


def test_same_browser_from_a_private_tab_with_the_jar_cleared_is_flagged(tables, arbiter):
    """The entering phone countersigns from a private tab: same User-Agent, an empty cookie jar
    (no device cookie, no saved-sheet cookie) → not refused, flagged on the board."""
    t = tables[3]
    phone = Client(HTTP_USER_AGENT=IPHONE)
    _page(phone, t)
    assert _save(phone, t).status_code == 200
    phone.cookies.clear()                                # the private tab: nothing of the normal jar
    assert _confirm(phone, t).status_code == 200         # a hint, never a refusal
    sheet = ScoreSheet.objects.get(table=t)
    assert sheet.entry_device and sheet.confirm_device == ""
    assert _flagged(arbiter, t)


def test_a_browser_refusing_cookies_is_flagged_only_with_the_same_user_agent(tables, arbiter):
    """The page sets the device cookie but the browser does not keep it (cookies disabled):
    absent, so the User-Agent decides: same one → flagged, another one → not."""
    for table, agent, flagged in ((tables[3], IPHONE, True), (tables[4], IPHONE.replace("17_5", "16_0"), False)):
        ns = Client(HTTP_USER_AGENT=IPHONE)
        _page(ns, table)
        assert _save(ns, table).status_code == 200
        ew = Client(HTTP_USER_AGENT=agent)
        assert DEVICE_COOKIE in _page(ew, table).cookies     # set by the page...
        ew.cookies.clear()                                   # ...and not kept
        assert _confirm(ew, table).status_code == 200
        assert ScoreSheet.objects.get(table=table).confirm_device == ""
        assert _flagged(arbiter, table) is flagged


def test_the_device_cookie_comes_with_the_first_json_answer_too(tables):
    """A browser that reached the link without the page (or lost the cookie) gets one on its
    first captain answer; one that has it keeps it (never replaced)."""
    t = tables[1]
    fresh = Client(HTTP_USER_AGENT=IPHONE)
    first = fresh.get(reverse("captain_state", args=[t.token]))
    assert first.status_code == 200 and len(first.cookies[DEVICE_COOKIE].value) == 32
    kept = fresh.cookies[DEVICE_COOKIE].value
    assert DEVICE_COOKIE not in fresh.get(reverse("captain_state", args=[t.token])).cookies
    assert DEVICE_COOKIE not in _save(fresh, t).cookies
    assert ScoreSheet.objects.get(table=t).entry_device == kept
