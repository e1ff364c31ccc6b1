"""Captains' PINs: wrong PINs counted per table and per tournament in the database, a table
or a tournament's PIN page locked and unlocked, a shared address (NAT) never blocks the room,
X-Forwarded-For read only from a named proxy.

Numbers used below, chosen in tournaments/captains/pins.py and checked here by hand:
a table locks at 5 wrong PINs; a tournament's PIN page locks at 18 wrong PINs in 15 minutes.
"""
import datetime
import json

import pytest
from django.test import Client, RequestFactory, override_settings
from django.urls import reverse
from django.utils import timezone

from tournaments import services
from tournaments.captains import pins
from tournaments.captains.devices import client_ip
from tournaments.models import AuditEntry, PinGuard, ScoreSheet

HANDS = [[600, 200], [400, 150], [250, 300], [300, 195]]


def wrong_pin(table):
    return "0000" if table.pin != "0000" else "0001"


def pin_url(slug="prova"):
    return reverse("captain_pin", args=[slug])


def save(client, table, line="ns", version=0, **extra):
    body = {"line": line, "hands": HANDS, "version": version, "declared": None}
    return client.post(reverse("captain_save", args=[table.token]), data=json.dumps(body),
                       content_type="application/json", **extra)


# --------------------------------------------------------------------------- one address, many captains


@pytest.mark.slow  # 500 pairs drawn, then 750 requests (PIN, page, save of 250 tables): about 15 s
# what it checks is the per-address limiter (the cache, not the database); the PIN page and the
# save are checked on PostgreSQL by the other tests of this file
@pytest.mark.one_engine
@pytest.mark.django_db
def test_250_captains_behind_one_address_all_open_by_pin_and_save(tournament, make_pairs, arbiter):
    """The fault: 250 captains entering by PIN from one address saved only 118 sheets (per-IP
    limit of 30/min). Right: all 250 open their table and save."""
    make_pairs(tournament, 500)
    rnd = services.publish_round(round=services.generate_round(tournament=tournament, by=arbiter),
                                 by=arbiter, acknowledge_warnings=True)
    tables = list(rnd.tables.filter(bye="").order_by("number"))
    assert len(tables) == 250
    saved = 0
    for table in tables:
        phone = Client(REMOTE_ADDR="192.168.1.1")  # every phone behind the same NAT/proxy address
        response = phone.post(pin_url(), {"table": str(table.number), "pin": table.pin})
        assert response.status_code == 302, (table.number, response.status_code)
        assert response.url == reverse("captain", args=[table.token])
        assert phone.get(response.url).status_code == 200
        if save(phone, table).status_code == 200:
            saved += 1
    assert saved == 250
    assert ScoreSheet.objects.filter(table__round=rnd, state=ScoreSheet.State.ENTERED).count() == 250


def test_a_save_from_an_opened_link_is_never_refused_by_the_guess_limiter(client, tables):
    """The fault: a blocked address got 429 on every captain address, saves included."""
    for i in range(31):
        client.get(f"/c/guess-{i}/")
    assert client.get("/c/guess-99/").status_code == 429   # the guesser is limited…
    response = save(client, tables[1])                       # …the captain's save is not
    assert response.status_code == 200 and response.json()["sheet"]["version"] == 1
    assert client.get(reverse("captain_state", args=[tables[1].token])).status_code == 200


def test_x_forwarded_for_is_ignored_without_a_trusted_proxy(client, tables):
    # 31 unknown tokens from one peer, each claiming another client address: all one address
    codes = [client.get(f"/c/guess-{i}/", REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR=f"172.16.0.{i}").status_code
             for i in range(31)]
    assert codes[:30] == [404] * 30 and codes[30] == 429


@override_settings(ARBITRO_TRUSTED_PROXIES=["127.0.0.1"])
def test_x_forwarded_for_is_read_when_the_setting_names_the_proxy(client, tables):
    codes = [client.get(f"/c/guess-{i}/", REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR=f"172.16.0.{i}").status_code
             for i in range(31)]
    assert set(codes) == {404}   # 31 different clients, one guess each


def test_client_ip_rules():
    rf = RequestFactory()
    with override_settings(ARBITRO_TRUSTED_PROXIES=[]):
        assert client_ip(rf.get("/", REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="1.2.3.4")) == "127.0.0.1"
    with override_settings(ARBITRO_TRUSTED_PROXIES="127.0.0.1, 127.0.0.2"):
        # right-most address that is not a trusted proxy; a spoofed left part is ignored
        req = rf.get("/", REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="6.6.6.6, 1.2.3.4, 127.0.0.2")
        assert client_ip(req) == "1.2.3.4"
        assert client_ip(rf.get("/", REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="nonsense")) == "127.0.0.1"
        assert client_ip(rf.get("/", REMOTE_ADDR="10.9.9.9", HTTP_X_FORWARDED_FOR="1.2.3.4")) == "10.9.9.9"


