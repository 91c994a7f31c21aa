"""An import-linter contract type: no import cycle among the modules of the root packages.

import-linter 2.x's own ``acyclic_siblings`` contract compares the children of a package as wholes: it
misses a cycle through a package's ``__init__`` (``a`` imports ``a.b``, which imports ``a``), and it counts
two packages whose modules import each other as a cycle even when no module is on one. This contract looks
at modules: each set of modules that reach each other by imports (a strongly connected component of the
import graph; imports under ``TYPE_CHECKING`` and inside functions count, as grimp reads them) is reported
with one shortest cycle through it and the lines of its imports.

Declared in ``pyproject.toml``::

    [tool.importlinter]
    contract_types = ["acyclic: tools.importlint.AcyclicContract"]

    [[tool.importlinter.contracts]]
    name = "no import cycle"
    type = "acyclic"
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping
from itertools import pairwise

from grimp import ImportGraph
from importlinter import Contract, ContractCheck, output
from rich.markup import escape


class AcyclicContract(Contract):
    """Kept when no module of the session's ``root_packages`` is on an import cycle; takes no options."""

    type_name = "acyclic"

    def check(self, graph: ImportGraph, verbose: bool) -> ContractCheck:
        roots = set(self.session_options["root_packages"])
        modules = {module for module in graph.modules if module.split(".")[0] in roots}
        imports = {
            module: (graph.find_modules_directly_imported_by(module) & modules) - {module}
            for module in modules
        }
        cycles = []
        for component in strongly_connected(imports):
            cycle = shortest_cycle(min(component), imports, component)
            lines = [_import_lines(graph, importer, imported) for importer, imported in pairwise(cycle)]
            cycles.append({"modules": sorted(component), "cycle": cycle, "lines": lines})
        return ContractCheck(kept=not cycles, metadata={"cycles": cycles})

    def render_broken_contract(self, check: ContractCheck) -> None:
        for found in check.metadata["cycles"]:
            modules = found["modules"]
            output.print_error(f"{len(modules)} modules import each other in a circle: {', '.join(modules)}")
            output.print("One cycle through them:")
            for (importer, imported), lines in zip(pairwise(found["cycle"]), found["lines"], strict=True):
                output.indent_cursor()
                output.print(escape(f"{importer} -> {imported} ({lines})"))
            output.new_line()


def strongly_connected(imports: Mapping[str, Iterable[str]]) -> list[set[str]]:
    """The sets of two or more modules that each reach all the others through ``imports`` (importer ->
    the modules it imports), in the order of their smallest module (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[set[str]] = []
    for start in sorted(imports):
        if start in index:
            continue
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        work = [(start, iter(sorted(imports[start])))]
        while work:
            module, targets = work[-1]
            target = next(targets, None)
            if target is not None:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(sorted(imports[target]))))
                elif target in on_stack:
                    low[module] = min(low[module], index[target])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[module])
            if low[module] == index[module]:
                component = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.add(member)
                    if member == module:
                        break
                if len(component) > 1:
                    found.append(component)
    return sorted(found, key=min)


def shortest_cycle(start: str, imports: Mapping[str, Iterable[str]], within: set[str]) -> list[str]:
    """A shortest cycle of imports from ``start`` back to it through the modules ``within`` (its strongly
    connected component), as modules with ``start`` first and last."""
    came_from: dict[str, str] = {}
    queue = deque([start])
    while queue:
        module = queue.popleft()
        for target in sorted(imports[module]):
            if target not in within:
                continue
            if target == start:
                path = [module]
                while path[-1] != start:
                    path.append(came_from[path[-1]])
                return [*reversed(path), start]
            if target not in came_from:
                came_from[target] = module
                queue.append(target)
    raise ValueError(f"{start} is on no cycle within the given modules")


def _import_lines(graph: ImportGraph, importer: str, imported: str) -> str:
    details = graph.get_import_details(importer=importer, imported=imported)
    return "; ".join(f"l.{detail['line_number']}: {detail['line_contents']}" for detail in details)
