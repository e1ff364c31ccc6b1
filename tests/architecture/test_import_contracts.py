"""The import contracts of ``.importlinter`` (import-linter): pure ``pairing`` and ``scoring``,
the layers of ``tournaments`` (the captains' views among the views), no cycle between sibling
modules. ``make test`` runs
``lint-imports`` before the suite; these tests show that it passes on the tree and that it
catches a cycle added on purpose."""
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("clubs", "pairing", "scoring", "tournaments", "members", "championships", "simultaneous", "money", "bookings", "config")
LINT = Path(sys.executable).with_name("lint-imports")

pytestmark = [pytest.mark.slow,  # import-linter builds the import graph of ~200 modules
              pytest.mark.skipif(not LINT.exists(), reason="import-linter is not installed")]


def lint(where: Path) -> subprocess.CompletedProcess:
    return subprocess.run([str(LINT), "--no-cache", "--config", str(where / ".importlinter")], cwd=where,
                          env={"PYTHONPATH": str(where), "PATH": "/usr/bin:/bin"},
                          capture_output=True, text=True, timeout=300)


def copy_tree(tmp_path: Path) -> Path:
    for name in PACKAGES:
        shutil.copytree(ROOT / name, tmp_path / name, ignore=shutil.ignore_patterns("__pycache__", "*.mo"))
    shutil.copy(ROOT / ".importlinter", tmp_path / ".importlinter")
    return tmp_path


def test_the_tree_keeps_every_contract():
    result = lint(ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout


def test_a_cycle_between_two_modules_breaks_the_contract(tmp_path):
    tree = copy_tree(tmp_path)
    # spreadsheets -> documents already exists (the XLSX renderers use the documents'
    # rows); the way back closes a cycle
    documents = tree / "tournaments" / "printing" / "documents.py"
    documents.write_text(documents.read_text() + "\nfrom . import spreadsheets  # noqa: E402,F401\n")
    result = lint(tree)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "No cycles are allowed in tournaments.printing." in result.stdout


def test_django_in_the_pairing_engine_breaks_the_contract(tmp_path):
    tree = copy_tree(tmp_path)
    (tree / "pairing" / "django_here.py").write_text("import django  # noqa: F401\n")
    result = lint(tree)
    assert result.returncode == 1
    assert "pairing is pure Python" in result.stdout and "BROKEN" in result.stdout


def test_a_service_importing_the_captains_views_breaks_the_contract(tmp_path):
    tree = copy_tree(tmp_path)
    (tree / "tournaments" / "services" / "captain_here.py").write_text(
        "from ..captains import write_views  # noqa: F401\n")
    result = lint(tree)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "the captains' views are views: nothing below the views imports them BROKEN" in result.stdout


def test_clubs_importing_members_breaks_the_contract(tmp_path):
    tree = copy_tree(tmp_path)
    (tree / "clubs" / "upward.py").write_text("import members.models  # noqa: F401\n")
    result = lint(tree)
    assert result.returncode == 1
    assert "clubs sit below members, tournaments and championships" in result.stdout and "BROKEN" in result.stdout
