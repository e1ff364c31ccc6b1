"""What a player's page shows (tournaments/public/pages.py), for the three kinds, with values
computed by hand from the vp20-4h scale (4 hands, rest 70 % = 14 VP and 0 MP, rules.md §5):

- 1550–845 MP: difference 705, band 705–900 → 14–6;
- 400–845 MP: difference 445 for E/W, band 305–500 → 12–8.
"""
from decimal import Decimal

import pytest

from tournaments import services
from tournaments.models import Match, Pair, Player, Team
from tournaments.public import pages

from .helpers import LOSS, WIN, enter


def page(tournament, entrant):
    return pages.entrant_page(tournament, entrant)


# --------------------------------------------------------------------------- pairs


@pytest.fixture
def pairs_r1(published, arbiter):
    """Five pairs, round 1 closed: T1 1 v 3 1550–845, T2 2 v 4 400–845, pair 5 rests."""
    enter(published, arbiter, {1: WIN, 2: LOSS})
    return services.close_round(round=published, by=arbiter)


def pair(tournament, n):
    return Pair.objects.get(tournament=tournament, number=n, round__isnull=True)


def test_pair_rounds_and_place_after_round_1(five, pairs_r1):
    p1 = page(five, pair(five, 1))
    assert p1.names == "Rossi1 Anna1 – Verdi1 Bruno1"
    [r] = p1.rounds
    assert (r.round, r.table, r.line, r.opponent, r.mp_for, r.mp_against, r.vp, r.rest, r.corrected) == (
        1, 1, "ns", 3, 1550, 845, Decimal(14), False, False)
    # standings after round 1: 1 (14, +705), 5 (14, 0), 4 (12), 2 (8), 3 (6)
    assert (p1.position, p1.vp) == (1, Decimal(14))
    p3 = page(five, pair(five, 3))
    assert (p3.rounds[0].line, p3.rounds[0].opponent, p3.rounds[0].vp, p3.position) == ("ew", 1, Decimal(6), 5)
    p4 = page(five, pair(five, 4))
    assert (p4.rounds[0].mp_for, p4.rounds[0].mp_against, p4.rounds[0].vp) == (845, 400, Decimal(12))


def test_a_rest_scores_the_rest_vp_and_no_mp(five, pairs_r1):
    p5 = page(five, pair(five, 5))
    [r] = p5.rounds
    assert (r.rest, r.opponent, r.mp_for, r.mp_against, r.vp) == (True, None, 0, None, Decimal(14))
    assert (p5.position, p5.vp) == (2, Decimal(14))
    data = pages.page_json(p5)["rounds"][0]
    assert data == {"round": 1, "table": 3, "line": data["line"], "opponent": None, "opponent_names": None,
                    "rest": True, "mp_for": 0, "mp_against": None, "vp": 14, "corrected": False, "late": False}


def test_next_round_before_and_after_publish(five, pairs_r1, arbiter):
    r2 = services.generate_round(tournament=five, by=arbiter)
    assert page(five, pair(five, 1)).next is None              # a draft stays private
    services.publish_round(round=r2, by=arbiter, acknowledge_warnings=True)
    # Mitchell round 2 (rules §6): N/S stay, E/W move one table up: T1 1 v 5, T2 2 v 3, 4 rests
    n1 = page(five, pair(five, 1)).next
    assert (n1.round, n1.table, n1.line, n1.opponent, n1.rest) == (2, 1, "ns", 5, False)
    assert n1.clock is not None and n1.clock["closed"] is False
    n4 = page(five, pair(five, 4)).next
    assert (n4.round, n4.rest, n4.opponent) == (2, True, None)
    assert len(page(five, pair(five, 1)).rounds) == 1            # round 2 not played yet


def test_a_correction_after_the_round_closed_is_marked_corrected(five, pairs_r1, arbiter):
    t2 = pairs_r1.tables.get(number=2)
    services.save_score_sheet(table=t2, hands=WIN, by=arbiter, kind="transcription",
                              reason="trascritto male")
    p2, p4 = page(five, pair(five, 2)), page(five, pair(five, 4))
    assert (p2.rounds[0].mp_for, p2.rounds[0].vp, p2.rounds[0].corrected) == (1550, Decimal(14), True)
    assert (p4.rounds[0].mp_for, p4.rounds[0].vp, p4.rounds[0].corrected) == (845, Decimal(6), True)
    assert page(five, pair(five, 1)).rounds[0].corrected is False
    # the standings follow: 2 now has 14 VP, +705, tied with 1 on both: 1, 2 (head to head n/a)
    assert page(five, pair(five, 2)).vp == Decimal(14)


def test_a_penalty_is_listed_beside_the_vp(five, pairs_r1, arbiter):
    """Pair 1: 14 VP in round 1, a 3 VP penalty of round 1 → 11 VP, the penalty shown (the
    rounds' VP alone would not add up to the total)."""
    services.add_penalty(pair=pair(five, 1), vp=3, reason="Ritardo", by=arbiter, round_number=1)
    p1 = page(five, pair(five, 1))
    assert p1.vp == Decimal(11) and p1.rounds[0].vp == Decimal(14)
    assert [(p.vp, p.reason, p.round_number) for p in p1.penalties] == [(Decimal(3), "Ritardo", 1)]
    assert page(five, pair(five, 2)).penalties == ()


