"""End to end: the arbiter directs a whole 9-pair, 4-round tournament in a real browser.

Plan MMMD (3 Mitchell + 1 Danish), 4 hands, scale vp20-4h, rest = 70 % of 20 = 14 VP and
0 MP (rules.md §5), pairs imported from tests/data/registrations-9.csv.

Every sheet is typed in the grid: hand 1 is (d, 0) or (0, |d|) and hands 2–4 are 100 v 100,
so the MP difference N/S − E/W is d, the winner scores 300 + |d| MP and the loser 300.

Mitchell (pairing-io.md), 9 pairs: T = 5, the phantom is N/S of table 5; N/S line 1–4 at
tables 1–4, E/W line 5–9. The E/W pair at index i plays round r at table ((i + r − 1) mod 5) + 1;
the one at table 5 rests.

    R1: T1 1 v 5, T2 2 v 6, T3 3 v 7, T4 4 v 8, 9 rests
    R2: T1 1 v 9, T2 2 v 5, T3 3 v 6, T4 4 v 7, 8 rests
    R3: T1 1 v 8, T2 2 v 9, T3 3 v 5, T4 4 v 6, 7 rests

Chosen differences d (N/S − E/W) and VP by the 4-hand scale (0–100 10–10, 105–300 11–9,
305–500 12–8, 505–700 13–7, 705–900 14–6, 905–1100 15–5, 1105–1300 16–4, 1505–1700 18–2):

    R1: 1v5 +600 13–7   2v6 +200 11–9   3v7 −400 8–12   4v8 0 10–10      9 rest 14
    R2: 1v9 +1000 15–5  2v5 −800 6–14   3v6 +300 11–9   4v7 −1200 4–16   8 rest 14
    R3: 1v8 −200 9–11   2v9 +500 12–8   3v5 +100 10–10  4v6 +1600 18–2   7 rest 14

Standings after round 3 (VP; MP difference):
    7: 12+16+14 = 42; +400+1200+0 = +1600      1: 13+15+9 = 37; +600+1000−200 = +1400
    8: 10+14+11 = 35; 0+0+200 = +200            4: 10+4+18 = 32; 0−1200+1600 = +400
    5: 7+14+10 = 31; −600+800−100 = +100        3: 8+11+10 = 29; −400+300+100 = 0
    2: 11+6+12 = 29; +200−800+500 = −100        9: 14+5+8 = 27; 0−1000−500 = −1500
    6: 9+9+2 = 20; −200−300−1600 = −2100
Ranking: 7, 1, 8, 4, 5, 3, 2, 9, 6 (3 above 2 on MP difference).

Danish round 4 (rules.md §5, §7). Rested so far: 9, 8, 7. Bye: from the bottom, 6 has not
rested and the other eight can still be paired without a rematch → 6 rests. Meetings:
1: 5 9 8 · 2: 6 5 9 · 3: 7 6 5 · 4: 8 7 6 · 5: 1 2 3 · 7: 3 4 · 8: 4 1 · 9: 1 2.
Top down over 7, 1, 8, 4, 5, 3, 2, 9:
    7 v 1 (not met; 8 4 5 3 2 9 still pairable, e.g. 8-5 4-2 3-9);
    8: 4 already met → 8 v 5;
    4: 3 not met, but then 2 v 9 is a rematch → 4 v 2; then 3 v 9.
Tables by rank, the better-ranked pair N/S: T1 7 v 1, T2 8 v 5, T3 4 v 2, T4 3 v 9, 6 rests.

    R4: 7v1 +100 10–10  8v5 −300 9–11   4v2 +700 13–7   3v9 −1000 5–15   6 rest 14

Final standings (VP; MP difference; MP scored = Σ over games of 300 + the hand-1 score):
    1. 7  52  +1700  700+1500+0+400 = 2600
    2. 1  47  +1300  900+1300+300+300 = 2800
    3. 4  45  +1100  300+300+1900+1000 = 3500
    4. 8  44  −100   300+0+500+300 = 1100
    5. 5  42  +400   300+1100+300+600 = 2300   (ahead of 9 on MP difference)
    6. 9  42  −500   0+300+300+1300 = 1900
    7. 2  36  −800   500+300+800+300 = 1900
    8. 3  34  −1000  300+600+400+300 = 1600   (ahead of 6 on MP difference)
    9. 6  34  −2100  300+300+300+0 = 900
Every pair played 4 rounds (a rest counts).

With ARBITRO_SCREENSHOTS=1 the run saves docs/round-page.png and docs/score-entry.png
(1280 px wide) for the README.
"""
import os
import re
from pathlib import Path

