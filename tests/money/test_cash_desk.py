"""The cash desk page and the treasurer's sheet downloads (rules.md §21)."""
import io

import pytest
from django.urls import reverse

from money import services
from money.models import PlayerFee
from tests.money.helpers import SHARES
from tournaments.errors import ArbiterError
from tournaments.models import AuditEntry
from tournaments.services import prizes as prize_services


@pytest.fixture
def desk(evening, arbiter, client):
    client.force_login(arbiter)
    return client


def url(name, slug="cassa"):
    return reverse(name, kwargs={"slug": slug})


def test_fees_at_check_in_and_the_sheet(desk, evening):
    """Rates through the form; one player paid by card, one waived with a reason; then the
    page shows collected 10.00 (the member's fee) and the waived 10.00."""
    r = desk.post(url("money"), {"action": "fees", "member_rate": "10,00", "guest_rate": "15",
                                 "pool_kind": "percent", "pool_percent": "40"})
    assert r.status_code == 302
    first, second = evening.players.order_by("pair__number", "seat")[:2]
    desk.post(url("money"), {"action": "pay", "player": first.pk, "method": "card"})
    desk.post(url("money"), {"action": "waive", "entrant": 1, "player": second.pk, "reason": "arbitro"})
    fee = PlayerFee.objects.get(player=first)
    assert (fee.state, fee.method, str(fee.amount)) == ("paid", "card", "10.00")
    assert PlayerFee.objects.get(player=second).state == "waived"
    page = desk.get(url("money")).content.decode()
    assert 'id="sheet-total">10,00<' in page and 'id="sheet-waived">10,00<' in page
    assert 'id="sheet-pool">4,00<' in page  # 40 % of 10.00
    # the sheet's «by method» rows: the card's 10,00, not the desk's list of methods
    assert '<td>carta</td><td class="num">10,00</td>' in page and "<td>card</td>" not in page
    assert AuditEntry.objects.filter(tournament=evening, action="fee_paid").count() == 1


def test_a_bad_amount_is_a_sentence(desk, evening):
    r = desk.post(url("money"), {"action": "fees", "member_rate": "dieci", "guest_rate": "15"}, follow=True)
    assert r.status_code == 200 and "non è un importo valido" in r.content.decode()
    assert not PlayerFee.objects.exists()


def test_a_player_of_another_tournament_is_refused(desk, evening, tournament, make_pairs, arbiter):
    make_pairs(tournament, 1)
    services.set_fees(tournament=evening, by=arbiter, member_rate="10", guest_rate="15")
    stranger = tournament.players.first()
    r = desk.post(url("money"), {"action": "pay", "player": stranger.pk, "method": "cash"}, follow=True)
    assert "non è iscritto a questo torneo" in r.content.decode()
    assert not PlayerFee.objects.exists()


def test_only_the_tournaments_arbiter(evening, client, django_user_model):
    other = django_user_model.objects.create_user(username="altro", password="segreta-123")
    client.force_login(other)
    for name in ("money", "money_sheet_pdf", "money_sheet_xlsx"):
        assert client.get(url(name)).status_code == 404
    assert client.post(url("money"), {"action": "pay_all"}).status_code == 404
    client.logout()
    assert client.get(url("money")).status_code == 302  # to the login page


def test_pdf_and_xlsx(desk, evening, arbiter):
    """The XLSX holds the issue's evening: collected 270.00, pool 108.00, first prize 54.00."""
    from openpyxl import load_workbook

    from tests.money.helpers import play_the_desk

    prize_services.set_prize_list(tournament=evening, by=arbiter, prizes=SHARES)
    play_the_desk(evening, arbiter, pool_percent="40")
    r = desk.get(url("money_sheet_pdf"))
    assert r.status_code == 200 and r["Content-Type"] == "application/pdf" and r.content[:4] == b"%PDF"
    r = desk.get(url("money_sheet_xlsx"))
    rows = {row[0]: row[1] for row in load_workbook(io.BytesIO(r.content)).active.iter_rows(values_only=True)}
    assert rows["Incassato (pagato − rimborsi)"] == 270.0 and rows["Montepremi"] == 108.0
    assert rows["1° assoluto"] == 54.0 and rows["Quota del circolo"] == 162.0


def test_the_prize_page_keeps_the_prizes_money(desk, evening):
    """«| 50%» is a share of the pool, «| 40,00» euro; the page shows them back unchanged."""
    text = "1° assoluto | assoluto | 50%\n2° assoluto | assoluto | 40,00\n1ª Dame | categoria:Dame"
    desk.post(reverse("prizes", kwargs={"slug": "cassa"}), {"action": "save", "prizes": text})
    evening.refresh_from_db()
    assert evening.prize_list == [{"prize": "1° assoluto", "scope": "overall", "share": "50.00"},
                                  {"prize": "2° assoluto", "scope": "overall", "amount": "40.00"},
                                  {"prize": "1ª Dame", "scope": "category:Dame"}]
    page = desk.get(reverse("prizes", kwargs={"slug": "cassa"})).content.decode()
    assert "1° assoluto | assoluto | 50.00%" in page and "2° assoluto | assoluto | 40.00" in page


