"""Command lines: ``python -m pairing`` and ``python -m pairing.check`` (pairing-io.md)."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def cli(*args, stdin=""):
    return subprocess.run([sys.executable, "-m", *args], input=stdin, capture_output=True,
                          text=True, cwd=ROOT, timeout=60)


def test_pairs_a_round():
    request = {"system": "danish", "ranking": ["A", "B", "C", "D", "E"],
               "met": [["A", "B"], ["C", "E"]], "met_last_round": [["A", "B"]],
               "rested": ["E"], "avoid_rematches": "all"}
    proc = cli("pairing", stdin=json.dumps(request))
    assert proc.returncode == 0, proc.stderr
    response = json.loads(proc.stdout)
    assert response["bye"] == "D"
    assert response["tables"] == [{"table": 1, "ns": "A", "ew": "C"},
                                  {"table": 2, "ns": "B", "ew": "E"}]


@pytest.mark.parametrize("stdin", [
    '{"system": "danish", "ranking": [1, 2, 2]}',
    '{"system": "swiss", "ranking": [1, 2]}',
    '{"system": "mitchell", "pairs": [1, 2, 3], "round": 0}',
    '{"system": "mitchell", "pairs": [1, 2, 3], "round": 1, "step": -1}',
    '{"system": "mitchell", "pairs": [1, 2, 3], "round": 1, "step": "2"}',
    '{"system": "danish", "ranking": [1, 2], "avoid_rematches": "maybe"}',
    '[1, 2, 3]',
    '{not json',
    '',
])
def test_bad_request_exits_2_with_one_line_json_error(stdin):
    proc = cli("pairing", stdin=stdin)
    assert proc.returncode == 2
    assert proc.stdout == ""
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1
    assert set(json.loads(lines[0])) == {"error"}


def test_checker_cli(tmp_path):
    request = {"system": "danish", "ranking": [1, 2, 3, 4], "met": [[1, 2]]}
    good = {"tables": [{"table": 1, "ns": 1, "ew": 3}, {"table": 2, "ns": 2, "ew": 4}],
            "bye": None, "rematches": [], "warnings": []}
    bad = {"tables": [{"table": 1, "ns": 1, "ew": 2}, {"table": 2, "ns": 3, "ew": 4}],
           "bye": None, "rematches": [[1, 2]], "warnings": ["x"]}
    (tmp_path / "req.json").write_text(json.dumps(request))
    (tmp_path / "good.json").write_text(json.dumps(good))
    (tmp_path / "bad.json").write_text(json.dumps(bad))
    ok = cli("pairing.check", str(tmp_path / "req.json"), str(tmp_path / "good.json"))
    assert ok.returncode == 0 and ok.stdout == ""
    ko = cli("pairing.check", str(tmp_path / "req.json"), str(tmp_path / "bad.json"))
    assert ko.returncode == 1 and "evitabile" in ko.stdout


def test_rtg_cli():
    proc = cli("pairing.rtg", "--seed", "5", "--pairs", "13", "--plan", "MMMD")
    assert proc.returncode == 0, proc.stderr
    summary = json.loads(proc.stdout)
    assert summary["rounds"] == 4 and summary["violations"] == []


def test_rtg_cli_sessions_and_step_change():
    proc = cli("pairing.rtg", "--seed", "7", "--pairs", "5", "--plan", "DM|MM", "--step", "1,3")
    assert proc.returncode == 0, proc.stderr
    summary = json.loads(proc.stdout)
    assert summary["rounds"] == 4 and summary["second_rests_avoidable"] == 0
    assert summary["repeats_unreported"] == 0


def test_checker_cli_reports_a_second_rest(tmp_path):
    request = {"system": "mitchell", "pairs": [1, 2, 3, 4, 5], "round": 1, "rested": [5]}
    response = {"tables": [{"table": 1, "ns": 1, "ew": 3}, {"table": 2, "ns": 2, "ew": 4}],
                "bye": 5, "forced_byes": [], "rematches": [], "warnings": []}
    (tmp_path / "req.json").write_text(json.dumps(request))
    (tmp_path / "resp.json").write_text(json.dumps(response))
    ko = cli("pairing.check", str(tmp_path / "req.json"), str(tmp_path / "resp.json"))
    assert ko.returncode == 1 and "la coppia 5 riposa di nuovo" in ko.stdout
