"""Pages of the round clock: the arbiter's buttons, the projector, the
captain's poll (a pause reaches the phone through its ETag), the live board."""
import json

import pytest
from django.core.cache import cache
from django.urls import reverse

from tests.captain.helpers import inline_problems
from tournaments import services
from tournaments.models import AuditEntry, Tournament

HANDS4 = [[600, 200], [400, 150], [250, 300], [300, 195]]


@pytest.fixture(autouse=True)
def _fresh_rate_limits(django_db_blocker):
    # the default cache is a database table except on SQLite (config/settings.py)
    with django_db_blocker.unblock():
        cache.clear()
    yield
    with django_db_blocker.unblock():
        cache.clear()


def clock_post(client, rnd, **data):
    return client.post(reverse("round_clock", args=[rnd.tournament.slug, rnd.number]), data)


def test_round_page_buttons_start_pause_resume(arbiter_client, rnd, fake_now):
    page = arbiter_client.get(reverse("round", args=["prova", 1]))
    assert b'id="clock-start"' in page.content and b"42:00" in page.content   # 4 hands: 42 minutes
    assert clock_post(arbiter_client, rnd, action="start").status_code == 302
    fake_now.advance(90)
    page = arbiter_client.get(reverse("round", args=["prova", 1]))
    assert b"40:30" in page.content and b'id="clock-pause"' in page.content
    clock_post(arbiter_client, rnd, action="pause")
    fake_now.advance(600)
    page = arbiter_client.get(reverse("round", args=["prova", 1]))
    assert b"40:30" in page.content and b'id="clock-resume"' in page.content
    assert inline_problems(page.content.decode()) == []
    assert list(AuditEntry.objects.filter(action__startswith="clock_").values_list("action", flat=True)
                .order_by("id")) == ["clock_started", "clock_paused"]


def test_round_page_refusal_is_a_message_not_an_error(arbiter_client, rnd, fake_now):
    response = clock_post(arbiter_client, rnd, action="pause")
    assert response.status_code == 302
    page = arbiter_client.get(reverse("round", args=["prova", 1]))
    assert "L&#x27;orologio non è in corsa" in page.content.decode()


def test_round_page_extra_time_for_a_table_number_that_does_not_exist(arbiter_client, rnd, fake_now):
    clock_post(arbiter_client, rnd, action="table", table="99", minutes="3")
    page = arbiter_client.get(reverse("round", args=["prova", 1])).content.decode()
    assert "non ha un tavolo 99" in page
    clock_post(arbiter_client, rnd, action="table", table="1", minutes="3")
    page = arbiter_client.get(reverse("round", args=["prova", 1])).content.decode()
    assert "+3 min al tavolo" in page


def test_projector_shows_the_clock_and_the_end_message(client, arbiter, rnd, fake_now):
    services.start_clock(round=rnd, by=arbiter)
    fake_now.advance(600)
    page = client.get(reverse("projector", args=["prova"])).content.decode()
    assert 'data-clock-remaining="1920"' in page and "32:00" in page
    assert inline_problems(page) == []
    state = client.get(reverse("projector_clock_state", args=["prova"])).json()
    assert state["clock"]["remaining"] == 1920 and state["clock"]["running"] is True
    fake_now.advance(1920)
    page = client.get(reverse("projector_clock", args=["prova"])).content.decode()
    assert "tempo scaduto: finite il giro fino allo scarto del mazziere" in page
    assert "0:00" in page and inline_problems(page) == []


def test_projector_clock_in_english(client, arbiter, rnd, fake_now, settings):
    services.start_clock(round=rnd, by=arbiter)
    fake_now.advance(2600)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    page = client.get(reverse("projector_clock", args=["prova"])).content.decode()
    assert "time is up: finish the round up to the dealer's discard" in page


def test_projector_clock_is_off_with_the_projector(client, published):
    assert client.get(reverse("projector_clock", args=["prova"])).status_code == 404
    assert client.get(reverse("projector_clock_state", args=["prova"])).status_code == 404


