"""At page level: the hand calculator's rules, refusals said up front
and in plain sentences (never a database constraint name).

Round 1 of the 5-pair fixture (tests/conftest.py): table 1 = 1 v 3, table 2 = 2 v 4, pair 5 rests.
"""
import html

import pytest
from django.urls import reverse


def body(resp):
    return html.unescape(resp.content.decode())


# --------------------------------------------------------------------------- hand calculator page


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


# --------------------------------------------------------------------------- said before the form

from tournaments import services  # noqa: E402
from tournaments.models import AuditEntry, Pair, ScoreSheet, Table  # noqa: E402

ZERO = [services.HandInput(0, 0)] * 4
PAIR = {"last_name_1": "Tardi", "first_name_1": "Ugo", "membership_1": "T1", "club_1": "",
        "last_name_2": "Ritardo", "first_name_2": "Ida", "membership_2": "T2", "club_2": ""}


def close(rnd, arbiter):
    for t in rnd.tables.filter(bye=""):
        services.save_score_sheet(table=t, hands=ZERO, by=arbiter, validate=True)
    return services.close_round(round=rnd, by=arbiter)


def test_reopen_page_when_next_round_published_says_so_before_the_form(arbiter_client, arbiter, published, five):
    close(published, arbiter)
    services.publish_round(round=services.generate_round(tournament=five, by=arbiter), by=arbiter,
                           acknowledge_warnings=True)
    resp = arbiter_client.get(reverse("round_reopen", args=["prova", 1]))
    page = body(resp)
    assert resp.status_code == 200
    assert "Il turno 2 è già pubblicato: il turno 1 non si può più riaprire" in page
    assert 'name="reason"' not in page and "<form" not in page.split('id="refused"')[1]
    assert reverse("round", args=["prova", 1]) in page


def test_reopen_page_of_a_round_in_play_says_it_is_not_closed(arbiter_client, published):
    page = body(arbiter_client.get(reverse("round_reopen", args=["prova", 1])))
    assert "Il turno 1 non è chiuso" in page and 'name="reason"' not in page


def test_reopen_page_still_asks_the_reason_when_allowed(arbiter_client, arbiter, published):
    close(published, arbiter)
    page = body(arbiter_client.get(reverse("round_reopen", args=["prova", 1])))
    assert 'name="reason"' in page and 'id="refusal"' not in page


def test_add_pair_page_after_round_1_says_so_up_front(arbiter_client, arbiter, published, five):
    """Round 1 in play with a rest (5 pairs): the page points to the late pair page."""
    page = body(arbiter_client.get(reverse("pair_add", args=["prova"])))
    assert "Il torneo è già iniziato" in page and 'name="last_name_1"' not in page
    assert reverse("late_pair", args=["prova"]) in page
    # round 2 drawn: no late pair either, and the page says why
    close(published, arbiter)
    services.generate_round(tournament=five, by=arbiter)
    page = body(arbiter_client.get(reverse("pair_add", args=["prova"])))
    assert "Il torneo è già iniziato" in page and "solo durante il turno 1" in page
    assert 'id="refusal-other"' not in page and 'name="last_name_1"' not in page
    # a POST anyway (an old page) is still refused by the service, nothing saved
    resp = arbiter_client.post(reverse("pair_add", args=["prova"]), PAIR)
    assert "già iniziato" in body(resp) and Pair.objects.count() == 5


def test_add_pair_page_before_round_1_has_the_form(arbiter_client, five):
    page = body(arbiter_client.get(reverse("pair_add", args=["prova"])))
    assert 'name="last_name_1"' in page and 'id="refusal"' not in page


def test_late_pair_page_says_why_before_the_form(arbiter_client, arbiter, published, five):
    page = body(arbiter_client.get(reverse("late_pair", args=["prova"])))
    assert 'name="last_name_1"' in page  # round 1 in play, pair 5 rests: allowed
    close(published, arbiter)
    page = body(arbiter_client.get(reverse("late_pair", args=["prova"])))
    assert "Il turno 1 è finito" in page and "art. 33" in page and 'name="last_name_1"' not in page


def test_late_pair_page_without_an_incomplete_table(arbiter_client, arbiter, tournament, make_pairs):
    make_pairs(tournament, 4)
    services.publish_round(round=services.generate_round(tournament=tournament, by=arbiter), by=arbiter,
                           acknowledge_warnings=True)
    page = body(arbiter_client.get(reverse("late_pair", args=["prova"])))
    assert "Non c'è un tavolo zoppo da completare" in page and 'name="last_name_1"' not in page


