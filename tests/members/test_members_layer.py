"""The registry sits below the tournaments: nothing in ``members/`` imports ``tournaments``."""
import ast
from pathlib import Path

MEMBERS = Path(__file__).resolve().parents[2] / "members"


def test_members_never_imports_tournaments():
    offenders = []
    for path in MEMBERS.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) and node.level == 0 else [])
            offenders += [f"{path.name}: {n}" for n in names if n.split(".")[0] == "tournaments"]
    assert offenders == []
