"""``manage.py simulate --groups G`` with Danish and Mitchell rounds (rules.md §19), and
``--date`` (the evening's date)."""
import datetime
import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from tournaments.demo import simulation
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def test_simulate_danish_and_mitchell_in_groups_with_a_date(data_dir, tmp_path):
    """9 pairs in 2 groups by the snake: g1 = 1 4 5 8 9, g2 = 2 3 6 7. Round 1 (Mitchell,
    each group its own movement): g1 T = 3, N/S 1 4 and the phantom at table 3, E/W 5 8 9 at
    tables 1 2 3: 1-5, 4-8, 9 rests; g2 T = 2, N/S 2 3, E/W 6 7: 2-6, 3-7 at tables 3, 4."""
    call_command("simulate", "--registrations", str(data_dir / "registrations-9.csv"), "--plan", "MDD",
                 "--hands", "4", "--seed", "5", "--out", str(tmp_path), "--groups", "2",
                 "--date", "2026-12-03", "--slug", "gironi-danesi")
    data = json.loads((tmp_path / "results.json").read_text())
    assert data["tournament"]["date"] == "2026-12-03"
    assert Tournament.objects.get(slug="gironi-danesi").date == datetime.date(2026, 12, 3)
    assert data["tournament"]["groups"] == [[1, 4, 5, 8, 9], [2, 3, 6, 7]]
    r1 = data["rounds"][0]
    assert [(tb["table"], tb["ns"], tb["ew"]) for tb in r1["tables"]] == [
        (1, 1, 5), (2, 4, 8), (3, 2, 6), (4, 3, 7)]
    assert [b["pair"] for b in r1["byes"]] == [9]
    group_of = {p: g for g, members in enumerate(data["tournament"]["groups"]) for p in members}
    rests = []
    for rnd in data["rounds"]:
        assert all(group_of[tb["ns"]] == group_of[tb["ew"]] for tb in rnd["tables"])
        assert [b["pair"] for b in rnd["byes"]] and all(group_of[b["pair"]] == 0 for b in rnd["byes"])
        rests += [b["pair"] for b in rnd["byes"]]
    assert len(rests) == len(set(rests)) == 3  # one session: nobody in group 1 rests twice
    assert [r["system"] for r in data["rounds"]] == ["mitchell", "danish", "danish"]
    assert [g["group"] for g in data["group_standings"]] == [1, 2]


def test_simulate_refuses_a_bad_date(data_dir, tmp_path):
    with pytest.raises(CommandError, match="Data non valida"):
        call_command("simulate", "--registrations", str(data_dir / "registrations-9.csv"), "--plan", "D",
                     "--out", str(tmp_path), "--date", "03/12/2026")


def test_simulate_without_date_is_today(data_dir):
    t = simulation.simulate(registrations=data_dir / "registrations-9.csv", plan="D", hands=4, seed=1)
    assert t.date == datetime.date.today()
