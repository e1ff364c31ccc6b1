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

from .helpers import log_in_arbiter, submit

pytestmark = pytest.mark.skipif(
    shutil.which("chromium") is None and not os.environ.get("CI"), reason="Debian Chromium not installed"
)

D = datetime.date
SERRA, SANTORO = ("Serra", "Anna", "402616"), ("Santoro", "Marta", "402617")
BIANCHI, VERDI = ("Bianchi", "Carla", "402618"), ("Verdi", "Dario", "402619")
NERI, GIALLI = ("Neri", "Elena", "402620"), ("Gialli", "Fabio", "402621")
ROSA, VIOLA, NUOVO = ("Rosa", "Gino", "402622"), ("Viola", "Ivo", "402623"), ("Nuovo", "Luca", "")


def create_championship(page, base):
    """«Sociale 2026» of the evenings gio-1…gio-3 (field points, best 2, at least 2), created on
    the championships page."""
    page.goto(base + "/")
    submit(page, "#championships-link")
    page.fill('#championship-create input[name="slug"]', "sociale")
    page.fill('#championship-create input[name="name"]', "Sociale 2026")
    page.fill('#championship-create input[name="points"]', "field")
    page.fill('#championship-create input[name="best"]', "2")
    page.fill('#championship-create input[name="min_evenings"]', "2")
    for slug in ("gio-1", "gio-2", "gio-3"):
        page.check(f'#championship-create input[value="{slug}"]')
    submit(page, "#championship-create button.primary")
    assert page.url.endswith("/campionati/sociale/")


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

    create_championship(page, base)
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
    submit(page, "#prize-form button.primary")
    rows = page.locator("#prize-awards tbody tr")
    assert rows.count() == 3
    assert "Serra Anna – Neri Elena" in rows.nth(0).inner_text()
    # pairs 2 and 3 share 2nd (14 VP): both prizes say ex aequo
    assert "ex aequo" in rows.nth(1).inner_text() and "ex aequo" in rows.nth(2).inner_text()
    page.goto(base + "/tornei/gio-3/classifica/")
    assert page.locator("#standings-prizes").is_visible()


# --------------------------------------------------------------------------- the whole season
# a season end to end: import a member list, register an evening from it (one expired number
# flagged), play three evenings with ``simulate``, see the championship page and its PDF, and
# the prize list of the last evening. The hands are simulate's random ones (seeded), so the
# page is compared with the shell's JSON (``championship standings --json``, ``prizes --json``),
# whose rules tests/championships and tests/prizes check with values computed by hand.

MEMBER_LIST = ("tessera,cognome,nome,circolo,categoria,scadenza\n"
               "402616,Serra,Anna,Circolo Aurora,Dame,2026-12-31\n"
               "402617,Santoro,Marta,Circolo Aurora,Dame,31/10/2026\n"   # expired before every evening
               "402618,Bianchi,Carla,Circolo Aurora,Dame,2026-12-31\n"
               "402619,Verdi,Dario,Circolo Aurora,Seniores,2026-12-31\n"
               "402620,Neri,Elena,Circolo Aurora,Dame,2026-12-31\n"
               "402621,Gialli,Fabio,Circolo Aurora,Seniores,2026-12-31\n"
               "402622,Rosa,Gino,Circolo Aurora,Seniores,2026-12-31\n"
               "402623,Viola,Ivo,Circolo Aurora,Seniores,2026-12-31\n")


def _registrations(pairs) -> str:
    lines = ["coppia,cognome_1,nome_1,tessera_1,cognome_2,nome_2,tessera_2,circolo"]
    for k, (a, b) in enumerate(pairs, start=1):
        lines.append(f"{k},{a[0]},{a[1]},{a[2]},{b[0]},{b[1]},{b[2]},Circolo Aurora")
    return "\n".join(lines) + "\n"


def _points_text(points: float) -> str:
    return f"{points:g}".replace(".", ",")


