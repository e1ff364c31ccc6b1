"""Values no arbiter types get a sentence on the page, never a 500: a pair number or a
withdrawal round of 20 digits (beyond the database's 64-bit integer), control characters and
NUL in a name, a 300-character name, a 30-digit ``expected_version`` (docs/security.md)."""
import io

import openpyxl
import pytest
from django.urls import reverse

from tournaments import services
from tournaments.errors import ArbiterError
from tournaments.models import Pair, Player, ScoreSheet

TWENTY_DIGITS = "9" * 20


def pair_post(**changes):
    data = {"last_name_1": "Rossi", "first_name_1": "Anna", "last_name_2": "Verdi", "first_name_2": "Bruno"}
    data.update(changes)
    return data


def test_pair_number_of_twenty_digits_is_a_form_error(arbiter_client, tournament):
    response = arbiter_client.post(reverse("pair_add", args=["prova"]), pair_post(number=TWENTY_DIGITS))
    assert response.status_code == 200
    assert response.context["form"].errors["number"]
    assert not Pair.objects.exists()


def test_withdrawal_round_of_twenty_digits_is_a_form_error(arbiter_client, published):
    response = arbiter_client.post(reverse("pair_withdraw", args=["prova"]),
                                   {"pair": "1", "from_round": TWENTY_DIGITS, "reason": "malore"})
    assert response.status_code == 200
    assert response.context["form"].errors["from_round"]
    assert Pair.objects.get(tournament=published.tournament, number=1).status == Pair.Status.ACTIVE


def test_penalty_with_numbers_of_twenty_digits_is_a_form_error(arbiter_client, published):
    response = arbiter_client.post(reverse("penalties", args=["prova"]),
                                   {"pair": TWENTY_DIGITS, "vp": "1", "reason": "x", "round_number": TWENTY_DIGITS})
    assert response.status_code < 500


def test_control_characters_typed_in_a_name_are_removed(arbiter_client, tournament):
    response = arbiter_client.post(reverse("pair_add", args=["prova"]),
                                   pair_post(last_name_1="Ros\x07si\x1b", first_name_1="An\x1b[31mna"))
    assert response.status_code == 302
    player = Player.objects.get(seat=1)
    assert (player.last_name, player.first_name) == ("Rossi", "An[31mna")


def test_nul_in_a_name_is_refused_by_the_form(arbiter_client, tournament):
    response = arbiter_client.post(reverse("pair_add", args=["prova"]), pair_post(last_name_1="Ros\x00si"))
    assert response.status_code == 200
    assert not Pair.objects.exists()


def test_three_hundred_characters_name_is_refused_by_the_form(arbiter_client, tournament):
    response = arbiter_client.post(reverse("pair_add", args=["prova"]), pair_post(last_name_1="R" * 300))
    assert response.status_code == 200
    assert response.context["form"].errors["last_name_1"]
    assert not Pair.objects.exists()


# ------------------------------------------------------------------ the service layer


def test_service_removes_control_characters_and_refuses_nul_and_length(tournament, arbiter):
    good = services.PlayerData(first_name="Bruno", last_name="Verdi")
    pair = services.add_pair(tournament=tournament, by=arbiter,
                             players=[services.PlayerData(first_name="\x07Anna\x1b", last_name="Rossi\t\n"), good])
    assert [(p.last_name, p.first_name) for p in pair.players][0] == ("Rossi", "Anna")
    with pytest.raises(ArbiterError, match="NUL"):
        services.add_pair(tournament=tournament, by=arbiter,
                          players=[services.PlayerData(first_name="A\x00", last_name="B"), good])
    with pytest.raises(ArbiterError, match="80"):
        services.add_pair(tournament=tournament, by=arbiter,
                          players=[services.PlayerData(first_name="A" * 300, last_name="B"), good])
    with pytest.raises(ArbiterError, match="obbligatori"):
        services.add_pair(tournament=tournament, by=arbiter,
                          players=[services.PlayerData(first_name="\x07\x1b", last_name="B"), good])
    assert Pair.objects.count() == 1


def test_team_lines_are_cleaned_like_the_pair_form(arbiter_client, arbiter):
    import datetime

    services.create_tournament(by=arbiter, name="Squadre", slug="sq", date=datetime.date(2026, 11, 30),
                               kind="teams", plan="RRR")
    players = "\n".join(f"Cognome{k}\x07, Nome{k}\x1b" for k in range(4))
    response = arbiter_client.post(reverse("teams", args=["sq"]), {"name": "Squadra\x07 A", "players": players})
    assert response.status_code in (200, 302)
    assert sorted(Player.objects.values_list("last_name", flat=True)) == [f"Cognome{k}" for k in range(4)]
    long_name = "\n".join(f"{'C' * 300}, Nome{k}" for k in range(4))
    response = arbiter_client.post(reverse("teams", args=["sq"]), {"name": "B", "players": long_name})
    assert response.status_code == 200
    assert "80" in response.content.decode()


def test_standings_and_score_xlsx_open_after_a_name_with_control_characters(arbiter_client, five, arbiter):
    pair = Pair.objects.get(tournament=five, number=1)
    services.update_pair(pair=pair, by=arbiter, players=[
        services.PlayerData(first_name="Anna\x07", last_name="Ro\x1bssi1", membership_number="A1"),
        services.PlayerData(first_name="Bruno1", last_name="Verdi1", membership_number="B1")])
    rnd = services.generate_round(tournament=five, by=arbiter)
    services.publish_round(round=rnd, by=arbiter)
    for url in (reverse("standings_xlsx", args=["prova"]), reverse("scoresheets_xlsx", args=["prova", 1])):
        response = arbiter_client.get(url)
        assert response.status_code == 200, url
        book = openpyxl.load_workbook(io.BytesIO(b"".join(response.streaming_content)
                                                 if response.streaming else response.content))
        texts = [str(c.value) for ws in book for row in ws.iter_rows() for c in row if c.value]
        assert any("Rossi1" in t for t in texts), url


# ------------------------------------------------------------------ expected_version


def test_thirty_digit_expected_version_is_refused_not_read_as_none(arbiter_client, published):
    table = published.tables.exclude(bye="").first() or published.tables.filter(bye="").first()
    table = published.tables.filter(bye="").order_by("number").first()
    url = reverse("sheet", args=["prova", 1, table.number])
    data = {"expected_version": "1" * 30, "action": "save"}
    for k in range(1, 5):
        data[f"h{k}_ns"], data[f"h{k}_ew"] = "100", "50"
    response = arbiter_client.post(url, data)
    assert response.status_code == 302
    assert ScoreSheet.objects.get(table=table).state == ScoreSheet.State.EMPTY
    messages = [str(m) for m in response.wsgi_request._messages]
    assert any("Versione" in m for m in messages)
    validate = arbiter_client.post(reverse("sheet_validate", args=["prova", 1, table.number]),
                                   {"expected_version": "1" * 30})
    assert validate.status_code == 302
    assert ScoreSheet.objects.get(table=table).state == ScoreSheet.State.EMPTY
