"""The Mitchell movement in a mixed plan through the services: a step changed mid-movement,
an offset that skips the Danish rounds and uses each round's step, and every repeated
meeting reported by the checker, a Mitchell round's included (M D M).

Expected tables are worked by hand from pairing-io.md: N pairs, T = ceil(N/2); N odd: N/S
line pairs 1..T-1, the phantom N/S at table T, E/W line T..N; the E/W pair at index i sits
at table ((i + offset) mod T) + 1, offset = the steps of the Mitchell moves made so far.
"""
import pytest

from tests.tournaments.helpers import play, seating
from tournaments import services
from tournaments.kinds._pair_requests import mitchell_offset


# -- step changed mid-movement ------------------------------------------------------------------
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
    assert mitchell_offset(tournament, 3) == 2  # one move, step 2
    play(services.generate_round(tournament=tournament, by=arbiter), arbiter)
    services.update_tournament(tournament=tournament, by=arbiter, mitchell_step=1)
    tournament.refresh_from_db()
    assert mitchell_offset(tournament, 4) == 3  # moves 2 then 1


# -- the checker reports every repeated meeting, Mitchell included (M D M) ----------------------
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
        in r3.check_messages  # stored as code + params, read in the reader's language
