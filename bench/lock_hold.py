"""How long each press holds its table's lock, and how much of that is the HTTP request of the press's
answer, where it is sent under the lock. On demand (``tests/e2e/test_bench_press_path.py`` only checks, on
two tables, that it still finds the lock).

    python3 bench/lock_hold.py              # 100 live tables, 20 whole Foist games, one press at a time
    python3 bench/lock_hold.py --quick      # 10 live tables, 3 games

To measure another tree (an older commit extracted with ``git archive``), copy this file and
``bench/press_path.py`` into its ``bench/`` and run it there: it measures the tree it sits in.

As ``bench/press_cost.py`` runs it, the bot runs in a process of its own (``python -m bot``, through this
file's ``--instrumented-bot``) against the sandbox (``sandbox/``) in this one: ``--tables`` Foist tables
of three simulated players are opened and started, then ``--games`` of them are played to their end, every
press (Take about a third of the time, else No thanks) by the player whose turn it is.

The bot's process is instrumented from the outside, its code unchanged: the table's lock
(``TableSession.lock``, the ``asyncio.Lock`` each table makes, see :data:`LOCK_PLACES`) is replaced, as
each table is made, by a subclass that notes when it was acquired and released; discord.py's two ways of
sending a request (``HTTPClient.request``, and the webhook adapter that sends interaction callbacks) are
wrapped to time each request made by the task that holds a lock. Only the press window is recorded
(between two signals: ``SIGUSR1`` starts, ``SIGUSR2`` writes the holds out).

Reported over the holds of the window (one per press: a press's commit, or its refusal under the lock):
the hold time (acquire to release) p50, p99 and max; the part of each hold spent in the interaction
callback request (the answer), and its share of the holds' total time; the wait for the lock; any other
request made under the lock. If the lock is not found where :data:`LOCK_PLACES` says (the runtime was
restructured), the run says so and reports no hold times.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import json
import os
import platform
import random
import signal
import statistics
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

LOCK_PLACES = [("engine.tables.session", "TableSession", "lock")]
"""Where the table's lock lives: (module, class, attribute set in ``__init__`` to an ``asyncio.Lock``)."""
ANSWER_ROUTE = "/interactions/"
"""A route with this in its path is an interaction callback: a press's answer."""
STATUS_FILE, HOLDS_FILE = "lock-status.json", "lock-holds.json"


# -- in the bot's process ----------------------------------------------------------------------------------


class Hold:
    """One hold of a table's lock."""

    __slots__ = ("asked", "acquired", "task", "answer", "answers", "other_requests", "other")

    def __init__(self, asked: float, acquired: float, task: Any) -> None:
        self.asked, self.acquired, self.task = asked, acquired, task
        self.answer = 0.0  # seconds in the interaction callback request(s)
        self.answers = 0
        self.other = 0.0  # seconds in any other request
        self.other_requests = 0


class Recorder:
    """The holds of the press window, and the holds in progress by the task that holds them."""

    def __init__(self) -> None:
        self.recording = False
        self.holds: list[dict[str, float | int | bool]] = []
        self.held: dict[Any, list[Hold]] = collections.defaultdict(list)

    def start(self, *_: object) -> None:
        self.holds = []
        self.recording = True

    def dump(self, *_: object) -> None:
        self.recording = False
        target = Path(os.environ["LOCK_HOLD_OUT"])
        partial = target.with_suffix(".partial")
        partial.write_text(json.dumps(self.holds))
        partial.replace(target)

    def acquired(self, asked: float) -> Hold:
        task = asyncio.current_task()
        hold = Hold(asked, time.perf_counter(), task)
        self.held[task].append(hold)
        return hold

    def released(self, hold: Hold) -> None:
        released = time.perf_counter()
        held = self.held.get(hold.task)
        if held is not None and hold in held:
            held.remove(hold)
            if not held:
                del self.held[hold.task]
        if self.recording:
            self.holds.append(
                {
                    "hold": released - hold.acquired,
                    "wait": hold.acquired - hold.asked,
                    "answer": hold.answer,
                    "answers": hold.answers,
                    "other": hold.other,
                    "other_requests": hold.other_requests,
                    # Acquired in a task of its own (asyncio.wait_for on a busy table): its requests are
                    # not seen as made under the lock.
                    "elsewhere": asyncio.current_task() is not hold.task,
                }
            )

    def request_took(self, path: str, seconds: float) -> None:
        holds = self.held.get(asyncio.current_task())
        if not holds:
            return
        hold = holds[-1]
        if ANSWER_ROUTE in path:
            hold.answer += seconds
            hold.answers += 1
        else:
            hold.other += seconds
            hold.other_requests += 1


