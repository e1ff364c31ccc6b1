"""The service modules (``tournaments/services/``) share helpers through one private module,
``_common``, whose names are public: no service module imports another module's private
name (``_x``), and no other module of the apps imports a private name of a service module,
so a helper is renamed or moved in one place."""
import ast
from pathlib import Path

import pytest

pytestmark = pytest.mark.pure

ROOT = Path(__file__).resolve().parents[2]
SERVICES = ROOT / "tournaments" / "services"


def private_imports(path: Path) -> list[str]:
    """``module:line name`` for every private name ``path`` imports from another module of
    the services package (relative ``from .x import _y`` or ``tournaments.services.x``),
    at the top or inside a function."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.ImportFrom):
            continue
        inside = node.level == 1 or (node.module or "").startswith("tournaments.services")
        if not inside:
            continue
        for alias in node.names:
            if alias.name.startswith("_") and not alias.name.startswith("__"):
                found.append(f"{path.name}:{node.lineno} {alias.name}")
    return found


def test_no_service_module_imports_a_private_name_of_another():
    found = [hit for path in sorted(SERVICES.glob("*.py")) for hit in private_imports(path)]
    assert found == []


def imports_from_the_services(path: Path, node: ast.ImportFrom) -> bool:
    """Whether ``node`` of ``path`` (outside the services) imports from a service module:
    ``tournaments.services.x`` anywhere, or ``..services.x`` inside ``tournaments``."""
    module = node.module or ""
    if node.level == 0:
        return module.startswith("tournaments.services")
    return "tournaments" in path.relative_to(ROOT).parts and module.split(".")[0] == "services"


def test_no_module_of_the_apps_imports_a_private_name_of_the_services():
    found = []
    for root in ("tournaments", "money", "championships", "bookings", "members"):
        for path in sorted((ROOT / root).rglob("*.py")):
            if SERVICES in path.parents:
                continue
            found += [f"{path.relative_to(ROOT)}:{node.lineno} {alias.name}"
                      for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
                      if isinstance(node, ast.ImportFrom) and imports_from_the_services(path, node)
                      for alias in node.names if alias.name.startswith("_") and not alias.name.startswith("__")]
    assert found == []


def test_the_checker_sees_a_private_import(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text("def f():\n    from .rounds import _recheck\n", encoding="utf-8")
    assert private_imports(sample) == ["sample.py:2 _recheck"]
