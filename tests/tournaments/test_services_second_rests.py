"""Second rests through the services: no pair rests twice while another has not rested (the
Mitchell rest and a forced rest go to the lowest-ranked pair that has not), the pairing
request carries the ranking, the pairs that rested and the meetings, and the two idle pairs
are seated together when allowed.

Expected tables are worked by hand from pairing-io.md: N pairs, T = ceil(N/2); N odd: N/S
line pairs 1..T-1, the phantom N/S at table T, E/W line T..N; the E/W pair at index i sits
at table ((i + offset) mod T) + 1, offset = the steps of the Mitchell moves made so far.
"""
import pytest

from tests.tournaments.helpers import play, seating
from tournaments import services
from tournaments.errors import ArbiterError
from tournaments.models import AuditEntry, Round, ScoreSheet, Table


def rest_of(rnd):
    return seating(rnd)[1]


# -- no second rest -----------------------------------------------------------------------------
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


# -- seat the two idle pairs together -----------------------------------------------------------
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
