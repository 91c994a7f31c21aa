"""The shape of the table runtime stays readable: no module of ``cogs/`` over 500 lines, the cog itself at
most 300, and the widgets reaching the runtime only through the press handler. (No import cycle anywhere,
``cogs/`` included: ``tests/test_layers.py``.)"""

from __future__ import annotations

import ast
from pathlib import Path

COGS = Path(__file__).resolve().parents[2] / "cogs"
MAX_LINES = 500
MAX_COG_LINES = 300


def module_name(path: Path) -> str:
    parts = path.relative_to(COGS.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def cogs_imports(path: Path, modules: set[str]) -> set[str]:
    """The ``cogs`` modules ``path`` imports anywhere in it (functions and TYPE_CHECKING blocks too)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
        else:
            continue
        found.update(name for name in names if name in modules)
    return found


def import_graph() -> dict[str, set[str]]:
    paths = sorted(COGS.rglob("*.py"))
    modules = {module_name(path) for path in paths}
    graph = {}
    for path in paths:
        name = module_name(path)
        # A package's own __init__ is imported by each of its modules; it is not a dependency edge here.
        graph[name] = {target for target in cogs_imports(path, modules) if target != name}
        graph[name] -= {package for package in modules if name.startswith(package + ".")}
    return graph


def test_no_module_under_cogs_is_too_long() -> None:
    lengths = {path.name: len(path.read_text().splitlines()) for path in COGS.rglob("*.py")}
    assert {name: n for name, n in lengths.items() if n > MAX_LINES} == {}
    assert lengths["cog.py"] <= MAX_COG_LINES


def test_widgets_reach_the_runtime_only_through_the_press_handler() -> None:
    graph = import_graph()
    assert graph["cogs.tables.components"] <= {"cogs.tables.custom_ids", "cogs.tables.press_handler"}
    for path in COGS.rglob("*.py"):
        assert 'get_cog("Tables")' not in path.read_text(), path
