"""Round-robin rounds and groups in the app (rules.md §14): services.

Expected schedules are the circle method of pairing-io.md worked by hand (see
tests/pairing/test_round_robin.py for the rotation written out):
5 pairs (+ phantom N), r = 1..5:
  r1: 1 rests, 2-5, 3-4   r2: 1-5, 4 rests, 2-3   r3: 1-4, 5-3, 2 rests
  r4: 1-3, 4-2, 5 rests   r5: 1-2, 3 rests, 4-5
"""
from decimal import Decimal
from itertools import combinations

import pytest

from tournaments import pages, selectors, services
from tournaments.errors import ArbiterError
from tournaments.models import Pair, Round, Table
from tournaments.services import HandInput


def seating(rnd):
    """({table: (ns, ew)}, [resting pairs], [forced rests]) as pair numbers."""
    out, rests, forced = {}, [], []
    for t in selectors.round_tables(rnd):
        if t.bye == Table.Bye.REST:
            rests.append(t.resting_pair.number)
        elif t.bye == Table.Bye.FORCED:
            forced.append(t.resting_pair.number)
        else:
            out[t.number] = (t.ns.number, t.ew.number)
    return out, rests, forced


def hands(ns, ew, n=4):
    return [HandInput(ns, ew)] + [HandInput(0, 0)] * (n - 1)


def play(rnd, arbiter, scores=None):
    """Publish, enter and validate every sheet (scores: {table: (mp_ns, mp_ew)}), close."""
    scores = scores or {}
    rnd = services.publish_round(round=rnd, by=arbiter, acknowledge_warnings=True)
    for t in rnd.tables.filter(bye=""):
        ns, ew = scores.get(t.number, (0, 0))
        services.save_score_sheet(table=t, hands=hands(ns, ew), by=arbiter, validate=True)
    return services.close_round(round=rnd, by=arbiter)


FIVE = [
    ({1: (2, 5), 2: (3, 4)}, [1]),
    ({1: (1, 5), 2: (2, 3)}, [4]),
    ({1: (1, 4), 2: (5, 3)}, [2]),
    ({1: (1, 3), 2: (4, 2)}, [5]),
    ({1: (1, 2), 2: (4, 5)}, [3]),
]


@pytest.fixture
def rr5(tournament, make_pairs, arbiter):
    services.update_tournament(tournament=tournament, by=arbiter, plan="RRRRR")
    make_pairs(tournament, 5)
    tournament.refresh_from_db()
    return tournament


def test_five_pairs_rrrrr_schedule_rests_and_meetings(rr5, arbiter):
    met, rests = [], []
    for r, (want_tables, want_rest) in enumerate(FIVE, start=1):
        rnd = services.generate_round(tournament=rr5, by=arbiter)
        assert rnd.number == r and rnd.system == Round.System.ROUND_ROBIN
        assert rnd.pairing_request["round"] == r and rnd.pairing_request["pairs"] == [1, 2, 3, 4, 5]
        assert rnd.check_report == []
        tables, rest, forced = seating(rnd)
        assert (tables, rest, forced) == (want_tables, want_rest, [])
        # the rest has a table of its own after the last one (as for Mitchell/Danish)
        assert rnd.tables.get(bye=Table.Bye.REST).number == 3
        met += [frozenset(p) for p in tables.values()]
        rests += rest
        play(rnd, arbiter)
    assert sorted(rests) == [1, 2, 3, 4, 5]                      # each pair rests once
    assert sorted(met, key=sorted) == sorted({frozenset(c) for c in combinations(range(1, 6), 2)},
                                             key=sorted)         # everyone meets once
    # all games 0-0 (10-10 VP); each pair: 4 games × 10 + one rest 14 (70% of 20, §5) = 54
    rows = selectors.standings(rr5)
    assert {r.pair: r.vp for r in rows} == dict.fromkeys(range(1, 6), Decimal("54"))


def test_rest_scored_as_section_5(rr5, arbiter):
    rnd = services.generate_round(tournament=rr5, by=arbiter)
    play(rnd, arbiter, {1: (300, 0)})  # 2 beats 5 by 300 MP at table 1
    rows = {r.pair: r for r in selectors.standings(rr5)}
    assert rows[1].vp == Decimal("14") and rows[1].rests == 1   # 70% of 20 VP


