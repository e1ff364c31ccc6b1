"""The plan string: ``|`` splits sessions and is not a round."""
import pytest

from pairing.plan import PlanError, PlannedRound, parse_plan, session_starts
from pairing.rtg import play


def test_mmd_dd_is_five_rounds_in_two_sessions():
    assert parse_plan("MMD|DD") == [
        PlannedRound(1, "M", 1), PlannedRound(2, "M", 1), PlannedRound(3, "D", 1),
        PlannedRound(4, "D", 2), PlannedRound(5, "D", 2),
    ]
    assert session_starts("MMD|DD") == {1: 1, 2: 4}
    assert session_starts("MD|DM|MM") == {1: 1, 2: 3, 3: 5}


def test_one_session_plan_and_lower_case_letters():
    assert [(r.number, r.system, r.session) for r in parse_plan("mmmd")] == [
        (1, "M", 1), (2, "M", 1), (3, "M", 1), (4, "D", 1)]
    assert len(parse_plan(" MM | DD ")) == 4


@pytest.mark.parametrize("plan, code", [
    ("|MM", "leading"), ("MM|", "trailing"), ("MM||DD", "empty_session"), ("MMX", "letter"),
    ("MDA|D", "letter"), ("", "empty"), ("|", "empty"),
])
def test_malformed_plans_are_refused(plan, code):
    with pytest.raises(PlanError) as err:
        parse_plan(plan)
    assert err.value.code == code


def test_a_letter_refusal_names_the_letter():
    with pytest.raises(PlanError) as err:
        parse_plan("MMX")
    assert err.value.char == "X"


def test_rtg_resets_only_the_rest_rule_at_a_session_bar():
    """5 pairs, MD|MD through the engines and the checker: four rounds (the bar is not a
    round), no violation and no avoidable second rest, counted per session."""
    result = play(3, 5, "MD|MD", withdrawals=False)
    assert result["rounds"] == 4
    assert result["violations"] == [] and result["second_rests_avoidable"] == 0
