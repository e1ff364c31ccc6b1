"""The bar of the tables' calls at the top of every arbiter page of a tournament: the open
calls with «Arrivo» / «Risolto», its JSON poll (ETag / 304), who sees it, and what it costs."""
import datetime
import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tournaments import services
from tournaments.models import ArbiterCall
from tournaments.server import timesource

#: Every kind of arbiter page of the tournament that extends the base template.
PAGES = [
    ("tournament", []), ("pairs", []), ("round", [1]), ("sheet", [1, 1]), ("standings", []),
    ("prizes", []), ("penalties", []), ("audit", []), ("tournament_edit", []),
]


def phone_calls(table, reason=""):
    return services.call_arbiter(table=table, by=services.Actor(label=f"capitano N/S tavolo {table.number}"),
                                 reason=reason)[0]


def bar_of(html: str) -> str:
    """The bar's HTML ('' when the page has none)."""
    found = re.search(r'<section id="desk-calls".*?</section>', html, re.S)
    return found.group(0) if found else ""


def feed(client, slug="prova", **headers):
    return client.get(reverse("desk_calls", args=[slug]), **headers)


@pytest.mark.parametrize("name,args", PAGES)
def test_an_open_call_is_on_every_arbiter_page_with_its_actions(arbiter_client, tables, name, args):
    call = phone_calls(tables[3], "card")
    response = arbiter_client.get(reverse(name, args=["prova", *args]))
    assert response.status_code == 200
    bar = bar_of(response.content.decode())
    assert bar and " hidden" not in bar.split(">", 1)[0]
    assert "Tavolo 3" in bar and "turno 1" in bar and "carta mancante" in bar
    assert reverse("board_call_take", args=["prova", 1, call.pk]) in bar
    assert reverse("board_call_resolve", args=["prova", 1, call.pk]) in bar
    assert bar.count('name="csrfmiddlewaretoken"') == 2
    html = response.content.decode()
    assert html.index('id="desk-calls"') < html.index("</main>")
    assert "js/desk_calls.js" in html and 'id="desk-call-sound"' in html


def test_the_bar_is_above_the_page_content_and_hidden_in_print(arbiter_client, tables):
    phone_calls(tables[2])
    html = arbiter_client.get(reverse("round", args=["prova", 1])).content.decode()
    # right after <main>, before the messages and the page's own heading
    assert html.index("<main>") < html.index('id="desk-calls"') < html.index("<h1")
    assert 'class="desk-calls no-print"' in html


def test_no_open_call_an_empty_hidden_bar_ready_for_the_poll(arbiter_client, tables):
    html = arbiter_client.get(reverse("round", args=["prova", 1])).content.decode()
    bar = bar_of(html)
    assert bar and " hidden" in bar.split(">", 1)[0] and "<li" not in bar
    assert f'data-url="{reverse("desk_calls", args=["prova"])}"' in bar


def test_a_page_without_calls_reads_the_calls_once(arbiter_client, tables):
    """The bar adds one query on the calls to a page and nothing more when none is open."""
    with CaptureQueriesContext(connection) as queries:
        assert arbiter_client.get(reverse("standings", args=["prova"])).status_code == 200
    assert sum("tournaments_arbitercall" in q["sql"] for q in queries.captured_queries) == 1


def test_a_resolved_call_is_gone_a_taken_one_stays_without_arrivo(arbiter_client, arbiter, tables, published_round):
    first, second = phone_calls(tables[1]), phone_calls(tables[2], "time")
    services.resolve_call(call_id=first.pk, rnd=published_round, by=arbiter)
    services.take_call(call_id=second.pk, rnd=published_round, by=arbiter)
    bar = bar_of(arbiter_client.get(reverse("tournament", args=["prova"])).content.decode())
    assert f'id="desk-call-{first.pk}"' not in bar and "Tavolo 1" not in bar
    assert f'id="desk-call-{second.pk}"' in bar and "arrivo" in bar
    assert reverse("board_call_take", args=["prova", 1, second.pk]) not in bar      # already taken
    assert reverse("board_call_resolve", args=["prova", 1, second.pk]) in bar
    data = feed(arbiter_client).json()
    assert [(c["table"], c["state"], c["reason"]) for c in data["calls"]] == [(2, "taken", "tempo")]


