"""End to end (issue 11): the arbiter directs a 13-player individual tournament in a browser,
a table captain enters one sheet from a phone, and the standings per player match a hand
computation.

Plan DD (first round by number, then Danish individual), 4 hands, scale vp20-4h, rest =
70 % of 20 = 14 VP and 0 MP (rules.md §5, §9); players imported from tests/data/players-13.csv.

Every sheet: hand 1 is (d, 0) or (0, |d|), hands 2–4 are 100 v 100, so the MP difference
N/S − E/W is d, the winner scores 300 + |d| MP and the loser 300. VP by the 4-hand scale:
0–100 10–10, 105–300 11–9, 305–500 12–8, 505–700 13–7, 905–1100 15–5.

Round 1 by number (rules.md §9): 13 mod 4 = 1 player rests, the highest number.
    T1 1+2 v 3+4  +600 → 13–7      T2 5+6 v 7+8  −300 → 9–11
    T3 9+10 v 11+12  +1000 → 15–5 (entered by the N/S captain on a phone)    13 rests: 14
Standings after round 1 (VP, MP difference, MP scored; ties listed by number):
    9, 10: 15 +1000 1300 · 13: 14 0 0 · 1, 2: 13 +600 900 · 7, 8: 11 +300 600 ·
    5, 6: 9 −300 300 · 3, 4: 7 −600 300 · 11, 12: 5 −1000 300
Ranking: 9 10 13 1 2 7 8 5 6 3 4 11 12.

Round 2, Danish individual (rules.md §9, pairing-io.md): rest first: from the bottom, 12 has
not rested → 12 rests. Partners so far 1-2 3-4 5-6 7-8 9-10 11-12. Top-down: 9 cannot take
10 (partners) → 9+13; 10 takes 1; 2 takes 7; 8 takes 5; 6 takes 3; 4 takes 11 (never
partners, so nobody repeats). Partnership 2k−1 v 2k at table k:
    T1 9+13 v 10+1  −200 → 9–11    T2 2+7 v 8+5  +500 → 12–8    T3 6+3 v 4+11  +100 → 10–10
    12 rests: 14
Final standings per player (VP; MP difference; MP scored):
    10: 15+11 = 26; +1000+200 = +1200; 1300+500 = 1800
     2: 13+12 = 25; +600+500 = +1100; 900+800 = 1700
     9: 15+9 = 24; +1000−200 = +800; 1300+300 = 1600
     1: 13+11 = 24; +600+200 = +800; 900+500 = 1400   (after 9 on MP scored)
     7: 11+12 = 23; +300+500 = +800; 600+800 = 1400
    13: 14+9 = 23; 0−200 = −200; 0+300 = 300          (after 7 on MP difference)
     8: 11+8 = 19; +300−500 = −200; 600+300 = 900
     6: 9+10 = 19; −300+100 = −200; 300+400 = 700     (after 8 on MP scored)
    12: 5+14 = 19; −1000+0 = −1000; 300+0 = 300
     3: 7+10 = 17; −600+100 = −500; 300+400 = 700
     4: 7+10 = 17; −600−100 = −700; 300+300 = 600
     5: 9+8 = 17; −300−500 = −800; 300+300 = 600
    11: 5+10 = 15; −1000−100 = −1100; 300+300 = 600
"""
import re
from pathlib import Path

import pytest

pytestmark = pytest.mark.django_db(transaction=True)

DATA = Path(__file__).resolve().parent.parent / "data"
PHONE = {"width": 360, "height": 740}

# round → {table: (ns players, ew players, d)}, resting player
ROUNDS = {
    1: ({1: ("1+2", "3+4", 600), 2: ("5+6", "7+8", -300), 3: ("9+10", "11+12", 1000)}, "13"),
    2: ({1: ("9+13", "10+1", -200), 2: ("2+7", "8+5", 500), 3: ("6+3", "4+11", 100)}, "12"),
}
CAPTAIN_TABLE = (1, 3)  # round 1, table 3: entered by the N/S captain
VP = {600: (13, 7), -300: (9, 11), 1000: (15, 5), -200: (9, 11), 500: (12, 8), 100: (10, 10)}
# position, player, VP, MP difference, MP scored, rounds
FINAL = [
    ("1", "10", "26", "1200", "1800", "2"),
    ("2", "2", "25", "1100", "1700", "2"),
    ("3", "9", "24", "800", "1600", "2"),
    ("4", "1", "24", "800", "1400", "2"),
    ("5", "7", "23", "800", "1400", "2"),
    ("6", "13", "23", "-200", "300", "2"),
    ("7", "8", "19", "-200", "900", "2"),
    ("8", "6", "19", "-200", "700", "2"),
    ("9", "12", "19", "-1000", "300", "2"),
    ("10", "3", "17", "-500", "700", "2"),
    ("11", "4", "17", "-700", "600", "2"),
    ("12", "5", "17", "-800", "600", "2"),
    ("13", "11", "15", "-1100", "600", "2"),
]


def hands_for(d: int) -> list[int]:
    """The 8 values typed in Tab order: hand by hand, N/S then E/W."""
    first = (d, 0) if d >= 0 else (0, -d)
    return [*first, 100, 100, 100, 100, 100, 100]


def check_tables(page, number: int) -> None:
    tables, rest = ROUNDS[number]
    for table, (ns, ew, _d) in tables.items():
        row = page.locator(f"#table-{table}")
        assert re.findall(r"<b>([\d+]+)</b>", row.inner_html()) == [ns, ew], f"round {number} table {table}"
    rest_row = page.locator("#tables tbody tr", has_text="Riposo")
    assert re.findall(r"<b>([\d+]+)</b>", rest_row.inner_html()) == [rest]


