"""Exports and backups carry the money (rules.md §21): a restored tournament has the same
treasurer's sheet."""
import json

import pytest

from money import selectors
from money.models import PlayerFee
from tests.money.helpers import SHARES, play_the_desk
from tournaments import transfer
from tournaments.errors import ArbiterError
from tournaments.models import Tournament
from tournaments.services import prizes as prize_services


def sheet(tournament):
    return selectors.sheet_json(selectors.treasurer_sheet(Tournament.objects.get(pk=tournament.pk)))


def test_a_restored_tournament_has_the_same_sheet(evening, arbiter):
    prize_services.set_prize_list(tournament=evening, by=arbiter, prizes=SHARES)
    play_the_desk(evening, arbiter, pool_percent="40")
    data = transfer.export_tournament(evening)
    assert json.loads(data)["money"]["fees"]["pool_percent"] == "40.00"
    copy = transfer.import_tournament(data=data, slug="cassa-copia", owner=arbiter).tournament
    assert sheet(copy) == sheet(evening)
    assert sheet(copy)["income"]["total"] == "270.00" and sheet(copy)["pool"] == "108.00"
    assert PlayerFee.objects.filter(tournament=copy, state="waived").count() == 2
    again = json.loads(transfer.export_tournament(copy))
    assert again["money"] == json.loads(data)["money"]


def test_a_tournament_without_money_has_no_section(evening):
    assert "money" not in json.loads(transfer.export_tournament(evening))


@pytest.mark.parametrize("bad", [
    {"fees": {"member_rate": "dieci", "guest_rate": "15.00"}},
    {"player_fees": [{"entrant": 1, "place": 1, "state": "rubato", "rate": "member", "amount": "10.00"}]},
    {"player_fees": [{"entrant": 99, "place": 1, "state": "paid", "rate": "member", "amount": "10.00",
                      "method": "cash"}]},
    {"refunds": [{"entrant": 1, "amount": 10.0}]},
])
def test_a_tampered_money_section_is_refused_and_nothing_is_created(evening, arbiter, bad):
    doc = json.loads(transfer.export_tournament(evening))
    doc["money"] = {"fees": None, "player_fees": [], "refunds": [], **bad}
    with pytest.raises(ArbiterError, match="cassa"):
        transfer.import_tournament(data=json.dumps(doc).encode(), slug="manomesso", owner=arbiter)
    assert not Tournament.objects.filter(slug="manomesso").exists()