RECORDER = Recorder()


def timed_lock_class() -> type:
    import asyncio as _asyncio

    class TimedLock(_asyncio.Lock):
        """An ``asyncio.Lock`` that tells :data:`RECORDER` when it is acquired and released."""

        _hold: Hold | None = None

        async def acquire(self) -> bool:
            asked = time.perf_counter()
            await super().acquire()
            self._hold = RECORDER.acquired(asked)
            return True

        def release(self) -> None:
            hold, self._hold = self._hold, None
            if hold is not None:
                RECORDER.released(hold)
            super().release()

    return TimedLock


class TimedLockSlot:
    """Replaces a class's instance attribute (set to ``asyncio.Lock()`` in ``__init__``): an
    ``asyncio.Lock`` assigned to it is swapped for a fresh :func:`timed_lock_class` lock."""

    def __init__(self, name: str) -> None:
        self.key = f"_timed_{name}"
        self.timed = timed_lock_class()

    def __get__(self, instance: Any, owner: type) -> Any:
        if instance is None:
            return self
        try:
            return instance.__dict__[self.key]
        except KeyError:
            raise AttributeError(self.key) from None

    def __set__(self, instance: Any, value: Any) -> None:
        if isinstance(value, asyncio.Lock) and not isinstance(value, self.timed) and not value.locked():
            value = self.timed()
        instance.__dict__[self.key] = value


def install_lock_timer() -> str:
    """Put :class:`TimedLockSlot` where the table's lock lives (the first of :data:`LOCK_PLACES` found);
    returns where, or raises ``LookupError`` saying what was looked for and not found."""
    import importlib
    import inspect

    tried = []
    for module_name, class_name, attribute in LOCK_PLACES:
        place = f"{module_name}.{class_name}.{attribute}"
        try:
            owner = getattr(importlib.import_module(module_name), class_name)
        except (ImportError, AttributeError) as error:
            tried.append(f"{place}: {error}")
            continue
        if attribute in vars(owner):
            tried.append(f"{place}: defined on the class, not set per table")
            continue
        source = inspect.getsource(owner.__init__)
        sets = (
            f"self.{attribute} = asyncio.Lock()",
            f'object.__setattr__(self, "{attribute}", asyncio.Lock())',
        )
        if not any(way in source for way in sets):
            tried.append(f"{place}: {class_name}.__init__ no longer sets self.{attribute} = asyncio.Lock()")
            continue
        setattr(owner, attribute, TimedLockSlot(attribute))
        return place
    raise LookupError("; ".join(tried))


def install_request_timers() -> None:
    """Time every REST request the bot makes (discord.py's HTTP client and webhook adapter)."""
    import functools

    from discord.http import HTTPClient
    from discord.webhook.async_ import AsyncWebhookAdapter

    def timed(original):
        @functools.wraps(original)
        async def request(self, route, *args, **kwargs):
            started = time.perf_counter()
            try:
                return await original(self, route, *args, **kwargs)
            finally:
                RECORDER.request_took(getattr(route, "path", ""), time.perf_counter() - started)

        return request

    HTTPClient.request = timed(HTTPClient.request)
    AsyncWebhookAdapter.request = timed(AsyncWebhookAdapter.request)


def instrumented_bot() -> int:
    """``python -m bot`` with the table's lock and the requests timed; the status of the lock's
    instrumentation is written to ``$LOCK_HOLD_STATUS`` first."""
    status: dict[str, Any]
    try:
        status = {"place": install_lock_timer()}
    except LookupError as missing:
        status = {"missing": str(missing)}
    install_request_timers()
    Path(os.environ["LOCK_HOLD_STATUS"]).write_text(json.dumps(status))
    signal.signal(signal.SIGUSR1, RECORDER.start)
    signal.signal(signal.SIGUSR2, RECORDER.dump)
    from bot.__main__ import main

    return main([])