import pytest

from .helpers import submit

pytestmark = pytest.mark.django_db(transaction=True)

DATA = Path(__file__).resolve().parent.parent / "data"
DOCS = Path(__file__).resolve().parent.parent.parent / "docs"

# round → {(ns, ew): d}, rest; d = N/S − E/W in MP (see the docstring)
ROUNDS = {
    1: ({(1, 5): 600, (2, 6): 200, (3, 7): -400, (4, 8): 0}, 9),
    2: ({(1, 9): 1000, (2, 5): -800, (3, 6): 300, (4, 7): -1200}, 8),
    3: ({(1, 8): -200, (2, 9): 500, (3, 5): 100, (4, 6): 1600}, 7),
    4: ({(7, 1): 100, (8, 5): -300, (4, 2): 700, (3, 9): -1000}, 6),
}
DANISH_TABLES = {1: (7, 1), 2: (8, 5), 3: (4, 2), 4: (3, 9)}
VP = {600: (13, 7), 200: (11, 9), -400: (8, 12), 0: (10, 10), 1000: (15, 5), -800: (6, 14), 300: (11, 9),
      -1200: (4, 16), -200: (9, 11), 500: (12, 8), 100: (10, 10), 1600: (18, 2), -300: (9, 11), 700: (13, 7),
      -1000: (5, 15)}
# position, pair, VP, MP difference, MP scored, rounds
FINAL = [
    ("1", "7", "52", "1700", "2600", "4"),
    ("2", "1", "47", "1300", "2800", "4"),
    ("3", "4", "45", "1100", "3500", "4"),
    ("4", "8", "44", "-100", "1100", "4"),
    ("5", "5", "42", "400", "2300", "4"),
    ("6", "9", "42", "-500", "1900", "4"),
    ("7", "2", "36", "-800", "1900", "4"),
    ("8", "3", "34", "-1000", "1600", "4"),
    ("9", "6", "34", "-2100", "900", "4"),
]
SHOTS = os.environ.get("ARBITRO_SCREENSHOTS") == "1"


def hands_for(d: int) -> list[int]:
    """The 8 values typed in Tab order: hand by hand, N/S then E/W."""
    first = (d, 0) if d >= 0 else (0, -d)
    return [*first, 100, 100, 100, 100, 100, 100]


def enter_sheet(page, number: int, results: dict, seen: set, shoot: bool) -> None:
    lines = page.locator("#lines")
    ns, ew = int(lines.get_attribute("data-ns")), int(lines.get_attribute("data-ew"))
    assert (ns, ew) in results, f"round {number}: unexpected table {ns} v {ew}"
    seen.add((ns, ew))
    d = results[(ns, ew)]
    page.locator('input[name="h1_ns"]').focus()  # autofocus, made explicit
    for i, value in enumerate(hands_for(d)):
        if i:
            page.keyboard.press("Tab")
        page.keyboard.type(str(value))
    # live totals and VP computed in the page from the scale's bands
    assert page.locator("#difference").inner_text() == (f"+{d}" if d > 0 else str(d))
    assert (page.locator("#vp-ns").inner_text(), page.locator("#vp-ew").inner_text()) == tuple(map(str, VP[d]))
    if shoot:
        page.screenshot(path=str(DOCS / "score-entry.png"), full_page=True)
    with page.expect_navigation():
        page.keyboard.press("Enter")  # the default button: Salva
    assert page.locator("#sheet-errors").count() == 0


def play_round(page, base: str, number: int, shots: bool) -> None:
    results, rest = ROUNDS[number]
    # publish: no checker problems expected, so the button publishes directly
    assert page.locator("#check-ok").is_visible()
    submit(page, "#publish")
    assert "Turno %d pubblicato" % number in page.content()
    if number == 4:
        for table, pair_numbers in DANISH_TABLES.items():
            row = page.locator(f"#table-{table}")
            assert re.findall(r"<b>(\d+)</b>", row.inner_html()) == [str(n) for n in pair_numbers]
    rest_row = page.locator("#tables tbody tr", has_text="Riposo")
    assert re.findall(r"<b>(\d+)</b>", rest_row.inner_html()) == [str(rest)]
    page.click("#next-table")
    seen: set = set()
    for k in range(len(results)):
        enter_sheet(page, number, results, seen, shoot=shots and number == 1 and k == 1)
    assert seen == set(results)
    assert page.url.endswith(f"/turni/{number}/")
    assert page.locator('tr[data-status="entered"]').count() == 4
    if shots and number == 1:
        page.screenshot(path=str(DOCS / "round-page.png"), full_page=True)
    submit(page, "#validate-all")
    assert page.locator('tr[data-status="validated"]').count() == 4
    submit(page, "#close-round")
    submit(page, "#confirm-button")
    assert page.locator("#round-state").inner_text() == "Chiuso"


