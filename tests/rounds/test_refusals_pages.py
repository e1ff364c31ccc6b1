"""Issue 9 items 8 and 10 at page level: the hand calculator's rules, refusals said up front
and in plain sentences (never a database constraint name).

Round 1 of the 5-pair fixture (tests/conftest.py): table 1 = 1 v 3, table 2 = 2 v 4, pair 5 rests.
"""
import pytest
from django.urls import reverse


def body(resp):
    return resp.content.decode()


# --------------------------------------------------------------------------- item 8: hand calculator page


def calc(client, **params):
    return client.get(reverse("hand_calculator", args=["prova"]), params)


def test_calculator_closing_with_cards_in_partners_hand(arbiter_client, published):
    """Clean 200 + closing 100 = 300; 200 on the table − 45 in hand = 155; 455."""
    data = calc(arbiter_client, clean=1, closing="1", cards_on_table=200, cards_in_hand=45).json()
    assert data == {"base": 300, "cards": 155, "score": 455}


def test_calculator_closing_with_pot_not_played(arbiter_client, published):
    """Dirty 100 + closing 100 = 200; 150 − 110 (pot not played) = 40; 240."""
    data = calc(arbiter_client, dirty=1, closing="1", pot="not_played", pot_cards=110, cards_on_table=150).json()
    assert data == {"base": 200, "cards": 40, "score": 240}


def test_calculator_refuses_closing_without_pot(arbiter_client, published):
    resp = calc(arbiter_client, dirty=1, closing="1", pot="not_taken", cards_on_table=150)
    assert resp.status_code == 400 and "senza aver preso il pozzetto" in resp.json()["error"]


@pytest.mark.parametrize("value", [50, 265])
def test_calculator_refuses_pot_not_played_outside_55_260(arbiter_client, published, value):
    resp = calc(arbiter_client, dirty=1, pot="not_played", pot_cards=value, cards_on_table=150)
    assert resp.status_code == 400 and "da 55 a 260" in resp.json()["error"]


def test_calculator_refuses_second_closing_line(arbiter_client, published):
    resp = calc(arbiter_client, clean=1, closing="1", cards_on_table=100, other_closing="1")
    assert resp.status_code == 400 and "Una sola linea chiude la smazzata" in resp.json()["error"]
    # the other line closed, this one does not: fine (dirty 100 + 50 − 20 = 130)
    data = calc(arbiter_client, dirty=1, cards_on_table=50, cards_in_hand=20, other_closing="1").json()
    assert data["score"] == 130