def test_withdrawn_pair_keeps_slot_opponent_forced_rest(rr5, arbiter):
    """Pair 5 withdraws after round 1: round 2 (1-5, 4 rests, 2-3) gives 1 a forced rest
    at its schedule table 1; 2-3 stay at table 2."""
    play(services.generate_round(tournament=rr5, by=arbiter), arbiter)
    services.withdraw_pair(pair=Pair.objects.get(tournament=rr5, number=5), from_round=2, by=arbiter)
    rnd = services.generate_round(tournament=rr5, by=arbiter)
    assert rnd.pairing_request["absent"] == [5]
    tables, rests, forced = seating(rnd)
    assert tables == {2: (2, 3)} and rests == [4] and forced == [1]
    assert rnd.tables.get(bye=Table.Bye.FORCED).number == 1


# -- groups ------------------------------------------------------------------------------------
@pytest.fixture
def rr8(tournament, make_pairs, arbiter):
    services.update_tournament(tournament=tournament, by=arbiter, plan="RRR")
    make_pairs(tournament, 8)
    tournament.refresh_from_db()
    return tournament


def test_snake_two_groups_of_eight(rr8, arbiter):
    """Snake with G = 2: 1→g1 2→g2 / 3→g2 4→g1 / 5→g1 6→g2 / 7→g2 8→g1."""
    groups = services.split_groups(tournament=rr8, by=arbiter, count=2, method="snake")
    assert groups == [[1, 4, 5, 8], [2, 3, 6, 7]]
    assert dict(rr8.pairs.values_list("number", "group")) == {
        1: 1, 4: 1, 5: 1, 8: 1, 2: 2, 3: 2, 6: 2, 7: 2}
    rr8.refresh_from_db()
    assert (rr8.groups, rr8.group_split) == (2, "snake")


def test_groups_tables_numbered_group_after_group(rr8, arbiter):
    """g1 = 1 4 5 8, g2 = 2 3 6 7. r1: g1 1-8, 4-5 (tables 1, 2), g2 2-7, 3-6 (3, 4).
    r2 (k=1, seq L0 L3 L1 L2): g1 1-5, 8-4; g2 2-6, 7-3."""
    services.split_groups(tournament=rr8, by=arbiter, count=2, method="snake")
    r1 = services.generate_round(tournament=rr8, by=arbiter)
    assert r1.pairing_request["groups"] == [[1, 4, 5, 8], [2, 3, 6, 7]]
    assert seating(r1) == ({1: (1, 8), 2: (4, 5), 3: (2, 7), 4: (3, 6)}, [], [])
    assert r1.check_report == []
    # g1: 1 beats 8 by 300 MP (table 1); g2: 3 beats 6 by 300 MP (table 4)
    play(r1, arbiter, {1: (300, 0), 4: (300, 0)})
    r2 = services.generate_round(tournament=rr8, by=arbiter)
    assert seating(r2) == ({1: (1, 5), 2: (8, 4), 3: (2, 6), 4: (7, 3)}, [], [])


def test_standings_per_group(rr8, arbiter):
    services.split_groups(tournament=rr8, by=arbiter, count=2, method="snake")
    r1 = services.generate_round(tournament=rr8, by=arbiter)
    play(r1, arbiter, {1: (300, 0), 4: (300, 0)})
    rr8.refresh_from_db()
    by_group = pages.groups.standings_by_group(rr8)
    assert [g.group for g in by_group] == [1, 2]
    g1 = [(r.position_label, r.pair) for r in by_group[0].rows]
    g2 = [(r.position_label, r.pair) for r in by_group[1].rows]
    # g1: 1 won (first), 4-5 drew 0-0 (10-10, shared 2nd), 8 lost (4th)
    assert g1 == [("1", 1), ("2=", 4), ("2=", 5), ("4", 8)]
    # g2: 3 won, 2-7 drew, 6 lost
    assert g2 == [("1", 3), ("2=", 2), ("2=", 7), ("4", 6)]


