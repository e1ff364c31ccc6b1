"""Issue 10 item 6: edges that left a phone stuck or the arbiter blind.

The bound (scoring.sheets.MAX_HAND_MP): |hand| ≤ 10,000 MP, declared totals ≤ 10,000 MP ×
hands (4 hands here → 40,000). Hands of the vp20-4h scale by hand: N/S 600+400+250+300 =
1550 MP, E/O 200+150+300+195 = 845 MP.
"""
import json

import pytest
from django.urls import reverse

from scoring import sheets as sheet_rules
from tournaments import services
from tournaments.errors import ArbiterError
from tournaments.models import AuditEntry, HandRow, ScoreSheet

HANDS = [[600, 200], [400, 150], [250, 300], [300, 195]]
EDITED = [[600, 200], [400, 150], [250, 300], [300, 200]]     # hand 4 E/O 195 → 200
HUGE = 10**30


def save(client, table, body):
    return client.post(reverse("captain_save", args=[table.token]), data=json.dumps(body),
                       content_type="application/json")


def body(hands=HANDS, version=0, line="ns", **extra):
    return {"line": line, "hands": hands, "version": version, "declared": None, **extra}


# ------------------------------------------------------------------ the bound, pure rule


def test_hand_of_10000_is_accepted_and_10005_refused_by_the_pure_rule():
    from scoring.vp import scale_for_hands

    scale = scale_for_hands(4)
    ok = sheet_rules.sheet_totals([sheet_rules.HandScore(10_000, -10_000)] + [sheet_rules.HandScore(0, 0)] * 3, scale)
    assert (ok.mp_ns, ok.mp_ew) == (10_000, -10_000)
    with pytest.raises(sheet_rules.SheetError) as exc:
        sheet_rules.sheet_totals([sheet_rules.HandScore(10_005, 0)], scale)
    assert "fuori dai limiti" in str(exc.value) and "10000 MP" in str(exc.value)
    with pytest.raises(sheet_rules.SheetError):
        sheet_rules.sheet_totals([sheet_rules.HandScore(0, -HUGE)], scale)
    # declared: 4 hands → at most 40,000 MP
    sheet_rules.sheet_totals([sheet_rules.HandScore(0, 0)] * 4, scale, declared=(40_000, None))
    with pytest.raises(sheet_rules.SheetError) as exc:
        sheet_rules.sheet_totals([sheet_rules.HandScore(0, 0)] * 4, scale, declared=(40_005, None))
    assert "Totale dichiarato, linea N/S" in str(exc.value)


def test_service_refuses_10_to_30_before_the_database(arbiter, tables):
    t = tables[1]
    hands = [services.HandInput(HUGE, 0)] + [services.HandInput(0, 0)] * 3
    with pytest.raises(ArbiterError) as exc:
        services.save_score_sheet(table=t, hands=hands, by=arbiter)
    assert "fuori dai limiti" in exc.value.message
    with pytest.raises(ArbiterError):
        services.save_score_sheet(table=t, hands=[services.HandInput(0, 0)] * 4, declared=(HUGE, 0), by=arbiter)
    with pytest.raises(ArbiterError) as exc:
        services.save_score_sheet(table=t, hands=[services.HandInput(0, 0, ns_base=HUGE, ns_cards=-HUGE)]
                                  + [services.HandInput(0, 0)] * 3, by=arbiter)
    assert "base o carte" in exc.value.message
    assert not HandRow.objects.filter(sheet__table=t).exists()


# ------------------------------------------------------------------ captain JSON API


def test_captain_total_of_10_to_30_gave_500_now_400(client, tables):
    t = tables[2]
    response = save(client, t, body(hands=[[HUGE, 0], [0, 0], [0, 0], [0, 0]]))
    assert response.status_code == 400
    assert "fuori dai limiti" in response.json()["error"]
    response = save(client, t, body(hands=[[str(HUGE), 0], [0, 0], [0, 0], [0, 0]]))
    assert response.status_code == 400
    response = save(client, t, {**body(), "declared": [HUGE, 845]})
    assert response.status_code == 400
    assert ScoreSheet.objects.get(table=t).version == 0


def test_captain_save_without_version_is_refused(client, tables):
    t = tables[3]
    response = save(client, t, {"line": "ns", "hands": HANDS})
    assert response.status_code == 400
    assert "versione" in response.json()["error"]
    assert ScoreSheet.objects.get(table=t).state == ScoreSheet.State.EMPTY


def test_lost_answer_resent_with_old_version_succeeds(client, tables):
    t = tables[1]
    assert save(client, t, body()).status_code == 200          # answer lost on the way back
    response = save(client, t, body())                          # same content, version 0 again
    assert response.status_code == 200
    assert response.json()["sheet"]["version"] == 1
    assert AuditEntry.objects.filter(action__startswith="sheet_", table_number=1).count() == 1