# --------------------------------------------------------------------------- wrong PINs and locks


def test_wrong_pins_are_counted_per_table_and_per_tournament_in_the_database(client, tables):
    for _ in range(2):
        assert client.post(pin_url(), {"table": "3", "pin": wrong_pin(tables[3])}).status_code == 400
    assert client.post(pin_url(), {"table": "4", "pin": wrong_pin(tables[4])}).status_code == 400
    assert client.post(pin_url(), {"table": "77", "pin": "1234"}).status_code == 400   # no such table
    assert PinGuard.objects.get(table=tables[3]).wrong == 2
    assert PinGuard.objects.get(table=tables[4]).wrong == 1
    assert PinGuard.objects.get(tournament__slug="prova", table__isnull=True).wrong == 4
    # from other addresses the same counts go on: not per address
    client.post(pin_url(), {"table": "3", "pin": wrong_pin(tables[3])}, REMOTE_ADDR="10.1.1.1")
    assert PinGuard.objects.get(table=tables[3]).wrong == 3


def test_table_locks_after_5_wrong_pins_and_the_qr_link_still_works(client, other_client, tables):
    t = tables[2]
    codes = [client.post(pin_url(), {"table": "2", "pin": wrong_pin(t)}, REMOTE_ADDR=f"10.0.0.{i}").status_code
             for i in range(5)]
    assert codes == [400, 400, 400, 400, 423]
    response = client.post(pin_url(), {"table": "2", "pin": t.pin})
    assert response.status_code == 423
    assert "PIN bloccato per questo tavolo" in response.content.decode()
    assert AuditEntry.objects.filter(action="pin_table_locked", table_number=2).count() == 1
    # the QR link opens and saves
    assert other_client.get(reverse("captain", args=[t.token])).status_code == 200
    assert save(other_client, t).status_code == 200
    # another table still opens by PIN
    assert client.post(pin_url(), {"table": "3", "pin": tables[3].pin}).status_code == 302


def test_board_shows_the_lock_and_the_arbiter_unlocks_audited(client, arbiter_client, tables):
    t = tables[2]
    phone = Client()
    for _ in range(5):
        phone.post(pin_url(), {"table": "2", "pin": wrong_pin(t)})
    html = arbiter_client.get(reverse("board", args=["prova", 1])).content.decode()
    assert "PIN bloccato" in html and reverse("board_unlock_pin", args=["prova", 1, 2]) in html
    response = arbiter_client.post(reverse("board_unlock_pin", args=["prova", 1, 2]))
    assert response.status_code == 302
    entry = AuditEntry.objects.get(action="pin_table_unlocked")
    assert entry.table_number == 2 and entry.actor == "arbitro (arbitro)" and entry.old == {"wrong": 5}
    assert phone.post(pin_url(), {"table": "2", "pin": t.pin}).status_code == 302
    assert "Sblocca PIN" not in arbiter_client.get(reverse("board", args=["prova", 1])).content.decode()


def test_unlocking_a_table_that_is_not_locked_is_refused(tables, arbiter):
    from tournaments.errors import ArbiterError

    with pytest.raises(ArbiterError):
        pins.unlock_table_pin(table=tables[1], by=arbiter)


def test_right_pin_clears_the_tables_wrong_count(client, tables):
    t = tables[1]
    for _ in range(4):
        client.post(pin_url(), {"table": "1", "pin": wrong_pin(t)})
    assert client.post(pin_url(), {"table": "1", "pin": t.pin}).status_code == 302
    assert PinGuard.objects.get(table=t).wrong == 0


def test_tournament_pin_page_locks_after_18_wrong_pins_in_15_minutes(client, arbiter_client, tables, tournament):
    phone = Client()
    # 18 wrong PINs from 18 addresses: 4 on each of the 4 tables (no table locks) and 2 on
    # table numbers the round does not have
    tries = [n for _ in range(4) for n in (1, 2, 3, 4)] + [77, 78]
    codes = [phone.post(pin_url(), {"table": str(n), "pin": wrong_pin(tables[n]) if n in tables else "1234"},
                        REMOTE_ADDR=f"10.0.1.{k}").status_code for k, n in enumerate(tries)]
    assert codes == [400] * 18
    assert not pins.locked_tables(tables[1].round)
    response = phone.post(pin_url(), {"table": "1", "pin": tables[1].pin})   # even the right PIN
    assert response.status_code == 429 and "Troppi PIN errati in questo torneo" in response.content.decode()
    assert phone.get(pin_url()).status_code == 429
    assert AuditEntry.objects.filter(action="pin_tournament_locked").count() == 1
    # the QR still works
    assert save(phone, tables[1]).status_code == 200
    # the board says so; the arbiter reopens the page (audited)
    html = arbiter_client.get(reverse("board", args=["prova", 1])).content.decode()
    assert "Pagina del PIN bloccata" in html
    assert arbiter_client.post(reverse("board_unlock_tournament_pin", args=["prova", 1])).status_code == 302
    assert AuditEntry.objects.filter(action="pin_tournament_unlocked").count() == 1
    assert phone.post(pin_url(), {"table": "2", "pin": tables[2].pin}).status_code == 302