def test_another_tournaments_call_is_not_shown(arbiter_client, arbiter, tables, make_pairs):
    other = services.create_tournament(by=arbiter, name="Altra sera", slug="altra", date=datetime.date(2026, 12, 1),
                                       venue="Circolo")
    make_pairs(other, 4)
    rnd = services.publish_round(round=services.generate_round(tournament=other, by=arbiter), by=arbiter,
                                 acknowledge_warnings=True)
    phone_calls(rnd.tables.get(number=2), "dispute")
    assert feed(arbiter_client).json()["calls"] == []
    bar = bar_of(arbiter_client.get(reverse("round", args=["prova", 1])).content.decode())
    assert "<li" not in bar and "contestazione" not in bar
    # the other tournament's own pages do show it
    assert [c["table"] for c in feed(arbiter_client, "altra").json()["calls"]] == [2]


def test_only_the_tournaments_arbiter_sees_the_calls(client, django_user_model, tables, tournament):
    call = phone_calls(tables[1], "card")
    # anonymous: the login page, no calls
    response = feed(client)
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    # another arbiter: as if the tournament did not exist, and his own pages show nothing of it
    stranger = django_user_model.objects.create_user(username="altro", password="x-123456")
    client.force_login(stranger)
    assert feed(client).status_code == 404
    assert client.post(reverse("board_call_resolve", args=["prova", 1, call.pk]),
                       HTTP_ACCEPT="application/json").status_code == 404
    assert "desk-calls" not in client.get(reverse("home")).content.decode()
    assert ArbiterCall.objects.get(pk=call.pk).state == "open"


def test_the_public_pages_never_carry_the_bar(arbiter_client, tables, tournament):
    """The tournament's arbiter looking at the players' page sees it as a player does."""
    phone_calls(tables[1], "card")
    tournament.public_enabled = True
    tournament.save(update_fields=["public_enabled"])
    response = arbiter_client.get(reverse("public", args=["prova"]))
    assert response.status_code == 200
    assert "desk-calls" not in response.content.decode() and "carta mancante" not in response.content.decode()


def test_the_board_keeps_its_own_list_and_no_second_bar(arbiter_client, tables):
    phone_calls(tables[4])
    html = arbiter_client.get(reverse("board", args=["prova", 1])).content.decode()
    assert 'id="board-calls"' in html and 'id="desk-calls"' not in html and "desk_calls.js" not in html


def test_the_poll_answers_304_until_a_call_is_made_taken_or_resolved(arbiter_client, arbiter, tables,
                                                                      published_round):
    page = arbiter_client.get(reverse("round", args=["prova", 1])).content.decode()
    first = feed(arbiter_client)
    assert first.status_code == 200 and first.json()["calls"] == []
    tag = first["ETag"]
    assert f'data-etag="{tag.replace(chr(34), "&quot;")}"' in page       # the page's first poll is a 304
    still = feed(arbiter_client, HTTP_IF_NONE_MATCH=tag)
    assert still.status_code == 304 and still.content == b"" and still["ETag"] == tag

    call = phone_calls(tables[3], "other")
    made = feed(arbiter_client, HTTP_IF_NONE_MATCH=tag)
    assert made.status_code == 200
    assert made.json()["calls"] == [{"id": call.pk, "round": 1, "table": 3, "state": "open", "reason": "altro",
                                     "since": "ora"}]
    assert "Tavolo 3" in made.json()["html"] and "Arrivo" in made.json()["html"]
    tag = made["ETag"]
    assert feed(arbiter_client, HTTP_IF_NONE_MATCH=tag).status_code == 304

    services.take_call(call_id=call.pk, rnd=published_round, by=arbiter)
    taken = feed(arbiter_client, HTTP_IF_NONE_MATCH=tag)
    assert taken.status_code == 200 and taken.json()["calls"][0]["state"] == "taken"
    tag = taken["ETag"]
    services.resolve_call(call_id=call.pk, rnd=published_round, by=arbiter)
    gone = feed(arbiter_client, HTTP_IF_NONE_MATCH=tag)
    assert gone.status_code == 200 and gone.json()["calls"] == [] and "<li" not in gone.json()["html"]


