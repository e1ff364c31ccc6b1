"""«Chiama l'arbitro»: a table's call from the captain's link, the board's list, «Arrivo» and
«Risolto», the phone seeing the answer through its poll (ETag), and the refusals."""
import json

import pytest
from django.db import IntegrityError, transaction
from django.urls import reverse

from tournaments import services
from tournaments.models import ArbiterCall, AuditEntry


def call(client, table, body=None):
    return client.post(reverse("captain_call", args=[table.token]), data=json.dumps(body or {}),
                       content_type="application/json")


def test_one_tap_stores_one_open_call_and_audits_it(client, tables):
    t = tables[2]
    response = call(client, t, {"reason": "card", "line": "ew"})
    assert response.status_code == 200, response.content
    data = response.json()
    assert data["created"] is True and data["call"]["state"] == "open" and data["call"]["reason"] == "card"
    entry = AuditEntry.objects.get(action="arbiter_called")
    assert (entry.round_number, entry.table_number, entry.actor) == (1, 2, "capitano E/O tavolo 2")
    assert entry.new == {"reason": "card"}


def test_repeated_taps_change_nothing(client, other_client, tables):
    t = tables[1]
    first = call(client, t, {"reason": "time"}).json()["call"]
    again = call(client, t, {"reason": "dispute"}).json()          # same phone, another reason
    other = call(other_client, t, {}).json()                        # the other line's phone
    assert again["created"] is False and other["created"] is False
    assert again["call"]["id"] == other["call"]["id"] == first["id"]
    assert again["call"]["reason"] == "time"
    assert ArbiterCall.objects.filter(table=t).count() == 1
    assert AuditEntry.objects.filter(action="arbiter_called").count() == 1


def test_database_holds_one_open_call_per_table(tables, published_round):
    t = tables[3]
    services.call_arbiter(table=t, by=services.Actor(label="tavolo 3"))
    from django.utils import timezone
    with pytest.raises(IntegrityError), transaction.atomic():
        ArbiterCall.objects.create(round=published_round, table=t, called_at=timezone.now())


def test_life_cycle_board_arrivo_risolto_and_the_phone_sees_it(client, arbiter_client, tables, published_round):
    t = tables[4]
    state_url = reverse("captain_state", args=[t.token])
    first = client.get(state_url)
    assert first.json()["call"] is None
    tag = first["ETag"]
    assert client.get(state_url, HTTP_IF_NONE_MATCH=tag).status_code == 304
    call(client, t, {"reason": "dispute"})
    polled = client.get(state_url, HTTP_IF_NONE_MATCH=tag)           # the call changes the tag
    assert polled.status_code == 200 and polled.json()["call"]["state"] == "open"
    tag = polled["ETag"]
    board = arbiter_client.get(reverse("board", args=["prova", 1])).content.decode()
    assert 'id="call-4"' in board and "Tavolo 4" in board and "contestazione" in board
    assert board.index('id="board-calls"') < board.index('class="grid compact board"')   # at the top
    stamp = arbiter_client.get(reverse("board", args=["prova", 1])).context["stamp"]
    call_id = ArbiterCall.objects.get(table=t).pk
    response = arbiter_client.post(reverse("board_call_take", args=["prova", 1, call_id]))
    assert response.status_code == 302
    assert arbiter_client.get(reverse("board_rows", args=["prova", 1]) + f"?stamp={stamp}").status_code == 200
    polled = client.get(state_url, HTTP_IF_NONE_MATCH=tag)
    assert polled.status_code == 200 and polled.json()["call"]["state"] == "taken"
    arbiter_client.post(reverse("board_call_resolve", args=["prova", 1, call_id]))
    assert ArbiterCall.objects.get(pk=call_id).state == "resolved"
    board = arbiter_client.get(reverse("board", args=["prova", 1])).content.decode()
    assert 'id="call-4"' not in board
    assert [e.action for e in AuditEntry.objects.filter(table_number=4).order_by("id")] == [
        "arbiter_called", "arbiter_call_taken", "arbiter_call_resolved"]
    # resolved: the table may call again
    assert call(client, t, {}).json()["created"] is True


def test_take_twice_and_resolve_twice_write_once(arbiter, tables, published_round):
    c, _created = services.call_arbiter(table=tables[1], by=services.Actor(label="tavolo 1"))
    services.take_call(call_id=c.pk, rnd=published_round, by=arbiter)
    services.take_call(call_id=c.pk, rnd=published_round, by=arbiter)
    services.resolve_call(call_id=c.pk, rnd=published_round, by=arbiter)
    services.resolve_call(call_id=c.pk, rnd=published_round, by=arbiter)
    assert AuditEntry.objects.filter(action="arbiter_call_taken").count() == 1
    assert AuditEntry.objects.filter(action="arbiter_call_resolved").count() == 1


def test_refused_on_a_closed_round(client, arbiter, tables, published_round):
    for t in tables.values():
        services.save_score_sheet(table=t, hands=[services.HandInput(100, 0)] * 4, by=arbiter, validate=True)
    services.close_round(round=published_round, by=arbiter)
    response = call(client, tables[1], {"reason": "other"})
    assert response.status_code == 400 and "chiuso" in response.json()["error"]
    assert not ArbiterCall.objects.exists()


def test_refused_for_a_table_that_is_not_the_callers(client, tables):
    response = call(client, tables[3], {"table": 4, "reason": "time"})
    assert response.status_code == 400 and "tavolo 3" in response.json()["error"]
    assert not ArbiterCall.objects.exists()
    # an unknown link is a plain 404 and stores nothing
    assert client.post("/c/nonexistent-token/chiama/", data="{}", content_type="application/json").status_code == 404


def test_refused_with_an_unknown_reason_and_on_a_rest_table(client, tournament, make_pairs, arbiter):
    make_pairs(tournament, 7)
    rnd = services.publish_round(round=services.generate_round(tournament=tournament, by=arbiter), by=arbiter,
                                 acknowledge_warnings=True)
    playing = rnd.tables.filter(bye="").first()
    assert call(client, playing, {"reason": "<script>"}).status_code == 400
    rest = rnd.tables.exclude(bye="").first()
    assert call(client, rest, {}).status_code == 400
    assert not ArbiterCall.objects.exists()


def test_the_board_of_another_arbiter_cannot_answer(client, django_user_model, tables, published_round):
    c, _ = services.call_arbiter(table=tables[1], by=services.Actor(label="tavolo 1"))
    other = django_user_model.objects.create_user(username="altro", password="x-123456")
    client.force_login(other)
    assert client.post(reverse("board_call_take", args=["prova", 1, c.pk])).status_code == 404
    assert ArbiterCall.objects.get(pk=c.pk).state == "open"


def test_captain_page_has_the_button_with_the_reasons(client, tables):
    html = client.get(reverse("captain", args=[tables[1].token])).content.decode()
    assert 'id="call-btn"' in html and "Chiama l&#x27;arbitro" in html or "Chiama l'arbitro" in html
    assert 'value="card"' in html and 'value="time"' in html


def test_registro_names_the_reason_of_a_call(arbiter_client, tables, published_round):
    """The stored code ("card") is shown by its label, as the phone offered it."""
    services.call_arbiter(table=tables[1], by=services.Actor(label="tavolo 1"), reason="card")
    body = arbiter_client.get(reverse("audit", args=[published_round.tournament.slug])).content.decode()
    assert "carta mancante" in body and "motivo: card" not in body
