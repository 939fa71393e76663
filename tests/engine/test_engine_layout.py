"""The engine package's shape (issue 23): no import circle anywhere in ``rules_engine``, no module
over 700 lines, and no test-only builder left inside it (those live in ``tests/helpers``)."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.helpers.layout import import_circles

ROOT = Path(__file__).resolve().parents[2] / "rules_engine"
MAX_LINES = 700


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_at_load(path: Path, modules: set[str]) -> set[str]:
    """The engine modules ``path`` imports when it is loaded (module-level imports only)."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    found = set()
    for statement in ast.parse(path.read_text()).body:
        if isinstance(statement, ast.ImportFrom):
            base = package
            for _ in range(statement.level - 1):
                base = base.rsplit(".", 1)[0]
            target = (
                (base + "." + statement.module if statement.module else base) if statement.level else statement.module
            )
            if statement.module and target in modules:
                found.add(target)
            found |= {f"{target}.{alias.name}" for alias in statement.names} & modules
        elif isinstance(statement, ast.Import):
            found |= {alias.name for alias in statement.names} & modules
    return found - {name}


def test_no_import_circle_in_the_engine():
    paths = {module_name(p): p for p in ROOT.rglob("*.py")}
    graph = {name: imports_at_load(path, set(paths)) for name, path in paths.items()}
    assert import_circles(graph) == []


def test_no_engine_module_is_over_700_lines():
    long = {
        str(p.relative_to(ROOT)): n for p in ROOT.rglob("*.py") if (n := len(p.read_text().splitlines())) > MAX_LINES
    }
    assert long == {}


def test_test_builders_live_outside_the_engine():
    assert [str(p) for p in ROOT.rglob("*.py") if "\ndef given(" in p.read_text()] == []