# -- in the benchmark's process ------------------------------------------------------------------------------


def spread(values: list[float]) -> str:
    from press_cost import percentile

    ms = [value * 1e3 for value in values]
    return (
        f"p50 {statistics.median(ms):.2f} ms, p99 {percentile(ms, 0.99):.2f} ms, max {max(ms):.2f} ms"
        if ms
        else "none"
    )


def bot_environment(server: Any, guild_id: int, folder: Path) -> dict[str, str]:
    """The bot's environment as ``bench/press_cost.py`` runs it, with no scoreboard closing in the window
    (every hold is a press's) and where the instrumented bot writes what it measured."""
    from press_cost import bot_environment as press_cost_environment

    env = press_cost_environment(server, guild_id, folder)
    env.update(
        REMATCH_SECONDS="3600",
        LOCK_HOLD_STATUS=str(folder / STATUS_FILE),
        LOCK_HOLD_OUT=str(folder / HOLDS_FILE),
    )
    return env


async def play_game(server: Any, members: list, table: int, rng: random.Random, latencies: list) -> None:
    """Play the started Foist table of message ``table`` to its end (see the module); each press's latency
    (seconds, press until the sandbox has the answer) goes into ``latencies``."""
    from press_cost import custom_id
    from press_path import turn_owner

    for _ in range(1000):
        current = server.message(table)
        if "final scores" in current.text():
            return
        presser = turn_owner(server, members, table)
        label = "Take" if rng.random() < 0.35 else "No"
        started = time.perf_counter()
        result = await server.press(presser, current, custom_id(current, label))
        latencies.append(time.perf_counter() - started)
        assert result.ok, result
        if result.ephemeral:  # refused (no tokens left): take instead
            started = time.perf_counter()
            again = await server.press(presser, current, custom_id(current, "Take"))
            latencies.append(time.perf_counter() - started)
            assert again.ok and again.response_type == 7, again
    raise AssertionError("the game did not end")


async def run(args: argparse.Namespace) -> tuple[dict, list[dict], list[float], int]:
    """Run the bot and the presses; returns the lock's status, the holds, the presses' latencies and the
    answers the sandbox received in the window."""
    from press_cost import open_foist_table, settle, stop_process

    from sandbox import SandboxServer

    folder = Path(tempfile.mkdtemp(prefix="lock-hold-"))
    async with SandboxServer(interaction_deadline=3.0) as server:
        server.request_log = collections.deque()
        guild = server.add_guild("Lock hold")
        channels = [guild.add_channel(f"table-{i}") for i in range(args.tables)]
        members = [guild.add_member(f"p{i}") for i in range(max(30, 3 * args.games))]
        command = [sys.executable, str(Path(__file__).resolve()), "--instrumented-bot"]
        with open(folder / "bot.log", "wb") as log:
            process = await asyncio.create_subprocess_exec(
                *command, env=bot_environment(server, guild.id, folder), cwd=folder, stderr=log, stdout=log
            )
        try:
            await server.wait_for_bot(timeout=60)
            await server.wait_for_commands(["play", "hand", "leaderboard"], timeout=60)
            status = json.loads((folder / STATUS_FILE).read_text())
            await settle(server)
            await asyncio.sleep(2.0)  # the faces scaled for the pictures (a worker thread at start)
            seats: dict[int, list] = {}
            tables: dict[int, int] = {}
            opening = asyncio.Semaphore(16)

            async def open_table(index: int, channel: Any) -> None:
                seated = [members[(index * 3 + k) % len(members)] for k in range(3)]
                async with opening:
                    tables[channel.id] = await open_foist_table(server, channel, seated)
                seats[channel.id] = seated

            await asyncio.gather(*(open_table(i, channel) for i, channel in enumerate(channels)))
            await settle(server)
            process.send_signal(signal.SIGUSR1)
            await asyncio.sleep(0.2)
            first_request = len(server.request_log)
            latencies: list[float] = []
            rng = random.Random(args.seed)
            playing = asyncio.Semaphore(args.concurrency)

            async def one_game(channel: Any) -> None:
                async with playing:
                    await play_game(server, seats[channel.id], tables[channel.id], rng, latencies)

            await asyncio.gather(*(one_game(channel) for channel in channels[: args.games]))
            await settle(server)
            answers = sum(ANSWER_ROUTE in path for _, path, _ in list(server.request_log)[first_request:])
            process.send_signal(signal.SIGUSR2)
            await server.wait_for(lambda: (folder / HOLDS_FILE).exists(), timeout=30)
            holds = json.loads((folder / HOLDS_FILE).read_text())
        finally:
            await stop_process(process)
    return status, holds, latencies, answers


