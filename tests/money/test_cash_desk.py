"""The cash desk page and the treasurer's sheet downloads (rules.md §21)."""
import io

import pytest
from django.urls import reverse

from money import services
from money.models import PlayerFee
from tests.money.test_treasurer_sheet import SHARES
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

    from tests.money.test_treasurer_sheet import play_the_desk

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
