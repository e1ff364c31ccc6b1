"""Random tournaments: thousands of rounds, every one judged by the checker (pairing/rtg.py)."""

import pytest

import pairing.rtg as rtg
import pairing.rtg.common as rtg_common


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
    real = rtg_common.run

    def broken(request):
        response = real(request)
        if response["tables"]:
            response["tables"].pop()
        return response

    monkeypatch.setattr(rtg_common, "run", broken)  # the engine every generator calls
    assert rtg.play(1, 10, "MMD")["violations"]


def test_bad_plan():
    with pytest.raises(ValueError):
        rtg.play(1, 10, "MXD")


# -- second rests and repeated meetings, mixed plans, sessions, step changes ---------------
@pytest.mark.parametrize("pairs, plan, step", [
    (5, "DMMM", 1), (5, "MMDM", 1), (7, "MDMD", 2), (9, "DMM|MMD", 1), (11, "MDM", [1, 3]),
    (10, "MMMD", [1, 3]), (13, "MMM|MMM", 1), (5, "MD|DM|MM", 1),
])
def test_mixed_plans_no_avoidable_second_rest_no_unreported_repeat(pairs, plan, step):
    for seed in range(6):
        result = rtg.play(seed, pairs, plan, step=step)
        assert result["violations"] == [], (seed, result["violations"][:3])
        assert result["second_rests_avoidable"] == 0 and result["repeats_unreported"] == 0
        assert result["rounds"] == len(plan.replace("|", ""))


def test_five_pairs_dmmm_without_withdrawals_four_different_rests():
    # With 5 pairs and 4 rounds nobody needs to rest twice; the exchanges make it so.
    result = rtg.play(3, 5, "DMMM", withdrawals=False)
    assert result["second_rests"] == 0 and result["adjustments"] >= 1


def test_random_tournaments_report_zero_second_rests_and_unreported_repeats():
    summary = rtg.play_many(11, 60)
    assert summary["violations"] == [], summary["failed"][:3]
    assert summary["second_rests_avoidable"] == 0 and summary["repeats_unreported"] == 0
    assert summary["repeats"] > 0  # repeats happen (long plans) and are all reported


def test_generator_catches_an_engine_that_ignores_rested(monkeypatch):
    # The old engine: the movement rests whoever meets the phantom, second rest or not.
    real = rtg_common.run

    def old_engine(request):
        return real({k: v for k, v in request.items() if k not in ("rested", "ranking")})

    monkeypatch.setattr(rtg_common, "run", old_engine)
    result = rtg.play(1, 5, "DMMM", withdrawals=False)
    assert result["second_rests_avoidable"] >= 1 and result["violations"]


def test_generator_catches_an_engine_that_hides_repeats(monkeypatch):
    real = rtg_common.run

    def silent(request):
        return dict(real(request), rematches=[])

    monkeypatch.setattr(rtg_common, "run", silent)
    result = rtg.play(1, 6, "MMMMMM", withdrawals=False)  # T = 3: rounds 4-6 repeat 1-3
    assert result["repeats_unreported"] == 9 and result["violations"]


def test_plan_with_sessions_only_resets_the_rest_rule():
    # 5 pairs, MMM|MM: after the split the movement goes on (round 4 = offset 3 ≡ 0, the
    # meetings of round 1 again) and pair 5 may rest again in the new session.
    result = rtg.play(2, 5, "MMM|MM", withdrawals=False)
    assert result["violations"] == [] and result["second_rests"] == 0
    assert result["repeats"] == 4  # rounds 4 and 5 repeat rounds 1 and 2 (2 tables each)
