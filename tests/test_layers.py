"""The layers hold: ``lint-imports`` keeps every contract of ``pyproject.toml`` (``[tool.importlinter]``):
bot above cogs above the table runtime (``engine.tables``) above storage, the games and the sandbox importing
none of the others, only bot and cogs importing discord.py, and no import cycle (``tools/importlint.py``)."""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

from grimp import ImportGraph

from tools.importlint import AcyclicContract

ROOT = Path(__file__).resolve().parents[1]


def test_lint_imports_keeps_every_contract() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}  # this checkout's packages, not an installed copy
    run = subprocess.run(
        [
            sys.executable,
            "-c",
            "from importlinter.cli import lint_imports_command; lint_imports_command()",
            "--no-cache",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, f"lint-imports found broken contracts:\n{run.stdout}\n{run.stderr}"
    assert "Contracts: 5 kept, 0 broken." in run.stdout, run.stdout  # every contract was read and checked


def test_the_engine_contract_names_every_game_module() -> None:
    """The "engine" contract lists the games by name (the runtime, engine.tables, sits above them): a new
    game package must be added there, or it would escape the contract."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    (games,) = [contract for contract in config["contracts"] if contract["id"] == "engine"]
    engine = ROOT / "engine"
    modules = {
        path.stem for path in engine.iterdir() if path.suffix == ".py" or (path / "__init__.py").exists()
    }
    assert {f"engine.{name}" for name in modules - {"__init__", "tables"}} == set(games["source_modules"])


def graph(imports: dict[str, set[str]]) -> ImportGraph:
    made = ImportGraph()
    for module in {*imports, *(target for targets in imports.values() for target in targets)}:
        made.add_module(module)
    for importer, targets in imports.items():
        for imported in targets:
            made.add_import(importer=importer, imported=imported, line_number=1, line_contents="import x")
    return made


def check(imports: dict[str, set[str]]):
    contract = AcyclicContract("no cycle", {"root_packages": ["pkg"]}, {})
    return contract.check(graph(imports), verbose=False)


def test_the_acyclic_contract_finds_a_cycle_among_modules_and_one_through_a_package_s_init() -> None:
    found = check({"pkg.a": {"pkg.b"}, "pkg.b": {"pkg.c"}, "pkg.c": {"pkg.a"}, "pkg.d": {"pkg.a"}})
    assert not found.kept
    assert [cycle["cycle"] for cycle in found.metadata["cycles"]] == [["pkg.a", "pkg.b", "pkg.c", "pkg.a"]]
    through_init = check({"pkg": {"pkg.a"}, "pkg.a": {"pkg"}})
    assert [cycle["modules"] for cycle in through_init.metadata["cycles"]] == [["pkg", "pkg.a"]]


def test_the_acyclic_contract_keeps_imports_without_a_cycle() -> None:
    assert check({"pkg.a": {"pkg.b", "pkg.c"}, "pkg.b": {"pkg.c"}, "pkg": {"pkg.a"}}).kept
    # Two packages importing each other through modules on no cycle are not a cycle of modules.
    assert check({"pkg.x.one": {"pkg.y.one"}, "pkg.y.one": {"pkg.x.two"}}).kept
    assert check({"other.a": {"other.b"}, "other.b": {"other.a"}}).kept  # not a root package