def test_season_from_the_member_list_simulated_evenings_championship_and_prizes(
        page, live_server, transactional_db, django_user_model, tmp_path):
    import json
    from io import StringIO

    from django.core.cache import cache
    from django.core.management import call_command

    from tournaments.demo import simulation
    from tournaments.models import Tournament

    from .helpers import create_tournament

    cache.clear()
    base = live_server.url
    log_in_arbiter(page, base, django_user_model)
    arbiter = django_user_model.objects.get(username="arbitro")

    # the club's member list, imported on its page
    members = tmp_path / "soci.csv"
    members.write_text(MEMBER_LIST, encoding="utf-8")
    page.goto(base + "/soci/importa/")
    page.set_input_files('input[name="file"]', str(members))
    submit(page, "button.primary")
    assert "Soci importati: 8 nuovi, 0 aggiornati." in page.content()

    # evening 1 registered from it on the import page: Santoro's number (row 2) expired
    create_tournament(page, base, name="Giovedì 1", slug="gio-1", date="2026-11-05", kind="pairs",
                      plan="DD", vp_scale="vp20-4h")
    first = tmp_path / "gio-1.csv"
    first.write_text(_registrations([(SERRA, SANTORO), (BIANCHI, VERDI), (NERI, GIALLI), (ROSA, VIOLA)]),
                     encoding="utf-8")
    page.goto(base + "/tornei/gio-1/importa/")
    page.set_input_files('input[name="file"]', str(first))
    submit(page, "button.primary")
    assert "4 coppie pronte" in page.content()
    assert page.locator("#membership-flags li").all_inner_texts() == ["Riga 2: tessera 402617 scaduta"]
    submit(page, 'button[name="confirm"]')
    assert "4 coppie importate" in page.content()
    page.goto(base + "/tornei/gio-1/coppie/")
    assert page.locator("#membership-flags li").all_inner_texts() == ["Santoro Marta: tessera 402617 scaduta"]
    # played by simulate's own rounds (random hands through the services)
    evening = Tournament.objects.get(slug="gio-1")
    for _ in range(evening.rounds_planned):
        simulation.play_round(evening, by=arbiter, seed=1)

    # evenings 2 and 3 with `manage.py simulate --date`; Nuovo Luca (no number) plays only the 3rd
    for k, day, pairs in [(2, "2026-11-12", [(SERRA, BIANCHI), (SANTORO, NERI), (VERDI, ROSA), (GIALLI, VIOLA)]),
                          (3, "2026-11-19", [(SERRA, NERI), (SANTORO, VERDI), (BIANCHI, ROSA), (VIOLA, NUOVO)])]:
        path = tmp_path / f"gio-{k}.csv"
        path.write_text(_registrations(pairs), encoding="utf-8")
        call_command("simulate", "--registrations", str(path), "--plan", "DD", "--hands", "4", "--seed", str(k),
                     "--out", str(tmp_path / f"out-{k}"), "--name", f"Giovedì {k}", "--slug", f"gio-{k}",
                     "--date", day, "--owner", "arbitro", stdout=StringIO())
        assert Tournament.objects.get(slug=f"gio-{k}").rounds.filter(state="closed").count() == 2

    # the championship, created on its page
    create_championship(page, base)
    out = StringIO()
    call_command("championship", "standings", "sociale", "--json", stdout=out)
    rows = json.loads(out.getvalue())["rows"]
    assert len(rows) == 9 and rows[-1]["name"] == "Nuovo Luca" and rows[-1]["position"] is None
    assert rows[-1]["membership_number"] is None
    assert {r["name"]: r["evenings"] for r in rows if r["evenings"] != 3} == {"Gialli Fabio": 2, "Nuovo Luca": 1}
    shown = page.locator("#championship-standings tbody tr")
    assert shown.count() == 9
    for i, row in enumerate(rows):
        cells = shown.nth(i).locator("td")
        assert cells.nth(1).inner_text() == row["name"]
        assert cells.nth(3).inner_text() == _points_text(row["points"])
        assert cells.nth(0).inner_text().rstrip("=") == ("" if row["position"] is None else str(row["position"]))
    pdf = page.request.get(base + "/campionati/sociale/classifica.pdf")
    assert pdf.ok and pdf.headers["content-type"] == "application/pdf" and pdf.body().startswith(b"%PDF")

    # the last evening's prize list, on its page and the standings page
    page.goto(base + "/tornei/gio-3/premi/")
    page.fill('#prize-form textarea[name="prizes"]',
              "1° assoluto | assoluto\n2° assoluto | assoluto\n1ª coppia Dame | categoria:Dame")
    submit(page, "#prize-form button.primary")
    out = StringIO()
    call_command("prizes", "gio-3", "--json", stdout=out)
    prizes = json.loads(out.getvalue())["prizes"]
    assert [p["prize"] for p in prizes] == ["1° assoluto", "2° assoluto", "1ª coppia Dame"]
    assert prizes[0]["entrant"] is not None and prizes[1]["entrant"] is not None
    awards = page.locator("#prize-awards tbody tr")
    assert awards.count() == 3
    for i, prize in enumerate(prizes):
        text = awards.nth(i).inner_text()
        assert prize["prize"] in text
        if prize["names"]:
            assert prize["names"] in text
    page.goto(base + "/tornei/gio-3/classifica/")
    assert page.locator("#standings-prizes").is_visible()
    assert prizes[0]["names"] in page.locator("#standings-prizes").inner_text()
