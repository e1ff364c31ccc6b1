"""Issue 9 items 2 and 5 through the services: Mitchell step change, second rests,
repeated meetings, and seating the two idle pairs together.

Expected tables are worked by hand from pairing-io.md: N pairs, T = ceil(N/2); N odd: N/S
line pairs 1..T-1, the phantom N/S at table T, E/W line T..N; the E/W pair at index i sits
at table ((i + offset) mod T) + 1, offset = the steps of the Mitchell moves made so far.
"""
import pytest

from tournaments import services
from tournaments.errors import ArbiterError
from tournaments.models import AuditEntry, Round, ScoreSheet, Table

from .test_services_rounds import play, seating


def rest_of(rnd):
    return seating(rnd)[1]


# -- item 2: step changed mid-movement -------------------------------------------------------
@pytest.fixture
def ten(tournament, make_pairs):
    make_pairs(tournament, 10)
    return tournament


@pytest.mark.parametrize("new_step, expected, offset", [
    (3, {1: (1, 7), 2: (2, 8), 3: (3, 9), 4: (4, 10), 5: (5, 6)}, 4),
    (1, {1: (1, 9), 2: (2, 10), 3: (3, 6), 4: (4, 7), 5: (5, 8)}, 2),
])
def test_ten_pairs_mmmd_step_changed_after_round_2(ten, arbiter, new_step, expected, offset):
    r1 = services.generate_round(tournament=ten, by=arbiter)
    assert seating(r1)[0] == {1: (1, 6), 2: (2, 7), 3: (3, 8), 4: (4, 9), 5: (5, 10)}
    play(r1, arbiter)
    r2 = services.generate_round(tournament=ten, by=arbiter)
    assert seating(r2)[0] == {1: (1, 10), 2: (2, 6), 3: (3, 7), 4: (4, 8), 5: (5, 9)}
    play(r2, arbiter)
    services.update_tournament(tournament=ten, by=arbiter, mitchell_step=new_step)
    ten.refresh_from_db()
    r3 = services.generate_round(tournament=ten, by=arbiter)
    assert seating(r3)[0] == expected
    assert r3.pairing_request["offset"] == offset and r3.step == new_step
    assert r3.check_report == [] and not any("ripetuto" in w for w in r3.warning_messages)


def test_offset_skips_danish_rounds_and_uses_each_rounds_step(tournament, make_pairs, arbiter):
    make_pairs(tournament, 10)
    services.update_tournament(tournament=tournament, by=arbiter, plan="MDMM")
    tournament.refresh_from_db()
    play(services.generate_round(tournament=tournament, by=arbiter), arbiter)
    play(services.generate_round(tournament=tournament, by=arbiter), arbiter)  # Danish
    services.update_tournament(tournament=tournament, by=arbiter, mitchell_step=2)
    tournament.refresh_from_db()
    assert services.mitchell_offset(tournament, 3) == 2  # one move, step 2
    play(services.generate_round(tournament=tournament, by=arbiter), arbiter)
    services.update_tournament(tournament=tournament, by=arbiter, mitchell_step=1)
    tournament.refresh_from_db()
    assert services.mitchell_offset(tournament, 4) == 3  # moves 2 then 1


# -- item 2: the checker reports every repeated meeting, Mitchell included (M D M) ----------
def test_m_d_m_mitchell_round_repeating_a_danish_meeting_is_reported(tournament, make_pairs, arbiter):
    make_pairs(tournament, 6)
    services.update_tournament(tournament=tournament, by=arbiter, plan="MDM")
    tournament.refresh_from_db()
    # Round 1 (T = 3, N/S 1-3, E/W 4-6): (1,4) (2,5) (3,6). MP: 1 +500, 2 +100, 6 +300,
    # so the ranking is 1, 6, 2, 5, 3, 4.
    r1 = services.generate_round(tournament=tournament, by=arbiter)
    play(r1, arbiter, {1: (500, 0), 2: (100, 0), 3: (0, 300)})
    # Danish round 2: 1–6; 2–5 met, so 2–3; 5–4.
    r2 = services.generate_round(tournament=tournament, by=arbiter)
    assert seating(r2)[0] == {1: (1, 6), 2: (2, 3), 3: (5, 4)}
    play(r2, arbiter)
    # Mitchell round 3 = movement round 2 (offset 1): (1,6) (2,4) (3,5): 1–6 again.
    r3 = services.generate_round(tournament=tournament, by=arbiter)
    assert seating(r3)[0] == {1: (1, 6), 2: (2, 4), 3: (3, 5)}
    assert "Incontro ripetuto al tavolo 1: le coppie 1 e 6 si sono già incontrate (turno 2)." \
        in r3.warning_messages
    assert r3.check_report == []  # listed by the engine
    # A hand change that makes a new repeat is reported by the checker: 2–3 met in round 2.
    services.swap_pairs(round=r3, pair_a=4, pair_b=3, by=arbiter)
    r3.refresh_from_db()
    assert "incontro ripetuto non segnalato al tavolo 2: 2–3 (già incontrate al turno 2)" \
        in r3.check_messages  # stored as code + params since issue 14 item 8


