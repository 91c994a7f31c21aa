"""How long the AI seats' turns hold up the event loop: all-AI games played the way
:meth:`engine.tables.ai_turns.AITurns.play_once` plays a move (the seat's information set made in a worker
thread, the decision in a worker thread, the move applied on the loop), at each AI level, while a ticker
coroutine notes each gap between its 1 ms sleeps. A gap much over 1 ms is time the loop could not answer a
press.

Usage::

    python3 bench/ai_turns_loop.py [--games 3] [--game KEY ...] [--level LEVEL ...] [--python-defaults]

Storing and drawing a move are left out (no store, no Discord): they are the same for an AI's move as for a
person's press, measured by ``bench/press_cost.py``. Printed: per game and level, the moves played, the
AI's wall time per move (information set and decision, in its workers) and the loop's gaps (p99 and max,
in ms). The interpreter is tuned as the bot tunes it (``bot.run.tune_interpreter``: its switch interval
bounds how long a worker thread holds the GIL) unless ``--python-defaults``.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.run import tune_interpreter  # noqa: E402
from engine.ai.core import InformationSet  # noqa: E402
from engine.ai.registry import LEVELS, ai_player  # noqa: E402
from engine.registry import GAMES  # noqa: E402
from engine.tables.ai_turns import decision_rng  # noqa: E402


async def one_game(key: str, level: str, seed: int, gaps: list[float]) -> tuple[int, float]:
    """Play one three-seat game of AIs at ``level`` to its end; returns (moves, seconds)."""
    state = GAMES[key].new_game(3, seed)
    player = ai_player(key, level)
    done = asyncio.Event()

    async def ticker() -> None:
        loop = asyncio.get_running_loop()
        while not done.is_set():
            before = loop.time()
            await asyncio.sleep(0.001)
            gaps.append(loop.time() - before - 0.001)

    started = time.perf_counter()
    tick = asyncio.ensure_future(ticker())
    moves = 0
    while not state.is_terminal() and moves <= GAMES[key].max_moves:
        seat = state.seats_to_act()[0]
        seen = await asyncio.to_thread(InformationSet.of, state, seat)
        code = await asyncio.to_thread(player.decide, seen, decision_rng(seed, state.version, seat))
        state.apply(seat, code)
        moves += 1
    done.set()
    await tick
    return moves, time.perf_counter() - started


async def main(games: int, keys: list[str], levels: list[str]) -> None:
    print("| game | level | moves | AI time per move (ms) | loop gap p99 (ms) | loop gap max (ms) |")
    print("| --- | --- | ---: | ---: | ---: | ---: |")
    for key in keys:
        for level in levels:
            gaps: list[float] = []
            moves = seconds = 0.0
            for seed in range(games):
                played, took = await one_game(key, level, seed, gaps)
                moves += played
                seconds += took
            gaps.sort()
            p99 = gaps[int(len(gaps) * 0.99)] * 1000
            print(
                f"| {key} | {level} | {int(moves)} | {seconds / moves * 1000:.2f} | {p99:.2f} "
                f"| {gaps[-1] * 1000:.2f} |",
                flush=True,
            )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--game", action="append", choices=sorted(GAMES))
    parser.add_argument("--level", action="append", choices=LEVELS)
    parser.add_argument(
        "--python-defaults",
        action="store_true",
        help="keep Python's GC thresholds and switch interval (default: the bot's, tune_interpreter)",
    )
    arguments = parser.parse_args()
    if not arguments.python_defaults:
        tune_interpreter()
    asyncio.run(main(arguments.games, arguments.game or sorted(GAMES), arguments.level or list(LEVELS)))