def poll(client, table, tag=None):
    headers = {"HTTP_IF_NONE_MATCH": tag} if tag else {}
    return client.get(reverse("captain_state", args=[table.token]), **headers)


def test_captain_poll_sees_a_pause_through_its_etag(client, arbiter, rnd, fake_now):
    table = rnd.tables.get(number=1)
    services.start_clock(round=rnd, by=arbiter)
    first = poll(client, table)
    assert first.json()["clock"]["remaining"] == 2520
    fake_now.advance(100)
    assert poll(client, table, first["ETag"]).status_code == 304      # time passing: nothing new
    services.pause_clock(round=rnd, by=arbiter)
    after = poll(client, table, first["ETag"])
    assert after.status_code == 200                                   # the pause is news
    assert after.json()["clock"]["paused"] is True and after.json()["clock"]["remaining"] == 2420


def test_captain_poll_sees_the_table_extra_time(client, arbiter, rnd, fake_now):
    table = rnd.tables.get(number=1)
    services.start_clock(round=rnd, by=arbiter)
    first = poll(client, table)
    services.give_table_extra_time(table=table, round=rnd, minutes=2, by=arbiter)
    after = poll(client, table, first["ETag"])
    assert after.status_code == 200 and after.json()["clock"]["remaining"] == 2520 + 120


def test_captain_page_shows_the_remaining_time(client, arbiter, rnd, fake_now):
    table = rnd.tables.get(number=2)
    services.start_clock(round=rnd, by=arbiter)
    fake_now.advance(2520 - 65)
    page = client.get(reverse("captain", args=[table.token])).content.decode()
    assert 'id="captain-clock"' in page and "1:05" in page and inline_problems(page) == []


def test_board_highlights_tables_still_playing_when_time_is_up(arbiter_client, arbiter, rnd, fake_now):
    services.start_clock(round=rnd, by=arbiter)
    t1 = rnd.tables.get(number=1)
    services.save_score_sheet(table=t1, hands=[services.HandInput(*h) for h in HANDS4],
                              by=services.Actor(label="capitano N/S"))
    url = reverse("board_rows", args=["prova", 1])
    before = arbiter_client.get(url)
    stamp = before.content.decode().split('data-stamp="')[1].split('"')[0]
    assert 'class="late"' not in before.content.decode()
    fake_now.advance(2520)
    after = arbiter_client.get(url, {"stamp": stamp})
    assert after.status_code == 200                     # time up changes the stamp
    html = after.content.decode()
    assert '<tr id="t2" data-state="empty" data-version="0" class="late">' in html
    assert '<tr id="t1" data-state="entered"' in html and 'id="t1" data-state="entered" data-version="1" class="late"' not in html
    assert "inserito 42:00 prima della fine" in html                  # table 1 entered at the start
    assert "tempo scaduto: finite il giro" in html


def test_sheet_entered_after_time_shows_over_time_on_the_round_page(arbiter_client, arbiter, rnd, fake_now):
    services.start_clock(round=rnd, by=arbiter)
    fake_now.advance(2520 + 125)
    table = rnd.tables.get(number=1)
    response = arbiter_client.post(reverse("captain_save", args=[table.token]), content_type="application/json",
                                   data=json.dumps({"line": "ns", "hands": HANDS4, "version": 0}))
    assert response.status_code == 200
    page = arbiter_client.get(reverse("round", args=["prova", 1])).content.decode()
    assert "+2:05 oltre il tempo" in page


def test_settings_page_has_minutes_per_round_with_the_preset(arbiter_client, rnd):
    page = arbiter_client.get(reverse("tournament_edit", args=["prova"])).content.decode()
    assert 'name="minutes_per_round"' in page and 'list="minutes-presets"' in page
    for value in ("22", "32", "42"):        # 10 × hands + 2 for 2, 3, 4 hands
        assert f'<option value="{value}"' in page
    assert '<option value="35" label="3 smazzate in 35 minuti">' in page