def test_late_pair_page_before_round_1_points_to_add_pair(arbiter_client, five):
    page = body(arbiter_client.get(reverse("late_pair", args=["prova"])))
    assert "non è ancora iniziato" in page and reverse("pair_add", args=["prova"]) in page


# --------------------------------------------------------------------------- the real reason after Back

def grid_post(hands, version, round_state="published", action="save"):
    data = {"action": action, "expected_version": str(version), "round_state": round_state}
    for i, (ns, ew) in enumerate(hands, start=1):
        data[f"h{i}_ns"], data[f"h{i}_ew"] = str(ns), str(ew)
    return data


def test_save_after_back_said_changed_by_another_device(arbiter_client, arbiter, published):
    """The grid of table 1 opened at version 0; the sheet then saved and the round closed;
    Back and save: the page says round 1 is closed, nothing is saved."""
    t1 = Table.objects.get(round=published, number=1)
    close(published, arbiter)
    before = AuditEntry.objects.count()
    resp = arbiter_client.post(reverse("sheet", args=["prova", 1, 1]),
                               grid_post([(100, 0), (0, 0), (0, 0), (0, 0)], version=0))
    page = body(resp)
    assert resp.status_code == 409
    assert "Il turno 1 è chiuso: lo score non è stato salvato" in page
    assert "altro dispositivo" not in page
    assert ScoreSheet.objects.get(table=t1).mp_ns == 0 and AuditEntry.objects.count() == before


def test_save_after_back_same_version_says_round_closed(arbiter_client, arbiter, published):
    """Page opened after the last save but before the close: same version, round closed."""
    t1 = Table.objects.get(round=published, number=1)
    close(published, arbiter)
    version = ScoreSheet.objects.get(table=t1).version
    resp = arbiter_client.post(reverse("sheet", args=["prova", 1, 1]),
                               grid_post([(100, 0), (0, 0), (0, 0), (0, 0)], version=version))
    page = body(resp)
    assert resp.status_code == 409 and "Il turno 1 è chiuso" in page
    assert "Indica il motivo" not in page and "stato chiuso dopo che avevi aperto questa pagina" in page
    assert ScoreSheet.objects.get(table=t1).mp_ns == 0


def test_service_stale_save_in_closed_round_names_the_round(arbiter, published):
    from tournaments.errors import StaleSheetError

    t1 = Table.objects.get(round=published, number=1)
    close(published, arbiter)
    with pytest.raises(StaleSheetError) as exc:
        services.save_score_sheet(table=t1, hands=[services.HandInput(100, 0)] + ZERO[1:], by=arbiter,
                                  expected_version=0, reason="x")
    assert exc.value.message.startswith("Il turno 1 è chiuso")


def test_closed_mitchell_round_still_correctable_from_a_fresh_page(arbiter_client, arbiter, published):
    t1 = Table.objects.get(round=published, number=1)
    close(published, arbiter)
    data = grid_post([(100, 0), (0, 0), (0, 0), (0, 0)], version=ScoreSheet.objects.get(table=t1).version,
                     round_state="closed")
    data["reason"] = "trascrizione: il foglio dice 100"
    data["kind"] = "transcription"
    resp = arbiter_client.post(reverse("sheet", args=["prova", 1, 1]), data)
    assert resp.status_code == 302 and ScoreSheet.objects.get(table=t1).mp_ns == 100


def _captain(client, name, table, payload):
    import json

    return client.post(reverse(name, args=[table.token]), data=json.dumps(payload),
                       content_type="application/json")


@pytest.mark.parametrize("name, payload", [
    ("captain_save", {"line": "ns", "hands": [[100, 0], [0, 0], [0, 0], [0, 0]], "version": 0}),
    ("captain_confirm", {"line": "ew", "version": 0}),
    ("captain_dispute", {"line": "ew", "version": 0, "note": "manca una smazzata"}),
])
def test_captain_after_close_hears_round_closed_not_changed(client, arbiter, published, name, payload):
    """The captain's page was loaded at version 0; the arbiter entered, validated and closed."""
    t1 = Table.objects.get(round=published, number=1)
    close(published, arbiter)
    resp = _captain(client, name, t1, payload)
    assert resp.status_code == 400
    error = resp.json()["error"]
    assert error.startswith("Il turno 1 è chiuso") and "cambiato" not in error
    assert ScoreSheet.objects.get(table=t1).state == "validated"
