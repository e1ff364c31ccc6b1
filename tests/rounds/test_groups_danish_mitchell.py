"""Danish and Mitchell rounds in groups in the app (rules.md §19; §5 rests, §6 Mitchell, §7
Danish, §14 groups): services, pages, documents.

14 pairs split by the snake into two groups of 7 (README, "Round robin and groups"):
group 1 = 1, 4, 5, 8, 9, 12, 13 and group 2 = 2, 3, 6, 7, 10, 11, 14. 4 hands, vp20-4h:
0–100 MP → 10–10, 105–300 → 11–9, 305–500 → 12–8, 505–700 → 13–7, 905–1100 → 15–5;
a rest scores 14 VP (§5).
"""
import io

import openpyxl
import pytest
from django.urls import reverse

from tournaments import pages, selectors, services
from tournaments.errors import ArbiterError
from tournaments.models import Round, Table
from tournaments.printing import documents, spreadsheets
from tournaments.services import HandInput
from tournaments.services.groups import groups_frozen

from ..tournaments.individual_helpers import register

G1 = [1, 4, 5, 8, 9, 12, 13]
G2 = [2, 3, 6, 7, 10, 11, 14]


def seating(rnd):
    """({table: (ns, ew)}, {rest table: resting pair})."""
    tables, rests = {}, {}
    for t in selectors.round_tables(rnd):
        if t.bye == Table.Bye.REST:
            rests[t.number] = t.resting_pair.number
        else:
            tables[t.number] = (t.ns.number, t.ew.number)
    return tables, rests


def play(rnd, arbiter, scores=None):
    """Publish, enter hand 1 = ``scores[table]`` (N/S, E/W MP; 0–0 otherwise), validate, close."""
    rnd = services.publish_round(round=rnd, by=arbiter, acknowledge_warnings=True)
    for t in rnd.tables.filter(bye=""):
        ns, ew = (scores or {}).get(t.number, (0, 0))
        services.save_score_sheet(table=t, by=arbiter, validate=True,
                                  hands=[HandInput(ns, ew)] + [HandInput(0, 0)] * 3)
    return services.close_round(round=rnd, by=arbiter)


@pytest.fixture
def fourteen(tournament, make_pairs, arbiter):
    def make(plan):
        services.update_tournament(tournament=tournament, by=arbiter, plan=plan)
        make_pairs(tournament, 14)
        assert services.split_groups(tournament=tournament, by=arbiter, count=2, method="snake") == [G1, G2]
        tournament.refresh_from_db()
        return tournament
    return make


# Round 1 results (table: N/S MP, E/W MP), with the VP they give:
# t1 1 v 4: 1000–0 → 1 15, 4 5      t4 2 v 3: 0–1000 → 3 15, 2 5
# t2 5 v 8: 600–0  → 5 13, 8 7      t5 6 v 7: 600–0  → 6 13, 7 7
# t3 9 v 12: 200–0 → 9 11, 12 9     t6 10 v 11: 0–200 → 11 11, 10 9
# rests: 13 and 14, 14 VP each.
ROUND1 = {1: (1000, 0), 2: (600, 0), 3: (200, 0), 4: (0, 1000), 5: (600, 0), 6: (0, 200)}


def test_danish_in_two_groups_of_seven(fourteen, arbiter):
    t = fourteen("DDD")
    r1 = services.generate_round(tournament=t, by=arbiter)
    assert r1.pairing_request["groups"] == [G1, G2]
    # By pair number within each group (first round by number): 1v2, 3v4, 5v6 of the group's
    # order, the 7th rests; group 2's tables follow group 1's three; the rests after them.
    assert seating(r1) == ({1: (1, 4), 2: (5, 8), 3: (9, 12), 4: (2, 3), 5: (6, 7), 6: (10, 11)},
                           {7: 13, 8: 14})
    assert r1.check_report == []
    play(r1, arbiter, ROUND1)
    # Group 1 standings: 1 15, 13 14 (rest), 5 13, 9 11, 12 9, 8 7, 4 5. 13 rested, so the
    # lowest pair that has not, 4, rests; then 1 v 13, 5 v 9, 12 v 8 (none met before).
    # Group 2: 3 15, 14 14, 6 13, 11 11, 10 9, 7 7, 2 5: 2 rests; 3 v 14, 6 v 11, 10 v 7.
    r2 = services.generate_round(tournament=t, by=arbiter)
    assert seating(r2) == ({1: (1, 13), 2: (5, 9), 3: (12, 8), 4: (3, 14), 5: (6, 11), 6: (10, 7)},
                           {7: 4, 8: 2})
    assert r2.check_report == []
    by_group = pages.groups.standings_by_group(t)
    assert [r.pair for r in by_group[0].rows] == [1, 13, 5, 9, 12, 8, 4]
    assert [r.pair for r in by_group[1].rows] == [3, 14, 6, 11, 10, 7, 2]


