"""The path of one press through the project's code: one "No thanks" press on a Foist table (a game in
progress, the presser's turn), from the simulated user's press, through the interaction arriving at the bot
and its answer, to the effects done (the bot quiet again), traced call by call. On demand
(``tests/e2e/test_bench_press_path.py`` only checks that it still prints its figures).

    python3 bench/press_path.py              # trace one press, print the figures
    python3 bench/press_path.py --verbose    # also list the modules entered and the crossings counted
    python3 bench/press_path.py --quick      # one warm-up press instead of three (the figures are the same)

To measure another tree (an older commit extracted with ``git archive``), copy this file into its ``bench/``
and run it there: it measures the tree it sits in.

The real bot (``bot.sandbox_demo.sandbox_bot``: the unmodified discord.py client) and the sandbox
(``sandbox/``) run in this process, on one event loop. Three simulated players open a Foist table, start
it and press "No thanks" in turn (warm-up: every path of a press has run once), then one more "No thanks"
is traced with ``sys.setprofile`` (the event loop's thread) and ``threading.setprofile`` (every thread
started since, the database's and the pictures' workers), Python functions only.

A *module* is one ``.py`` file of the tree. The project's modules are those under ``bot/``, ``cogs/``,
``engine/``, ``storage/`` and ``art/``; the sandbox and the benchmark run in the same process, counted
apart. What is reported:

- modules entered: the project's modules at least one of whose functions ran (was called or resumed);
- switches between modules: the crossings, as *edges*: control passing from function ``f`` of one project
  module to function ``g`` of another, one way, by one kind of event: a call (``g`` starts), a resumption
  (the coroutine ``g`` goes on after an ``await``), a return (``f`` ends, back in ``g``) or a suspension
  (the coroutine ``f`` waits at an ``await``, back in ``g``). A function is its code object (module,
  qualified name, first line); each edge is counted once, however often it is taken. A call and its
  return are so two switches, as are a resumption and its suspension. Every crossing event counted each
  time it happens is reported beside it;
- from engine/tables into cogs: the switches whose edge goes from a module of ``engine/tables/`` to one of
  ``cogs/`` (a call up into the Discord layer, or a return to it from the runtime);
- calls from the runtime into the Discord layer per commit: the calls (a coroutine's first run, not its
  resumptions) from ``engine/tables/`` into ``cogs/``, by the function called (the press's answer,
  ``Presenter.show``...), divided by the commits (``TableRuntime.commit`` calls) traced.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import dis
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from press_cost import custom_id, open_foist_table, settle  # noqa: E402  (bench/ is the script's folder)

from bot.sandbox_demo import TURN_OWNER, sandbox_bot  # noqa: E402
from sandbox import SandboxServer  # noqa: E402

KINDS = ("call", "resume", "return", "suspend")
YIELD_VALUE = dis.opmap["YIELD_VALUE"]  # where a coroutine waits at an await (or a generator yields)
PROJECT = ("bot", "cogs", "engine", "storage", "art")
"""The project's top-level packages (the sandbox and ``bench/`` are counted apart)."""
RUNTIME, DISCORD_LAYER = "engine/tables/", "cogs/"
BOT_SETTINGS: dict[str, Any] = {
    # As bench/press_cost.py runs the bot: nothing times out, no backup, no turn line during the press.
    "default_turn_seconds": 3600,
    "lobby_idle_seconds": 3600,
    "time_bank_seconds": 3600,
    "time_bank_cap_seconds": 7200,
    "turn_alert_delay_seconds": 600,
    "backup_interval_minutes": 0,
    "ai_pause_seconds": 0,
    "log_level": "INFO",
}


# -- whose turn the table shows (also used by bench/lock_hold.py) ------------------------------------------


def turn_owner(server: SandboxServer, members: list, table_message_id: int) -> Any:
    """The member whose turn the table message shows."""
    by_name = {member.username: member for member in members}
    return by_name[TURN_OWNER.search(server.message(table_message_id).text())["name"]]


# -- the tracer ----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Function:
    """One function of the tree: its module (path below the root) and its code's name and first line."""

    module: str
    name: str
    line: int

    def __str__(self) -> str:
        return f"{self.module}:{self.name}"


@dataclass
class Trace:
    """What the profiler saw of the project's code in its window (see the module)."""

    entered: collections.Counter = field(default_factory=collections.Counter)  # module -> events in it
    crossings: list[tuple[str, Function, Function]] = field(default_factory=list)
    """Every crossing between two modules of the tree: (kind, from, to), kind one of :data:`KINDS`."""
    commits: int = 0


