"""The arbiter's draft of a score sheet: saved incomplete, counted nowhere and marked as a
draft on the grid, the round page and the live board; it blocks closing the round; captains
do not see it and a captain's save over it is answered 409; discarding it is confirmed,
audited and lets the captains enter."""
import json

from django.urls import reverse

from tournaments import services
from tournaments.errors import ArbiterError
from tournaments.models import AuditEntry, ScoreSheet

HANDS = [[600, 200], [400, 150], [250, 300], [300, 195]]


def captain_save(client, table, line="ns", version=0, hands=HANDS):
    return client.post(reverse("captain_save", args=[table.token]), content_type="application/json",
                       data=json.dumps({"line": line, "hands": hands, "version": version, "declared": None}))


def draft(arbiter_client, number, cells):
    data = {"action": "draft", "expected_version": "0", **cells}
    return arbiter_client.post(reverse("sheet", args=["prova", 1, number]), data)


def test_draft_saved_is_not_counted_and_marked_everywhere(arbiter_client, tables):
    resp = draft(arbiter_client, 1, {"h1_ns": "600", "h1_ew": "200", "h2_ns": "400"})   # hands 2–4 missing
    assert resp.status_code == 302
    sheet = ScoreSheet.objects.get(table=tables[1])
    assert sheet.state == "empty" and sheet.is_draft and not sheet.hands.exists()
    assert (sheet.mp_ns, sheet.mp_ew) == (0, 0)  # nothing counted, no VP
    assert sheet.draft["cells"] == {"h1_ns": "600", "h1_ew": "200", "h2_ns": "400"}
    assert AuditEntry.objects.filter(action="sheet_draft_saved", table_number=1).exists()
    # the grid comes back as typed
    page = arbiter_client.get(reverse("sheet", args=["prova", 1, 1])).content.decode()
    assert 'name="h1_ns" value="600"' in page and 'name="h2_ns" value="400"' in page and 'id="draft-note"' in page
    # "incompleta" on the round page (row + summary) and the live board
    round_page = arbiter_client.get(reverse("round", args=["prova", 1])).content.decode()
    row = round_page.split('id="table-1"')[1].split("</tr>")[0]
    assert "Bozza incompleta" in row and "0–0" not in row
    assert "Bozza incompleta: 1" in round_page
    board = arbiter_client.get(reverse("board_rows", args=["prova", 1])).content.decode()
    assert "Bozza incompleta" in board


def test_draft_blocks_closing_the_round_naming_the_table(arbiter, arbiter_client, tables):
    draft(arbiter_client, 2, {"h1_ns": "100", "h1_ew": "0"})
    for n in (1, 3, 4):
        services.save_score_sheet(table=tables[n], hands=[services.HandInput(0, 0)] * 4, by=arbiter, validate=True)
    rnd = tables[1].round
    try:
        services.close_round(round=rnd, by=arbiter)
    except ArbiterError as exc:
        assert "score non validati ai tavoli 2" in exc.message and "Bozze incomplete ai tavoli 2" in exc.message
    else:
        raise AssertionError("close_round accepted a round with a draft")


def test_captain_does_not_see_the_draft_and_gets_409(other_client, arbiter_client, tables):
    draft(arbiter_client, 1, {"h1_ns": "600", "h1_ew": "200"})
    state = other_client.get(reverse("captain_state", args=[tables[1].token])).json()["sheet"]
    assert state["state"] == "empty" and "600" not in json.dumps(state)
    resp = captain_save(other_client, tables[1], version=1)
    assert resp.status_code == 409 and "l'arbitro sta inserendo questo score" in resp.json()["error"]
    sheet = ScoreSheet.objects.get(table=tables[1])
    assert sheet.is_draft and sheet.state == "empty"


def test_complete_save_replaces_the_draft(arbiter, arbiter_client, tables):
    draft(arbiter_client, 1, {"h1_ns": "600"})
    sheet = services.save_score_sheet(table=tables[1], hands=[services.HandInput(0, 0)] * 4, by=arbiter)
    assert not sheet.is_draft and sheet.state == "entered"


def test_draft_refuses_a_non_number_and_keeps_the_grid(arbiter_client, tables):
    resp = draft(arbiter_client, 1, {"h1_ns": "6x0", "h1_ew": "200"})
    assert resp.status_code == 400 and "non è un numero intero" in resp.content.decode()
    assert 'name="h1_ew" value="200"' in resp.content.decode()
    assert not ScoreSheet.objects.get(table=tables[1]).is_draft


def test_no_draft_over_an_entered_sheet(other_client, arbiter_client, tables):
    captain_save(other_client, tables[1])
    resp = arbiter_client.post(reverse("sheet", args=["prova", 1, 1]),
                               {"action": "draft", "h1_ns": "5", "expected_version": "1"})
    assert resp.status_code == 400 and "una bozza vale solo per il primo inserimento" in resp.content.decode()


def test_discard_draft_asks_then_empties_the_sheet_and_lets_captains_enter(
        arbiter, other_client, arbiter_client, tables):
    draft(arbiter_client, 1, {"h1_ns": "600", "h1_ew": "200"})
    sheet_page = arbiter_client.get(reverse("sheet", args=["prova", 1, 1])).content.decode()
    url = reverse("sheet_draft_discard", args=["prova", 1, 1])
    assert 'id="discard-draft"' in sheet_page and url in sheet_page
    confirm = arbiter_client.get(url)
    assert "Scartare la bozza del tavolo 1?" in confirm.content.decode()
    assert ScoreSheet.objects.get(table=tables[1]).is_draft  # a GET changes nothing
    resp = arbiter_client.post(url, {"expected_version": "1"})
    assert resp.status_code == 302 and resp.url == reverse("sheet", args=["prova", 1, 1])
    sheet = ScoreSheet.objects.get(table=tables[1])
    assert not sheet.is_draft and sheet.state == "empty" and sheet.version == 2
    entry = AuditEntry.objects.get(action="sheet_draft_discarded", table_number=1)
    assert entry.old == {"cells": {"h1_ns": "600", "h1_ew": "200"}, "parts": False}
    page = arbiter_client.get(reverse("sheet", args=["prova", 1, 1])).content.decode()
    assert 'id="draft-note"' not in page and 'name="h1_ns" value="600"' not in page
    # the captain may enter the sheet again (no 409)
    assert captain_save(other_client, tables[1], version=2).status_code == 200
    # nothing left to discard: a plain message, nothing changes
    assert arbiter_client.post(url, {"expected_version": "3"}).status_code == 302
    assert ScoreSheet.objects.get(table=tables[1]).state == "entered"


def test_discard_draft_refusals(arbiter, tables):
    import pytest

    from tournaments.errors import StaleSheetError
    from tournaments.services import Actor

    with pytest.raises(ArbiterError, match="non c'è una bozza da scartare"):
        services.discard_sheet_draft(table=tables[2], by=arbiter)
    services.save_sheet_draft(table=tables[2], cells={"h1_ns": "100"}, by=arbiter)
    with pytest.raises(StaleSheetError):
        services.discard_sheet_draft(table=tables[2], by=arbiter, expected_version=0)
    with pytest.raises(ArbiterError, match="Solo l'arbitro"):  # a captain
        services.discard_sheet_draft(table=tables[2], by=Actor(label="capitano N/S tavolo 2"))
    assert ScoreSheet.objects.get(table=tables[2]).is_draft  # refusals lose nothing

