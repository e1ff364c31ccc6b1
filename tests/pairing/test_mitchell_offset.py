"""The Mitchell movement in a mixed plan, at the pure level: the offset (the moves made so
far) and a step changed mid-movement, and repeated meetings (after a Danish round, or given a
history) reported in the response and by the checker.

Expected seatings are worked by hand from pairing-io.md: N pairs, T = ceil(N/2) tables;
N odd: N/S line pairs[0:T-1], phantom N/S at table T, E/W line pairs[T-1:]; the E/W pair at
index i sits at table ((i + offset) mod T) + 1, offset = sum of the moves made so far.
"""
import pytest

import pairing
from pairing import PairingError
from pairing.check import check, repeated_meetings
from tests.pairing.helpers import mitchell, seats

TEN = list(range(1, 11))


# -- a step changed mid-movement -------------------------------------------------------------
def test_step_changed_to_3_after_two_rounds_of_step_1_moves_on_from_round_2():
    # 10 pairs, T = 5, N/S 1..5, E/W 6..10. Moves: round 1→2 step 1, round 2→3 step 3:
    # offset 1 + 3 = 4, so pair 6 (index 0) sits at table 5, pair 7 at table 1, ...
    _, r3 = mitchell(pairs=TEN, round=3, step=3, offset=4)
    assert seats(r3) == [(1, 7), (2, 8), (3, 9), (4, 10), (5, 6)]


def test_step_1_throughout_round_3_offset_2():
    _, r3 = mitchell(pairs=TEN, round=3, step=1, offset=2)
    assert seats(r3) == [(1, 9), (2, 10), (3, 6), (4, 7), (5, 8)]


def test_step_change_without_offset_repeated_round_2_and_the_checker_says_so():
    # The old formula (r-1)*s = 6 ≡ 1 (mod 5): round 3 equal to round 2, (1,10) (2,6) ...
    old = pairing.run({"system": "mitchell", "pairs": TEN, "round": 3, "step": 3})
    assert seats(old) == [(1, 10), (2, 6), (3, 7), (4, 8), (5, 9)]
    met = [[1, 6, 1], [2, 7, 1], [3, 8, 1], [4, 9, 1], [5, 10, 1],
           [1, 10, 2], [2, 6, 2], [3, 7, 2], [4, 8, 2], [5, 9, 2]]
    request = {"system": "mitchell", "pairs": TEN, "round": 3, "step": 3, "offset": 4,
               "met": met}
    report = check(request, old)
    assert any("al tavolo 1 il movimento prevede N/S 1, E/O 7" in v for v in report)
    assert sum("incontro ripetuto non segnalato" in v for v in report) == 5


def test_offset_must_be_a_non_negative_integer():
    for bad in (-1, "2", 1.5, True):
        with pytest.raises(PairingError, match="offset"):
            pairing.run({"system": "mitchell", "pairs": TEN, "round": 2, "offset": bad})


def test_m_d_m_repeats_the_danish_meetings_and_lists_them():
    # 6 pairs, T = 3: round 1 (offset 0) (1,4) (2,5) (3,6); the Danish round 2 paired
    # 1–6, 2–4, 3–5; the movement's next round (offset 1): 4→t2, 5→t3, 6→t1 =
    # (1,6) (2,4) (3,5): all three Danish meetings again.
    met = [[1, 4, 1], [2, 5, 1], [3, 6, 1], [1, 6, 2], [2, 4, 2], [3, 5, 2]]
    request, r3 = mitchell(pairs=[1, 2, 3, 4, 5, 6], round=2, step=1, offset=1, met=met)
    assert seats(r3) == [(1, 6), (2, 4), (3, 5)]
    assert r3["rematches"] == [[1, 6], [2, 4], [3, 5]]
    assert "Incontro ripetuto al tavolo 1: le coppie 1 e 6 si sono già incontrate (turno 2)." \
        in r3["warnings"]
    silent = dict(r3, rematches=[], warnings=[])
    assert check(request, silent) == [
        "incontro ripetuto non segnalato al tavolo 1: 1–6 (già incontrate al turno 2)",
        "incontro ripetuto non segnalato al tavolo 2: 2–4 (già incontrate al turno 2)",
        "incontro ripetuto non segnalato al tavolo 3: 3–5 (già incontrate al turno 2)",
    ]
    assert repeated_meetings(request, silent) == [(1, 1, 6, 2), (2, 2, 4, 2), (3, 3, 5, 2)]


def test_first_round_checker_reports_repeats_given_a_history():
    request = {"system": "first_round", "method": "number", "pairs": [1, 2, 3, 4],
               "met": [[1, 2, 1]]}
    response = pairing.run(request)
    assert check(request, response) == [
        "incontro ripetuto non segnalato al tavolo 1: 1–2 (già incontrate al turno 1)"]