def load_average() -> str:
    """The 1-minute load average: above the core count, other work competed for the CPUs."""
    with open("/proc/loadavg") as loadavg:
        return loadavg.read().split()[0]


def report(
    args: argparse.Namespace,
    status: dict,
    holds: list[dict],
    latencies: list[float],
    answers: int,
    load: str,
) -> None:
    print(
        f"\n{datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC, {os.cpu_count()} cores, {platform.machine()}, "
        f"Python {platform.python_version()}, load average {load} at start and {load_average()} at end; "
        f"tree {ROOT}; command: python3 bench/lock_hold.py " + " ".join(sys.argv[1:])
    )
    print(
        f"{args.tables} live tables; {args.games} whole Foist games, {args.concurrency} at a time: "
        f"{len(latencies)} presses ({answers} answered); press -> answer {spread(latencies)}"
    )
    if "place" not in status:
        print(f"the table's lock was not found, so no hold was timed: {status.get('missing')}")
        return
    if not holds:
        print(
            f"no hold of {status['place']} was recorded during the presses: the presses no longer take that "
            "lock (the runtime was restructured?); see LOCK_PLACES in bench/lock_hold.py"
        )
        return
    answered = [hold for hold in holds if hold["answers"]]
    total_hold = sum(hold["hold"] for hold in holds)
    total_answer = sum(hold["answer"] for hold in holds)
    print(
        f"lock: {status['place']}; {len(holds)} holds in the window, {len(answered)} with the answer under it"
    )
    print(f"hold time (acquire -> release): {spread([hold['hold'] for hold in holds])}")
    print(f"  of which the answer's HTTP request: {spread([hold['answer'] for hold in answered])}")
    print(
        f"  the answer's share of the time held: {total_answer / total_hold:.0%} in all "
        f"({total_answer:.3f} s of {total_hold:.3f} s); per hold with an answer, median "
        f"{statistics.median(hold['answer'] / hold['hold'] for hold in answered):.0%}"
        if answered
        else "  no answer was sent under the lock"
    )
    print(
        "  the hold without the answer's request: "
        + spread([hold["hold"] - hold["answer"] for hold in holds])
    )
    other = [hold for hold in holds if hold["other_requests"]]
    print(
        f"other requests under the lock: {sum(hold['other_requests'] for hold in other)} "
        f"in {len(other)} holds ({sum(hold['other'] for hold in other) * 1e3:.1f} ms); "
        f"wait for the lock: {spread([hold['wait'] for hold in holds])}"
    )
    elsewhere = sum(hold["elsewhere"] for hold in holds)
    if elsewhere:
        print(f"{elsewhere} holds were acquired on a busy table (their requests are not counted)")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--quick", action="store_true", help="10 tables, 3 games")
    parser.add_argument("--tables", type=int, default=None, help="live tables (default 100, quick 10)")
    parser.add_argument("--games", type=int, default=None, help="games played out (default 20, quick 3)")
    parser.add_argument("--concurrency", type=int, default=1, help="games pressed at once")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--instrumented-bot", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.instrumented_bot:
        sys.exit(instrumented_bot())
    args.tables = args.tables or (10 if args.quick else 100)
    args.games = args.games or (3 if args.quick else 20)
    if args.games > args.tables:
        parser.error("--games must not exceed --tables")
    load = load_average()
    report(args, *asyncio.run(run(args)), load=load)


if __name__ == "__main__":
    main()