# -- item 5: no second rest -------------------------------------------------------------------
@pytest.fixture
def five_plan(five, arbiter):
    def with_plan(plan):
        services.update_tournament(tournament=five, by=arbiter, plan=plan)
        five.refresh_from_db()
        return five
    return with_plan


def test_five_pairs_dmmm_no_pair_rests_twice(five_plan, arbiter):
    t = five_plan("DMMM")
    r1 = services.generate_round(tournament=t, by=arbiter)
    # First Danish round by number: 1–2, 3–4, pair 5 rests.
    assert seating(r1)[:2] == ({1: (1, 2), 2: (3, 4)}, 5)
    play(r1, arbiter, {1: (300, 0), 2: (200, 0)})
    # VP (20, 4 hands): 300 and 200 MP → 11–9; the rest 14. Ranking 5, 1, 3, 4, 2.
    r2 = services.generate_round(tournament=t, by=arbiter)
    # Movement round 1: (1,3) (2,4), 5 meets the phantom but rested; the lowest-ranked
    # pair that has not rested is 2 (table 2, N/S): 2 rests, 5 plays at table 2 N/S.
    assert seating(r2)[:2] == ({1: (1, 3), 2: (5, 4)}, 2)
    assert r2.warning_messages[0] == ("La coppia 2 riposa al posto della coppia 5, che ha già riposato "
                                      "(art. 33); la 5 gioca al tavolo 2 in N/S.")
    assert r2.check_report == []
    # A hand change reported, then undone: the report is clean again (the exchange is
    # the engine's, not a deviation).
    services.swap_pairs(round=r2, pair_a=1, pair_b=4, by=arbiter)
    r2.refresh_from_db()
    assert r2.check_report
    services.swap_pairs(round=r2, pair_a=1, pair_b=4, by=arbiter)
    r2.refresh_from_db()
    assert r2.check_report == []
    rests = [5, 2]
    play(r2, arbiter)
    for _ in range(2):
        rnd = services.generate_round(tournament=t, by=arbiter)
        assert rnd.check_report == []
        rests.append(rest_of(rnd))
        play(rnd, arbiter)
    assert len(set(rests)) == 4, rests


def test_five_pairs_mmdm_rests_all_different(five_plan, arbiter):
    t = five_plan("MMDM")
    rests = []
    for _ in range(4):
        rnd = services.generate_round(tournament=t, by=arbiter)
        assert rnd.check_report == []
        rests.append(rest_of(rnd))
        play(rnd, arbiter)
    # Movement: 5 rests in round 1, 4 in round 2; the Danish round and the movement's
    # third round must pick pairs that have not rested.
    assert rests[:2] == [5, 4] and len(set(rests)) == 4, rests


def test_pairing_request_of_a_mitchell_round_carries_ranking_rested_met(five_plan, arbiter):
    t = five_plan("DMMM")
    play(services.generate_round(tournament=t, by=arbiter), arbiter, {1: (300, 0), 2: (200, 0)})
    request = services.build_pairing_request(t, 2)
    assert request["offset"] == 0 and request["rested"] == [5]
    assert request["ranking"] == [5, 1, 3, 4, 2]  # 14 VP; 11 (+300); 11 (+200); 9; 9
    assert [m[:2] for m in request["met"]] == [[1, 2], [3, 4]]


# -- item 5: seat the two idle pairs together ------------------------------------------------
@pytest.fixture
def seven(tournament, make_pairs):
    make_pairs(tournament, 7)
    return tournament