def test_nine_pairs_four_rounds(page, live_server, django_user_model):
    django_user_model.objects.create_user(username="arbitro", password="segreta-123")
    base = live_server.url
    page.goto(base + "/accounts/login/?next=/")
    page.fill('input[name="username"]', "arbitro")
    page.fill('input[name="password"]', "segreta-123")
    submit(page, "button.primary")

    page.goto(base + "/tornei/nuovo/")
    page.fill('input[name="name"]', "Torneo del Lunedì")
    page.fill('input[name="slug"]', "lunedi")
    page.fill('input[name="date"]', "2026-12-07")
    assert page.input_value('input[name="plan"]') == "MMMD"
    assert page.input_value('input[name="hands_per_round"]') == "4"
    page.select_option('select[name="vp_scale"]', "vp20-4h")  # the form does not preselect the default
    submit(page, "button.primary")
    assert page.url.endswith("/tornei/lunedi/")

    page.goto(base + "/tornei/lunedi/importa/")
    page.set_input_files('input[name="file"]', str(DATA / "registrations-9.csv"))
    submit(page, "button.primary")
    submit(page, 'button[name="confirm"]')
    assert "9 coppie importate" in page.content()

    page.goto(base + "/tornei/lunedi/")
    submit(page, "#next-action a.button.primary")  # "Genera il turno 1"
    submit(page, "#generate-button")
    for number in range(1, 5):
        assert page.url.endswith(f"/turni/{number}/")
        play_round(page, base, number, SHOTS)
        if number < 4:
            submit(page, "#generate-next")
    assert "Genera il turno" not in page.locator(".actions").first.inner_text()

    page.goto(base + "/tornei/lunedi/classifica/")
    assert "Classifica finale" in page.content()
    rows = page.locator("#standings tbody tr")
    got = []
    for i in range(rows.count()):
        cells = [c.strip() for c in rows.nth(i).locator("td").all_inner_texts()]
        # position, pair, players, VP, penalty, MP difference, MP scored, rounds, withdrawn
        got.append((cells[0], cells[1], cells[3], cells[5], cells[6], cells[7]))
    assert got == FINAL
    assert "Leone Nicola – Mariani Massimo" in rows.nth(1).inner_text()  # pair 1


