"""Random tournaments: thousands of rounds, every one judged by the checker (pairing/rtg.py)."""

import pytest

import pairing.rtg as rtg


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_many_random_tournaments_have_no_violations(seed):
    summary = rtg.play_many(seed, 250)
    assert summary["violations"] == [], summary["failed"][:3]
    assert summary["rounds"] > 900


@pytest.mark.parametrize("pairs, plan", [
    (200, "MMMDDD"), (199, "DDDDDDD"), (4, "DDDDDDD"), (5, "MMMMMMMD"), (151, "MDMD"),
])
def test_large_and_tiny_fields(pairs, plan):
    result = rtg.play(pairs, pairs, plan)
    assert result["violations"] == []
    assert result["rounds"] == len(plan)


def test_same_seed_same_tournament():
    assert rtg.play(9, 17, "MMDD") == rtg.play(9, 17, "MMDD")


def test_generator_reports_a_broken_engine(monkeypatch):
    real = rtg.run

    def broken(request):
        response = real(request)
        if response["tables"]:
            response["tables"].pop()
        return response

    monkeypatch.setattr(rtg, "run", broken)
    assert rtg.play(1, 10, "MMD")["violations"]


def test_bad_plan():
    with pytest.raises(ValueError):
        rtg.play(1, 10, "MXD")
