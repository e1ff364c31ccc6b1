"""End to end: the arbiter directs a 13-player individual tournament in a browser,
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

from .helpers import (
    captain_sends_sheet,
    create_tournament,
    enter_validate_and_close,
    import_entrants,
    log_in_arbiter,
    send_sheet,
    standings_cells,
    submit,
    type_hands,
)

pytestmark = pytest.mark.django_db(transaction=True)

DATA = Path(__file__).resolve().parent.parent / "data"

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
    type_hands(page, hands_for(d))
    assert (page.locator("#vp-ns").inner_text(), page.locator("#vp-ew").inner_text()) == tuple(map(str, VP[d]))
    send_sheet(page)
    return table


def captain_enters(chromium, live_server, number: int, table_number: int) -> None:
    """The N/S captain (either player of the line may do it) opens the table's link on a
    phone and sends the sheet; the arbiter validates it afterwards."""
    ns, ew, d = ROUNDS[number][0][table_number]
    values = hands_for(d)
    captain_sends_sheet(chromium, live_server, slug="indiv", round_number=number, table_number=table_number,
                        hands=zip(values[::2], values[1::2], strict=True), lines=(ns, ew), vp=VP[d])


def play_round(page, chromium, live_server, number: int) -> None:
    assert page.locator("#check-ok").is_visible()
    check_tables(page, number)  # the draft
    submit(page, "#publish")
    assert "Turno %d pubblicato" % number in page.content()
    check_tables(page, number)
    captained = set()
    if CAPTAIN_TABLE[0] == number:
        captained = {CAPTAIN_TABLE[1]}
        captain_enters(chromium, live_server, number, CAPTAIN_TABLE[1])
        page.reload()
    enter_validate_and_close(page, lambda p: enter_sheet(p, number), ROUNDS[number][0], captained)


def test_thirteen_players_two_rounds_with_a_captain(page, chromium, live_server, django_user_model):
    base = live_server.url
    log_in_arbiter(page, base, django_user_model)
    create_tournament(page, base, name="Individuale del Martedì", slug="indiv", date="2026-12-08",
                      kind="individual", plan="DD", vp_scale="vp20-4h")

    import_entrants(page, base, "indiv", DATA / "players-13.csv", count=13, ready="13 giocatori pronti",
                    done="13 giocatori importati", listed="#players")

    page.goto(base + "/tornei/indiv/")
    submit(page, "#next-action a.button.primary")  # "Genera il turno 1"
    submit(page, "#generate-button")
    for number in (1, 2):
        assert page.url.endswith(f"/turni/{number}/")
        play_round(page, chromium, live_server, number)
        if number < 2:
            submit(page, "#generate-next")

    page.goto(base + "/tornei/indiv/classifica/")
    assert "Classifica finale" in page.content()
    # position, player, name, VP, penalty, MP difference, MP scored, rounds, withdrawn
    cells = standings_cells(page)
    assert [(c[0], c[1], c[3], c[5], c[6], c[7]) for c in cells] == FINAL
    assert "Greco Elena" in " ".join(cells[0])  # player 10