def test_pair_json_shape(five, pairs_r1):
    data = pages.page_json(page(five, pair(five, 1)))
    assert set(data) == {"entrant", "names", "position", "vp", "next", "rounds", "after_round", "withdrawn",
                         "championship", "final"}
    assert data["final"] is False   # round 1 of the plan's four
    assert (data["entrant"], data["position"], data["vp"], data["next"], data["championship"]) == (1, 1, 14, None, None)
    assert data["rounds"] == [{"round": 1, "table": 1, "line": "ns", "opponent": 3,
                               "opponent_names": "Rossi3 Anna3 – Verdi3 Bruno3", "rest": False,
                               "mp_for": 1550, "mp_against": 845, "vp": 14, "corrected": False, "late": False}]


# --------------------------------------------------------------------------- individual

from tests.tournaments.individual_helpers import register, seating


def test_individual_partner_opponents_and_a_withdrawn_partner(indiv, arbiter):
    register(indiv, arbiter, 8)
    rnd = services.publish_round(round=services.generate_round(tournament=indiv, by=arbiter), by=arbiter,
                                 acknowledge_warnings=True)
    tables, _rest, _forced = seating(rnd)
    (ta, (a_ns, a_ew)), (tb, (b_ns, b_ew)) = sorted(tables.items())
    p = lambda n: Player.objects.get(tournament=indiv, number=n)  # noqa: E731
    nxt = page(indiv, p(b_ns[0])).next
    assert (nxt.table, nxt.line, nxt.partner, sorted(nxt.opponent)) == (tb, "ns", b_ns[1], sorted(b_ew))
    # a_ns[1] withdraws during round 1: his partner a_ns[0] (and both opponents) get a forced rest
    services.withdraw_player(player=p(a_ns[1]), from_round=1, by=arbiter, reason="malore")
    partner = page(indiv, p(a_ns[0])).next
    assert (partner.rest, partner.forced, partner.opponent) == (True, True, None)
    rnd.refresh_from_db()
    enter(rnd, arbiter, {tb: WIN})
    services.close_round(round=rnd, by=arbiter)
    [r] = page(indiv, p(a_ns[0])).rounds
    assert (r.rest, r.forced, r.mp_for, r.vp, r.partner) == (True, True, 0, Decimal(14), None)
    [w] = page(indiv, p(b_ew[0])).rounds
    assert (w.line, w.mp_for, w.mp_against, w.vp, w.partner) == ("ew", 845, 1550, Decimal(6), b_ew[1])
    data = pages.page_json(page(indiv, p(b_ns[0])))
    assert data["rounds"][0]["opponent"] == list(b_ew) and data["rounds"][0]["partner"] == b_ns[1]
    assert data["rounds"][0]["vp"] == 14 and data["position"] == 1
    withdrawn = page(indiv, p(a_ns[1]))
    assert withdrawn.withdrawn is True and withdrawn.rounds == []


# --------------------------------------------------------------------------- teams


def test_team_match_two_tables_and_a_rest(make_teams_tournament, arbiter):
    t = make_teams_tournament(3, plan="RRR")
    rnd = services.publish_round(round=services.generate_round(tournament=t, by=arbiter), by=arbiter,
                                 acknowledge_warnings=True)
    match = rnd.matches.get(bye="")
    rest = rnd.matches.exclude(bye="").get()
    a, b = match.team_a, match.team_b
    nxt = page(t, a).next
    assert (nxt.table, nxt.line, nxt.opponent) == (match.table_1.number, "ns", b.number)
    assert [(x["table"], x["line"], x["pair"], x["opponent_pair"]) for x in nxt.tables] == [
        (match.table_1.number, "ns", f"{a.number}A", f"{b.number}A"),
        (match.table_2.number, "ew", f"{a.number}B", f"{b.number}B")]
    # table 1: A's first pair N/S 1550–845 (14–6); table 2: B's second pair N/S 400–845 (A's E/W 12–8)
    enter(rnd, arbiter, {match.table_1.number: WIN, match.table_2.number: LOSS})
    services.close_round(round=rnd, by=arbiter)
    [ra] = page(t, a).rounds
    assert (ra.mp_for, ra.mp_against, ra.vp, ra.opponent) == (1550 + 845, 845 + 400, Decimal(26), b.number)
    assert [(x["mp_for"], x["mp_against"]) for x in ra.tables] == [(1550, 845), (845, 400)]
    [rb] = page(t, b).rounds
    assert (rb.line, rb.vp, rb.mp_for, rb.mp_against) == ("ew", Decimal(14), 1245, 2395)
    resting = Team.objects.get(pk=rest.team_a_id)
    [rr] = page(t, resting).rounds
    assert (rr.rest, rr.vp, rr.opponent) == (True, Decimal(28), None)     # 70 % of 40
    # standings: resting team 28, A 26, B 14
    assert [page(t, x).position for x in (resting, a, b)] == [1, 2, 3]
    data = pages.page_json(page(t, a))
    assert set(data["rounds"][0]["tables"][0]) == {"table", "line", "pair", "opponent_pair", "mp_for", "mp_against"}
    assert data["vp"] == 26
    assert Match.objects.count() == 2


def test_search_by_number_and_surname(five):
    assert pages.search(five, "3") == [(3, "Rossi3 Anna3 – Verdi3 Bruno3")]
    assert [n for n, _ in pages.search(five, "verdi")] == [1, 2, 3, 4, 5]
    assert pages.search(five, "nessuno") == [] and pages.search(five, "  ") == []