def test_grid_sum_error_flag_parts_mode_and_calculator(page, live_server, django_user_model):
    """The grid's live helpers: a declared total that differs from the hands shows the
    sum-error flag; base + cards fill the total; the calculator (1 clean + 1 dirty +
    closing, 185 melded → base 400, cards 185, rules.md §2) fills a line; Alt+N moves on."""
    import datetime

    from tournaments import services

    user = django_user_model.objects.create_user(username="arbitro", password="segreta-123")
    t = services.create_tournament(by=user, name="Prova", slug="prova", date=datetime.date(2026, 12, 7))
    for k in range(1, 5):
        services.add_pair(tournament=t, by=user, players=[services.PlayerData(f"A{k}", f"R{k}"),
                                                          services.PlayerData(f"B{k}", f"V{k}")])
    services.publish_round(round=services.generate_round(tournament=t, by=user), by=user)
    page.goto(live_server.url + "/accounts/login/?next=/tornei/prova/turni/1/tavoli/1/")
    page.fill('input[name="username"]', "arbitro")
    page.fill('input[name="password"]', "segreta-123")
    page.click("button.primary")
    page.locator("#incomplete").wait_for(state="visible")
    assert not page.locator("#sum-error-live").is_visible()
    for i, value in enumerate(hands_for(600)):
        page.fill(f'input[name="h{i // 2 + 1}_{"ns" if i % 2 == 0 else "ew"}"]', str(value))
    page.fill('input[name="declared_ns"]', "950")  # the hands sum to 900
    assert page.locator("#sum-error-live").is_visible() and not page.locator("#incomplete").is_visible()
    page.fill('input[name="declared_ns"]', "900")
    assert not page.locator("#sum-error-live").is_visible()
    # a score that is not a multiple of 5 is marked and gives no VP
    page.fill('input[name="h2_ew"]', "103")
    assert "bad" in page.get_attribute('input[name="h2_ew"]', "class") and page.inner_text("#vp-ns") == "—"
    page.fill('input[name="h2_ew"]', "100")
    # calculator → base + cards mode, hand 3 N/S = 585 instead of 100: difference 600 + 485 = 1085 → 15–5
    page.click("#calculator summary")
    page.select_option("#calc-hand", "3")
    page.fill('[data-param="clean"]', "1")
    page.fill('[data-param="dirty"]', "1")
    page.check('[data-param="closing"]')
    page.fill('[data-param="cards_on_table"]', "185")
    page.click("#calc-apply")
    # locator waits, not wait_for_function: the Content-Security-Policy forbids eval
    from playwright.sync_api import expect

    expect(page.locator("input[name=h3_ns]")).to_have_value("585")
    assert page.input_value('input[name="h3_ns_base"]') == "400"
    assert page.locator('input[name="h3_ns_cards"]').is_visible()
    assert (page.inner_text("#difference"), page.inner_text("#vp-ns"), page.inner_text("#vp-ew")) == ("+1085", "15", "5")
    # one line closes a hand: hand 3 N/S closed, so E/O of hand 3 cannot close too; the grid keeps 100
    page.select_option("#calc-line", "ew")
    page.click("#calc-apply")
    expect(page.locator("#calc-result")).to_contain_text("Una sola linea chiude")
    assert page.input_value('input[name="h3_ew"]') == "100"
    with page.expect_navigation():
        page.keyboard.press("Alt+n")
    assert page.url.endswith("/turni/1/tavoli/2/")


def _four_pairs_published():
    import datetime

    from django.contrib.auth import get_user_model

    from tournaments import services

    user = get_user_model().objects.get(username="arbitro")
    t = services.create_tournament(by=user, name="Prova", slug="prova", date=datetime.date(2026, 12, 7))
    for k in range(1, 5):
        services.add_pair(tournament=t, by=user, players=[services.PlayerData(f"Anna{k}", f"Bianchini{k}"),
                                                          services.PlayerData(f"Bruno{k}", f"Santangelo{k}")])
    services.publish_round(round=services.generate_round(tournament=t, by=user), by=user)
    return t


def test_grid_bad_cell_quietly_left_out_of_total_and_blamed_on_sum(page, live_server, django_user_model):
    """A hand of 1233: the live total left the cell out (1300 instead of 2533) and the badge
    said «errore di somma». Now totals, difference and VP show «—» and the badge names the
    real problem; the sum-error badge comes back only once every cell is valid."""
    django_user_model.objects.create_user(username="arbitro", password="segreta-123")
    _four_pairs_published()
    page.goto(live_server.url + "/accounts/login/?next=/tornei/prova/turni/1/tavoli/1/")
    page.fill('input[name="username"]', "arbitro")
    page.fill('input[name="password"]', "segreta-123")
    page.click("button.primary")
    page.locator("#incomplete").wait_for(state="visible")
    # N/S: 1233 + 1300 + 0 + 0 as typed (the arbiter meant 1235); E/W all 0; paper says 2535/0
    for hand, (ns, ew) in enumerate([("1233", "0"), ("1300", "0"), ("0", "0"), ("0", "0")], start=1):
        page.fill(f'input[name="h{hand}_ns"]', ns)
        page.fill(f'input[name="h{hand}_ew"]', ew)
    page.fill('input[name="declared_ns"]', "2535")
    page.fill('input[name="declared_ew"]', "0")
    # no result: one "—" for the VP, not "—–—"
    assert [page.inner_text(f"#{i}") for i in ("total-ns", "total-ew", "difference", "vp-ns")] == ["—"] * 4
    assert page.inner_text("#vp-ew") == "" and not page.locator("#vp-sep").is_visible()
    assert page.inner_text("p.live").startswith("Differenza — · VP —")
    assert page.locator("#invalid-live").is_visible()
    assert page.inner_text("#invalid-live") == "Smazzata 1, linea N/S: 1233 non è multiplo di 5"  # where, then what
    assert not page.locator("#sum-error-live").is_visible()
    assert "bad" in page.get_attribute('input[name="h1_ns"]', "class")
    # a second bad cell: the first problem and how many more
    page.fill('input[name="h3_ew"]', "dieci")
    assert page.inner_text("#invalid-live") == "Smazzata 1, linea N/S: 1233 non è multiplo di 5 (+1)"
    page.fill('input[name="h3_ew"]', "0")
    # corrected: 1235 + 1300 = 2535 matches the paper, no badge at all; 2535 → 20–0 on vp20-4h
    page.fill('input[name="h1_ns"]', "1235")
    assert (page.inner_text("#total-ns"), page.inner_text("#difference")) == ("2535", "+2535")
    assert not page.locator("#invalid-live").is_visible() and not page.locator("#sum-error-live").is_visible()
    # every cell valid, the paper differs: now, and only now, the sum error
    page.fill('input[name="declared_ns"]', "2530")
    assert page.locator("#sum-error-live").is_visible() and not page.locator("#invalid-live").is_visible()


