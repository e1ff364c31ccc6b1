"""A correction of a closed round (rules.md §3, §13; art. 31): the message names its kind and
what moved in the standings; the row is marked as corrected, linked to its audit entries, on
the round page, the live board and the sheet page.

Tournament of tests/rounds/test_correction_pages.py: 4 pairs, plan DD, 4 hands, vp20-4h.
Round 1 (closed): table 1 = 1 v 2, 1000–0 (905–1100 → 15–5); table 2 = 3 v 4, 0–0 (10–10).
Standings after round 1: pair 1 1° (15), pairs 3 and 4 2°= (10, MP difference 0, drawn
head-to-head, 0 MP scored each), pair 2 4° (5). Round 2 is published."""
from django.urls import reverse

from tests.rounds.helpers import grid, url, version
from tournaments import selectors
from tournaments.models import Round


def test_swapped_lines_message_names_the_kind_and_the_moves(arbiter_client, round1_closed, round2_published):
    resp = arbiter_client.post(url("sheet_corrections", 1), {"action": "swap", "swap-reason": "linee invertite"},
                               follow=True)
    # swapped: 0–1000 → 5–15; pair 2 first with 15, pair 1 last with 5; 3 and 4 stay 2°=
    assert ("Correzione (linee invertite) del tavolo 1, turno 1 chiuso: VP 15–5 → 5–15. "
            "Classifica: coppia 1: 1° → 4°, VP 15 → 5; coppia 2: 4° → 1°, VP 5 → 15.") in resp.content.decode()


def test_transcription_message_and_marks(arbiter_client, round1_closed, round2_published, post_sheet):
    resp = arbiter_client.post(url("sheet", 1), grid(post_sheet, (0, 0), version(1), kind="transcription",
                                                     reason="il foglio consegnato dice 0–0"), follow=True)
    text = resp.content.decode()
    # 0–0 → 10–10: every pair 10 VP, MP difference 0, 0 MP scored: all four share 1°=
    assert ("Correzione (trascrizione) del tavolo 1, turno 1 chiuso: VP 15–5 → 10–10. Classifica: "
            "coppia 1: 1° → 1°=, VP 15 → 10; coppia 2: 4° → 1°=, VP 5 → 10; coppia 3: 2°= → 1°=; "
            "coppia 4: 2°= → 1°=.") in text
    rnd = Round.objects.get(pk=round1_closed.pk)
    assert selectors.corrections.corrected_tables(rnd) == {1}
    audit = reverse("audit", args=["prova"]) + "?round=1&amp;table=1"
    round_page = arbiter_client.get(reverse("round", args=["prova", 1])).content.decode()
    row1 = round_page.split('id="table-1"')[1].split("</tr>")[0]
    assert f'<a class="badge corrected" href="{audit}"' in row1 and "corretto dopo la chiusura" in row1
    assert "corretto dopo la chiusura" not in round_page.split('id="table-2"')[1].split("</tr>")[0]
    board = arbiter_client.get(reverse("board_rows", args=["prova", 1])).content.decode()
    assert f'<a class="badge corrected" href="{audit}"' in board.split('id="t1"')[1].split("</tr>")[0]
    sheet = arbiter_client.get(url("sheet", 1)).content.decode()
    assert f'id="corrected-mark" href="{audit}"' in sheet
    assert 'id="corrected-mark"' not in arbiter_client.get(url("sheet", 2)).content.decode()


def test_a_correction_that_moves_nothing_says_so(arbiter_client, round1_closed, round2_published):
    # arbitral 10–10 at table 2 where it already is 10–10: nothing moves
    resp = arbiter_client.post(url("sheet_corrections", 2), {
        "action": "arbitral", "arb-vp_ns": "10", "arb-vp_ew": "10", "arb-reason": "art. 15"}, follow=True)
    assert ("Correzione (punteggio arbitrale) del tavolo 2, turno 1 chiuso: VP 10–10 → 10–10. "
            "La classifica non cambia.") in resp.content.decode()
