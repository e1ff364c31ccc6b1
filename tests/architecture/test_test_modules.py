"""No test module imports another test module.

A test module (``test_*.py``) that imports from another one runs that module's import-time
code, re-registers its fixtures under a second name and breaks when the other file is renamed
or split. Shared fixtures live in a ``conftest.py`` (pytest finds them by name), shared helpers
and builders in a plain module (``helpers.py``, ``tests/threads.py``, ``tests/forms_data.py``).
Every import is read, top-level and inside functions, absolute and relative.
"""
import ast
from pathlib import Path

import pytest

pytestmark = pytest.mark.pure

TESTS = Path(__file__).resolve().parents[1]


def imported_modules(source: str, package: list[str]) -> set[str]:
    """Dotted names of every module ``source`` (the text of a module of ``package``, e.g.
    ``["tests", "teams"]``) imports: relative imports resolved against the package, and
    ``from pkg import name`` also counted as ``pkg.name`` (which may be a module)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            module = ".".join(base + ([node.module] if node.module else []))
            found.add(module)
            found.update(f"{module}.{alias.name}" for alias in node.names)
    return found


def test_modules(modules: set[str]) -> set[str]:
    """The test modules (last dotted part ``test_*``) of the project's tests among ``modules``."""
    return {m for m in modules if m.split(".")[0] == "tests" and m.rsplit(".", 1)[-1].startswith("test_")}


test_modules.__test__ = False  # a helper, not a test


def test_the_check_sees_top_level_relative_and_function_level_imports():
    source = ("from .test_x import a\nfrom tests.teams.helpers import play\nimport tests.threads\n"
              "def f():\n    from tests.teams import test_team_cycle\n")
    assert test_modules(imported_modules(source, ["tests", "rounds"])) == {
        "tests.rounds.test_x", "tests.teams.test_team_cycle"}


def test_no_test_module_imports_another_test_module():
    offenders = []
    for path in sorted(TESTS.rglob("test_*.py")):
        package = list(path.relative_to(TESTS.parent).with_suffix("").parts[:-1])
        for module in sorted(test_modules(imported_modules(path.read_text(encoding="utf-8"), package))):
            offenders.append(f"{path.relative_to(TESTS.parent)} imports {module}")
    assert offenders == [], ("move the shared fixture to a conftest.py, the helper to a helper module:\n"
                             + "\n".join(offenders))