def test_groups_with_odd_sizes_each_rest(tournament, make_pairs, arbiter):
    """10 pairs, 2 groups by snake: g1 = 1 4 5 8 9, g2 = 2 3 6 7 10 (+ phantom each).
    r1: g1 1 rests, 4-9, 5-8 (tables 1, 2); g2 2 rests, 3-10, 6-7 (tables 3, 4);
    the rests get tables 5 and 6."""
    services.update_tournament(tournament=tournament, by=arbiter, plan="RRRRR")
    make_pairs(tournament, 10)
    assert services.split_groups(tournament=tournament, by=arbiter, count=2, method="snake") == [
        [1, 4, 5, 8, 9], [2, 3, 6, 7, 10]]
    rnd = services.generate_round(tournament=tournament, by=arbiter)
    assert seating(rnd) == ({1: (4, 9), 2: (5, 8), 3: (3, 10), 4: (6, 7)}, [1, 2], [])
    assert rnd.check_report == []
    play(rnd, arbiter)
    rows = {r.pair: r.vp for r in selectors.standings(tournament)}
    assert rows[1] == rows[2] == Decimal("14")


def test_groups_by_lot_reproducible(rr8, arbiter):
    a = services.split_groups(tournament=rr8, by=arbiter, count=2, method="lot", seed=7)
    b = services.split_groups(tournament=rr8, by=arbiter, count=2, method="lot", seed=7)
    assert a == b and sorted(len(g) for g in a) == [4, 4]
    rr8.refresh_from_db()
    assert rr8.group_seed == 7


def test_groups_by_hand_and_refusals(rr8, arbiter):
    assignment = {1: 1, 2: 1, 3: 1, 4: 1, 5: 2, 6: 2, 7: 2, 8: 2}
    assert services.split_groups(tournament=rr8, by=arbiter, count=2, method="hand",
                                 assignment=assignment) == [[1, 2, 3, 4], [5, 6, 7, 8]]
    with pytest.raises(ArbiterError, match="meno di 2"):
        services.split_groups(tournament=rr8, by=arbiter, count=2, method="hand",
                              assignment={**assignment, 5: 1, 6: 1, 7: 1})
    with pytest.raises(ArbiterError, match="Manca il girone"):
        services.split_groups(tournament=rr8, by=arbiter, count=2, method="hand", assignment={1: 1})
    with pytest.raises(ArbiterError, match="al massimo 4"):
        services.split_groups(tournament=rr8, by=arbiter, count=5, method="snake")
    # nothing lost: the last good split stays
    assert dict(rr8.pairs.values_list("number", "group"))[5] == 2


def test_groups_frozen_once_a_round_robin_round_is_published(rr8, arbiter):
    services.split_groups(tournament=rr8, by=arbiter, count=2, method="snake")
    rnd = services.generate_round(tournament=rr8, by=arbiter)
    # a draft does not freeze: splitting again makes it outdated
    services.split_groups(tournament=rr8, by=arbiter, count=2, method="lot", seed=3)
    assert services.draft_staleness(Round.objects.get(pk=rnd.pk))
    rnd = services.redraw_round(round=Round.objects.get(pk=rnd.pk), by=arbiter)
    services.publish_round(round=rnd, by=arbiter)
    with pytest.raises(ArbiterError, match="non si cambiano più"):
        services.split_groups(tournament=rr8, by=arbiter, count=2, method="snake")


def test_pair_without_group_refused_at_generation(rr8, arbiter):
    services.split_groups(tournament=rr8, by=arbiter, count=2, method="snake")
    services.add_pair(tournament=rr8, by=arbiter, players=[  # a 9th pair after the split
        services.PlayerData(first_name="Ada", last_name="Nuova", membership_number="N1"),
        services.PlayerData(first_name="Ugo", last_name="Nuovo", membership_number="N2")])
    rr8.refresh_from_db()
    with pytest.raises(ArbiterError, match="non hanno un girone"):
        services.generate_round(tournament=rr8, by=arbiter)