class Tracer:
    """A ``sys.setprofile`` function that records, while :attr:`active`, the functions of the tree run and
    every call or return between two of its modules (``frame`` and ``frame.f_back``)."""

    COMMIT = ("engine/tables/runtime.py", "TableRuntime.commit")

    def __init__(self, root: Path) -> None:
        self.prefix = str(root) + "/"
        self.active = False
        self.trace = Trace()
        self._modules: dict[str, str] = {}
        self._functions: dict[Any, Function | None] = {}
        self._suspended: dict[int, Any] = {}  # generator/coroutine frames seen (kept alive: ids stay unique)
        self._lock = threading.Lock()

    def module(self, filename: str) -> str:
        """``filename``'s path below the root (``cogs/tables/presses.py``), or "" outside the tree."""
        found = self._modules.get(filename)
        if found is None:
            found = filename[len(self.prefix) :] if filename.startswith(self.prefix) else ""
            found = found if found.endswith(".py") else ""
            self._modules[filename] = found
        return found

    def function(self, code: Any) -> Function | None:
        found = self._functions.get(code, False)
        if found is False:
            module = self.module(code.co_filename)
            name = getattr(code, "co_qualname", code.co_name)
            found = Function(module, name, code.co_firstlineno) if module else None
            self._functions[code] = found
        return found

    def __call__(self, frame: Any, event: str, arg: Any) -> None:
        if not self.active or (event != "call" and event != "return"):
            return
        here = self.function(frame.f_code)
        if here is None:
            return
        with self._lock:
            trace = self.trace
            kind = "call" if event == "call" else "return"
            if frame.f_code.co_flags & 0x2A0:  # a generator, coroutine or async generator
                if event == "call":
                    kind = "resume" if id(frame) in self._suspended else "call"
                    self._suspended[id(frame)] = frame
                elif 0 <= frame.f_lasti < len(frame.f_code.co_code):
                    waits = frame.f_code.co_code[frame.f_lasti] == YIELD_VALUE
                    kind = "suspend" if waits else "return"
            if event == "call":
                trace.entered[here.module] += 1
                if kind == "call" and (here.module, here.name) == self.COMMIT:
                    trace.commits += 1
            back = frame.f_back
            there = self.function(back.f_code) if back is not None else None
            if there is None or there.module == here.module:
                return
            if event == "call":
                trace.crossings.append((kind, there, here))
            else:
                trace.crossings.append((kind, here, there))

    def start(self) -> None:
        self.active = True

    def stop(self) -> Trace:
        self.active = False
        self._suspended.clear()
        return self.trace


def in_project(module: str) -> bool:
    return module.split("/", 1)[0] in PROJECT


@dataclass
class Figures:
    modules: list[str]
    other_modules: list[str]  # the sandbox's and the benchmark's
    switches: set[tuple[str, Function, Function]]
    events: int
    runtime_to_cogs: set[tuple[str, Function, Function]]
    runtime_to_cogs_events: int
    calls_up: collections.Counter  # Function called in cogs/ from engine/tables/ -> first-run calls
    commits: int


def figures(trace: Trace) -> Figures:
    """The figures of the module's docstring, from a trace."""
    project = [edge for edge in trace.crossings if in_project(edge[1].module) and in_project(edge[2].module)]

    def upward(edge: tuple[str, Function, Function]) -> bool:
        return edge[1].module.startswith(RUNTIME) and edge[2].module.startswith(DISCORD_LAYER)

    switches = set(project)
    return Figures(
        modules=sorted(module for module in trace.entered if in_project(module)),
        other_modules=sorted(module for module in trace.entered if not in_project(module)),
        switches=switches,
        events=len(project),
        runtime_to_cogs={edge for edge in switches if upward(edge)},
        runtime_to_cogs_events=sum(map(upward, project)),
        calls_up=collections.Counter(edge[2] for edge in project if edge[0] == "call" and upward(edge)),
        commits=trace.commits,
    )


# -- the run -------------------------------------------------------------------------------------------------


