"""``manage.py vp``: the VP of a difference. Expected VP read off scoring/data/vp_scales.json by hand."""
import io
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

ROOT = Path(__file__).resolve().parents[2]


def vp(*args) -> str:
    out = io.StringIO()
    call_command("vp", *[str(a) for a in args], stdout=out)
    return out.getvalue().strip().splitlines()[-1]


def test_four_hands_1620_1115_is_13_7():
    # difference 505 → band 505–700 of the 4-hand scale → 13–7
    assert vp("--hands", 4, 1620, 1115) == "13 7"


def test_negative_mp_three_hands_5_minus_45_is_10_10():
    # difference 50 → first band 0–50 of the 3-hand scale → 10–10
    assert vp("--hands", 3, 5, -45) == "10 10"


def test_scale_by_id_825_0_is_17_3():
    # difference 825 → band 805–1000 of vp20-3h → 17–3
    assert vp("--scale", "vp20-3h", 825, 0) == "17 3"


def test_loser_first_is_reversed():
    assert vp("--hands", 4, 1115, 1620) == "7 13"


def test_unknown_scale_is_an_error(db):
    with pytest.raises(CommandError, match="sconosciuta"):
        vp("--scale", "vp-nessuna", 10, 0)


def test_no_published_scale_for_two_hands_is_an_error():
    with pytest.raises(CommandError, match="2 smazzate"):
        vp("--hands", 2, 10, 0)


def test_difference_not_multiple_of_5_is_an_error():
    with pytest.raises(CommandError, match="multipla di 5"):
        vp("--hands", 4, 3, 0)


def test_custom_scale_from_the_database(db):
    from scoring.vp import scale_from_rows
    from tournaments import services

    scale = scale_from_rows("vp20-2h-test", "2 smazzate", 20,
                            [(0, 30, 10, 10), (35, 100, 12, 8), (105, None, 15, 5)], hands=2)
    services.create_custom_scale(scale=scale, by=None)
    assert vp("--scale", "vp20-2h-test", 0, 100) == "8 12"


def _cli(*args, tmp_path):
    env = dict(os.environ, ARBITRO_VAR_DIR=str(tmp_path))
    env.pop("DATABASE_URL", None)
    return subprocess.run([sys.executable, "manage.py", "vp", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=60)


def test_command_line_negative_argument_and_exit_codes(tmp_path):
    ok = _cli("--hands", "3", "5", "-45", tmp_path=tmp_path)
    assert ok.returncode == 0, ok.stderr
    assert ok.stdout.strip().splitlines()[-1] == "10 10"
    bad = _cli("--scale", "vp-nessuna", "10", "0", tmp_path=tmp_path)
    assert bad.returncode != 0 and "sconosciuta" in bad.stderr