@pytest.mark.slow
def test_danish_in_groups_never_rests_a_pair_twice_in_the_session(fourteen, arbiter):
    t = fourteen("DDDDDDD")
    rests = []
    for _ in range(7):
        rnd = services.generate_round(tournament=t, by=arbiter)
        tables, rest = seating(rnd)
        group_of = {p: 1 for p in G1} | {p: 2 for p in G2}
        assert all(group_of[a] == group_of[b] for a, b in tables.values())
        assert sorted(group_of[p] for p in rest.values()) == [1, 2]
        rests += rest.values()
        play(rnd, arbiter, {k: (5 * (k * 37 % 40) * 10, 0) for k in tables})
    assert sorted(rests) == list(range(1, 15))  # 7 rounds, 7 pairs a group: each rests once


def test_mitchell_per_group(fourteen, arbiter):
    t = fourteen("MM")
    # Mitchell order = pair numbers; each group's order is it restricted to the group.
    # Group 1: T = 4, N/S 1 4 5 at tables 1–3, the phantom at table 4; E/W 8 9 12 13 start at
    # tables 1–4 (13 meets the phantom: rests). Group 2: N/S 2 3 6 at tables 4–6, E/W 7 10 11
    # 14 (14 rests). Round 2, E/W +1: group 1 13 → 1, 8 → 2, 9 → 3, 12 rests; group 2
    # 14 → 4, 7 → 5, 10 → 6, 11 rests.
    r1 = services.generate_round(tournament=t, by=arbiter)
    assert r1.pairing_request["groups"] == [G1, G2]
    assert "pairs" not in r1.pairing_request
    assert seating(r1) == ({1: (1, 8), 2: (4, 9), 3: (5, 12), 4: (2, 7), 5: (3, 10), 6: (6, 11)},
                           {7: 13, 8: 14})
    assert r1.check_report == []
    play(r1, arbiter)
    r2 = services.generate_round(tournament=t, by=arbiter)
    assert seating(r2) == ({1: (1, 13), 2: (4, 8), 3: (5, 9), 4: (2, 14), 5: (3, 7), 6: (6, 10)},
                           {7: 12, 8: 11})
    assert r2.check_report == []


def test_groups_frozen_at_first_publish_of_a_grouped_danish_round(fourteen, arbiter):
    t = fourteen("DDD")
    r1 = services.generate_round(tournament=t, by=arbiter)
    assert not groups_frozen(t)  # a draft does not freeze them
    services.split_groups(tournament=t, by=arbiter, count=2, method="lot", seed=3)
    r1 = services.redraw_round(round=t.rounds.get(number=1), by=arbiter)
    services.publish_round(round=r1, by=arbiter)
    assert groups_frozen(t)
    with pytest.raises(ArbiterError, match="un turno giocato nei gironi è già stato pubblicato"):
        services.split_groups(tournament=t, by=arbiter, count=2, method="snake")


def test_a_round_played_before_the_split_does_not_freeze_the_groups(tournament, make_pairs, arbiter):
    services.update_tournament(tournament=tournament, by=arbiter, plan="DDD")
    make_pairs(tournament, 8)
    play(services.generate_round(tournament=tournament, by=arbiter), arbiter)
    assert not groups_frozen(tournament)
    services.split_groups(tournament=tournament, by=arbiter, count=2, method="snake")
    tournament.refresh_from_db()
    r2 = services.generate_round(tournament=tournament, by=arbiter)
    assert r2.pairing_request["groups"] == [[1, 4, 5, 8], [2, 3, 6, 7]]


def test_individual_tournament_has_no_groups(indiv, arbiter, arbiter_client):  # noqa: F811
    register(indiv, arbiter, 8)
    with pytest.raises(ArbiterError, match="Un torneo individuale non si divide in gironi"):
        services.split_groups(tournament=indiv, by=arbiter, count=2, method="snake")
    page = arbiter_client.get(reverse("groups", args=[indiv.slug]))
    assert page.status_code == 200
    assert "Un torneo individuale non si divide in gironi" in page.content.decode()
    assert 'id="groups-link"' not in arbiter_client.get(reverse("tournament", args=[indiv.slug])).content.decode()


