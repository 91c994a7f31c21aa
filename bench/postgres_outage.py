"""A PostgreSQL server away for 10 seconds in the middle of a game, on demand (never in the test suite).

    python3 bench/postgres_outage.py                 # the server stopped for 10 s
    python3 bench/postgres_outage.py --outage 30

A throwaway PostgreSQL (``tests/postgres_server.py``, durable: fsync on), the sandbox and the real bot in
this process (``bot.sandbox_demo.sandbox_bot``). A Foist table is opened and played a few moves; then the
server is stopped (``pg_ctl stop -m fast``) for ``--outage`` seconds while the player whose turn it is
presses every 0.5 s, and started again; the presses go on until one is a move again, then the game is
played to its end.

Reported: every press's latency (the simulated user's press until the sandbox has the answer) and its
answer while the server was away; how long after the server was back the first move was stored; how late
the event loop woke a 20 ms sleep at worst (a loop blocked by a database wait would show here) and
discord.py's heartbeat latency; whether every acknowledged move is stored and the result once.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.no_limits import NO_LIMITS  # noqa: E402
from bot.sandbox_demo import sandbox_bot  # noqa: E402
from sandbox import SandboxServer  # noqa: E402
from tests.e2e.conftest import PLAYER_NAMES, World, logged_moves, play_to_the_end  # noqa: E402
from tests.e2e.stored_rows import stored  # noqa: E402
from tests.e2e.test_postgres_faults import AWAY, LoopLag, is_move, press_a_move  # noqa: E402
from tests.postgres_server import ThrowawayPostgres  # noqa: E402


async def run(outage: float) -> None:
    rng = random.Random(21)
    with ThrowawayPostgres(durable=True) as postgres, tempfile.TemporaryDirectory() as folder:
        url = postgres.create_database()
        async with SandboxServer(interaction_deadline=3.0) as server:
            guild = server.add_guild("Card Club")
            channel = guild.add_channel("cards")
            players = {name: guild.add_member(name) for name in PLAYER_NAMES}
            settings = {"min_turn_seconds": 1, "data_dir": Path(folder), "log_level": "WARNING", **NO_LIMITS}
            async with sandbox_bot(server, guild.id, url, **settings) as bot:
                world = World(server, guild, channel, channel, players, None, bot, url)
                table = await world.open_table()
                acknowledged, base = 0, logged_moves(world)
                for _ in range(4):
                    acknowledged += is_move(await press_a_move(world, table, rng))
                lag = LoopLag()
                await asyncio.to_thread(postgres.halt)
                stopped = time.monotonic()
                away: list[tuple[float, str]] = []
                while time.monotonic() - stopped < outage:
                    began = time.monotonic()
                    result = await press_a_move(world, table, rng)
                    away.append(
                        (time.monotonic() - began, result.message.text() if result.ephemeral else "move")
                    )
                    await asyncio.sleep(max(0.0, 0.5 - (time.monotonic() - began)))
                await asyncio.to_thread(postgres.resume)
                back = time.monotonic()
                presses_after = 0
                while True:
                    presses_after += 1
                    began = time.monotonic()
                    result = await press_a_move(world, table, rng)
                    if is_move(result):
                        acknowledged += 1
                        first_move = time.monotonic() - back
                        break
                    away.append((time.monotonic() - began, result.message.text()))
                    await asyncio.sleep(0.2)
                await lag.stop()
                stored_moves = logged_moves(world) - base
                final = await play_to_the_end(world, table, rng)
                results = stored(url, "SELECT COUNT(*) FROM games")[0][0]
                latencies = sorted(seconds for seconds, _ in away)
                told_away = sum(AWAY in text for _, text in away)
                print(f"outage {outage:g} s: {len(away)} presses answered while the server was away or back,")
                print(
                    f"  {told_away} of them 'the database is not answering'; others: "
                    f"{sorted({text for _, text in away if AWAY not in text}) or 'none'}"
                )
                print(
                    f"  press to answer: median {latencies[len(latencies) // 2] * 1000:.0f} ms, "
                    f"max {latencies[-1] * 1000:.0f} ms (Discord's limit: 3000 ms)"
                )
                print(
                    f"  first move stored {first_move:.2f} s after the server was back "
                    f"({presses_after} presses after it)"
                )
                print(
                    f"  event loop at most {lag.worst * 1000:.0f} ms late; heartbeat latency now "
                    f"{bot.latency * 1000:.0f} ms"
                )
                print(
                    f"  acknowledged moves {acknowledged}, stored {stored_moves}; game ended: "
                    f"{'final scores' in final.text()}; results stored: {results}"
                )
                print(f"  sandbox violations: {server.violations or 'none'}")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--outage", type=float, default=10.0, help="seconds the server is away")
    asyncio.run(run(parser.parse_args().outage))


if __name__ == "__main__":
    main()
