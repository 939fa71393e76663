"""The web package's shape (issue 23): layers that import only downwards (web and adapters, then
realtime, pages, domain, storage; ``lint-imports`` holds the same contracts), no import circle
anywhere in ``webapp`` (lazy imports inside functions count too), no module over 700 lines unless
it says why, and ``config``/``logs`` cross-cutting (they import no other webapp module)."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.helpers.layout import import_circles

ROOT = Path(__file__).resolve().parents[2] / "webapp"
MAX_LINES = 700
LONG_REASON = "Over 700 lines because"
LAYERS = ["web", "adapters", "realtime", "pages", "domain", "storage"]
RANK = {"web": 0, "adapters": 0, "realtime": 1, "pages": 2, "domain": 3, "storage": 4}
WEB_FRAMEWORKS = ("flask", "werkzeug", "flask_socketio", "jinja2")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def sources() -> dict[str, Path]:
    return {module_name(p): p for p in ROOT.rglob("*.py") if "migrations" not in p.relative_to(ROOT).parts}


def _runtime_nodes(tree: ast.AST):
    """Every import statement, at module level or inside functions, except under ``TYPE_CHECKING``."""
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            node.body = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node


def imports_of(path: Path, modules: set[str]) -> tuple[set[str], set[str]]:
    """(the webapp modules ``path`` imports, the top-level names of every other package it imports)."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    found: set[str] = set()
    external: set[str] = set()
    for statement in _runtime_nodes(ast.parse(path.read_text())):
        if isinstance(statement, ast.ImportFrom):
            base = package
            for _ in range(statement.level - 1):
                base = base.rsplit(".", 1)[0]
            target = (
                (base + "." + statement.module if statement.module else base) if statement.level else statement.module
            )
            assert target is not None
            if not target.startswith("webapp"):
                external.add(target.split(".")[0])
                continue
            submodules = {f"{target}.{alias.name}" for alias in statement.names} & modules
            found |= submodules or ({target} & modules)
        else:
            for alias in statement.names:
                if alias.name.startswith("webapp"):
                    found |= {alias.name} & modules
                else:
                    external.add(alias.name.split(".")[0])
    return found - {name}, external


def graph() -> dict[str, set[str]]:
    paths = sources()
    return {name: imports_of(path, set(paths))[0] for name, path in paths.items()}


def layer_of(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in RANK else None


def test_no_import_circle_in_webapp():
    edges = graph()
    assert import_circles(edges) == []


def test_layers_import_only_downwards():
    """web and adapters above realtime above pages above domain above storage; web and adapters
    apart; only the composition root (``webapp/__init__.py``) imports them all."""
    upwards = []
    for importer, imported in graph().items():
        here = layer_of(importer)
        for target in imported:
            there = layer_of(target)
            if here is None or there is None or (here == there):
                continue
            if RANK[there] <= RANK[here]:
                upwards.append(f"{importer} -> {target}")
    assert upwards == []


def test_only_the_composition_root_imports_the_package_root():
    edges = graph()
    assert sorted(name for name, imported in edges.items() if "webapp" in imported) == [
        "webapp.__main__",
        "webapp.wsgi",
    ]


def test_config_and_logs_import_no_other_webapp_module():
    edges = graph()
    assert edges["webapp.config"] == set() and edges["webapp.logs"] == set()


def test_domain_and_storage_import_no_web_framework():
    paths = sources()
    found = {
        name: sorted(set(WEB_FRAMEWORKS) & imports_of(path, set(paths))[1])
        for name, path in paths.items()
        if layer_of(name) in ("domain", "storage")
    }
    assert {name: frameworks for name, frameworks in found.items() if frameworks} == {}


def test_no_webapp_module_is_over_700_lines_without_a_reason():
    long = {
        str(path.relative_to(ROOT)): lines
        for path in ROOT.rglob("*.py")
        if (lines := len(path.read_text().splitlines())) > MAX_LINES and LONG_REASON not in path.read_text()
    }
    assert long == {}


def test_every_layer_is_a_package_of_its_own():
    assert all((ROOT / layer / "__init__.py").exists() for layer in LAYERS)
