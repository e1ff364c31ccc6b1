"""Danish pairing (rules.md §5, §7; pairing-io.md "Danish rule, exactly")."""

import pytest

from pairing import PairingError, run
from pairing.check import check


def danish(ranking, met=(), **extra):
    request = {"system": "danish", "ranking": list(ranking), "met": [list(m) for m in met],
               **extra}
    response = run(request)
    assert check(request, response) == []
    return response


def matches(response):
    return [(t["ns"], t["ew"]) for t in response["tables"]]


def test_natural_pairing():
    response = danish("ABCDEF")
    assert matches(response) == [("A", "B"), ("C", "D"), ("E", "F")]
    assert [t["table"] for t in response["tables"]] == [1, 2, 3]
    assert response["bye"] is None and response["rematches"] == []
    assert response["explanations"] == [] and response["warnings"] == []


def test_rematch_forces_a_swap_and_explains_it_with_the_round():
    response = danish([1, 2, 3, 4], met=[(1, 2, 3)])
    assert matches(response) == [(1, 3), (2, 4)]
    assert response["explanations"][0] == (
        "Tavolo 1: 1 contro 3 — 1 e 2 si sono già incontrate al turno 3.")
    assert len(response["explanations"]) == 2


def test_explanation_without_round_number():
    response = danish([1, 2, 3, 4], met=[(3, 4)])
    assert matches(response) == [(1, 3), (2, 4)]
    assert response["explanations"] == [
        "Tavolo 1: 1 contro 3 — con 1–2 le coppie restanti non si potrebbero accoppiare "
        "senza incontri ripetuti.",
        "Tavolo 2: 2 contro 4 — 3 e 4 si sono già incontrate."]


def test_greedy_would_get_stuck_at_the_bottom():
    # Greedy without look-ahead: 1-2, 3-5 (3 met 4), then 4-6 already met.
    response = danish(range(1, 7), met=[(3, 4), (5, 6), (4, 6)])
    assert matches(response) == [(1, 2), (3, 6), (4, 5)]
    assert "non si potrebbero accoppiare" in response["explanations"][0]


def test_top_match_must_change_so_that_the_rest_can_be_paired():
    # 3 met 4, 5 and 6: only 1 or 2 can take 3, so 1-2 (natural) is not allowed.
    response = danish(range(1, 7), met=[(3, 4), (3, 5), (3, 6)])
    assert matches(response) == [(1, 3), (2, 4), (5, 6)]


def test_bye_goes_to_lowest_pair_that_has_not_rested():
    response = danish(range(1, 6), rested=[5])
    assert response["bye"] == 4
    assert matches(response) == [(1, 2), (3, 5)]


def test_bye_moves_up_when_its_removal_would_force_a_rematch():
    # 1 met 2, 3 and 4: only 5 is left for 1, so 5 cannot rest.
    response = danish(range(1, 6), met=[(1, 2), (1, 3), (1, 4)])
    assert response["bye"] == 4
    assert matches(response) == [(1, 5), (2, 3)]


def test_everyone_already_rested():
    response = danish(range(1, 6), rested=[1, 2, 3, 4, 5])
    assert response["bye"] == 5
    assert response["warnings"] and "riposato" in response["warnings"][0]


def test_no_rematch_free_pairing_fewest_rematches_with_warning():
    response = danish([1, 2, 3, 4], met=[(1, 3), (1, 4), (2, 3), (2, 4), (3, 4, 2)])
    assert matches(response) == [(1, 2), (3, 4)]
    assert response["rematches"] == [[3, 4]]
    assert response["warnings"]
    assert response["explanations"] == [
        "Tavolo 2: 3 contro 4 — 3 e 4 si sono già incontrate al turno 2, ma nessun "
        "accoppiamento senza ripetizioni è possibile."]


def test_everyone_met_everyone_closest_to_ranking():
    all_met = [(a, b) for a in range(1, 5) for b in range(a + 1, 5)]
    response = danish([1, 2, 3, 4], met=all_met)
    assert matches(response) == [(1, 2), (3, 4)]
    assert response["rematches"] == [[1, 2], [3, 4]]


def test_window_previous_only_forbids_last_opponent():
    met = [(1, 2, 1), (1, 3, 2)]
    last = [[1, 3]]
    assert matches(danish([1, 2, 3, 4], met, met_last_round=last,
                          avoid_rematches="previous")) == [(1, 2), (3, 4)]
    assert matches(danish([1, 2, 3, 4], met, met_last_round=last,
                          avoid_rematches="all")) == [(1, 4), (2, 3)]


def test_window_none_allows_rematches():
    response = danish([1, 2, 3, 4], [(1, 2)], avoid_rematches="none")
    assert matches(response) == [(1, 2), (3, 4)]
    assert response["rematches"] == []


def test_better_ranked_pair_sits_north_south_and_tables_follow_ranking():
    response = danish(["x", "y", "z", "w"], met=[("x", "y")])
    assert response["tables"] == [{"table": 1, "ns": "x", "ew": "z"},
                                  {"table": 2, "ns": "y", "ew": "w"}]


def test_meetings_with_withdrawn_pairs_are_ignored():
    response = danish([1, 2, 3, 4], met=[(1, 99), (99, 2)], rested=[99])
    assert matches(response) == [(1, 2), (3, 4)]


def test_single_pair_rests():
    assert danish([7])["bye"] == 7


@pytest.mark.parametrize("request_", [
    {"ranking": []},
    {"ranking": [1, 2, 1]},
    {"ranking": [1, 2], "avoid_rematches": "sometimes"},
    {"ranking": [1, 2], "met": [[1, 1]]},
    {"ranking": [1, 2], "met": [[1, 2, 0]]},
    {"ranking": [1, 2], "met": [[1]]},
    {"ranking": [1, True]},
    {"ranking": "12"},
])
def test_bad_requests(request_):
    with pytest.raises(PairingError):
        run({"system": "danish", **request_})


def test_regression_old_unmatched_pairs_regain_a_path_after_removing_a_match():
    # With one rematch unavoidable, removing 3–1 freed two partners; re-matching them with
    # each other left the two old unmatched pairs unexamined, so 3–1 looked infeasible.
    met = [[3, 1, 2], [3, 6, 5], [3, 8, 4], [3, 2, 4], [3, 4, 1], [1, 5, 3], [1, 8, 4],
           [1, 7, 3], [1, 2, 2], [1, 4, 3], [5, 2, 3], [6, 2, 2], [6, 4, 2], [8, 2, 2],
           [8, 4, 4], [7, 4, 4], [2, 4, 4]]
    response = danish([3, 1, 5, 6, 8, 7, 2, 4], met=met)
    assert matches(response) == [(3, 1), (5, 4), (6, 8), (7, 2)]
    assert response["rematches"] == [[3, 1]]
