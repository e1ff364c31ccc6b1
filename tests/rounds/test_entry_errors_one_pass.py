"""Entry errors in one pass (rules.md §2–3): one answer lists every wrong value of the sheet
(non-numbers, values not multiples of 5, the sum check), on the arbiter's grid and on the
captain's page. Round 1 of 8 pairs, Mitchell, 4 hands."""
import json

import pytest
from django.urls import reverse

from scoring import sheets as sheet_rules
from tournaments import services
from tournaments.models import ScoreSheet


@pytest.fixture
def table(tournament, make_pairs, arbiter):
    make_pairs(tournament, 8)
    rnd = services.publish_round(round=services.generate_round(tournament=tournament, by=arbiter), by=arbiter,
                                 acknowledge_warnings=True)
    return rnd.tables.get(number=1)


def test_hand_value_problems_by_hand():
    assert sheet_rules.hand_value_problems(1, "ns", 450) == []
    (problem,) = sheet_rules.hand_value_problems(2, "ew", 453)
    assert problem.code == "sheet.hand_not_multiple" and problem.params == {"hand": 2, "line": "ew", "value": 453}
    assert sheet_rules.hand_value_problems(4, "ns", "1o0")[0].code == "sheet.hand_not_integer"
    assert sheet_rules.hand_value_problems(3, "ns", -20000)[0].code == "sheet.hand_out_of_bounds"


def test_grid_lists_every_error_at_once(arbiter_client, table, post_sheet):
    # hand 1 N/S «abc», hand 2 E/W «1o0», hand 3 N/S 453; declared 1000/500 against sums
    # 0+400+453+300 = 1153 and 200+150+... (hand 2 E/W unreadable: no sum check then)
    data = post_sheet([("abc", 200), (400, "1o0"), (453, 300), (300, 195)], declared=(1000, 500), version=0)
    response = arbiter_client.post(reverse("sheet", args=["prova", 1, 1]), data)
    page = response.content.decode()
    assert response.status_code == 400
    errors = page.split('id="sheet-errors"')[1].split("</ul>")[0]
    assert "Smazzata 1, linea N/S: «abc» non è un numero intero." in errors
    assert "Smazzata 2, linea E/O: «1o0» non è un numero intero." in errors
    assert "Smazzata 3, linea N/S: 453 non è multiplo di 5" in errors
    assert errors.count("<li>") == 3
    assert ScoreSheet.objects.get(table=table).state == "empty"


def test_grid_adds_the_sum_check_when_every_hand_is_read(arbiter_client, table, post_sheet):
    # N/S 600+400+453+300 = 1753, E/W 200+150+300+195 = 845; declared 1750/845
    data = post_sheet([(600, 200), (400, 150), (453, 300), (300, 195)], declared=(1750, 845), version=0)
    page = arbiter_client.post(reverse("sheet", args=["prova", 1, 1]), data).content.decode()
    errors = page.split('id="sheet-errors"')[1].split("</ul>")[0]
    assert "Smazzata 3, linea N/S: 453 non è multiplo di 5" in errors
    assert "Errore di somma, linea N/S: dichiarato 1750, somma delle smazzate 1753." in errors
    assert "linea E/O: dichiarato" not in errors


def test_captain_answer_lists_every_error(client, table):
    body = {"line": "ns", "version": 0, "declared": None,
            "hands": [["abc", 200], [400, "1o0"], [453, 300], [300, 195]]}
    response = client.post(reverse("captain_save", args=[table.token]), data=json.dumps(body),
                           content_type="application/json")
    assert response.status_code == 400
    errors = response.json()["errors"]
    assert errors == ["Smazzata 1 N/S: «abc» non è un numero intero.",
                      "Smazzata 2 E/O: «1o0» non è un numero intero.",
                      "Smazzata 3, linea N/S: 453 non è multiplo di 5"]
    assert response.json()["error"] == "; ".join(errors)
    assert ScoreSheet.objects.get(table=table).state == "empty"


def test_captain_page_carries_the_texts_for_every_error(client, table):
    page = client.get(reverse("captain", args=[table.token])).content.decode()
    assert "Score non inviato, correggi i campi evidenziati:" in page.replace("\\u00e8", "è")
    assert "un numero intero." in page  # (the texts are JSON: è may be escaped)


def test_captain_zeros_are_scores_not_errors(client, table):
    # 0 MP is a real hand score (and 0 a real declared total): 0+600+250+300 = 1150, 0+150+300+195 = 645
    body = {"line": "ns", "version": 0, "declared": [1150, 0],
            "hands": [[0, 0], [600, 150], [250, 300], [300, 195]]}
    response = client.post(reverse("captain_save", args=[table.token]), data=json.dumps(body),
                           content_type="application/json")
    assert response.status_code == 200, response.json()
    sheet = ScoreSheet.objects.get(table=table)
    assert (sheet.mp_ns, sheet.mp_ew, sheet.declared_ns, sheet.declared_ew) == (1150, 645, 1150, 0)
