"""Browser test of the club's season (rules.md §17–§18): three evenings played (services,
players linked to members), the arbiter creates the championship on its page, reads the
standings and the PDF, then sets the prize list of the last evening and sees its winners.

Evenings (4 pairs each, one round, VP by arbitral score, MP 0):
gio-1 (Serra–Santoro 20, Bianchi–Verdi 12, Neri–Gialli 8, Rosa–Viola 0),
gio-2 (Serra–Bianchi 5, Santoro–Neri 15, Verdi–Rosa 10, Gialli–Viola 20),
gio-3 (Serra–Neri 20, Santoro–Verdi 14, Bianchi–Rosa 14, Viola–Nuovo 2).
``field``, best 2, minimum 2: Serra 4 + 4 = 8 first (tests/championships has the whole table).
"""
from __future__ import annotations

import datetime
import os
import shutil

import pytest

from tests.championships.helpers import pairs_evening

from .helpers import log_in_arbiter

pytestmark = pytest.mark.skipif(
    shutil.which("chromium") is None and not os.environ.get("CI"), reason="Debian Chromium not installed"
)

D = datetime.date
SERRA, SANTORO = ("Serra", "Anna", "402616"), ("Santoro", "Marta", "402617")
BIANCHI, VERDI = ("Bianchi", "Carla", "402618"), ("Verdi", "Dario", "402619")
NERI, GIALLI = ("Neri", "Elena", "402620"), ("Gialli", "Fabio", "402621")
ROSA, VIOLA, NUOVO = ("Rosa", "Gino", "402622"), ("Viola", "Ivo", "402623"), ("Nuovo", "Luca", "")


def test_three_evenings_championship_page_pdf_and_prizes(page, live_server, transactional_db, django_user_model):
    from django.core.cache import cache

    cache.clear()
    base = live_server.url
    log_in_arbiter(page, base, django_user_model)
    arbiter = django_user_model.objects.get(username="arbitro")
    pairs_evening(arbiter, "gio-1", D(2026, 11, 5), [(SERRA, SANTORO), (BIANCHI, VERDI), (NERI, GIALLI), (ROSA, VIOLA)],
                  {1: 20, 2: 12, 3: 8, 4: 0})
    pairs_evening(arbiter, "gio-2", D(2026, 11, 12), [(SERRA, BIANCHI), (SANTORO, NERI), (VERDI, ROSA), (GIALLI, VIOLA)],
                  {1: 5, 2: 15, 3: 10, 4: 20})
    pairs_evening(arbiter, "gio-3", D(2026, 11, 19), [(SERRA, NERI), (SANTORO, VERDI), (BIANCHI, ROSA), (VIOLA, NUOVO)],
                  {1: 20, 2: 14, 3: 14, 4: 2})

    page.goto(base + "/")
    page.click("#championships-link")
    page.fill('#championship-create input[name="slug"]', "sociale")
    page.fill('#championship-create input[name="name"]', "Sociale 2026")
    page.fill('#championship-create input[name="points"]', "field")
    page.fill('#championship-create input[name="best"]', "2")
    page.fill('#championship-create input[name="min_evenings"]', "2")
    for slug in ("gio-1", "gio-2", "gio-3"):
        page.check(f'#championship-create input[value="{slug}"]')
    page.click("#championship-create button.primary")
    assert page.url.endswith("/campionati/sociale/")
    first = page.locator("#championship-standings tbody tr").first
    assert first.locator("td").nth(0).inner_text() == "1"
    assert first.locator("td").nth(1).inner_text() == "Serra Anna"
    assert first.locator("td").nth(3).inner_text() == "8"
    # evenings 1 and 3 counted (4 each), evening 2 (1 point) in brackets
    assert first.locator("td.evenings").inner_text() == "1: 4 · (2: 1) · 3: 4"
    # Nuovo played once: below the minimum, last, without a position
    last = page.locator("#championship-standings tbody tr").last
    assert last.locator("td").nth(1).inner_text() == "Nuovo Luca" and last.locator("td").nth(0).inner_text() == ""

    pdf = page.request.get(base + "/campionati/sociale/classifica.pdf")
    assert pdf.ok and pdf.headers["content-type"] == "application/pdf" and pdf.body().startswith(b"%PDF")

    page.goto(base + "/tornei/gio-3/premi/")
    page.fill('#prize-form textarea[name="prizes"]', "1° assoluto | assoluto\n2° assoluto | assoluto\n3° assoluto | assoluto")
    page.click("#prize-form button.primary")
    rows = page.locator("#prize-awards tbody tr")
    assert rows.count() == 3
    assert "Serra Anna – Neri Elena" in rows.nth(0).inner_text()
    # pairs 2 and 3 share 2nd (14 VP): both prizes say ex aequo
    assert "ex aequo" in rows.nth(1).inner_text() and "ex aequo" in rows.nth(2).inner_text()
    page.goto(base + "/tornei/gio-3/classifica/")
    assert page.locator("#standings-prizes").is_visible()
