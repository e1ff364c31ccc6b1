"""The player's page over HTTP: switched on with the public page, HTML or JSON by ``Accept``
(``Vary: Accept``), ETag polling with 304, the search, its weight, Italian and English, and
that it never shows a captain's link or PIN."""
import gzip

import pytest
from django.urls import reverse

from tournaments import services
from tournaments.models import Table
from tournaments.services import HandInput

WIN = [HandInput(600, 200), HandInput(400, 150), HandInput(250, 300), HandInput(300, 195)]    # 1550–845


@pytest.fixture
def live(five, published, arbiter):
    """Five pairs, round 1 (1 v 3, 2 v 4, 5 rests) closed with T1 1550–845 and T2 1550–845;
    round 2 published; the public page on; every table's PIN 9731."""
    for table in published.tables.filter(bye=""):
        services.save_score_sheet(table=table, hands=WIN, by=arbiter, validate=True)
    services.close_round(round=published, by=arbiter)
    r2 = services.publish_round(round=services.generate_round(tournament=five, by=arbiter), by=arbiter,
                                acknowledge_warnings=True)
    Table.objects.filter(round__tournament=five).update(pin="9731")
    services.update_tournament(tournament=five, by=arbiter, public_enabled=True)
    return r2


def url(n=1, word="coppia"):
    return reverse("player_page", args=["prova", word, n])


def test_off_while_the_public_page_is_off(client, five, published):
    assert client.get(url()).status_code == 404


def test_html_page_shows_next_table_rounds_and_place(client, live):
    response = client.get(url(1))
    assert response.status_code == 200
    html = response.content.decode()
    assert "Tavolo 1" in html and "N/S" in html                # round 2: 1 v 5 at table 1 (Mitchell)
    assert "Rossi5 Anna5" in html                              # the next opponent
    assert "1550–845" in html and "Rossi3 Anna3" in html       # round 1 played
    assert 'id="player-clock"' in html                          # the round clock of the next round
    assert "Accept" in response["Vary"] and response["ETag"]


def test_json_by_accept_with_vary(client, live):
    response = client.get(url(1), HTTP_ACCEPT="application/json")
    assert response["Content-Type"].startswith("application/json") and "Accept" in response["Vary"]
    data = response.json()
    assert data["next"] == {"round": 2, "table": 1, "line": "ns", "opponent": 5,
                            "opponent_names": "Rossi5 Anna5 – Verdi5 Bruno5", "rest": False}
    assert data["rounds"][0]["mp_for"] == 1550 and data["rounds"][0]["vp"] == 14
    # the HTML and the JSON have different tags (a cache must not mix them)
    assert response["ETag"] != client.get(url(1))["ETag"]


def test_etag_304_until_something_changes(client, live, arbiter):
    first = client.get(url(3), HTTP_ACCEPT="application/json")
    tag = first["ETag"]
    again = client.get(url(3), HTTP_ACCEPT="application/json", HTTP_IF_NONE_MATCH=tag)
    assert again.status_code == 304 and again.content == b""
    # a captain's save in the round in play changes nothing the page shows: still 304
    t = live.tables.get(number=2)
    services.save_score_sheet(table=t, hands=WIN, by=services.Actor(label="capitano N/S tavolo 2"))
    assert client.get(url(3), HTTP_ACCEPT="application/json", HTTP_IF_NONE_MATCH=tag).status_code == 304
    # the arbiter closing the round does
    for table in live.tables.filter(bye=""):
        services.save_score_sheet(table=table, hands=WIN, by=arbiter, validate=True)
    services.close_round(round=live, by=arbiter)
    changed = client.get(url(3), HTTP_ACCEPT="application/json", HTTP_IF_NONE_MATCH=tag)
    assert changed.status_code == 200 and len(changed.json()["rounds"]) == 2


def test_kept_tag_answers_polls_without_a_query_and_follows_the_public_switch(
        client, live, arbiter, settings, monkeypatch, django_assert_num_queries):
    """With the tag kept (2 s, the default), a current poll costs no query; switching the
    public pages off reaches the phones once the kept tag is older than that."""
    settings.ARBITRO_PLAYER_TAG_SECONDS = 2.0
    clock = [500.0]
    monkeypatch.setattr("tournaments.public.tag.time.monotonic", lambda: clock[0])
    tag = client.get(url(3))["ETag"]
    with django_assert_num_queries(0):
        assert client.get(url(3), HTTP_IF_NONE_MATCH=tag).status_code == 304
        assert client.get(url(4), HTTP_IF_NONE_MATCH=tag.replace("coppia3", "coppia4")).status_code == 304
    services.update_tournament(tournament=live.tournament, by=arbiter, public_enabled=False)
    clock[0] += 1.0
    assert client.get(url(3), HTTP_IF_NONE_MATCH=tag).status_code == 304     # within the 2 s
    clock[0] += 1.0
    assert client.get(url(3), HTTP_IF_NONE_MATCH=tag).status_code == 404