def test_the_cash_desk_is_one_click_from_every_page_and_from_the_door(desk, evening):
    # the fee is taken at the door (rules.md §21): the check-in desk and the tournament's tabs
    # lead to the cash desk
    money = url("money")
    for name in ("bookings_check_in", "standings", "prizes"):
        assert f'href="{money}"' in desk.get(url(name)).content.decode(), name


def test_a_refund_on_the_sheet_names_who_got_the_money(desk, evening, arbiter):
    from openpyxl import load_workbook

    services.set_fees(tournament=evening, by=arbiter, member_rate="10", guest_rate="15")
    services.pay(tournament=evening, by=arbiter, entrant=7)
    services.refund(tournament=evening, by=arbiter, entrant=7, amount="5.00", reason="va via")
    page = desk.get(url("money")).content.decode()
    assert "<td>7 Rossi7 Anna – Verdi7 Bruno <span class=\"muted\">(va via)</span></td>" in page
    sheet = load_workbook(io.BytesIO(desk.get(url("money_sheet_xlsx")).content)).active
    assert ("7 Rossi7 Anna – Verdi7 Bruno", 5, "va via") in list(sheet.iter_rows(values_only=True))


def test_a_pair_that_paid_is_not_deleted_with_its_money(tournament, make_pairs, arbiter):
    """Pair 1 paid 2 × 10.00 at the door: deleting the pair would take 20.00 off the sheet
    that the cash box holds (rules.md §21); refused with a sentence until the payments are
    cancelled (a waived pair holds no money and goes)."""
    from tournaments import services as ts

    make_pairs(tournament, 2)
    services.set_fees(tournament=tournament, by=arbiter, member_rate="10", guest_rate="15")
    services.pay(tournament=tournament, by=arbiter, entrant=1)
    services.waive(tournament=tournament, by=arbiter, entrant=2, reason="staff")
    pair = tournament.pairs.get(number=1)
    with pytest.raises(ArbiterError, match="ha già pagato la quota"):
        ts.remove_pair(pair=pair, by=arbiter)
    assert tournament.pairs.filter(number=1).exists() and PlayerFee.objects.filter(state="paid").count() == 2
    ts.remove_pair(pair=tournament.pairs.get(number=2), by=arbiter)
    for player in pair.members.all():
        services.cancel_fee(tournament=tournament, by=arbiter, player_id=player.pk)
    ts.remove_pair(pair=pair, by=arbiter)
    assert not tournament.pairs.exists()


def test_an_individual_player_that_paid_is_not_deleted_with_his_money(arbiter):
    import datetime

    from tournaments import services as ts
    from tournaments.registrations.player_data import PlayerData

    t = ts.create_tournament(by=arbiter, name="Ind", slug="ind", date=datetime.date(2026, 12, 3), kind="individual")
    player = ts.add_player(tournament=t, by=arbiter, player=PlayerData(first_name="Anna", last_name="Rossi"))
    services.set_fees(tournament=t, by=arbiter, member_rate="10", guest_rate="15")
    services.pay(tournament=t, by=arbiter, entrant=player.number)
    with pytest.raises(ArbiterError, match="Rossi Anna ha già pagato"):
        ts.remove_player(player=player, by=arbiter)


def test_prizes_beyond_the_pool_are_named_on_the_sheet(desk, evening, arbiter):
    """Fixed pool 30.00, prizes 25.00 and 15.00 in euro: 40.00 awarded, balance
    30.00 − 40.00 = −10.00, and the sheet says why (page and XLSX)."""
    from openpyxl import load_workbook

    services.set_fees(tournament=evening, by=arbiter, member_rate="10", guest_rate="15", pool_amount="30.00")
    prize_services.set_prize_list(tournament=evening, by=arbiter, prizes=[
        {"prize": "1° assoluto", "scope": "overall", "amount": "25.00"},
        {"prize": "2° assoluto", "scope": "overall", "amount": "15.00"}])
    page = desk.get(url("money")).content.decode()
    assert 'id="sheet-balance">-10,00<' in page and 'id="sheet-overdrawn"' in page
    rows = {r[0]: r[1:] for r in load_workbook(io.BytesIO(desk.get(url("money_sheet_xlsx")).content)).active
            .iter_rows(values_only=True)}
    assert rows["Saldo (montepremi − premi assegnati)"][0] == -10
    assert "superano il montepremi" in rows["Saldo (montepremi − premi assegnati)"][1]


def test_a_balanced_sheet_says_nothing_of_an_overdraft(desk, evening, arbiter):
    services.set_fees(tournament=evening, by=arbiter, member_rate="10", guest_rate="15", pool_amount="30.00")
    assert 'id="sheet-overdrawn"' not in desk.get(url("money")).content.decode()
