"""Browser test of the money of an evening (rules.md §21): the arbiter sets the fees on the
cash desk, records them at check-in (one by card, one waived, the rest «pay all»), the
evening is played by ``simulate``'s rounds, and the treasurer's sheet is downloaded.

Four pairs; pair 4's two players have no membership number (guests). Member rate 10.00,
guest 15.00, pool 40 % of the collected fees, prizes 50 % and 30 % of the pool.
Paid: 5 members × 10.00 + 2 guests × 15.00 = 80.00 (one member waived: 10.00 not charged);
pool 40 % = 32.00; 1st prize 16.00, 2nd 9.60; club's share 80.00 − 32.00 = 48.00; balance
32.00 − 25.60 = 6.40 (the pool's 20 % no prize takes).
"""
from __future__ import annotations

import datetime
import io
import os
import shutil

import pytest

from .helpers import log_in_arbiter, submit

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(shutil.which("chromium") is None and not os.environ.get("CI"),
                       reason="Debian Chromium not installed"),
]


def test_fees_at_check_in_the_evening_played_and_the_sheet(page, live_server, django_user_model):
    from openpyxl import load_workbook

    from tournaments import services
    from tournaments.demo import simulation
    from tournaments.models import Tournament

    base = live_server.url
    log_in_arbiter(page, base, django_user_model)
    arbiter = django_user_model.objects.get(username="arbitro")
    t = services.create_tournament(by=arbiter, name="Serata con cassa", slug="cassa-e2e",
                                   date=datetime.date(2026, 12, 3), plan="DD", hands_per_round=4, vp_scale="vp20-4h")
    for k in range(1, 5):
        number = (lambda s, k=k: "" if k == 4 else f"E{k}{s}")
        services.add_pair(tournament=t, by=arbiter, players=[
            services.PlayerData(last_name=f"Rossi{k}", first_name="Anna", membership_number=number("a")),
            services.PlayerData(last_name=f"Verdi{k}", first_name="Bruno", membership_number=number("b"))])

    page.goto(base + "/tornei/cassa-e2e/")
    submit(page, "#money-link")
    page.fill('#fees-form input[name="member_rate"]', "10,00")
    page.fill('#fees-form input[name="guest_rate"]', "15")
    page.check('#fees-form input[name="pool_kind"][value="percent"]')
    page.fill('#fees-form input[name="pool_percent"]', "40")
    submit(page, "#fees-form button.primary")
    assert "Quote e montepremi salvati." in page.content()

    first, second = t.players.order_by("pair__number", "seat")[:2]
    page.select_option(f"#fee-{first.pk} select[name=method]", "card")
    submit(page, f"#fee-{first.pk} button.pay")
    page.fill(f"#fee-{second.pk} input[name=reason]", "arbitro della serata")
    submit(page, f"#fee-{second.pk} button.waive")
    submit(page, "#pay-all")
    assert "6 quote registrate." in page.content()
    assert page.inner_text("#sheet-total") == "80,00" and page.inner_text("#sheet-waived") == "10,00"

    page.goto(base + "/tornei/cassa-e2e/premi/")
    page.fill('#prize-form textarea[name="prizes"]', "1° assoluto | assoluto | 50%\n2° assoluto | assoluto | 30%")
    submit(page, "#prize-form button.primary")

    evening = Tournament.objects.get(slug="cassa-e2e")
    for _ in range(evening.rounds_planned):
        simulation.play_round(evening, by=arbiter, seed=3)

    page.goto(base + "/tornei/cassa-e2e/cassa/")
    assert page.inner_text("#sheet-pool") == "32,00" and page.inner_text("#sheet-club") == "48,00"
    assert page.inner_text("#sheet-balance") == "6,40"
    with page.expect_download() as download:
        page.click("#money-sheet-xlsx")
    rows = {r[0]: r[1] for r in load_workbook(io.BytesIO(open(download.value.path(), "rb").read())).active
            .iter_rows(values_only=True)}
    assert rows["Incassato (pagato − rimborsi)"] == 80.0 and rows["Montepremi"] == 32.0
    assert rows["1° assoluto"] == 16.0 and rows["2° assoluto"] == 9.6 and rows["Quota del circolo"] == 48.0
    pdf = page.request.get(base + "/tornei/cassa-e2e/cassa/rendiconto.pdf")
    assert pdf.ok and pdf.headers["content-type"] == "application/pdf" and pdf.body().startswith(b"%PDF")