def test_groups_page_linked_for_a_danish_plan(fourteen, arbiter_client):
    t = fourteen("DDD")
    html = arbiter_client.get(reverse("tournament", args=[t.slug])).content.decode()
    assert 'id="groups-link"' in html
    assert 'id="groups-danish"' in arbiter_client.get(reverse("groups", args=[t.slug])).content.decode()


def test_standings_page_pdf_and_xlsx_per_group_after_danish(fourteen, arbiter, arbiter_client):
    t = fourteen("DDD")
    play(services.generate_round(tournament=t, by=arbiter), arbiter, ROUND1)
    html = arbiter_client.get(reverse("standings", args=[t.slug])).content.decode()
    assert 'id="girone-1"' in html and 'id="girone-2"' in html
    doc = documents.standings_document(t)
    assert [(r.position, r.pair) for r in doc.groups[1][1]] == [
        ("1", 3), ("2", 14), ("3", 6), ("4", 11), ("5", 10), ("6", 7), ("7", 2)]
    wb = openpyxl.load_workbook(io.BytesIO(spreadsheets.standings_xlsx(doc)))
    assert wb.sheetnames == ["Classifica", "Girone 1", "Girone 2"]
    assert [c.value for c in wb["Girone 1"]["C"]][1:] == [1, 13, 5, 9, 12, 8, 4]


def test_round_system_and_recheck_after_a_swap_across_groups(fourteen, arbiter):
    t = fourteen("DDD")
    r1 = services.generate_round(tournament=t, by=arbiter)
    assert r1.system == Round.System.DANISH
    r1 = services.swap_pairs(round=r1, pair_a=4, pair_b=3, by=arbiter)
    report = [str(x.get("text", x)) if isinstance(x, dict) else str(x) for x in r1.check_report]
    assert any("sono di gironi diversi" in line for line in report)


def test_public_page_shows_the_standings_per_group(fourteen, arbiter, client):
    t = fourteen("DDD")
    services.update_tournament(tournament=t, by=arbiter, public_enabled=True)
    play(services.generate_round(tournament=t, by=arbiter), arbiter, ROUND1)
    html = client.get(reverse("public", args=[t.slug])).content.decode()
    assert 'id="girone-1"' in html and 'id="girone-2"' in html
    group2 = html.split('id="girone-2"')[1]
    # group 2 after round 1: 3 first, 14 (rest) second, 6 third … 2 seventh
    rows = group2.split("<tr><td class=\"num\">")[1:]
    assert [r.split("</td>")[0] for r in rows] == ["1", "2", "3", "4", "5", "6", "7"]
    assert [r.split("<td>")[1].split(" ")[0] for r in rows] == ["3", "14", "6", "11", "10", "7", "2"]
    assert "A3" not in html  # never a membership number on a public page


LATE = [services.PlayerData(first_name="Ada", last_name="Tarda", membership_number="T1"),
        services.PlayerData(first_name="Ugo", last_name="Tardi", membership_number="T2")]


@pytest.mark.parametrize("plan,want", [
    # Mitchell: 13 pairs, g1 = 1 4 5 8 9 12 13 (T = 4: N/S 1 4 5 + phantom; E/W 8 9 12 13,
    # 13 rests), g2 = 2 3 6 7 10 11 (T = 3, tables 4–6). Late pair 14 takes g1's phantom
    # N/S seat (table 4, v 13); g2 moves up to tables 5–7.
    ("MM", {1: (1, 8), 2: (4, 9), 3: (5, 12), 4: (14, 13), 5: (2, 7), 6: (3, 10), 7: (6, 11)}),
    # Danish by number: g1 1-4, 5-8, 9-12, 13 rests; the late pair 14 ranks last of g1 and
    # meets 13 at table 4; g2's 2-3, 6-7, 10-11 move to tables 5–7.
    ("DD", {1: (1, 4), 2: (5, 8), 3: (9, 12), 4: (13, 14), 5: (2, 3), 6: (6, 7), 7: (10, 11)}),
])
def test_late_pair_joins_the_resting_pairs_group(tournament, make_pairs, arbiter, plan, want):
    services.update_tournament(tournament=tournament, by=arbiter, plan=plan)
    make_pairs(tournament, 13)
    services.split_groups(tournament=tournament, by=arbiter, count=2, method="snake")
    tournament.refresh_from_db()
    services.generate_round(tournament=tournament, by=arbiter)
    late = services.add_late_pair(tournament=tournament, by=arbiter, players=LATE)
    late.refresh_from_db()
    assert late.number == 14 and late.group == 1
    r1 = Round.objects.get(tournament=tournament, number=1)
    assert seating(r1) == (want, {})
    assert r1.check_report == []
    assert not services.draft_staleness(r1)