def test_grid_problem_text_comes_from_the_page_translated(page, live_server, django_user_model):
    """The badge's text is the label the template passes (English UI → English text)."""
    django_user_model.objects.create_user(username="arbitro", password="segreta-123")
    _four_pairs_published()
    page.context.add_cookies([{"name": "django_language", "value": "en", "url": live_server.url}])
    page.goto(live_server.url + "/accounts/login/?next=/tornei/prova/turni/1/tavoli/1/")
    page.fill('input[name="username"]', "arbitro")
    page.fill('input[name="password"]', "segreta-123")
    page.click("button.primary")
    page.locator("#incomplete").wait_for(state="visible")
    page.fill('input[name="h1_ns"]', "1233")
    assert page.inner_text("#invalid-live") == "Hand 1, line N/S: 1233 is not a multiple of 5"


PHONE = {"width": 360, "height": 740}


def test_phone_round_grid_and_standings_pages_wider_than_the_screen(browser, live_server, django_user_model):
    """At 360 px the round page, the score-entry grid and the standings must not widen the
    page: wide tables scroll inside their own box, buttons wrap. With
    ARBITRO_PHONE_SHOTS=<dir> the screenshots are saved there to look at."""
    from django.contrib.auth import get_user_model

    from tournaments import services

    shots = os.environ.get("ARBITRO_PHONE_SHOTS")
    django_user_model.objects.create_user(username="arbitro", password="segreta-123")
    t = _four_pairs_published()
    user = get_user_model().objects.get(username="arbitro")
    rnd = t.rounds.get(number=1)
    t1, t2 = rnd.tables.order_by("number")
    services.save_score_sheet(table=t1, hands=[services.HandInput(600, 0)] + [services.HandInput(0, 0)] * 3,
                              by=user, validate=True)
    services.save_score_sheet(table=t2, hands=[services.HandInput(100, 0)] * 4, by=services.Actor("capitano"))
    context = browser.new_context(viewport=PHONE, locale="it-IT", is_mobile=True, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(20_000)
    try:
        page.goto(live_server.url + "/accounts/login/?next=/tornei/prova/turni/1/")
        page.fill('input[name="username"]', "arbitro")
        page.fill('input[name="password"]', "segreta-123")
        submit(page, "button.primary")
        for name, path in (("round", "/tornei/prova/turni/1/"), ("sheet", "/tornei/prova/turni/1/tavoli/2/"),
                           ("close", "/tornei/prova/turni/1/chiudi/"), ("standings", "/tornei/prova/classifica/")):
            if name == "standings":
                services.validate_sheet(table=t2, by=user)
                services.close_round(round=rnd, by=user)
            page.goto(live_server.url + path)
            if shots:
                page.screenshot(path=str(Path(shots) / f"phone-{name}.png"), full_page=True)
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= PHONE["width"], f"{name}: the page is {width} px wide on a 360 px screen"
            # the main table fits too: its actions are not hidden behind a sideways scroll
            box = {"round": "#tables", "sheet": "#grid", "standings": "#standings"}.get(name)
            if box:
                inner = page.eval_on_selector(box, "t => [t.scrollWidth, t.clientWidth]")
                assert inner[0] <= inner[1], f"{name}: {box} needs {inner[0]} px, shows {inner[1]}"
    finally:
        context.close()
