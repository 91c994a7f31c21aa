"""What relaying a DM interaction to another process costs, on demand (never in the test suite).

    python3 bench/dm_relay.py              # 200 DM /hand of each kind
    python3 bench/dm_relay.py --count 50

A throwaway PostgreSQL (``tests/postgres_server.py``, durable: fsync on) and the sandbox with two shards; two
bot processes (``python -m bot``, ``SHARD_COUNT=2``, ``SHARD_IDS=0`` and ``=1``) share the database. One
Foist table runs in a guild of each shard. Discord delivers every DM interaction to shard 0, so:

- **local**: ``/hand`` typed in a DM by a player of the shard-0 table is answered by the shard-0 process
  from memory;
- **relayed**: ``/hand`` in a DM by a player of the shard-1 table: the shard-0 process looks up the table's
  guild (``live_table_seats``), defers the interaction, stores its description and NOTIFYs shard 1; the
  shard-1 process claims it (which notifies shard 0) and answers by editing the deferred answer;
- **owner down**: the shard-1 process SIGKILLed, the same DM is answered "restarting" by the shard-0
  process after ``RELAY_ACK_SECONDS`` (1.5 s) without a claim.

Reported: the latency from the simulated user's command until the sandbox shows the answer (a relayed one's
edit, after its deferral), p50, p95, p99 and max, the kinds interleaved so both see the same machine load.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import signal
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.no_limits import no_limits_environment  # noqa: E402
from sandbox import SandboxServer  # noqa: E402
from tests.postgres_server import ThrowawayPostgres  # noqa: E402

SHARDS = 2


def percentiles(samples: list[float]) -> str:
    ordered = sorted(samples)
    cut = statistics.quantiles(ordered, n=100, method="inclusive")
    return (
        f"p50 {cut[49] * 1000:.1f} ms, p95 {cut[94] * 1000:.1f} ms, p99 {cut[98] * 1000:.1f} ms, "
        f"max {ordered[-1] * 1000:.1f} ms ({len(ordered)} answers)"
    )


async def start_bot(env: dict[str, str], shard: int, folder: Path) -> asyncio.subprocess.Process:
    folder.mkdir(parents=True, exist_ok=True)
    return await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        cwd=folder,
        env={**env, "SHARD_IDS": str(shard)},
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.DEVNULL,
    )


async def open_table(server: SandboxServer, channel, players) -> None:
    host, *others = players
    opened = await server.run_command(host, channel, "play", game="foist")
    assert opened.ok, opened
    for player in others:
        joined = await server.press(player, opened.message, _custom_id(opened.message, "Join"))
        assert joined.ok, joined
    started = await server.press(host, opened.message, _custom_id(opened.message, "Start"))
    assert started.ok, started


def _custom_id(message, label: str) -> str:
    return next(b["custom_id"] for b in message.buttons() if b.get("label", "").startswith(label))


async def timed_hand(server: SandboxServer, user) -> tuple[float, str]:
    began = time.perf_counter()
    result = await server.run_command(user, None, "hand")
    assert result.ok, result
    message = await result.wait_message()  # a relayed /hand is deferred, then edited by its owner
    elapsed = time.perf_counter() - began
    return elapsed, message.text()


async def bench(count: int, folder: Path) -> None:
    with ThrowawayPostgres(durable=True) as postgres:
        database_url = postgres.create_database()
        async with SandboxServer(interaction_deadline=3.0, shard_count=SHARDS) as server:
            guilds = [server.add_guild(f"Shard {shard} Club", shard=shard) for shard in range(SHARDS)]
            channels = [guild.add_channel("cards") for guild in guilds]
            players = [[guild.add_member(f"p{k}{n}") for n in range(3)] for k, guild in enumerate(guilds)]
            env = {key: value for key, value in os.environ.items() if not key.startswith(("DISCORD", "DEV"))}
            env.update(
                PYTHONPATH=str(ROOT),
                DISCORD_TOKEN=server.bot_token,
                DISCORD_API_BASE=server.api_base,
                DATABASE_URL=database_url,
                SHARD_COUNT=str(SHARDS),
                DEFAULT_TURN_SECONDS="3600",
                BACKUP_INTERVAL_MINUTES="0",
                LOG_LEVEL="WARNING",
            )
            env.update(no_limits_environment())
            processes = [await start_bot(env, shard, folder / f"shard-{shard}") for shard in range(SHARDS)]
            try:
                await server.wait_for_shards(range(SHARDS), SHARDS, timeout=60)
                await server.wait_for_commands(["play", "hand"], timeout=60)
                await asyncio.sleep(3)  # both processes ready (discord.py waits 2 s for guilds)
                for channel, seated in zip(channels, players, strict=True):
                    await open_table(server, channel, seated)
                local, relayed = [], []
                for _ in range(10):  # warm-up
                    await timed_hand(server, players[0][1])
                    await timed_hand(server, players[1][1])
                for _ in range(count):
                    elapsed, text = await timed_hand(server, players[0][1])
                    assert "Private to p01" in text, text
                    local.append(elapsed)
                    elapsed, text = await timed_hand(server, players[1][1])
                    assert "Private to p11" in text, text
                    relayed.append(elapsed)
                processes[1].send_signal(signal.SIGKILL)
                await processes[1].wait()
                await server.drop_shards([1])
                down = []
                for _ in range(5):
                    elapsed, text = await timed_hand(server, players[1][1])
                    assert "restarting" in text, text
                    down.append(elapsed)
            finally:
                for process in processes:
                    if process.returncode is None:
                        process.send_signal(signal.SIGKILL)
                        await process.wait()
    print(f"machine: {os.cpu_count()} cores, {platform.machine()}, Python {platform.python_version()}")
    print(f"DM /hand, local (shard 0's table):        {percentiles(local)}")
    print(f"DM /hand, relayed (shard 1's table):      {percentiles(relayed)}")
    print(f"DM /hand, owner down ('restarting'):      {', '.join(f'{s * 1000:.0f} ms' for s in down)}")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--count", type=int, default=200, help="DM /hand of each kind")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="dm-relay-") as folder:
        asyncio.run(bench(args.count, Path(folder)))


if __name__ == "__main__":
    main()
