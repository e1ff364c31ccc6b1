"""``simulate``: a whole tournament through the arbiter's services, checked against the rules.

Every expectation is re-derived from ``results.json`` with the pure rules (``scoring.vp``,
``pairing.check``), never read back from the code under test: VP from the 4-hand scale
(rules.md §4), rests 14 VP and never twice (§5, art. 33), the Mitchell movement (§6), the
Danish round top-down without rematches from the standings before it (§7), standings VP as
the sum of each pair's VP (§8).
"""
from __future__ import annotations

import json
from collections import Counter, defaultdict

import pytest
from django.core.management import call_command

import pairing.check
from scoring.vp import convert, scale_for_hands
from tournaments.demo import simulation
from tournaments.models import AuditEntry, Round

SCALE_4H = scale_for_hands(4)


def expected_files(rounds: int) -> set[str]:
    names = {"standings.pdf", "standings.xlsx", "results.json"}
    for k in range(1, rounds + 1):
        names |= {f"scoresheets-round-{k}.pdf", f"tablelist-round-{k}.pdf"}
    return names


def check_results(data: dict, n_pairs: int, plan: str = "MMMD") -> None:
    """All rule checks on one results.json document.

    ``plan``: ``|`` splits sessions: each round must carry its session
    (1-based), and a pair may rest once per session, so the rests are counted per session.
    """
    assert set(data) == {"tournament", "rounds", "standings"}
    assert data["tournament"]["hands"] == 4 and data["tournament"]["plan"] == plan
    assert data["tournament"]["vp_scale"] == "vp20-4h"
    # the session of each round, read off the plan by hand: "MMD|DD" → 1, 1, 1, 2, 2
    sessions = [k for k, part in enumerate(plan.split("|"), start=1) for _letter in part]
    assert data["tournament"]["sessions"] == sessions[-1]
    assert [r["number"] for r in data["rounds"]] == list(range(1, len(sessions) + 1))
    assert [r["session"] for r in data["rounds"]] == sessions
    pairs = set(range(1, n_pairs + 1))
    rested: list[int] = []
    met: list[list[int]] = []
    vp_total: dict[int, float] = defaultdict(float)
    mitchell_round = 0
    for rnd in data["rounds"]:
        assert set(rnd) == {"number", "system", "session", "step", "tables", "bye", "standings_after"}
        if rnd["number"] > 1 and rnd["session"] != sessions[rnd["number"] - 2]:
            rested = []  # a new session: the rest rule starts again (rules.md §5)
        seated = Counter()
        for t in rnd["tables"]:
            assert set(t) == {"table", "ns", "ew", "mp_ns", "mp_ew", "vp_ns", "vp_ew"}
            assert t["mp_ns"] % 5 == 0 and t["mp_ew"] % 5 == 0
            assert (t["vp_ns"], t["vp_ew"]) == convert(t["mp_ns"], t["mp_ew"], SCALE_4H), t
            seated.update([t["ns"], t["ew"]])
            vp_total[t["ns"]] += t["vp_ns"]
            vp_total[t["ew"]] += t["vp_ew"]
        assert [t["table"] for t in rnd["tables"]] == list(range(1, len(rnd["tables"]) + 1))
        if n_pairs % 2:
            bye = rnd["bye"]
            assert bye["vp"] == 14 and bye["mp"] == 0  # 70 % of 20 VP, no MP (rules.md §5)
            assert bye["pair"] not in rested, f"pair {bye['pair']} rests twice"
            rested.append(bye["pair"])
            seated[bye["pair"]] += 1
            vp_total[bye["pair"]] += bye["vp"]
        else:
            assert rnd["bye"] is None
        assert seated == Counter(pairs), f"round {rnd['number']}: every pair exactly once"
        response = {"tables": [{"table": t["table"], "ns": t["ns"], "ew": t["ew"]} for t in rnd["tables"]],
                    "bye": rnd["bye"]["pair"] if rnd["bye"] else None, "rematches": [], "warnings": []}
        if rnd["system"] == "mitchell":
            mitchell_round += 1
            assert rnd["step"] == 1
            request = {"system": "mitchell", "pairs": sorted(pairs), "round": mitchell_round, "step": 1}
        else:
            previous = data["rounds"][rnd["number"] - 2]["standings_after"]
            request = {
                "system": "danish",
                "ranking": [row["pair"] for row in previous],
                "met": [list(m) for m in met],
                "met_last_round": [[t["ns"], t["ew"]] for t in data["rounds"][rnd["number"] - 2]["tables"]],
                "rested": rested[:-1] if rnd["bye"] else list(rested),
                "avoid_rematches": "all",
            }
            earlier = {frozenset(m) for m in met}
            assert not [t for t in rnd["tables"] if frozenset((t["ns"], t["ew"])) in earlier], "rematch"
        assert pairing.check.check(request, response) == [], f"round {rnd['number']}"
        met += [[t["ns"], t["ew"]] for t in rnd["tables"]]
        standings = rnd["standings_after"]
        assert sorted(row["pair"] for row in standings) == sorted(pairs)
        for row in standings:
            assert set(row) == {"position", "pair", "vp", "mp_difference", "tied"}
            assert row["vp"] == pytest.approx(vp_total[row["pair"]])
        vps = [row["vp"] for row in standings]
        assert vps == sorted(vps, reverse=True)
    assert data["standings"] == data["rounds"][-1]["standings_after"]


