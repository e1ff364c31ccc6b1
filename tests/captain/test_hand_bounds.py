"""The bound on a hand's score, checked before the database by the pure rule, the services,
the captains' JSON API (400, not 500) and the arbiter's grid.

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
from tournaments.models import HandRow, ScoreSheet

HANDS = [[600, 200], [400, 150], [250, 300], [300, 195]]
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

