"""The treasurer's sheet (rules.md §21), every value computed by hand.

The evening (conftest): 14 pairs, 28 players, 4 guests. Member rate 10.00, guest rate 15.00.
Pair 5 (two members) is waived; everybody else pays; pair 7 gets 10.00 back.
Paid: 22 members × 10.00 = 220.00, 4 guests × 15.00 = 60.00; waived 2 × 10.00 = 20.00;
collected = 280.00 − 10.00 = 270.00.
"""
import json
from decimal import Decimal
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from money import selectors, services
from money.models import PlayerFee
from tests.money.helpers import SHARES, play_the_desk
from tournaments.errors import ArbiterError
from tournaments.models import AuditEntry, Tournament
from tournaments.services import prizes as prize_services


def treasury(*args) -> dict | None:
    out = StringIO()
    call_command("treasury", "cassa", *args, stdout=out)
    text = out.getvalue().strip()
    return json.loads(text) if text else None


def test_the_evening_of_the_issue(evening, arbiter):
    """Pool 40 % of 270.00 = 108.00; prizes 50/30/20 % = 54.00, 32.40, 21.60 to pairs 1, 2,
    3; club's share 270.00 − 108.00 = 162.00; balance 0.00."""
    prize_services.set_prize_list(tournament=evening, by=arbiter, prizes=SHARES)
    play_the_desk(evening, arbiter, pool_percent="40")
    assert treasury("--json") == {
        "income": {"member": "220.00", "guest": "60.00", "waived": "20.00", "refunds": "10.00", "total": "270.00"},
        "pool": "108.00",
        "prizes": [{"prize": "1° assoluto", "amount": "54.00", "names": "Rossi1 Anna – Verdi1 Bruno"},
                   {"prize": "2° assoluto", "amount": "32.40", "names": "Rossi2 Anna – Verdi2 Bruno"},
                   {"prize": "3° assoluto", "amount": "21.60", "names": "Rossi3 Anna – Verdi3 Bruno"}],
        "club_share": "162.00", "balance": "0.00"}
    sheet = selectors.treasurer_sheet(Tournament.objects.get(pk=evening.pk))
    assert sheet.by_method == {"cash": Decimal("280.00")}
    assert sheet.unpaid == [] and len(sheet.waivers) == 2


def test_the_same_evening_from_the_shell(evening):
    """The same sheet written with the command's own options (pay all skips the waived pair)."""
    t = Tournament.objects.get(pk=evening.pk)
    prize_services.set_prize_list(tournament=t, by=t.created_by, prizes=SHARES)
    treasury("--fees", "member=10.00,guest=15.00", "--pool-percent", "40")
    treasury("--waive", "5", "--reason", "coppia dello staff")
    treasury("--pay", "all", "--method", "card")
    treasury("--refund", "7", "10.00")
    data = treasury()
    assert data["income"]["total"] == "270.00" and data["pool"] == "108.00" and data["club_share"] == "162.00"
    assert PlayerFee.objects.filter(tournament=t, state="waived").count() == 2


def test_a_pool_that_does_not_divide_to_the_cent(evening, arbiter):
    """Pool 33.33 % of 270.00 = 89.991 → 89.99; 50 % = 44.995 → 44.99, 30 % = 26.997 → 26.99,
    20 % = 17.998 → 17.99, together 89.97: the 0.02 left go to the first prize (45.01);
    club's share 270.00 − 89.99 = 180.01."""
    prize_services.set_prize_list(tournament=evening, by=arbiter, prizes=SHARES)
    play_the_desk(evening, arbiter, pool_percent="33.33")
    data = treasury("--json")
    assert data["pool"] == "89.99"
    assert [p["amount"] for p in data["prizes"]] == ["45.01", "26.99", "17.99"]
    assert data["club_share"] == "180.01" and data["balance"] == "0.00"