def test_plan_warning_counts_each_groups_own_movement(fourteen, arbiter_client):
    # 14 pairs: one movement of T = 7 tables would not repeat in 5 rounds; a group of 7 has
    # T = 4, so its 5th Mitchell round repeats round 1's meetings (rules.md §6).
    t = fourteen("MMMMM")
    html = arbiter_client.get(reverse("tournament", args=[t.slug])).content.decode()
    assert "Girone 1: Turno 5 del Mitchell (passo 1): si ripeterebbero gli incontri del turno 1" in html
    assert "Girone 2: Turno 5 del Mitchell" in html


def test_idle_pairs_of_two_groups_are_not_seated_together(tournament, make_pairs, arbiter):
    # 13 pairs, Mitchell in groups: g1 = 1 4 5 8 9 12 13 (odd: 13 rests in round 1), g2 =
    # 2 3 6 7 10 11. Pair 2 (g2, N/S at table 4) withdraws: 7, its E/W opponent, has a
    # forced rest. The rest (13, g1) and the forced rest (7, g2) never share a table (§19).
    services.update_tournament(tournament=tournament, by=arbiter, plan="MM")
    make_pairs(tournament, 13)
    services.split_groups(tournament=tournament, by=arbiter, count=2, method="snake")
    tournament.refresh_from_db()
    services.withdraw_pair(pair=tournament.pairs.get(number=2), from_round=1, by=arbiter)
    r1 = services.generate_round(tournament=tournament, by=arbiter)
    assert [(t.number, t.resting_pair.number) for t in r1.tables.filter(bye=Table.Bye.FORCED)] == [(4, 7)]
    assert [t.resting_pair.number for t in r1.tables.filter(bye=Table.Bye.REST)] == [13]
    assert services.idle_pairs_seatable(r1) is None
    with pytest.raises(ArbiterError):
        services.seat_idle_pairs_together(round=r1, by=arbiter)


def _row(page, number):
    return page.split(f'<tr id="table-{number}"', 1)[1].split("</tr>", 1)[0]


def test_round_page_says_each_tables_group(fourteen, arbiter, arbiter_client):
    """rules.md §19: the tables of a Danish round in groups are numbered group after group
    (tables 1–3 group 1, 4–6 group 2, rests 7 = pair 13 of group 1 and 8 = pair 14 of group
    2, as in test_danish_in_two_groups_of_seven); the round page says each table's group."""
    t = fourteen("DDD")
    r1 = services.generate_round(tournament=t, by=arbiter)
    expected = {1: 1, 2: 1, 3: 1, 4: 2, 5: 2, 6: 2, 7: 1, 8: 2}
    assert selectors.table_groups(r1) == expected
    for state in ("draft", "published"):
        page = arbiter_client.get(reverse("round", args=[t.slug, 1])).content.decode()
        assert 'id="group-heading"' in page, state
        for table, group in expected.items():
            row = _row(page, table)
            assert f'data-group="{group}"' in row
            assert f'<td class="num group">{group}</td>' in row, (state, table)
        if state == "draft":
            r1 = services.publish_round(round=r1, by=arbiter, acknowledge_warnings=True)


def test_round_page_of_a_round_not_in_groups_has_no_group_column(tournament, make_pairs, arbiter, arbiter_client):
    make_pairs(tournament, 8)
    r1 = services.generate_round(tournament=tournament, by=arbiter)
    assert selectors.table_groups(r1) == {}
    page = arbiter_client.get(reverse("round", args=[tournament.slug, 1])).content.decode()
    assert 'id="group-heading"' not in page and "data-group" not in page and 'class="num group"' not in page


def test_groups_page_first_paragraph_covers_every_system(fourteen, arbiter_client):
    t = fourteen("DDD")
    page = arbiter_client.get(reverse("groups", args=[t.slug])).content.decode()
    first = page.split('<p class="muted">', 1)[1].split("</p>", 1)[0]
    for words in ("all'italiana (R)", "danesi (D)", "Mitchell (M)", "il girone di ogni tavolo"):
        assert words in first