def test_tournament_lock_ends_with_its_15_minute_window(tables, tournament):
    start = timezone.now()
    for k in range(18):
        n = 1 + k % 4 if k < 16 else 90 + k   # 4 per table, then 2 unknown table numbers
        result = pins.open_table_by_pin(tournament=tournament, table_number=str(n),
                                            pin=wrong_pin(tables[n]) if n in tables else "1234", now=start)
        assert result.status == 400
    at_14 = start + datetime.timedelta(minutes=14, seconds=59)
    assert pins.open_table_by_pin(tournament=tournament, table_number="1", pin=tables[1].pin,
                                      now=at_14).status == 429
    at_15 = start + datetime.timedelta(minutes=15)
    assert pins.open_table_by_pin(tournament=tournament, table_number="1", pin=tables[1].pin,
                                      now=at_15).table == tables[1]


def test_pin_page_is_per_tournament(client, tables, tournament, make_pairs, arbiter):
    other = services.create_tournament(by=arbiter, name="Altro", slug="altro", date=datetime.date(2026, 11, 30))
    # table 1's PIN of "prova" does not open anything on "altro" (it has no published round)
    assert client.post(pin_url("altro"), {"table": "1", "pin": tables[1].pin}).status_code == 400
    assert client.post(pin_url("prova"), {"table": "1", "pin": tables[1].pin}).status_code == 302
    assert client.get(pin_url("nessuno")).status_code == 404
    # the old common page redirects when one tournament is in play…
    response = client.get("/c/")
    assert response.status_code == 302 and response.url == pin_url("prova")
    # …and explains when several are
    make_pairs(other, 8)
    services.publish_round(round=services.generate_round(tournament=other, by=arbiter), by=arbiter,
                           acknowledge_warnings=True)
    response = client.get("/c/")
    assert response.status_code == 200 and "pagina del proprio torneo" in response.content.decode()
    # the fault "PINs match across all tournaments": "altro"'s table 1 PIN opens "altro"'s
    # table 1 on its own page only
    other_t1 = other.rounds.get(number=1).tables.get(number=1)
    response = client.post(pin_url("altro"), {"table": "1", "pin": other_t1.pin})
    assert response.status_code == 302 and response.url == reverse("captain", args=[other_t1.token])
    if other_t1.pin != tables[1].pin:
        assert client.post(pin_url("prova"), {"table": "1", "pin": other_t1.pin}).status_code == 400


def test_links_page_prints_the_tournaments_pin_address(arbiter_client, tables):
    html = arbiter_client.get(reverse("captain_links", args=["prova", 1])).content.decode()
    assert "/t/prova/pin/" in html


def test_guessing_bound_is_at_most_one_percent_an_hour():
    """README, "PIN dei tavoli": an hour meets at most 60/15 + 1 = 5 windows of 15 minutes, each
    allowing 18 wrong PINs: 90 guesses. Each guess names one table and hits with probability at
    most 1/(10,000 − 90); so P(any table opened in an hour) ≤ 90/9,910 ≈ 0.908 % ≤ 1 %."""
    windows = 60 // int(pins.TOURNAMENT_WINDOW.total_seconds() // 60) + 1
    assert windows == 5
    guesses = windows * pins.TOURNAMENT_MAX_WRONG
    assert guesses == 90
    assert guesses / (10_000 - guesses) <= 0.01
    assert pins.TABLE_MAX_WRONG == 5


# --------------------------------------------------------------------------- the live board follows a lock


def test_board_fragment_follows_a_new_pin_lock(arbiter_client, tables):
    """The board's poll (204 while nothing changed) must bring a new lock without a reload."""
    html = arbiter_client.get(reverse("board_rows", args=["prova", 1])).content.decode()
    stamp = html.split('data-stamp="', 1)[1].split('"', 1)[0]
    rows = reverse("board_rows", args=["prova", 1])
    assert arbiter_client.get(rows, {"stamp": stamp}).status_code == 204
    phone = Client()
    for _ in range(5):
        phone.post(pin_url(), {"table": "4", "pin": wrong_pin(tables[4])})
    response = arbiter_client.get(rows, {"stamp": stamp})
    assert response.status_code == 200 and "Tavolo 4: PIN bloccato" in response.content.decode()