async def trace_one_press(warm_up: int) -> tuple[Trace, float, Any]:
    """Open a Foist table, press "No thanks" ``warm_up`` times (each by the player whose turn it is), then
    trace one more; returns the trace, the press's latency (seconds) and its result."""
    tracer = Tracer(ROOT)
    threading.setprofile(tracer)  # every thread started from now on (the bot's workers)
    with tempfile.TemporaryDirectory(prefix="press-path-") as folder:
        async with SandboxServer(interaction_deadline=3.0) as server:
            guild = server.add_guild("Press path")
            channel = guild.add_channel("table")
            members = [guild.add_member(name) for name in ("alice", "bob", "carol")]
            async with sandbox_bot(server, guild.id, Path(folder) / "bot.db", **BOT_SETTINGS) as bot:
                await settle(server)
                await asyncio.sleep(1.0)  # the faces scaled for the pictures (a worker thread at start)
                table = await open_foist_table(server, channel, members)
                for _ in range(warm_up):
                    result = await server.press(
                        turn_owner(server, members, table),
                        server.message(table),
                        custom_id(server.message(table), "No"),
                    )
                    assert result.ok and result.response_type == 7, result
                await settle(server)
                health = getattr(bot, "health", None)
                if health is not None and hasattr(health, "report_soon"):  # its next report: seconds away
                    health.report_soon()
                    await settle(server)
                presser = turn_owner(server, members, table)
                message = server.message(table)
                pressed = custom_id(message, "No")
                sys.setprofile(tracer)
                tracer.start()
                started = time.perf_counter()
                result = await server.press(presser, message, pressed)
                latency = time.perf_counter() - started
                await settle(server, quiet=0.25)  # the effects: background edits, DMs, lines (none here)
                trace = tracer.stop()
                sys.setprofile(None)
    threading.setprofile(None)  # type: ignore[arg-type]
    assert result.ok and result.response_type == 7 and not result.ephemeral, result
    return trace, latency, result


def by_kind(edges: set[tuple[str, Function, Function]]) -> str:
    counts = collections.Counter(edge[0] for edge in edges)
    return ", ".join(f"{kind} {counts[kind]}" for kind in KINDS)


def report(found: Figures, latency: float, verbose: bool) -> None:
    print(
        f'tree: {ROOT}; one "No thanks" press on a Foist table of 3 '
        f"(answered in {latency * 1e3:.1f} ms, traced)"
    )
    print(f"project modules entered (bot/, cogs/, engine/, storage/, art/): {len(found.modules)}")
    print(
        "  with the sandbox and the benchmark, which run in the same process: "
        f"{len(found.modules) + len(found.other_modules)}"
    )
    print(
        f"switches between project modules: {len(found.switches)} edges ({by_kind(found.switches)}); "
        f"every crossing counted each time: {found.events}"
    )
    print(
        f"  from engine/tables into cogs: {len(found.runtime_to_cogs)} edges "
        f"({by_kind(found.runtime_to_cogs)}); "
        f"each time: {found.runtime_to_cogs_events}"
    )
    called = ", ".join(
        f"{function.name} x{count}" for function, count in sorted(found.calls_up.items(), key=str)
    )
    calls = sum(found.calls_up.values())
    if found.commits:
        per_commit = f"{found.commits} commit(s), {calls / found.commits:.1f} per commit"
    else:
        per_commit = f"no call of {':'.join(Tracer.COMMIT)} traced (the runtime was restructured?)"
    print(f"calls from the runtime into the Discord layer: {calls}; {per_commit}: {called or 'none'}")
    if verbose:
        print("\nproject modules entered (functions run, resumptions included):")
        for module in found.modules:
            print(f"  {module}")
        print("other modules entered:", ", ".join(found.other_modules))
        print("\nswitches from engine/tables into cogs:")
        for kind, source, target in sorted(found.runtime_to_cogs, key=lambda edge: tuple(map(str, edge))):
            print(f"  {kind:7} {source} -> {target}")
        by_pair = collections.Counter((source.module, target.module) for _, source, target in found.switches)
        print("\nswitches by pair of modules (edges):")
        for (source, target), count in sorted(by_pair.items(), key=lambda item: (-item[1], item[0])):
            print(f"  {count:3}  {source} -> {target}")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--quick", action="store_true", help="one warm-up press instead of three")
    parser.add_argument("--verbose", action="store_true", help="list the modules entered and the crossings")
    args = parser.parse_args()
    trace, latency, _ = asyncio.run(trace_one_press(warm_up=1 if args.quick else 3))
    report(figures(trace), latency, args.verbose)


if __name__ == "__main__":
    main()
