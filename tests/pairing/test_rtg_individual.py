"""RTG for individual tournaments and the individual plan letters (rules.md §9)."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from pairing.plan import INDIVIDUAL_LETTERS, PlanError, PlannedRound, parse_individual_plan
from pairing.rtg.individual import play, play_many

ROOT = Path(__file__).resolve().parents[2]


def test_individual_plan_letters():
    assert parse_individual_plan("dm|M") == [PlannedRound(1, "D", 1), PlannedRound(2, "M", 1),
                                             PlannedRound(3, "M", 2)]
    assert INDIVIDUAL_LETTERS == {"D": "danish-individual", "M": "individual-movement"}
    for bad, code in (("DRD", "letter"), ("|D", "leading"), ("D||M", "empty_session"),
                      ("", "empty")):
        with pytest.raises(PlanError) as exc:
            parse_individual_plan(bad)
        assert exc.value.code == code


@pytest.mark.parametrize("players,plan", [(13, "DDDD"), (8, "MMMMMMM"), (12, "MMM|MMM"),
                                          (11, "DMD|MDM"), (10, "MDMD"), (9, "DDDDDDDD")])
def test_rtg_plays_individual_tournaments_without_avoidable_repeats(players, plan):
    result = play(7, players, plan)
    assert result["violations"] == []
    assert result["second_rests_avoidable"] == 0
    assert result["repeats_unreported"] == 0 and result["repeats_avoidable"] == 0


def test_8_players_movement_has_no_repeat_and_meets_twice_at_most():
    result = play(1, 8, "MMMMMMM", withdrawals=False)
    assert result["repeats"] == 0 and result["max_opponent_meetings"] == 2


def test_random_individual_tournaments():
    summary = play_many(3, 12, max_players=40)
    assert summary["violations"] == [] and summary["failed"] == []


def test_rtg_cli_individual():
    proc = subprocess.run([sys.executable, "-m", "pairing.rtg", "--seed", "4", "--players",
                           "13", "--plan", "DMD|D"], capture_output=True, text=True,
                          cwd=ROOT, timeout=120)
    assert proc.returncode == 0, proc.stderr
    summary = json.loads(proc.stdout)
    assert summary["rounds"] == 4 and summary["violations"] == []
