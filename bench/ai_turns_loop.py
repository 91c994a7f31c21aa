"""How long the AI seats' turns hold up the event loop: every game played to its end by AI seats through
:class:`engine.tables.ai_turns.AITurns` (no pause, the registry's AI players), while a ticker coroutine notes
each gap between its 1 ms sleeps. A gap much over 1 ms is time the loop could not answer a press.

Usage::

    python3 bench/ai_turns_loop.py [--games 3]

Storing and drawing a move are left out (a no-op store, no Discord): they are the same for an AI's move as
for a person's press, measured by ``bench/press_cost.py``. Printed: per game, the moves played, the AI's
time per move (copy and decision, in its worker) and the loop's longest gaps (p99 and max, in ms).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.run import tune_interpreter  # noqa: E402
from cogs.tables import ai_seats  # noqa: E402
from engine.registry import GAMES  # noqa: E402
from engine.tables.ai_seats import leave_game  # noqa: E402
from engine.tables.ai_turns import AITurns  # noqa: E402
from engine.tables.registry import TableRegistry  # noqa: E402
from engine.tables.session import Phase, TableSession, TableSettings  # noqa: E402
from engine.tables.tasks import Supervisor  # noqa: E402

NOW = datetime(2026, 11, 24, tzinfo=timezone.utc)
HOST = 1


async def one_game(key: str, seed: int, gaps: list[float]) -> tuple[int, float]:
    """Play one game of AIs to its end; returns (moves, seconds)."""
    rules = GAMES[key]
    session = TableSession(f"b{seed:04d}", 1, 2, rules, TableSettings(3600, 3600, 2), HOST, "host")
    ai_seats.seat_bots(session, min(rules.max_seats, 4) - 1)
    session.start(HOST, seed, NOW)
    leave_game(session, HOST)  # nobody left: the AIs play every seat, without a pause
    registry = TableRegistry()
    registry.register(session)
    turns = AITurns(registry, Supervisor(), 0.0)
    done = asyncio.Event()

    async def persist(table: TableSession) -> None:
        table.mark_saved()

    def after_move(table: TableSession, before: set[int]) -> None:
        turns.schedule(table)
        if table.phase is not Phase.PLAYING:
            done.set()

    turns.persist, turns.after_move, turns.refresh = persist, after_move, lambda table: None

    async def ticker() -> None:
        loop = asyncio.get_running_loop()
        while not done.is_set():
            before = loop.time()
            await asyncio.sleep(0.001)
            gaps.append(loop.time() - before - 0.001)

    started = time.perf_counter()
    tick = asyncio.ensure_future(ticker())
    turns.schedule(session)
    await done.wait()
    await tick
    assert session.state is not None
    return len(session.state.history), time.perf_counter() - started


async def main(games: int) -> None:
    print("| game | moves | AI time per move (ms) | loop gap p99 (ms) | loop gap max (ms) |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for key in sorted(GAMES):
        gaps: list[float] = []
        moves = seconds = 0.0
        for seed in range(games):
            played, took = await one_game(key, seed, gaps)
            moves += played
            seconds += took
        gaps.sort()
        p99 = gaps[int(len(gaps) * 0.99)] * 1000
        print(f"| {key} | {int(moves)} | {seconds / moves * 1000:.2f} | {p99:.2f} | {gaps[-1] * 1000:.2f} |")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument(
        "--python-defaults",
        action="store_true",
        help="keep Python's GC thresholds and switch interval (default: the bot's, tune_interpreter)",
    )
    arguments = parser.parse_args()
    if not arguments.python_defaults:
        tune_interpreter()
    asyncio.run(main(arguments.games))
