"""``manage.py simulate --plan RRR``: round robin for pairs, with groups."""
import json

import pytest
from django.core.management import call_command

from tournaments.demo import simulation

pytestmark = pytest.mark.django_db


def test_simulate_round_robin_nine_pairs(data_dir):
    """9 pairs + phantom N (n = 10), RRR, circle method of pairing-io.md:
    r1 seq 1 2 … 9 N → 1 rests, 2-9, 3-8, 4-7, 5-6;
    r2 k=1 seq 1 N 2 … 9 → 1-9, 8 rests, 2-7, 3-6, 4-5;
    r3 k=2 seq 1 9 N 2 … 8 → 1-8, 9-7, 6 rests, 2-5, 3-4."""
    t = simulation.simulate(registrations=data_dir / "registrations-9.csv", plan="RRR", hands=4, seed=3)
    data = simulation.results(t)
    assert [r["system"] for r in data["rounds"]] == ["round-robin"] * 3
    rests = [r["bye"]["pair"] for r in data["rounds"]]
    assert rests == [1, 8, 6]
    assert [(tb["ns"], tb["ew"]) for tb in data["rounds"][2]["tables"]] == [
        (1, 8), (9, 7), (2, 5), (3, 4)]
    assert all(r["bye"]["vp"] == 14 for r in data["rounds"])  # 70% of 20 VP (rules.md §5)
    met = [frozenset((tb["ns"], tb["ew"])) for r in data["rounds"] for tb in r["tables"]]
    assert len(met) == len(set(met)) == 12


def test_simulate_command_with_groups(data_dir, tmp_path, capsys):
    """9 pairs in 2 groups by the snake: 1→g1 2→g2 / 3→g2 4→g1 / 5→g1 6→g2 / 7→g2 8→g1 /
    9→g1: g1 = 1 4 5 8 9 (odd: one rest per round), g2 = 2 3 6 7 (tables 3, 4)."""
    call_command("simulate", "--registrations", str(data_dir / "registrations-9.csv"), "--plan", "RR",
                 "--hands", "4", "--seed", "5", "--out", str(tmp_path), "--groups", "2",
                 "--group-split", "snake")
    data = json.loads((tmp_path / "results.json").read_text())
    assert data["tournament"]["groups"] == [[1, 4, 5, 8, 9], [2, 3, 6, 7]]
    r1 = data["rounds"][0]
    # g1 r1: 1 rests, 4-9, 5-8 at tables 1, 2; g2 r1: 2-7, 3-6 at tables 3, 4
    assert [(tb["table"], tb["ns"], tb["ew"]) for tb in r1["tables"]] == [
        (1, 4, 9), (2, 5, 8), (3, 2, 7), (4, 3, 6)]
    assert [b["pair"] for b in r1["byes"]] == [1]
    assert [g["group"] for g in data["group_standings"]] == [1, 2]
    assert sorted(r["pair"] for r in data["group_standings"][1]["rows"]) == [2, 3, 6, 7]
    assert (tmp_path / "standings.pdf").exists()


def test_simulate_groups_by_lot(data_dir):
    t = simulation.simulate(registrations=data_dir / "registrations-9.csv", plan="R", hands=4, seed=8,
                            groups=2, group_split="lot")
    assert t.group_split == "lot" and t.group_seed == 8
    assert sorted(len(g) for g in simulation.results(t)["tournament"]["groups"]) == [4, 5]