def test_a_fixed_pool_with_its_cap(evening, arbiter):
    """A fixed pool of 100.01: 50.005 → 50.00 + 0.01 left = 50.01, 30.00, 20.00. Capped at
    80.00 instead: 40.00, 24.00, 16.00."""
    prize_services.set_prize_list(tournament=evening, by=arbiter, prizes=SHARES)
    play_the_desk(evening, arbiter, pool_amount="100.01")
    assert [p["amount"] for p in treasury()["prizes"]] == ["50.01", "30.00", "20.00"]
    treasury("--fees", "member=10.00,guest=15.00", "--pool", "100.01", "--pool-cap", "80.00")
    data = treasury()
    assert data["pool"] == "80.00" and [p["amount"] for p in data["prizes"]] == ["40.00", "24.00", "16.00"]
    assert data["club_share"] == "190.00"


def test_a_prize_nobody_is_entitled_to_stays_in_the_balance(evening, arbiter):
    """The 20 % prize is for juniors and nobody is one: its 21.60 is not paid, balance =
    108.00 − 54.00 − 32.40 = 21.60; a second juniors' prize of 15.00 finds nobody either (the
    sheet names both)."""
    prizes = SHARES[:2] + [{"prize": "1° Juniores", "scope": "category:Juniores", "share": 20},
                           {"prize": "2° Juniores", "scope": "category:Juniores", "amount": "15.00"}]
    prize_services.set_prize_list(tournament=evening, by=arbiter, prizes=prizes)
    play_the_desk(evening, arbiter, pool_percent="40")
    data = treasury()
    assert data["prizes"][2] == {"prize": "1° Juniores", "amount": "21.60", "names": None}
    assert data["balance"] == "21.60"
    sheet = selectors.treasurer_sheet(Tournament.objects.get(pk=evening.pk))
    assert [p.prize for p in sheet.unawarded] == ["1° Juniores", "2° Juniores"]


def test_a_category_rate(evening, arbiter):
    """Pair 2's players are *Juniores* in the registry with a rate of 5.00: they pay 5.00 each."""
    from members.models import Member
    Member.objects.filter(membership_number__in=["T2A", "T2B"]).update(category="juniores")
    services.set_fees(tournament=evening, by=arbiter, member_rate="10", guest_rate="15",
                      category_rates={"Juniores": "5"})
    services.pay(tournament=evening, by=arbiter, entrant=2)
    data = treasury()
    assert data["income"]["categories"] == {"Juniores": "10.00"} and data["income"]["member"] == "0.00"


def test_every_write_is_audited(evening, arbiter):
    play_the_desk(evening, arbiter, pool_percent="40")
    actions = list(AuditEntry.objects.filter(tournament=evening, action__startswith="fee").values_list("action",
                                                                                                      flat=True))
    assert actions.count("fee_paid") == 26 and actions.count("fee_waived") == 2 and actions.count("fee_refund") == 1
    paid = AuditEntry.objects.filter(tournament=evening, action="fee_paid").first()
    assert paid.actor == "arbitro (arbitro)" and paid.new["amount"] in ("10.00", "15.00")


def test_refusals_are_sentences(evening, arbiter):
    with pytest.raises(ArbiterError, match="quote"):
        services.pay(tournament=evening, by=arbiter, entrant=1)
    for bad in ("dieci", "10.001", "-1", "1e9", "NaN"):
        with pytest.raises(ArbiterError, match="importo valido"):
            services.set_fees(tournament=evening, by=arbiter, member_rate=bad, guest_rate="15")
    services.set_fees(tournament=evening, by=arbiter, member_rate="10", guest_rate="15")
    with pytest.raises(ArbiterError, match="n. 99"):
        services.pay(tournament=evening, by=arbiter, entrant=99)
    with pytest.raises(ArbiterError, match="motivo"):
        services.waive(tournament=evening, by=arbiter, entrant=1, reason=" ")
    services.pay(tournament=evening, by=arbiter, entrant=1)
    with pytest.raises(ArbiterError, match="non si possono rimborsare"):
        services.refund(tournament=evening, by=arbiter, entrant=1, amount="20.01")
    with pytest.raises(CommandError, match="member=10.00,guest=15.00"):
        treasury("--fees", "member=10")
    with pytest.raises(CommandError, match="cash, card"):
        treasury("--pay", "2", "--method", "bitcoin")


