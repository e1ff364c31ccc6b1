"""The Danish request's ``allow_rematch`` flag (rules.md §7, the modified Danish's last round:
"non con l'avversario del turno precedente, tranne che nell'ultimo turno"): no rematch
unless lifted; lifted, the natural order 1v2, 3v4, … stands whatever was met."""
import itertools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pairing import PairingError, run
from pairing.check import check

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def requests(draw):
    n = draw(st.sampled_from([2, 4, 6, 8]))
    ids = list(range(1, n + 1))
    possible = list(itertools.combinations(ids, 2))
    met = [list(p) for p in possible if draw(st.booleans())]
    last = [m for m in met if draw(st.booleans())]
    mode = draw(st.sampled_from(["all", "previous", "none"]))
    return {"system": "danish", "ranking": draw(st.permutations(ids)), "met": met, "met_last_round": last,
            "rested": [], "avoid_rematches": mode}


def forbidden(request):
    if request["avoid_rematches"] == "none":
        return set()
    source = request["met"] + request["met_last_round"] if request["avoid_rematches"] == "all" \
        else request["met_last_round"]
    return {frozenset(m[:2]) for m in source}


def rematch_free_pairing_exists(ids, forb):
    """Brute force over the perfect matchings of ``ids`` (at most 8: 105 matchings)."""
    if not ids:
        return True
    first, rest = ids[0], ids[1:]
    for k, other in enumerate(rest):
        if frozenset((first, other)) not in forb and rematch_free_pairing_exists(rest[:k] + rest[k + 1:], forb):
            return True
    return False


@SETTINGS
@given(requests())
def test_no_rematch_unless_lifted(request):
    response = run(request)
    forb = forbidden(request)
    played = [frozenset((t["ns"], t["ew"])) for t in response["tables"]]
    if rematch_free_pairing_exists(list(request["ranking"]), forb):
        assert not any(p in forb for p in played)
    assert {frozenset(r) for r in response["rematches"]} == {p for p in played if p in forb}
    assert check(request, response) == []


@SETTINGS
@given(requests())
def test_lifted_in_the_last_round_the_natural_order_stands(request):
    request = {**request, "allow_rematch": True}
    response = run(request)
    r = request["ranking"]
    assert [(t["ns"], t["ew"]) for t in response["tables"]] == [(r[k], r[k + 1]) for k in range(0, len(r), 2)]
    assert response["rematches"] == [] and check(request, response) == []


def test_hand_example():
    # 1 and 2 met in round 1 (1–2, 3–4); ranking 1, 2, 3, 4 after it
    request = {"system": "danish", "ranking": [1, 2, 3, 4], "met": [[1, 2, 1], [3, 4, 1]],
               "met_last_round": [[1, 2], [3, 4]], "rested": [], "avoid_rematches": "all"}
    assert [(t["ns"], t["ew"]) for t in run(request)["tables"]] == [(1, 3), (2, 4)]
    lifted = run({**request, "allow_rematch": True})
    assert [(t["ns"], t["ew"]) for t in lifted["tables"]] == [(1, 2), (3, 4)]
    assert run({**request, "allow_rematch": None})["tables"] == run(request)["tables"]


@pytest.mark.parametrize("value", ["yes", 1, [True]])
def test_a_flag_that_is_not_a_boolean_is_refused(value):
    with pytest.raises(PairingError, match="allow_rematch"):
        run({"system": "danish", "ranking": [1, 2], "met": [], "allow_rematch": value})