def test_a_waiting_calls_minutes_move_on(arbiter_client, tables, monkeypatch):
    t0 = datetime.datetime(2026, 11, 30, 21, 0, 10, tzinfo=datetime.timezone.utc)
    monkeypatch.setattr(timesource, "now", lambda: t0)
    phone_calls(tables[1])
    first = feed(arbiter_client)
    assert first.json()["calls"][0]["since"] == "ora"
    monkeypatch.setattr(timesource, "now", lambda: t0 + datetime.timedelta(seconds=59))
    assert feed(arbiter_client, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304   # still «ora»
    monkeypatch.setattr(timesource, "now", lambda: t0 + datetime.timedelta(minutes=3, seconds=5))
    later = feed(arbiter_client, HTTP_IF_NONE_MATCH=first["ETag"])
    assert later.status_code == 200 and later.json()["calls"][0]["since"] == "da 3 min"


def test_the_poll_costs_few_queries(arbiter_client, tables, django_assert_max_num_queries):
    """Session, user, tournament, the open calls: four queries, with or without a call."""
    tag = feed(arbiter_client)["ETag"]
    with django_assert_max_num_queries(4):
        assert feed(arbiter_client, HTTP_IF_NONE_MATCH=tag).status_code == 304
    phone_calls(tables[2])
    with django_assert_max_num_queries(4):
        assert feed(arbiter_client, HTTP_IF_NONE_MATCH=tag).status_code == 200


def _token(html: str) -> str:
    return re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', bar_of(html)).group(1)


def test_arrivo_and_risolto_from_the_bar_with_csrf(arbiter, tables, published_round):
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(arbiter)
    call = phone_calls(tables[2], "time")
    page_url = reverse("sheet", args=["prova", 1, 1])
    take = reverse("board_call_take", args=["prova", 1, call.pk])
    resolve = reverse("board_call_resolve", args=["prova", 1, call.pk])
    # without the token: refused, nothing changes
    assert browser.post(take, {"next": page_url}).status_code == 403
    assert ArbiterCall.objects.get(pk=call.pk).state == "open"
    # the plain form (no script): «Arrivo» and back to the page it was pressed on
    token = _token(browser.get(page_url).content.decode())
    response = browser.post(take, {"csrfmiddlewaretoken": token, "next": page_url})
    assert response.status_code == 302 and response["Location"] == page_url
    assert ArbiterCall.objects.get(pk=call.pk).state == "taken"
    # the script: «Risolto» answered in JSON, the page stays
    token = _token(browser.get(page_url).content.decode())
    response = browser.post(resolve, {"csrfmiddlewaretoken": token, "next": page_url}, HTTP_ACCEPT="application/json")
    assert response.status_code == 200 and response.json() == {"id": call.pk, "state": "resolved"}
    assert ArbiterCall.objects.get(pk=call.pk).state == "resolved"
    assert "<li" not in bar_of(browser.get(page_url).content.decode())


def test_a_next_off_the_site_goes_to_the_board(arbiter_client, tables):
    call = phone_calls(tables[1])
    response = arbiter_client.post(reverse("board_call_take", args=["prova", 1, call.pk]),
                                   {"next": "https://example.org/tornei/prova/"})
    assert response.status_code == 302
    assert response["Location"] == reverse("board", args=["prova", 1]) + "#t1"


def test_an_unknown_call_from_the_bar_is_a_sentence(arbiter_client, tables):
    page_url = reverse("round", args=["prova", 1])
    response = arbiter_client.post(reverse("board_call_resolve", args=["prova", 1, 999999]),
                                   {"next": page_url}, HTTP_REFERER="http://testserver" + page_url,
                                   HTTP_ACCEPT="application/json")
    assert response.status_code == 302      # desk_calls.js reloads the page, which says why
    assert "Chiamata non trovata" in arbiter_client.get(page_url).content.decode()
