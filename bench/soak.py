"""Soak test, run on demand (never in the test suite): ``python bench/soak.py --tables 100 --games 2``.

The bot runs as its own process (``python -m bot``) against the sandbox; ``--tables`` tables play at once
in as many channels, three simulated players each, ``--games`` full Foist games per table back to back.
Every press is a real interaction with Discord's 3-second deadline. At the end it prints, as Markdown
rows for ``docs/performance.md``: presses and their latency, interactions answered late or not at all
(the sandbox's violations), lost actions (acknowledged presses missing from the stored logs), and the bot
process's memory (RSS) sampled through the run.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.no_limits import no_limits_environment  # noqa: E402
from bot.sandbox_demo import TURN_OWNER  # noqa: E402
from sandbox import SandboxServer  # noqa: E402


def rss_mib(pid: int) -> float:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def custom_id(message, label: str) -> str:
    return next(button for button in message.buttons() if button["label"] == label)["custom_id"]


async def soak(tables: int, games: int) -> None:
    folder = Path(tempfile.mkdtemp())
    async with SandboxServer(interaction_deadline=3.0) as server:
        guild = server.add_guild("Soak")
        channels = [guild.add_channel(f"t{i}") for i in range(tables)]
        members = [guild.add_member(f"p{i}") for i in range(tables * 3)]
        env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DEV_GUILD"))}
        env.update(
            PYTHONPATH=str(ROOT),
            DATABASE_URL=f"sqlite:///{folder / 'soak.db'}",
            DISCORD_TOKEN=server.bot_token,
            DISCORD_API_BASE=server.api_base,
            DEV_GUILD_ID=str(guild.id),
            DEFAULT_TURN_SECONDS="3600",
            REMATCH_SECONDS="1",
            LOG_LEVEL="WARNING",
            BACKUP_INTERVAL_MINUTES="0",
        )
        env.update(no_limits_environment())
        process = await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", env=env, cwd=folder)
        await server.wait_for_bot(timeout=30)
        await server.wait_for_commands(["play", "hand", "leaderboard"], timeout=30)
        memory = [rss_mib(process.pid)]
        latencies: list[float] = []
        acknowledged = 0
        unanswered = 0
        done = asyncio.Event()

        async def sample_memory() -> None:
            while not done.is_set():
                await asyncio.sleep(2)
                memory.append(rss_mib(process.pid))

        async def one_table(channel, seated: list) -> None:
            nonlocal acknowledged, unanswered
            rng = random.Random(channel.id)
            by_name = {member.username: member for member in seated}
            for _ in range(games):
                while server.bot_connected:
                    opened = await server.run_command(seated[0], channel, "play", game="foist")
                    if opened.ok and not opened.ephemeral:
                        break
                    await asyncio.sleep(0.5)  # the last game's table is still on its scoreboard
                table = opened.message
                for player in seated[1:]:
                    await server.press(player, table, custom_id(table, "Join"))
                await server.press(seated[0], table, custom_id(table, "Start"))
                for _ in range(1000):
                    current = server.message(table.id)
                    if "final scores" in current.text():
                        break
                    name = TURN_OWNER.search(current.text())["name"]
                    actions = [b for b in current.buttons() if ":a." in b["custom_id"]]
                    started = time.perf_counter()
                    result = await server.press(by_name[name], current, rng.choice(actions)["custom_id"])
                    latencies.append(time.perf_counter() - started)
                    if not result.ok:
                        unanswered += 1
                    elif result.ephemeral:  # refused privately (no tokens left): take instead
                        again = await server.press(by_name[name], current, actions[0]["custom_id"])
                        acknowledged += again.ok and again.response_type == 7
                    else:
                        acknowledged += result.response_type == 7

        sampler = asyncio.ensure_future(sample_memory())
        started = time.perf_counter()
        await asyncio.gather(*(one_table(c, members[i * 3 : i * 3 + 3]) for i, c in enumerate(channels)))
        elapsed = time.perf_counter() - started
        done.set()
        await sampler
        await asyncio.sleep(1.5)
        process.send_signal(signal.SIGINT)
        await process.wait()
        with sqlite3.connect(folder / "soak.db") as db:
            logged = sum(len(json.loads(a)) for (a,) in db.execute("SELECT actions FROM games"))
            results = db.execute("SELECT COUNT(*) FROM games").fetchone()[0]
        late = [v for v in server.violations if "late" in str(v).lower() or "deadline" in str(v).lower()]
        latencies.sort()
        quarter = max(1, len(memory) // 4)
        print("| what | result |\n| --- | --- |")
        print(
            f"| soak: {tables} tables at once, {games} Foist games each, bot in its own process | "
            f"{len(latencies)} presses in {elapsed:.0f} s ({len(latencies) / elapsed:,.0f}/s) |"
        )
        print(
            f"| press latency | p50 {statistics.median(latencies) * 1e3:.0f} ms, "
            f"p95 {latencies[int(len(latencies) * 0.95) - 1] * 1e3:.0f} ms, "
            f"max {latencies[-1] * 1e3:.0f} ms |"
        )
        print(
            f"| answered late or never | {len(late)} late, {unanswered} unanswered; "
            f"{len(server.violations)} sandbox violations in all |"
        )
        print(
            f"| lost actions | {acknowledged} acknowledged, {logged} in the {results} stored logs: "
            f"{acknowledged - logged} lost |"
        )
        print(
            f"| bot RSS | start {memory[0]:.0f} MiB; first quarter mean "
            f"{statistics.mean(memory[:quarter]):.0f} MiB, last quarter mean "
            f"{statistics.mean(memory[-quarter:]):.0f} MiB; peak {max(memory):.0f} MiB |"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--games", type=int, default=2)
    args = parser.parse_args()
    asyncio.run(soak(args.tables, args.games))


if __name__ == "__main__":
    main()