def test_unknown_entrant_and_wrong_kind_are_404(client, live):
    assert client.get(url(99)).status_code == 404
    assert client.get(url(1, "giocatore")).status_code == 404
    assert client.get(url(1, "squadra")).status_code == 404


def test_never_shows_a_captains_link_or_pin(client, live):
    tokens = list(Table.objects.filter(round__tournament=live.tournament).values_list("token", flat=True))
    for n in (1, 4, 5):
        for accept in ("text/html", "application/json"):
            body = client.get(url(n), HTTP_ACCEPT=accept).content.decode()
            assert "/c/" not in body and "9731" not in body and "PIN" not in body
            assert not any(token in body for token in tokens)


def test_english(client, live):
    client.cookies["django_language"] = "en"
    html = client.get(url(1), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Table 1" in html and "Rounds played" in html


def test_under_30_kb_compressed_with_script_and_style(client, live, settings):
    html = client.get(url(1)).content
    static = settings.BASE_DIR / "static"
    parts = [html] + [(static / p).read_bytes() for p in ("css/player.css", "js/player.js", "js/clock.js")]
    size = sum(len(gzip.compress(p)) for p in parts)
    print(f"player page: {sum(map(len, parts))} B, {size} B compressed")
    assert size < 30 * 1024


def test_search_opens_the_page_or_lists(client, live):
    response = client.get(reverse("player_search", args=["prova"]), {"q": "3"})
    assert response.status_code == 302 and response["Location"] == url(3)
    listed = client.get(reverse("player_search", args=["prova"]), {"q": "Verdi"}).content.decode()
    assert all(url(n) in listed for n in range(1, 6))
    none = client.get(reverse("player_search", args=["prova"]), {"q": "<b>x"}).content.decode()
    assert "&lt;b&gt;x" in none


def test_public_page_has_the_search(client, live):
    html = client.get(reverse("public", args=["prova"])).content.decode()
    assert reverse("player_search", args=["prova"]) in html


def test_a_correction_after_closing_is_marked_on_the_page(client, live, arbiter):
    r1 = live.tournament.rounds.get(number=1)
    t2 = r1.tables.get(number=2)
    lost = [HandInput(100, 200), HandInput(100, 150), HandInput(100, 300), HandInput(100, 195)]  # 400–845
    services.save_score_sheet(table=t2, hands=lost, by=arbiter, kind="transcription", reason="letto male")
    html = client.get(url(2)).content.decode()
    assert 'class="corrected"' in html and "corretto" in html and "400–845" in html
    assert 'class="corrected"' not in client.get(url(1)).content.decode()
    assert client.get(url(2), HTTP_ACCEPT="application/json").json()["rounds"][0]["corrected"] is True


def test_individual_and_team_pages_answer_their_kind(client, arbiter, make_teams_tournament):
    import datetime

    from tests.tournaments.individual_helpers import register

    indiv = services.create_tournament(by=arbiter, name="Individuale", slug="indiv", kind="individual",
                                       date=datetime.date(2026, 12, 1), plan="DDD")
    register(indiv, arbiter, 8)
    services.publish_round(round=services.generate_round(tournament=indiv, by=arbiter), by=arbiter,
                           acknowledge_warnings=True)
    services.update_tournament(tournament=indiv, by=arbiter, public_enabled=True)
    data = client.get(reverse("player_page", args=["indiv", "giocatore", 1]), HTTP_ACCEPT="application/json").json()
    assert data["names"] == "Cognome1 Nome1" and data["next"]["round"] == 1
    assert isinstance(data["next"]["opponent"], list) and len(data["next"]["opponent"]) == 2
    assert "partner" in data["next"]
    html = client.get(reverse("player_page", args=["indiv", "giocatore", 1])).content.decode()
    assert "Compagno" in html
    assert client.get(reverse("player_page", args=["indiv", "coppia", 1])).status_code == 404

    teams = make_teams_tournament(4, plan="RRR")
    services.publish_round(round=services.generate_round(tournament=teams, by=arbiter), by=arbiter,
                           acknowledge_warnings=True)
    services.update_tournament(tournament=teams, by=arbiter, public_enabled=True)
    # round robin of 4 (pairing-io.md): round 1 is 1 v 4 at tables 1–2, 2 v 3 at tables 3–4
    data = client.get(reverse("player_page", args=[teams.slug, "squadra", 4]), HTTP_ACCEPT="application/json").json()
    assert data["names"] == "Squadra 4" and data["next"]["opponent"] == 1 and data["next"]["line"] == "ew"
    assert [(t["table"], t["pair"], t["opponent_pair"]) for t in data["next"]["tables"]] == [
        (1, "4A", "1A"), (2, "4B", "1B")]
    html = client.get(reverse("player_page", args=[teams.slug, "squadra", 4])).content.decode()
    assert "Tavolo 1" in html and "4A" in html
