"""A character that ``str.isdigit`` calls a digit but ``int`` cannot read ("²", "①") gets a
sentence, an empty result or a 404, never a 500 (every boundary refuses
bad values with a sentence). Before, each of these places checked ``isdigit()`` and then
called ``int()``, which raised ValueError: the captains' PIN page and the players' search
(both public), the sheet, board and dispute versions, the Registro filters, the penalty
form, the groups typed by hand, the team slips, a prize's group and a member's ``#id``.
``isdecimal()`` is exactly what ``int()`` reads."""
import datetime

import pytest
from django.urls import reverse

from tournaments import services
from tournaments.models import ScoreSheet

DIGITS = ["²", "①", "1²"]


def test_the_strings_are_digits_to_isdigit_but_not_to_int():
    for text in DIGITS:
        assert text.isdigit() and not text.isdecimal()
        with pytest.raises(ValueError):
            int(text)


@pytest.mark.parametrize("text", DIGITS)
def test_pin_page_table_number(client, published, text):
    response = client.post(reverse("captain_pin", args=["prova"]), {"table": text, "pin": "1234"})
    assert response.status_code < 500


@pytest.mark.parametrize("text", DIGITS + ["\x00", "Ros\x00si", "9" * 30])
def test_players_search(client, published, arbiter, text):
    services.update_tournament(tournament=published.tournament, by=arbiter, public_enabled=True)
    response = client.get(reverse("player_search", args=["prova"]), {"q": text})
    assert response.status_code in (200, 302)   # a list, or the one entrant's page


def _table(published):
    return published.tables.filter(bye="").order_by("number").first()


@pytest.mark.parametrize("text", DIGITS)
def test_sheet_version(arbiter_client, published, text):
    table = _table(published)
    data = {"expected_version": text, "action": "save"}
    for k in range(1, 5):
        data[f"h{k}_ns"], data[f"h{k}_ew"] = "100", "50"
    response = arbiter_client.post(reverse("sheet", args=["prova", 1, table.number]), data)
    assert response.status_code == 302
    assert ScoreSheet.objects.get(table=table).state == ScoreSheet.State.EMPTY


@pytest.mark.parametrize("text", DIGITS)
def test_board_and_dispute_versions(arbiter_client, published, arbiter, text):
    table = _table(published)
    services.save_score_sheet(table=table, hands=[services.HandInput(100, 50)] * 4, by=arbiter)
    board = arbiter_client.post(reverse("board_validate", args=["prova", 1, table.number]), {"version": text})
    assert board.status_code == 400
    dispute = arbiter_client.post(reverse("sheet_validate_disputed", args=["prova", 1, table.number]),
                                  {"version": text, "reason": "deciso"})
    assert dispute.status_code == 400
    assert ScoreSheet.objects.get(table=table).state == ScoreSheet.State.ENTERED


@pytest.mark.parametrize("text", DIGITS)
def test_registro_filters_are_ignored(arbiter_client, published, text):
    response = arbiter_client.get(reverse("audit", args=["prova"]), {"round": text, "table": text,
                                                                    "entrant": text})
    assert response.status_code == 200


@pytest.mark.parametrize("text", DIGITS)
def test_penalty_form(arbiter_client, published, text):
    response = arbiter_client.post(reverse("penalties", args=["prova"]),
                                   {"pair": text, "vp": "1", "reason": "ritardo", "round_number": "1"})
    assert response.status_code == 200
    assert response.context["form"].errors["pair"]


@pytest.mark.parametrize("text", DIGITS)
def test_groups_typed_by_hand(arbiter_client, five, text):
    data = {"count": "2", "method": "hand", "seed": "1"}
    data.update({f"g{k}": "1" for k in range(1, 6)})
    data["g1"] = text
    response = arbiter_client.post(reverse("groups", args=["prova"]), data)
    assert response.status_code == 200
    assert "Coppia 1: scrivi il numero del girone." in response.content.decode()


@pytest.mark.parametrize("text", DIGITS)
def test_team_slips_of_one_team(arbiter_client, arbiter, text):
    tournament = services.create_tournament(by=arbiter, name="Squadre", slug="sq", kind="teams", plan="RRR",
                                            date=datetime.date(2026, 12, 1))
    services.add_team(tournament=tournament, name="Prima", by=arbiter, players=[
        services.PlayerData(first_name=f"N{k}", last_name=f"C{k}") for k in range(4)])
    response = arbiter_client.get(reverse("team_slips_pdf", args=["sq"]), {"squadra": text})
    assert response.status_code == 404


@pytest.mark.parametrize("text", DIGITS)
def test_prize_group(text):
    from scoring.prizes import PrizeError, parse_scope

    with pytest.raises(PrizeError):
        parse_scope(f"group:{text}")


@pytest.mark.parametrize("text", DIGITS)
def test_member_by_id(db, text):
    from clubs.models import default_club
    from members.views import _other_member

    assert _other_member(f"#{text}", default_club().pk) is None
