"""``manage.py simulate --kind teams`` and the shape of a team tournament's results.json."""
import json
from io import StringIO

from django.core.management import call_command

from tournaments.models import Tournament


def test_simulate_teams_writes_the_results_json_shape(db, data_dir, tmp_path):
    out = tmp_path / "out"
    said = StringIO()
    call_command("simulate", "--kind", "teams", "--registrations", str(data_dir / "teams-12.csv"),
                 "--plan", "RRRR", "--hands", "4", "--seed", "7", "--out", str(out), stdout=said)
    assert ": 12 squadre, 4 turni giocati" in said.getvalue()  # it said «0 coppie»
    data = json.loads((out / "results.json").read_text())
    assert data["tournament"]["kind"] == "teams"
    assert len(data["rounds"]) == 4
    first = data["rounds"][0]
    assert first["system"] == "round-robin" and first["bye"] is None
    assert len(first["tables"]) == 12 and len(first["matches"]) == 6
    # round robin of 12, round 1: 1 v 12 → match 1 at tables 1–2; team 1's first pair N/S at table 1
    m1 = first["matches"][0]
    assert m1["teams"] == [1, 12] and m1["tables"] == [1, 2]
    t1, t2 = first["tables"][0], first["tables"][1]
    assert (t1["ns_team"], t1["ew_team"], t2["ns_team"], t2["ew_team"]) == (1, 12, 12, 1)
    assert t1["ns"] == ["312001", "312002"]  # I Pozzetti's first two players (membership numbers)
    assert m1["vp"] == [t1["vp_ns"] + t2["vp_ew"], t1["vp_ew"] + t2["vp_ns"]]
    assert all(sum(m["vp"]) == 40 for r in data["rounds"] for m in r["matches"])
    standings = data["rounds"][-1]["standings_after"]
    assert set(standings[0]) >= {"team", "vp", "position"} and len(standings) == 12
    assert sum(row["vp"] for row in standings) == 4 * 6 * 40
    for name in ("standings.pdf", "standings.xlsx", "tablelist-round-1.pdf", "scoresheets-round-1.pdf"):
        assert (out / name).stat().st_size > 0
    assert Tournament.objects.get().is_teams


def test_simulate_teams_with_an_odd_count_gives_a_bye_of_28(db, data_dir, tmp_path):
    lines = (data_dir / "teams-12.csv").read_text().splitlines()
    five = [lines[0]] + [line for line in lines[1:] if int(line.split(",")[0]) <= 5]
    path = tmp_path / "teams-5.csv"
    path.write_text("\n".join(five) + "\n")
    out = tmp_path / "out"
    call_command("simulate", "--kind", "teams", "--registrations", str(path), "--plan", "RRRRR",
                 "--hands", "4", "--seed", "3", "--out", str(out))
    data = json.loads((out / "results.json").read_text())
    byes = [r["bye"] for r in data["rounds"]]
    assert sorted(b["team"] for b in byes) == [1, 2, 3, 4, 5]  # rules.md §14: each rests once
    assert {b["vp"] for b in byes} == {28}
