"""Benchmarks, run on demand (never in the test suite): ``python bench/bench_tables.py``.

1. Engine: whole random Foist games per second, and replaying a game from its log.
2. Bot: press-to-answer latency of table buttons through the sandbox (real discord.py client, real
   SQLite), with several tables playing at once; and the bot process's memory before and after.

Results are printed as Markdown rows for ``docs/performance.md``.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.no_limits import NO_LIMITS  # noqa: E402
from bot.sandbox_demo import TURN_OWNER, sandbox_bot  # noqa: E402
from engine import get_rules, replay  # noqa: E402
from sandbox import SandboxServer  # noqa: E402


def bench_engine(games: int) -> None:
    rules = get_rules("foist")
    rng = random.Random(1)
    logs = []
    started = time.perf_counter()
    moves = 0
    for seed in range(games):
        state = rules.new_game(rng.randint(3, 7), seed)
        while not state.is_terminal():
            (seat,) = state.seats_to_act()
            state.apply(seat, rng.choice(state.legal_actions(seat)).code)
            state.view(seat)
            moves += 1
        logs.append(state)
    elapsed = time.perf_counter() - started
    print(
        f"| engine: random Foist games (with a view per move) | {games / elapsed:,.0f} games/s | "
        f"{moves / elapsed:,.0f} moves/s |"
    )
    started = time.perf_counter()
    for state in logs:
        replay(rules, state.num_seats, state.seed, None, state.history)
    elapsed = time.perf_counter() - started
    print(
        f"| engine: replay a finished game from its log | {elapsed / len(logs) * 1e3:.2f} ms/game | "
        f"{sum(len(s.history) for s in logs) / len(logs):.0f} moves/game |"
    )


async def bench_bot(tables: int, moves_per_table: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        async with SandboxServer() as server:
            guild = server.add_guild("Bench")
            channels = [guild.add_channel(f"t{i}") for i in range(tables)]
            members = [guild.add_member(f"p{i}") for i in range(tables * 3)]
            async with sandbox_bot(server, guild.id, Path(folder) / "bench.db", **NO_LIMITS):
                await measure_presses(server, channels, members, moves_per_table)


def _custom_id(message, label: str) -> str:
    return next(button for button in message.buttons() if button["label"] == label)["custom_id"]


async def measure_presses(server: SandboxServer, channels: list, members: list, moves_per_table: int) -> None:
    """Play one table per channel at once, three players each; print latencies and memory."""
    rss_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    latencies: list[float] = []

    async def one_table(channel, seated: list) -> None:
        table = (await server.run_command(seated[0], channel, "play", game="foist")).message
        for player in seated[1:]:
            await server.press(player, table, _custom_id(table, "Join"))
        await server.press(seated[0], table, _custom_id(table, "Start"))
        by_name = {member.username: member for member in seated}
        for _ in range(moves_per_table):
            current = server.message(table.id)
            if "final scores" in current.text():
                break
            name = TURN_OWNER.search(current.text())["name"]
            actions = [button for button in current.buttons() if ":a." in button["custom_id"]]
            started = time.perf_counter()
            result = await server.press(by_name[name], current, random.choice(actions)["custom_id"])
            latencies.append(time.perf_counter() - started)
            assert result.ok
            if result.ephemeral:  # refused privately (no tokens left): take instead
                await server.press(by_name[name], current, actions[0]["custom_id"])

    started = time.perf_counter()
    await asyncio.gather(
        *(one_table(channel, members[index * 3 : index * 3 + 3]) for index, channel in enumerate(channels))
    )
    elapsed = time.perf_counter() - started
    rss_after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    latencies.sort()
    p50 = statistics.median(latencies) * 1e3
    p95 = latencies[int(len(latencies) * 0.95) - 1] * 1e3
    print(
        f"| bot via sandbox: {len(channels)} tables at once, {len(latencies)} presses | "
        f"p50 {p50:.1f} ms, p95 {p95:.1f} ms, max {latencies[-1] * 1e3:.1f} ms | "
        f"{len(latencies) / elapsed:,.0f} presses/s |"
    )
    print(
        f"| process peak RSS (bot + sandbox in one process) | {rss_before / 1024:.0f} MiB before, "
        f"{rss_after / 1024:.0f} MiB after | violations: {len(server.violations)} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--moves", type=int, default=60)
    args = parser.parse_args()
    print("| what | result | |\n| --- | --- | --- |")
    bench_engine(args.games)
    asyncio.run(bench_bot(args.tables, args.moves))


if __name__ == "__main__":
    main()