def test_settings_page_saves_minutes_per_round_and_refuses_nonsense(arbiter_client, rnd):
    from tournaments.forms import TournamentForm

    data = {name: value for name, value in TournamentForm(instance=rnd.tournament).initial.items()
            if value is not None and not isinstance(value, list)}
    data["minutes_per_round"] = "0"
    response = arbiter_client.post(reverse("tournament_edit", args=["prova"]), data)
    assert "I minuti per turno vanno da 1 a 600" in response.content.decode()
    data["minutes_per_round"] = "35"
    response = arbiter_client.post(reverse("tournament_edit", args=["prova"]), data)
    assert response.status_code == 302
    assert Tournament.objects.get(pk=rnd.tournament_id).minutes_per_round == 35


def test_audit_page_names_the_clock_actions(arbiter_client, arbiter, rnd, fake_now):
    services.start_clock(round=rnd, by=arbiter)
    fake_now.advance(60)
    services.pause_clock(round=rnd, by=arbiter)
    services.resume_clock(round=rnd, by=arbiter)
    services.add_clock_minutes(round=rnd, minutes=2, by=arbiter)
    services.give_table_extra_time(table=rnd.tables.get(number=1), round=rnd, minutes=3, by=arbiter)
    body = arbiter_client.get(reverse("audit", args=["prova"])).content.decode()
    for label in ("Orologio del turno avviato", "Orologio del turno in pausa", "Orologio del turno ripartito",
                  "Minuti dati a tutta la sala", "Tempo in più a un tavolo"):
        assert label in body, label
    assert "clock_started" not in body


# -- a rest table's phone follows the clock too (not the time of the page load)
def test_rest_table_page_polls_its_state_url_for_the_clock(client, arbiter, rnd, fake_now):
    rest = rnd.tables.get(number=3)                   # 5 pairs: pair 5 rests at table 3
    assert rest.bye
    services.start_clock(round=rnd, by=arbiter)
    fake_now.advance(60)
    page = client.get(reverse("captain", args=[rest.token])).content.decode()
    state_url = reverse("captain_state", args=[rest.token])
    assert f'data-clock-url="{state_url}"' in page and "41:00" in page   # 42:00 less 1 minute
    assert "js/clock.js" in page and "js/captain.js" not in page and inline_problems(page) == []
    playing = client.get(reverse("captain", args=[rnd.tables.get(number=1).token])).content.decode()
    assert "data-clock-url" not in playing         # a playing table's captain.js polls, not clock.js


def test_rest_table_poll_sees_pause_resume_and_minutes_through_its_etag(client, arbiter, rnd, fake_now,
                                                                        django_assert_num_queries):
    """42 minutes (4 hands: 10 × 4 + 2). Started, 100 s later paused: 2520 − 100 = 2420 left;
    resumed after 5 minutes of pause (still 2420), then 3 minutes for the room: 2420 + 180 = 2600."""
    rest = rnd.tables.get(number=3)
    services.start_clock(round=rnd, by=arbiter)
    first = poll(client, rest)
    assert first.status_code == 200 and first["ETag"]
    assert first.json() == {"sheet": None, "clock": first.json()["clock"]}
    assert first.json()["clock"]["remaining"] == 2520 and first.json()["clock"]["running"] is True
    fake_now.advance(100)
    with django_assert_num_queries(1):                # the cheap path: one narrow query, empty 304
        assert poll(client, rest, first["ETag"]).status_code == 304
    services.pause_clock(round=rnd, by=arbiter)
    paused = poll(client, rest, first["ETag"])
    assert paused.status_code == 200 and paused["ETag"] != first["ETag"]
    assert paused.json()["clock"]["paused"] is True and paused.json()["clock"]["remaining"] == 2420
    fake_now.advance(300)
    assert poll(client, rest, paused["ETag"]).status_code == 304
    services.resume_clock(round=rnd, by=arbiter)
    resumed = poll(client, rest, paused["ETag"])
    assert resumed.status_code == 200 and resumed.json()["clock"]["remaining"] == 2420
    services.add_clock_minutes(round=rnd, minutes=3, by=arbiter)
    more = poll(client, rest, resumed["ETag"])
    assert more.status_code == 200 and more.json()["clock"]["remaining"] == 2600
