"""The live board shows one "Errore di somma" badge, not two."""
import re

from django.urls import reverse

from tests.captain.helpers import captain_post, captain_save


def _row(html: str, number: int) -> str:
    return re.search(rf'<tr id="t{number}".*?</tr>', html, re.S).group(0)


def test_a_sum_error_row_has_one_badge(client, arbiter_client, tables):
    # declared 1500 for N/S while the hands add up to 1550 (600+400+250+300): a sum error
    captain_save(client, tables[1], declared=[1500, 845])
    html = arbiter_client.get(reverse("board_rows", args=["prova", 1])).content.decode()
    row = _row(html, 1)
    assert row.count("Errore di somma") == 1
    assert row.count('class="badge') == 1
    assert 'title="Inserito"' in row          # the stored state stays readable in the title
    assert "Tavolo 1: errore di somma" in html  # the alert above the table is unchanged


def test_a_disputed_sheet_with_a_sum_error_keeps_both_badges(client, other_client, arbiter_client, tables):
    """Two different facts (disputed, sum error): two badges, as on the round page."""
    captain_save(client, tables[3], declared=[1500, 845])
    captain_post(other_client, "captain_dispute", tables[3], {"line": "ew", "version": 1, "note": "no"})
    row = _row(arbiter_client.get(reverse("board_rows", args=["prova", 1])).content.decode(), 3)
    assert "Contestato" in row and row.count("Errore di somma") == 1
