"""The live board names each line by its number (the board's flat rows carry
``display_number``: the pair number, or "5+6" for an individual partnership)."""
from django.urls import reverse


def test_the_board_shows_the_pair_numbers(arbiter_client, published):
    """tests/conftest.py ``published``: round 1, 1 v 3 at table 1, 2 v 4 at table 2, pair 5 rests."""
    html = arbiter_client.get(reverse("board_rows", args=["prova", 1])).content.decode()
    row = html[html.index('id="t1"'):html.index('id="t2"')]
    assert "<b>1</b>" in row and "<b>3</b>" in row
    rest = html[html.index('id="t3"'):]
    assert "<b>5</b>" in rest