@pytest.mark.django_db
def test_simulate_29_pairs_writes_everything_and_follows_the_rules(data_dir, tmp_path, arbiter):
    out = tmp_path / "out"
    tournament = simulation.simulate(registrations=data_dir / "registrations-29.csv", plan="MMMD", hands=4,
                                     seed=29, by=arbiter, name="Prova 29", out=out)
    assert {p.name for p in out.iterdir()} == expected_files(4)
    for name in expected_files(4):
        head = (out / name).read_bytes()[:4]
        assert head == {"pdf": b"%PDF", "lsx": b"PK\x03\x04", "son": b'{\n  '}[name[-3:]], name
    data = json.loads((out / "results.json").read_text())
    assert data["tournament"]["name"] == "Prova 29"
    check_results(data, 29)
    assert [r["system"] for r in data["rounds"]] == ["mitchell", "mitchell", "mitchell", "danish"]
    # the same services as the pages: every step is in the audit trail, signed by the user given
    actions = Counter(AuditEntry.objects.filter(tournament=tournament).values_list("action", flat=True))
    assert actions["round_generated"] == actions["round_published"] == actions["round_closed"] == 4
    assert actions["sheet_saved"] == 4 * 14
    assert not AuditEntry.objects.filter(tournament=tournament).exclude(user=arbiter).exists()

    # the same seed gives the same results; the slug is made unique
    again = simulation.simulate(registrations=data_dir / "registrations-29.csv", plan="MMMD", hands=4,
                                seed=29, by=arbiter, name="Prova 29")
    assert again.slug == "prova-29-2" and tournament.slug == "prova-29"
    assert simulation.results(again) == data
    other = simulation.simulate(registrations=data_dir / "registrations-29.csv", plan="MMMD", hands=4,
                                seed=30, by=arbiter, name="Prova 29")
    assert simulation.results(other)["rounds"][0]["tables"] != data["rounds"][0]["tables"]


@pytest.mark.django_db
def test_simulate_stop_after_leaves_a_tournament_in_progress(data_dir, tmp_path):
    tournament = simulation.simulate(registrations=data_dir / "registrations-9.csv", plan="MMMD", hands=4,
                                     seed=1, stop_after=2, name="Demo", slug="demo")
    states = list(tournament.rounds.order_by("number").values_list("number", "state"))
    assert states == [(1, Round.State.CLOSED), (2, Round.State.CLOSED), (3, Round.State.DRAFT)]
    assert tournament.slug == "demo" and tournament.created_by.username == "simulatore"
    assert tournament.pairs.count() == 9


@pytest.mark.django_db
def test_hand_scores_are_built_by_the_rules(data_dir):
    hands = simulation.table_hands(seed=5, round_number=1, table_number=3, hands=200)
    assert hands == simulation.table_hands(seed=5, round_number=1, table_number=3, hands=200)
    for h in hands:
        assert h.ns == h.ns_base + h.ns_cards and h.ew == h.ew_base + h.ew_cards
        assert h.ns % 5 == 0 and h.ew % 5 == 0 and h.ns_base % 100 == 0
        assert -400 <= h.ns <= 1600 and -400 <= h.ew <= 1600
    # at most one line closes (+100) per hand: both bases can't both end in a closing bonus
    # with no burraco; the spread is realistic
    scores = [h.ns for h in hands] + [h.ew for h in hands]
    assert min(scores) < 0 < max(scores) and max(scores) > 700


@pytest.mark.django_db
def test_simulate_command(data_dir, tmp_path, capsys):
    out = tmp_path / "cmd"
    call_command("simulate", "--registrations", str(data_dir / "registrations-9.csv"), "--plan", "MD",
                 "--hands", "4", "--seed", "3", "--out", str(out), "--name", "Comando")
    assert {p.name for p in out.iterdir()} == expected_files(2)
    check_results(json.loads((out / "results.json").read_text()), 9, plan="MD")
    assert "9 coppie" in capsys.readouterr().out


@pytest.mark.slow  # 4 rounds of 60 tables with their print packs
@pytest.mark.one_engine  # its size tests the engines and printing; the 29-pair run covers PostgreSQL
@pytest.mark.django_db
def test_simulate_120_pairs(data_dir, tmp_path):
    """The big one: 120 pairs, 60 tables a round, 4 rounds of print packs (takes a while)."""
    out = tmp_path / "out120"
    simulation.simulate(registrations=data_dir / "registrations-120.csv", plan="MMMD", hands=4, seed=120,
                        out=out)
    assert {p.name for p in out.iterdir()} == expected_files(4)
    data = json.loads((out / "results.json").read_text())
    check_results(data, 120)
    assert all(len(r["tables"]) == 60 for r in data["rounds"])
