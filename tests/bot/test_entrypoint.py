"""``python -m bot`` as a server admin runs it: a separate process talking to a Discord-compatible server."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

from sandbox import SandboxServer

ROOT = Path(__file__).resolve().parents[2]


def bot_environment(tmp_path: Path, **settings: str) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if not key.startswith(("DISCORD_", "DEV_GUILD"))}
    # The tests press at machine speed, far past a person's press limit (cogs.press_limits).
    env.update(PYTHONPATH=str(ROOT), DATABASE_URL=f"sqlite:///{tmp_path / 'bot.db'}")
    env.update(PRESSES_PER_SECOND="1000")
    env.update(settings)
    return env


async def run_bot(env: dict[str, str], cwd: Path) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        cwd=cwd,
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )


async def test_python_m_bot_connects_plays_and_stops_cleanly(tmp_path: Path) -> None:
    async with SandboxServer() as server:
        guild = server.add_guild("Admins' Server")
        channel = guild.add_channel("games")
        alice = guild.add_member("alice")
        env = bot_environment(
            tmp_path,
            DISCORD_TOKEN=server.bot_token,
            DISCORD_API_BASE=server.api_base,
            DEV_GUILD_ID=str(guild.id),
            LOG_LEVEL="DEBUG",
        )
        process = await run_bot(env, tmp_path)
        try:
            await server.wait_for_bot(timeout=30)
            await server.wait_for_commands(["play", "hand", "leaderboard"], timeout=30)
            opened = await server.run_command(alice, channel, "play", game="foist")
            assert opened.ok and "table open" in opened.message.text()
            process.send_signal(signal.SIGUSR1)  # every thread's stack to stderr; the bot goes on
            await asyncio.sleep(0.5)
            again = await server.run_command(alice, channel, "rules", game="foist")
            assert again.ok
        finally:
            process.send_signal(signal.SIGINT)
            stdout, stderr = await asyncio.wait_for(process.communicate(), timeout=30)
        output = (stdout + stderr).decode()
        assert process.returncode == 0, output[-3000:]
        assert "Traceback" not in output, output[
            output.find("Traceback") - 600 : output.find("Traceback") + 1500
        ]
        assert "(most recent call first)" in stderr.decode()  # the threads' stacks, on SIGUSR1
        assert server.bot_token not in output  # not even at DEBUG
        interaction_tokens = [path.split("/")[3] for _, path, _ in server.request_log if "/callback" in path]
        assert interaction_tokens and not any(token in output for token in interaction_tokens)
        # play, hand, turns, leaderboard, stats, history, table, replay, rules, queue, gamenight
        assert "Synced 11 slash commands" in output
        assert (tmp_path / "bot.db").exists()
        assert server.violations == []


async def test_a_refused_token_is_one_line(tmp_path: Path) -> None:
    async with SandboxServer() as server:
        env = bot_environment(tmp_path, DISCORD_TOKEN="not-the-token", DISCORD_API_BASE=server.api_base)
        process = await run_bot(env, tmp_path)
        stdout, stderr = await asyncio.wait_for(process.communicate(), timeout=30)
    assert process.returncode == 1
    assert stderr.decode().strip().splitlines()[-1] == (
        "cardtable: DISCORD_TOKEN was refused: check the token in the environment or .env"
    )
    assert "Traceback" not in stderr.decode() and "not-the-token" not in (stdout + stderr).decode()


async def test_an_unreachable_api_and_an_unusable_database_are_one_line(tmp_path: Path) -> None:
    unreachable = bot_environment(tmp_path, DISCORD_TOKEN="t", DISCORD_API_BASE="http://127.0.0.1:9/api/v10")
    process = await run_bot(unreachable, tmp_path)
    _, stderr = await asyncio.wait_for(process.communicate(), timeout=30)
    assert process.returncode == 1
    assert (
        stderr.decode()
        .strip()
        .splitlines()[-1]
        .startswith("cardtable: cannot reach http://127.0.0.1:9/api/v10")
    )
    assert "Traceback" not in stderr.decode()

    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    unusable = bot_environment(tmp_path, DISCORD_TOKEN="t")
    unusable["DATABASE_URL"] = f"sqlite:///{blocker / 'bot.db'}"
    process = await run_bot(unusable, tmp_path)
    _, stderr = await asyncio.wait_for(process.communicate(), timeout=30)
    assert process.returncode == 1
    last_line = stderr.decode().strip().splitlines()[-1]
    assert last_line.startswith(f"cardtable: cannot open the database {blocker / 'bot.db'}")
    assert "Traceback" not in stderr.decode()


async def test_a_dev_guild_the_bot_is_not_in_is_one_line(tmp_path: Path) -> None:
    async with SandboxServer() as server:
        server.add_guild("Somewhere")
        env = bot_environment(
            tmp_path, DISCORD_TOKEN=server.bot_token, DISCORD_API_BASE=server.api_base, DEV_GUILD_ID="4242"
        )
        process = await run_bot(env, tmp_path)
        _, stderr = await asyncio.wait_for(process.communicate(), timeout=30)
    assert process.returncode == 1
    last_line = stderr.decode().strip().splitlines()[-1]
    assert last_line.startswith("cardtable: cannot sync slash commands to DEV_GUILD_ID 4242"), stderr.decode()
    assert "Traceback" not in stderr.decode()


async def test_a_damaged_database_stops_the_bot_with_one_line_naming_the_backups(tmp_path: Path) -> None:
    from storage import Database, StoredAction
    from tests.storage.test_live_tables import damage_table

    path = tmp_path / "bot.db"
    database = await Database.open(path)
    for n in range(300):
        await database.save_table(f"t{n}", 1, 2, "foist", {"filler": "x" * 500}, [StoredAction(0, 0, "take")])
    await database.close()
    damage_table(path, "live_tables")
    async with SandboxServer() as server:
        guild = server.add_guild("Somewhere")
        env = bot_environment(
            tmp_path,
            DISCORD_TOKEN=server.bot_token,
            DISCORD_API_BASE=server.api_base,
            DEV_GUILD_ID=str(guild.id),
        )
        process = await run_bot(env, tmp_path)
        _, stderr = await asyncio.wait_for(process.communicate(), timeout=30)
    assert process.returncode == 1
    last_line = stderr.decode().strip().splitlines()[-1]
    assert last_line.startswith(f"cardtable: the database {path} is damaged"), stderr.decode()
    assert "README" in last_line and "Traceback" not in stderr.decode()