def test_a_payment_for_another_tournaments_player_is_refused(evening, arbiter, tournament, make_pairs):
    make_pairs(tournament, 1)
    services.set_fees(tournament=evening, by=arbiter, member_rate="10", guest_rate="15")
    stranger = tournament.players.first()
    with pytest.raises(ArbiterError, match="non è iscritto"):
        services.pay_player(tournament=evening, by=arbiter, player_id=stranger.pk)
    assert not PlayerFee.objects.exists()


def test_a_teams_fee_is_its_players_fees(arbiter):
    """A team of five players without membership numbers (guests, 15.00): paying the team
    records 5 × 15.00 = 75.00; a refund of 75.01 is refused, 75.00 accepted (collected 0.00)."""
    import datetime

    from tests.teams.helpers import players
    from tournaments import services as t_services

    t = t_services.create_tournament(by=arbiter, name="Squadre", slug="squadre-cassa", date=datetime.date(2026, 12, 1),
                                     kind="teams", plan="RR", hands_per_round=4, vp_scale="vp20-4h")
    for k in (1, 2):
        t_services.add_team(tournament=t, name=f"Squadra {k}", players=players(f"S{k}p", 5), by=arbiter)
    services.set_fees(tournament=t, by=arbiter, member_rate="10", guest_rate="15")
    assert services.pay(tournament=t, by=arbiter, entrant=2) == 5
    with pytest.raises(ArbiterError, match="non si possono rimborsare 75.01"):
        services.refund(tournament=t, by=arbiter, entrant=2, amount="75.01")
    sheet = selectors.treasurer_sheet(t)
    assert sheet.by_rate["guest"] == Decimal("75.00") and len(sheet.unpaid) == 5
    services.refund(tournament=t, by=arbiter, entrant=2, amount="75.00")
    assert selectors.treasurer_sheet(t).total == Decimal("0.00")


def test_a_refunded_entrant_cannot_lose_the_payment_the_refund_came_from(evening, arbiter):
    """Pair 7 (two members) pays 2 × 10.00 and gets 15.00 back: 5.00 stays collected. Waiving
    the pair, or cancelling one payment (10.00 left < 15.00 refunded), would make the collected
    sum 20.00 − 20.00 − 15.00 < 0: refused with a sentence, the sheet unchanged."""
    services.set_fees(tournament=evening, by=arbiter, member_rate="10.00", guest_rate="15.00")
    services.pay(tournament=evening, by=arbiter, entrant=7)
    services.refund(tournament=evening, by=arbiter, entrant=7, amount="15.00")
    assert treasury("--json")["income"]["total"] == "5.00"
    with pytest.raises(ArbiterError, match="15.00 di rimborso"):
        services.waive(tournament=evening, by=arbiter, entrant=7, reason="staff")
    first = evening.players.filter(pair__number=7).order_by("seat").first()
    with pytest.raises(ArbiterError, match="solo 10.00"):
        services.cancel_fee(tournament=evening, by=arbiter, player_id=first.pk)
    with pytest.raises(CommandError, match="Rimborsa il resto"):
        treasury("--waive", "7", "--reason", "staff")
    assert treasury("--json")["income"] == {"member": "20.00", "guest": "0.00", "waived": "0.00",
                                            "refunds": "15.00", "total": "5.00"}
    # refunding the rest is the way: 20.00 − 20.00 = 0.00 collected
    services.refund(tournament=evening, by=arbiter, entrant=7, amount="5.00")
    assert treasury("--json")["income"]["total"] == "0.00"


def test_a_refund_smaller_than_the_other_players_fee_lets_one_payment_go(evening, arbiter):
    """Pair 7 pays 2 × 10.00, gets 10.00 back; cancelling one payment leaves 10.00 paid, 10.00
    refunded: collected 0.00, allowed."""
    services.set_fees(tournament=evening, by=arbiter, member_rate="10.00", guest_rate="15.00")
    services.pay(tournament=evening, by=arbiter, entrant=7)
    services.refund(tournament=evening, by=arbiter, entrant=7, amount="10.00")
    first = evening.players.filter(pair__number=7).order_by("seat").first()
    services.cancel_fee(tournament=evening, by=arbiter, player_id=first.pk)
    assert treasury("--json")["income"]["total"] == "0.00"
