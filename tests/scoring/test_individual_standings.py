"""Per-player standings (rules.md §9 with §8 per player), pure: values by hand."""
from decimal import Decimal

from scoring.individual import PlayerResult, individual_standings, player_results
from scoring.standings import GameResult, Penalty


def test_each_player_scores_his_line_and_rests_score_as_for_pairs():
    # line 101 = players 3+7 (N/S) v line 102 = players 1+5: 1250–850, 15–5 VP; line 103 = player 9 rests 14 VP
    lines = [GameResult(1, 101, 102, 1250, 850, Decimal(15), Decimal(5)),
             GameResult(1, 103, None, 0, 0, Decimal(14), 0)]
    got = player_results(lines, {101: [3, 7], 102: [1, 5], 103: [9]})
    assert got == [PlayerResult(1, 3, 15, 1250, 850), PlayerResult(1, 7, 15, 1250, 850),
                   PlayerResult(1, 1, 5, 850, 1250), PlayerResult(1, 5, 5, 850, 1250),
                   PlayerResult(1, 9, 14, 0, 0, rest=True)]


def test_tie_breaks_vp_then_mp_difference_then_mp_scored_then_shared():
    results = [
        PlayerResult(1, 1, 11, 400, 100),   # 11 VP, +300, 400
        PlayerResult(1, 2, 11, 250, 100),   # 11 VP, +150, 250
        PlayerResult(1, 3, 11, 300, 150),   # 11 VP, +150, 300 → above 2 on MP scored
        PlayerResult(1, 4, 11, 300, 150),   # same as 3: shared
        PlayerResult(1, 5, 14, 0, 0, rest=True),
    ]
    rows = individual_standings([1, 2, 3, 4, 5], results)
    assert [(r.pair, r.position_label) for r in rows] == [(5, "1"), (1, "2"), (3, "3="), (4, "3="), (2, "5")]
    assert rows[0].rests == 1


def test_head_to_head_is_ignored_and_penalties_are_per_player():
    results = [PlayerResult(1, 1, 12, 500, 100), PlayerResult(1, 2, 12, 500, 100)]
    rows = individual_standings([1, 2], results, penalties=[Penalty(pair=2, mp=50)],
                                tiebreaks=("vp", "head_to_head", "mp_difference", "mp_scored"))
    # player 2: MP difference 400 − 50 = 350, MP scored 450 → player 1 first
    assert [(r.pair, r.mp_difference, r.mp_scored, r.penalty_mp) for r in rows] == [(1, 400, 500, 0), (2, 350, 450, 50)]