def test_edit_after_lost_answer_was_refused_as_another_phone(client, tables):
    """Regression: the phone saved HANDS (answer lost, still at version 0), the captain
    corrected hand 4 and saved again: 409 "updated by another phone" although the server
    held exactly what this phone had sent. With ``last_sent`` it is accepted."""
    t = tables[1]
    assert save(client, t, body()).status_code == 200          # server: version 1 = HANDS
    response = save(client, t, body(hands=EDITED, last_sent={"hands": HANDS, "declared": [None, None]}))
    assert response.status_code == 200, response.content
    sheet = response.json()["sheet"]
    assert sheet["version"] == 2 and sheet["mp"] == [1550, 850]


def test_edit_with_old_version_over_another_phones_sheet_is_still_409(client, other_client, tables):
    t = tables[1]
    assert save(other_client, t, body(hands=EDITED, line="ew")).status_code == 200   # the other phone
    response = save(client, t, body(last_sent={"hands": HANDS, "declared": [None, None]}))
    assert response.status_code == 409
    assert response.json()["sheet"]["mp"] == [1550, 850]


# ------------------------------------------------------------------ arbiter grid


def test_arbiter_grid_refuses_10_to_30_with_400(arbiter_client, tables):
    t = tables[4]
    data = {"h1_ns": str(HUGE), "h1_ew": "0", "expected_version": "0", "action": "save"}
    for h in range(2, 5):
        data.update({f"h{h}_ns": "0", f"h{h}_ew": "0"})
    response = arbiter_client.post(reverse("sheet", args=["prova", 1, 4]), data)
    assert response.status_code == 400
    assert "fuori dai limiti" in response.content.decode()
    assert ScoreSheet.objects.get(table=t).version == 0


# ------------------------------------------------------------------ board validation


def _confirmed(client, other_client, t):
    assert save(client, t, body()).status_code == 200
    response = other_client.post(reverse("captain_confirm", args=[t.token]), content_type="application/json",
                                 data=json.dumps({"line": "ew", "version": 1}))
    assert response.status_code == 200
    return ScoreSheet.objects.get(table=t).version


def test_board_validate_posts_the_version_seen(client, other_client, arbiter, tables):
    t = tables[2]
    seen = _confirmed(client, other_client, t)
    client.force_login(arbiter)
    rows = client.get(reverse("board_rows", args=["prova", 1])).content.decode()
    row = rows.split('id="t2"')[1].split("</tr>")[0]
    assert f'name="version" value="{seen}"' in row
    response = client.post(reverse("board_validate", args=["prova", 1, 2]), {"version": seen})
    assert response.status_code == 302
    assert ScoreSheet.objects.get(table=t).state == ScoreSheet.State.VALIDATED


def test_board_validate_after_captains_change_is_409_with_current_sheet(client, other_client, arbiter, tables):
    t = tables[3]
    assert save(client, t, body()).status_code == 200           # board shows version 1
    assert save(client, t, body(hands=EDITED, version=1)).status_code == 200   # captain changes: version 2
    client.force_login(arbiter)
    response = client.post(reverse("board_validate", args=["prova", 1, 3]), {"version": 1})
    assert response.status_code == 409
    html = response.content.decode()
    assert "cambiato dopo che" in html and "1550–850" in html
    assert ScoreSheet.objects.get(table=t).state == ScoreSheet.State.ENTERED


def test_board_validate_without_version_is_400(client, arbiter, tables):
    t = tables[3]
    assert save(client, t, body()).status_code == 200
    client.force_login(arbiter)
    response = client.post(reverse("board_validate", args=["prova", 1, 3]))
    assert response.status_code == 400
    assert ScoreSheet.objects.get(table=t).state == ScoreSheet.State.ENTERED


# ------------------------------------------------------------------ GET integers


@pytest.mark.parametrize("query", ["round=abc", "table=x", "round=1.5", f"round={HUGE}", "table=-1", "round="])
def test_audit_page_with_bad_integer_was_500(arbiter_client, tables, query):
    response = arbiter_client.get(reverse("audit", args=["prova"]) + "?" + query)
    assert response.status_code == 200


@pytest.mark.parametrize("name,query", [
    ("standings", "dopo=abc"), ("standings", f"dopo={HUGE}"),
    ("sheet", f"dopo={HUGE}"), ("pair_withdraw", f"coppia=abc&turno={HUGE}"), ("late_pair", "turno=x"),
    ("standings_xlsx", f"dopo={HUGE}"), ("standings_pdf", "dopo=abc"), ("standings_pdf", f"dopo={HUGE}"),
])
def test_arbiter_pages_with_bad_integer_never_500(arbiter_client, tables, name, query):
    args = ["prova", 1, 1] if name == "sheet" else ["prova"]
    response = arbiter_client.get(reverse(name, args=args) + "?" + query)
    assert response.status_code < 500