def _draft_with_rest_and_forced_rest(seven, arbiter):
    """7 pairs, T = 4: round 1 (1,4) (2,5) (3,6), 7 rests; 2 beats 5 by 500. Pair 1 then
    withdraws. Round 2 (offset 1): 7 at table 1 facing the absent 1 (forced rest), but 7
    rested: 5 (last in the ranking, not rested) takes it, 7 plays at table 3 E/O; 6 meets
    the phantom and rests."""
    play(services.generate_round(tournament=seven, by=arbiter), arbiter, {2: (500, 0)})
    services.withdraw_pair(pair=seven.pairs.get(number=1), from_round=2, by=arbiter)
    return services.generate_round(tournament=seven, by=arbiter)


def test_forced_rest_exchanged_and_idle_pairs_seated_together_on_a_draft(seven, arbiter):
    r2 = _draft_with_rest_and_forced_rest(seven, arbiter)
    assert seating(r2) == ({2: (2, 4), 3: (3, 7)}, 6, [5])
    assert ("La coppia 5 ha il riposo forzato al posto della coppia 7, che ha già riposato "
            "(art. 33); la 7 gioca al tavolo 3 in E/O.") in r2.warning_messages
    assert r2.check_report == []
    assert services.idle_pairs_seatable(r2) is not None
    services.seat_idle_pairs_together(round=r2, by=arbiter)
    # Table 1 keeps 5 in E/O; the resting 6 takes N/S; the rest table is gone.
    assert seating(r2) == ({1: (6, 5), 2: (2, 4), 3: (3, 7)}, None, [])
    entry = AuditEntry.objects.get(action="idle_pairs_seated")
    assert entry.old == {"rest": 6, "forced_rest": 5} and entry.new == {"table": 1, "ns": 6, "ew": 5}
    r2.refresh_from_db()
    assert r2.check_report  # the checker says the draft left the movement
    services.publish_round(round=r2, by=arbiter, acknowledge_warnings=True)
    assert ScoreSheet.objects.filter(table__round=r2, table__number=1).exists()


def test_idle_pairs_that_already_met_are_not_seated_together(seven, arbiter):
    r2 = _draft_with_rest_and_forced_rest(seven, arbiter)
    services.move_to_rest(round=r2, pair=2, by=arbiter)  # 2 rests now; 2 met 5 in round 1
    assert services.idle_pairs_seatable(r2) is None
    with pytest.raises(ArbiterError, match="non devono essersi già incontrate"):
        services.seat_idle_pairs_together(round=r2, by=arbiter)
    assert not AuditEntry.objects.filter(action="idle_pairs_seated").exists()


def test_seat_idle_pairs_on_a_published_round_after_a_withdrawal(seven, arbiter):
    r1 = services.generate_round(tournament=seven, by=arbiter)
    services.publish_round(round=r1, by=arbiter)
    services.withdraw_pair(pair=seven.pairs.get(number=1), from_round=1, by=arbiter)
    r1.refresh_from_db()
    # Table 1 holds 4 alone (forced rest), 7 rests: they have not met.
    assert seating(r1) == ({2: (2, 5), 3: (3, 6)}, 7, [4])
    services.seat_idle_pairs_together(round=r1, by=arbiter)
    assert seating(r1) == ({1: (7, 4), 2: (2, 5), 3: (3, 6)}, None, [])
    sheet = ScoreSheet.objects.get(table__round=r1, table__number=1)
    assert sheet.state == ScoreSheet.State.EMPTY


def test_seat_idle_pairs_refused_once_a_sheet_is_entered(seven, arbiter):
    r1 = services.generate_round(tournament=seven, by=arbiter)
    services.publish_round(round=r1, by=arbiter)
    services.withdraw_pair(pair=seven.pairs.get(number=1), from_round=1, by=arbiter)
    table2 = r1.tables.get(number=2)
    services.save_score_sheet(table=table2, hands=[services.HandInput(0, 0)] * 4, by=arbiter)
    r1.refresh_from_db()
    assert services.idle_pairs_seatable(r1) is None
    with pytest.raises(ArbiterError):
        services.seat_idle_pairs_together(round=r1, by=arbiter)


def test_seat_idle_pairs_refused_without_a_forced_rest(published, arbiter):
    assert services.idle_pairs_seatable(published) is None
    with pytest.raises(ArbiterError):
        services.seat_idle_pairs_together(round=published, by=arbiter)
    assert Round.objects.get().tables.filter(bye=Table.Bye.REST).count() == 1