def test_round_robin_counter_skips_other_systems(tournament, make_pairs, arbiter):
    """DRR: round 2 is the round robin's 1st round, round 3 its 2nd."""
    services.update_tournament(tournament=tournament, by=arbiter, plan="DRR")
    make_pairs(tournament, 4)
    play(services.generate_round(tournament=tournament, by=arbiter), arbiter)
    r2 = services.generate_round(tournament=tournament, by=arbiter)
    assert r2.system == "round-robin" and r2.pairing_request["round"] == 1
    # Danish round 1 by number: 1-2, 3-4; round robin r1: 1-4, 2-3 (no repeat)
    assert seating(r2)[0] == {1: (1, 4), 2: (2, 3)}
    play(r2, arbiter)
    r3 = services.generate_round(tournament=tournament, by=arbiter)
    assert r3.pairing_request["round"] == 2
    # r2 of the circle: 1-3, 4-2
    assert seating(r3)[0] == {1: (1, 3), 2: (4, 2)}


# -- pages ----------------------------------------------------------------------------------
from django.urls import reverse  # noqa: E402

from tournaments.printing import documents, spreadsheets  # noqa: E402


def test_groups_page_split_by_snake_and_by_hand(arbiter_client, rr8):
    url = reverse("groups", args=[rr8.slug])
    page = arbiter_client.get(url)
    assert page.status_code == 200 and "serpentina" in page.content.decode()
    response = arbiter_client.post(url, {"count": 2, "method": "snake"})
    assert response.status_code == 302
    assert dict(rr8.pairs.values_list("number", "group")) == {
        1: 1, 2: 2, 3: 2, 4: 1, 5: 1, 6: 2, 7: 2, 8: 1}
    html = arbiter_client.get(url).content.decode()
    assert 'data-group="1"' in html and 'data-group="2"' in html
    hand = {"count": 2, "method": "hand", **{f"g{n}": 1 if n <= 4 else 2 for n in range(1, 9)}}
    assert arbiter_client.post(url, hand).status_code == 302
    assert dict(rr8.pairs.values_list("number", "group"))[4] == 1


def test_groups_page_bad_input_loses_nothing(arbiter_client, rr8, arbiter):
    services.split_groups(tournament=rr8, by=arbiter, count=2, method="snake")
    url = reverse("groups", args=[rr8.slug])
    bad = {"count": 2, "method": "hand", **{f"g{n}": 1 for n in range(1, 9)}, "g8": "x"}
    page = arbiter_client.post(url, bad)
    assert page.status_code == 200
    assert "Coppia 8: scrivi il numero del girone." in page.content.decode()
    page = arbiter_client.post(url, {"count": 2, "method": "hand", **{f"g{n}": 1 for n in range(1, 9)}})
    assert "meno di 2" in page.content.decode()
    assert dict(rr8.pairs.values_list("number", "group"))[2] == 2  # the snake split stays


def test_groups_page_frozen_after_publish(arbiter_client, rr8, arbiter):
    services.split_groups(tournament=rr8, by=arbiter, count=2, method="snake")
    rnd = services.generate_round(tournament=rr8, by=arbiter)
    services.publish_round(round=rnd, by=arbiter)
    url = reverse("groups", args=[rr8.slug])
    html = arbiter_client.get(url).content.decode()
    assert 'id="groups-frozen"' in html and "<form" not in html.split("</h1>")[1]
    arbiter_client.post(url, {"count": 2, "method": "lot", "seed": 5})
    assert dict(rr8.pairs.values_list("number", "group"))[2] == 2


def test_settings_accept_plan_letter_r_and_tournament_links_groups(arbiter_client, tournament):
    from tournaments.plans import plan_refusal

    assert plan_refusal("RRRRR") is None and plan_refusal("DR|RR") is None
    assert "R (girone all'italiana)" in plan_refusal("RRX")
    services.update_tournament(tournament=tournament, by=tournament.arbiters.first(), plan="RRR")
    html = arbiter_client.get(reverse("tournament", args=[tournament.slug])).content.decode()
    assert 'id="groups-link"' in html