def enter_sheet(page, number: int) -> int:
    table = int(re.search(r"/tavoli/(\d+)/", page.url).group(1))
    ns, ew, d = ROUNDS[number][0][table]
    # the sheet names the four players and who partners whom
    lines = page.locator("#lines").inner_text()
    assert f"N/S {ns}" in lines and f"E/O {ew}" in lines
    page.locator('input[name="h1_ns"]').focus()
    for i, value in enumerate(hands_for(d)):
        if i:
            page.keyboard.press("Tab")
        page.keyboard.type(str(value))
    assert (page.locator("#vp-ns").inner_text(), page.locator("#vp-ew").inner_text()) == tuple(map(str, VP[d]))
    with page.expect_navigation():
        page.keyboard.press("Enter")
    assert page.locator("#sheet-errors").count() == 0
    return table


def captain_enters(chromium, live_server, number: int, table_number: int) -> None:
    """The N/S captain (either player of the line may do it) opens the table's link on a
    phone and sends the sheet; the arbiter validates it afterwards."""
    from tournaments.models import Table

    table = Table.objects.get(round__tournament__slug="indiv", round__number=number, number=table_number)
    ns, ew, d = ROUNDS[number][0][table_number]
    ctx = chromium.new_context(viewport=PHONE, is_mobile=True, has_touch=True, locale="it-IT")
    phone = ctx.new_page()
    phone.set_default_timeout(20_000)
    phone.goto(live_server.url + f"/c/{table.token}/")
    assert ns in phone.inner_text(".lines") and ew in phone.inner_text(".lines")
    phone.click(".who button[data-line=ns]")
    first = (d, 0) if d >= 0 else (0, -d)
    for k, (a, b) in enumerate([first, (100, 100), (100, 100), (100, 100)], start=1):
        phone.fill(f"input[name=ns{k}]", str(a))
        phone.fill(f"input[name=ew{k}]", str(b))
    assert phone.text_content("#vp0") == str(VP[d][0]) and phone.text_content("#vp1") == str(VP[d][1])
    phone.click("#send")
    phone.wait_for_selector("#net:has-text('Salvato')")
    ctx.close()


def play_round(page, chromium, live_server, number: int) -> None:
    assert page.locator("#check-ok").is_visible()
    check_tables(page, number)  # the draft
    page.click("#publish")
    assert "Turno %d pubblicato" % number in page.content()
    check_tables(page, number)
    if CAPTAIN_TABLE[0] == number:
        captain_enters(chromium, live_server, number, CAPTAIN_TABLE[1])
        page.reload()
    entered = set()
    while page.locator("#next-table").count():
        page.click("#next-table")
        entered.add(enter_sheet(page, number))
    expected = set(ROUNDS[number][0]) - ({CAPTAIN_TABLE[1]} if CAPTAIN_TABLE[0] == number else set())
    assert entered == expected
    if CAPTAIN_TABLE[0] == number:
        with page.expect_navigation():
            page.locator(f"#table-{CAPTAIN_TABLE[1]} button.validate").click()
    page.click("#validate-all")
    assert page.locator('tr[data-status="validated"]').count() == 3
    page.click("#close-round")
    page.click("#confirm-button")
    assert page.locator("#round-state").inner_text() == "Chiuso"


def test_thirteen_players_two_rounds_with_a_captain(page, chromium, live_server, django_user_model):
    django_user_model.objects.create_user(username="arbitro", password="segreta-123")
    base = live_server.url
    page.goto(base + "/accounts/login/?next=/")
    page.fill('input[name="username"]', "arbitro")
    page.fill('input[name="password"]', "segreta-123")
    page.click("button.primary")

    page.goto(base + "/tornei/nuovo/")
    page.fill('input[name="name"]', "Individuale del Martedì")
    page.fill('input[name="slug"]', "indiv")
    page.fill('input[name="date"]', "2026-12-08")
    page.select_option('select[name="kind"]', "individual")
    page.fill('input[name="plan"]', "DD")
    page.select_option('select[name="vp_scale"]', "vp20-4h")
    page.click("button.primary")
    assert page.url.endswith("/tornei/indiv/")

    page.goto(base + "/tornei/indiv/importa/")
    page.set_input_files('input[name="file"]', str(DATA / "players-13.csv"))
    page.click("button.primary")
    assert "13 giocatori pronti" in page.content()
    page.click('button[name="confirm"]')
    assert "13 giocatori importati" in page.content()
    assert page.locator("#players tbody tr").count() == 13

    page.goto(base + "/tornei/indiv/")
    page.click("#next-action a.button.primary")  # "Genera il turno 1"
    page.click("#generate-button")
    for number in (1, 2):
        assert page.url.endswith(f"/turni/{number}/")
        play_round(page, chromium, live_server, number)
        if number < 2:
            page.click("#generate-next")

    page.goto(base + "/tornei/indiv/classifica/")
    assert "Classifica finale" in page.content()
    rows = page.locator("#standings tbody tr")
    got = []
    for i in range(rows.count()):
        cells = [c.strip() for c in rows.nth(i).locator("td").all_inner_texts()]
        # position, player, name, VP, penalty, MP difference, MP scored, rounds, withdrawn
        got.append((cells[0], cells[1], cells[3], cells[5], cells[6], cells[7]))
    assert got == FINAL
    assert "Greco Elena" in rows.nth(0).inner_text()  # player 10
