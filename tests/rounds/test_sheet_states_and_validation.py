"""Score sheets' states and their validation on the arbiter's pages: "Valida tutti" says how
many captains' sheets wait and names them, a one-click validation refuses a sheet changed
since it was seen, a closed round's grid is read-only until "Correggi", and one set of state
names serves the round page, its summary, the live board and the grid.

Round 1 of the 5-pair fixture (tests/conftest.py): table 1 = 1 v 3, table 2 = 2 v 4, pair 5 rests.
"""
import html

from django.urls import reverse

from tournaments import services
from tournaments.models import AuditEntry, ScoreSheet

ZERO = [services.HandInput(0, 0)] * 4


def body(resp):
    return html.unescape(resp.content.decode())


def close(rnd, arbiter):
    for t in rnd.tables.filter(bye=""):
        services.save_score_sheet(table=t, hands=ZERO, by=arbiter, validate=True)
    return services.close_round(round=rnd, by=arbiter)


# --------------------------------------------------------------------------- validation


def test_validate_all_says_how_many_captain_sheets_wait_and_lists_them(arbiter_client, arbiter, published):
    from tournaments.services import Actor

    t1, t2 = published.tables.filter(bye="").order_by("number")
    services.save_score_sheet(table=t1, hands=ZERO, by=Actor("capitano N/S tavolo 1"))
    services.save_score_sheet(table=t2, hands=ZERO, by=arbiter)
    page = body(arbiter_client.post(reverse("round_validate_all", args=["prova", 1]), follow=True))
    assert ("1 score validato (tavolo 2); 1 inserito da un capitano non ancora confermato "
            "dall'altra linea: tavolo 1.") in page
    listed = page.split('id="awaiting-captains"')[1].split("</section>")[0]
    assert 'id="awaiting-1"' in listed and 'id="awaiting-2"' not in listed
    assert 'name="expected_version" value="1"' in listed
    # one click validates it, recorded as validating an unconfirmed captain sheet
    resp = arbiter_client.post(reverse("sheet_validate", args=["prova", 1, 1]), {"expected_version": "1"})
    assert resp.status_code == 302
    assert ScoreSheet.objects.get(table=t1).state == "validated"
    entry = AuditEntry.objects.filter(table_number=1).latest("id")
    assert entry.action == "sheet_validated_unconfirmed" and entry.user == arbiter
    audit_page = body(arbiter_client.get(reverse("audit", args=["prova"])))
    assert "Score validato senza la conferma dell'altra linea" in audit_page


def test_one_click_validate_refuses_a_sheet_changed_since_seen(arbiter_client, arbiter, published):
    from tournaments.services import Actor

    t1 = published.tables.get(number=1)
    services.save_score_sheet(table=t1, hands=ZERO, by=Actor("capitano N/S tavolo 1"))
    services.save_score_sheet(table=t1, hands=[services.HandInput(100, 0)] + ZERO[1:],
                              by=Actor("capitano N/S tavolo 1"))   # version 2 now
    page = body(arbiter_client.post(reverse("sheet_validate", args=["prova", 1, 1]), {"expected_version": "1"},
                                    follow=True))
    assert "lo score è cambiato dopo che l'hai visto" in page
    assert ScoreSheet.objects.get(table=t1).state == "entered"


# --------------------------------------------------------------------------- states


def test_closed_round_grid_is_read_only_until_correggi(arbiter_client, arbiter, published):
    close(published, arbiter)
    url = reverse("sheet", args=["prova", 1, 1])
    page = body(arbiter_client.get(url))
    fields = page.split('id="grid-fields"')[1].split(">")[0]
    assert "disabled" in fields and 'id="save"' not in page
    assert "già pubblicati in classifica" in page and 'href="?correggi=1"' in page
    page = body(arbiter_client.get(url + "?correggi=1"))
    fields = page.split('id="grid-fields"')[1].split(">")[0]
    assert "disabled" not in fields and 'data-kind-first="1"' in fields and 'id="save"' in page


def test_open_round_grid_is_editable(arbiter_client, published):
    page = body(arbiter_client.get(reverse("sheet", args=["prova", 1, 1])))
    fields = page.split('id="grid-fields"')[1].split(">")[0]
    assert "disabled" not in fields and "data-kind-first" not in fields and 'id="save"' in page


def test_one_set_of_state_names_round_page_summary_and_board(arbiter_client, arbiter, published):
    from tournaments.services import Actor

    t1 = published.tables.get(number=1)
    services.save_score_sheet(table=t1, hands=ZERO, by=Actor("capitano N/S tavolo 1"))
    label = "Inserito, da confermare"
    round_page = body(arbiter_client.get(reverse("round", args=["prova", 1])))
    row = round_page.split('id="table-1"')[1].split("</tr>")[0]
    assert f'<span class="badge awaiting">{label}</span>' in row
    summary = round_page.split('class="summary')[1].split("</p>")[0]
    assert f"{label}: 1" in summary
    board = body(arbiter_client.get(reverse("board_rows", args=["prova", 1])))
    assert label in board and f"{label}: <b>1</b>" in board
    sheet_page = body(arbiter_client.get(reverse("sheet", args=["prova", 1, 1])))
    assert f'id="sheet-status">{label}<' in sheet_page