def test_round_page_and_standings_page_per_group(arbiter_client, rr8, arbiter):
    services.split_groups(tournament=rr8, by=arbiter, count=2, method="snake")
    r1 = services.generate_round(tournament=rr8, by=arbiter)
    page = arbiter_client.get(reverse("round", args=[rr8.slug, 1]))
    assert page.status_code == 200
    play(r1, arbiter, {1: (300, 0), 4: (300, 0)})
    html = arbiter_client.get(reverse("standings", args=[rr8.slug])).content.decode()
    assert 'id="group-selector"' in html
    assert 'id="girone-1"' in html and 'id="girone-2"' in html
    group2 = html.split('id="girone-2"')[1]
    # group 2: 3 first, 2 and 7 shared second, 6 fourth
    rows = [cell.split("</td>")[0] for cell in group2.split('<tr><td class="num">')[1:5]]
    assert rows == ["1", "2=", "2=", "4"]


def test_standings_documents_per_group(rr8, arbiter):
    services.split_groups(tournament=rr8, by=arbiter, count=2, method="snake")
    play(services.generate_round(tournament=rr8, by=arbiter), arbiter, {1: (300, 0), 4: (300, 0)})
    rr8.refresh_from_db()
    doc = documents.standings_document(rr8)
    assert [g for g, _rows in doc.groups] == [1, 2]
    assert [(r.position, r.pair) for r in doc.groups[0][1]] == [("1", 1), ("2=", 4), ("2=", 5), ("4", 8)]
    assert "Girone 2" in documents.standings_html(doc)
    import io

    import openpyxl
    wb = openpyxl.load_workbook(io.BytesIO(spreadsheets.standings_xlsx(doc)))
    assert wb.sheetnames == ["Classifica", "Girone 1", "Girone 2"]
    assert [c.value for c in wb["Girone 2"]["C"]][1:] == [3, 2, 7, 6]


def test_late_pair_takes_the_phantom_slot(rr5, arbiter):
    """5 pairs, round 1 drawn (1 rests). Late pair 6 takes the phantom's slot: it meets 1
    (1 N/S, as the match 1-N), and the draft is renumbered as the 6-entrant schedule of
    round 1: 1-6, 2-5, 3-4 at tables 1, 2, 3. With 6 entrants round 2 is k=1:
    seq 1 6 2 3 4 5 → 1-5, 6-4, 2-3."""
    r1 = services.generate_round(tournament=rr5, by=arbiter)
    pair = services.add_late_pair(tournament=rr5, by=arbiter, players=[
        services.PlayerData(first_name="Ada", last_name="Tarda", membership_number="T1"),
        services.PlayerData(first_name="Ugo", last_name="Tardi", membership_number="T2")])
    assert pair.number == 6
    r1 = Round.objects.get(pk=r1.pk)
    assert seating(r1) == ({1: (1, 6), 2: (2, 5), 3: (3, 4)}, [], [])
    assert r1.check_report == [] and services.draft_staleness(r1) == []
    play(r1, arbiter)
    r2 = services.generate_round(tournament=rr5, by=arbiter)
    assert seating(r2) == ({1: (1, 5), 2: (6, 4), 3: (2, 3)}, [], [])
    assert r2.check_report == []


def test_late_pair_joins_the_odd_group(tournament, make_pairs, arbiter):
    """9 pairs, 2 groups by the snake: g1 = 1 4 5 8 9 (1 rests in r1), g2 = 2 3 6 7.
    Late pair 10 joins g1 in the phantom's slot: g1 r1 = 1-10, 4-9, 5-8 (tables 1-3), g2
    follows at tables 4, 5: 2-7, 3-6."""
    services.update_tournament(tournament=tournament, by=arbiter, plan="RRR")
    make_pairs(tournament, 9)
    services.split_groups(tournament=tournament, by=arbiter, count=2, method="snake")
    services.generate_round(tournament=tournament, by=arbiter)
    services.add_late_pair(tournament=tournament, by=arbiter, players=[
        services.PlayerData(first_name="Ada", last_name="Tarda", membership_number="T1"),
        services.PlayerData(first_name="Ugo", last_name="Tardi", membership_number="T2")])
    r1 = Round.objects.get(tournament=tournament, number=1)
    assert Pair.objects.get(tournament=tournament, number=10).group == 1
    assert seating(r1) == ({1: (1, 10), 2: (4, 9), 3: (5, 8), 4: (2, 7), 5: (3, 6)}, [], [])
    assert r1.check_report == []
