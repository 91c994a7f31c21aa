"""No module of ``bot/`` or ``cogs/`` reaches into discord.py's internals: an upgrade of discord.py can then
only break the bot where its documented API changes.

Read from the source (``ast``), each module is refused if it

- imports ``discord.state`` (discord.py's gateway state, undocumented) or any name starting with ``_`` from
  a discord.py module;
- reads, writes or calls an attribute whose name starts with ``_`` that discord.py's own source uses (one
  of its private attributes or methods: ``_connection``, ``_get_state``, ``_get_client``, ...), unless the
  module itself defines an attribute of that name (its own ``self._tasks`` is not discord.py's);
- overrides, in a class derived from a discord.py class, a method whose name starts with ``_`` and that
  discord.py defines (``Client._get_state``);
- builds a discord.py model from a raw payload and a gateway state (a call of ``discord.<Name>(...)`` with
  a ``state=`` keyword, e.g. ``discord.Interaction(data=..., state=...)``).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import discord

ROOT = Path(__file__).resolve().parents[2]
SCANNED = ("bot", "cogs")
DISCORD_ROOTS = frozenset({"discord", "commands", "app_commands"})
"""Names under which the project's modules refer to discord.py (``discord.ui.View``, ``commands.Bot``)."""


def _is_private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def discord_private_names() -> frozenset[str]:
    """Every private name (``_x``, not ``__x__``) that discord.py's source defines or uses as an attribute."""
    names: set[str] = set()
    for path in Path(discord.__file__).parent.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                name = node.name
            elif isinstance(node, ast.Attribute):
                name = node.attr
            else:
                continue
            if _is_private(name):
                names.add(name)
    return frozenset(names)


PRIVATE = discord_private_names()


def _dotted(node: ast.expr) -> str:
    """``a.b.c`` of an attribute chain of names (``""`` for anything else)."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return ""
    parts.append(node.id)
    return ".".join(reversed(parts))


def _from_discord(node: ast.expr, imported: set[str]) -> bool:
    dotted = _dotted(node)
    return dotted.split(".")[0] in DISCORD_ROOTS or dotted in imported


def _own_names(tree: ast.Module, imported: set[str]) -> set[str]:
    """The private attribute names the module defines itself: assigned (``self._x = ...``, ``_x: int``),
    or defined as methods of a class not derived from discord.py."""
    own: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and not any(_from_discord(base, imported) for base in node.bases):
            own.update(
                item.name for item in node.body if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef)
            )
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            own.add(node.attr)
        elif isinstance(node, ast.AnnAssign | ast.Assign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            own.update(target.id for target in targets if isinstance(target, ast.Name))
    return own


def violations(source: str, where: str) -> Iterator[str]:
    """What in the module ``source`` (shown as ``where``) uses discord.py's internals, one line each."""
    tree = ast.parse(source)
    imported: set[str] = set()  # names the module imported from discord.py
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "discord":
            imported.update(alias.asname or alias.name for alias in node.names)
    own = _own_names(tree, imported)
    for node in ast.walk(tree):
        line = f"{where}:{getattr(node, 'lineno', 0)}"
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name == "discord.state" or alias.name.startswith("discord.state."):
                    yield f"{line}: imports {alias.name}"
        elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "discord":
            if node.module == "discord.state":
                yield f"{line}: imports from discord.state"
            for alias in node.names:
                if _is_private(alias.name):
                    yield f"{line}: imports {alias.name} from {node.module}"
        elif isinstance(node, ast.Attribute):
            if _dotted(node) == "discord.state":
                yield f"{line}: uses discord.state"
            elif node.attr in PRIVATE and node.attr not in own:
                yield f"{line}: uses discord.py's private {ast.unparse(node)}"
        elif isinstance(node, ast.ClassDef) and any(_from_discord(base, imported) for base in node.bases):
            for item in node.body:
                if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef) and item.name in PRIVATE:
                    yield f"{line}: {node.name} overrides discord.py's private {item.name}"
        elif isinstance(node, ast.Call) and _dotted(node.func).startswith("discord."):
            if any(keyword.arg == "state" for keyword in node.keywords):
                yield f"{line}: builds {_dotted(node.func)} from a gateway state"


def test_the_scan_finds_each_kind_of_use_of_discord_py_internals() -> None:
    internal = """
from discord.state import AutoShardedConnectionState
from discord.utils import _get_as_snowflake
import discord
from discord.ext import commands

class Bot(commands.AutoShardedBot):
    def _get_state(self, **options):
        return AutoShardedConnectionState(handlers=self._handlers, hooks=self._hooks)

def rebuild(bot, data):
    return discord.Interaction(data=data, state=bot._connection)
"""
    found = "\n".join(violations(internal, "m.py"))
    for expected in (
        "imports from discord.state",
        "imports _get_as_snowflake from discord.utils",
        "Bot overrides discord.py's private _get_state",
        "private self._handlers",
        "private self._hooks",
        "private bot._connection",
        "builds discord.Interaction from a gateway state",
    ):
        assert expected in found, (expected, found)


def test_a_module_s_own_private_attributes_are_its_own() -> None:
    own = """
class Relay:
    def __init__(self):
        self._tasks = set()
        self._loop = None

    def busy(self):
        return bool(self._tasks) and self._loop is not None
"""
    assert list(violations(own, "m.py")) == []


def test_no_module_of_the_bot_or_its_cogs_uses_discord_py_internals() -> None:
    found = [
        line
        for folder in SCANNED
        for path in sorted((ROOT / folder).rglob("*.py"))
        for line in violations(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT)))
    ]
    assert found == [], "\n".join(found)
