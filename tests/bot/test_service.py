"""The bot run as a service, in its own process against the sandbox: a clean stop on SIGTERM (presses
under way finish, presses arriving are told "restarting", exit 0 within 5 seconds, every table back at the
next start), a database write-locked by another process while players press (every press answered within
Discord's 3 seconds, nothing lost), the health check, and the start-up refusals of an unusable database."""

from __future__ import annotations

import asyncio
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

from sandbox import SandboxServer
from tests.bot.test_entrypoint import ROOT, bot_environment, run_bot
from tests.e2e.conftest import PLAYER_NAMES, World

RESTARTING = "I am restarting: please try again in a moment."
BUSY = "The database is busy, so that did not happen. Please try again in a moment."
TABLE_BUSY = "The table is busy: press again in a moment."


@asynccontextmanager
async def write_lock(database: Path):
    """Another process holds ``BEGIN IMMEDIATE`` on ``database`` (as a second bot, a backup tool or someone
    in the sqlite3 shell would) until the block ends."""
    holder = await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        "import sqlite3, sys\n"
        f"c = sqlite3.connect({str(database)!r}, isolation_level=None)\n"
        "c.execute('BEGIN IMMEDIATE')\n"
        "print('locked', flush=True)\n"
        "sys.stdin.read()\n"
        "c.execute('ROLLBACK')\n",
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
    )
    assert holder.stdin is not None and holder.stdout is not None
    assert (await asyncio.wait_for(holder.stdout.readline(), 10)).strip() == b"locked"
    try:
        yield
    finally:
        holder.stdin.close()
        await asyncio.wait_for(holder.wait(), 10)


async def health(env: dict[str, str], cwd: Path) -> tuple[int, str]:
    """Run the Docker image's HEALTHCHECK command (``cardtable health``) with the bot's settings."""
    command = [shutil.which("cardtable")] if shutil.which("cardtable") else [sys.executable, "-m", "bot"]
    process = await asyncio.create_subprocess_exec(
        *command, "health", cwd=cwd, env=env, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE
    )
    stdout, stderr = await asyncio.wait_for(process.communicate(), 30)
    assert process.returncode is not None
    return process.returncode, (stdout + stderr).decode().strip()


class Service:
    """A sandbox guild with several channels and a bot process on one database, (re)startable."""

    def __init__(self, server: SandboxServer, tmp_path: Path, channels: int) -> None:
        self.server = server
        self.tmp_path = tmp_path
        self.guild = server.add_guild("Card Club")
        self.players = {name: self.guild.add_member(name) for name in PLAYER_NAMES}
        self.database = tmp_path / "bot.db"
        self.worlds = [
            World(
                server, self.guild, channel, channel, self.players, None, None, f"sqlite:///{self.database}"
            )
            for channel in (self.guild.add_channel(f"table-{n}") for n in range(channels))
        ]
        self.env = bot_environment(
            tmp_path,
            DISCORD_TOKEN=server.bot_token,
            DISCORD_API_BASE=server.api_base,
            DEV_GUILD_ID=str(self.guild.id),
            DEFAULT_TURN_SECONDS="3600",
            LOG_LEVEL="INFO",
        )
        self.process: asyncio.subprocess.Process | None = None

    async def start(self) -> None:
        await self.server.wait_for(lambda: not self.server.bot_connected, timeout=10)
        self.process = await run_bot(self.env, self.tmp_path)
        await self.server.wait_for_bot(timeout=30)
        await self.server.wait_for_commands(["play", "hand", "leaderboard"], timeout=30)

    async def stop(self, signum: int = signal.SIGTERM) -> tuple[int, float, str]:
        """Send ``signum``; returns the exit code, the seconds it took and everything the bot wrote."""
        assert self.process is not None
        began = time.monotonic()
        self.process.send_signal(signum)
        stdout, stderr = await asyncio.wait_for(self.process.communicate(), 30)
        took = time.monotonic() - began
        assert self.process.returncode is not None
        return self.process.returncode, took, (stdout + stderr).decode()

    def kill(self) -> None:
        if self.process is not None and self.process.returncode is None:
            self.process.kill()


def stored_moves(database: Path) -> int:
    with sqlite3.connect(database) as db:
        return db.execute("SELECT COUNT(*) FROM live_table_actions").fetchone()[0]


def no_traceback(output: str) -> None:
    at = output.find("Traceback")
    assert at < 0, output[max(0, at - 600) : at + 2000]


async def test_sigterm_lets_the_press_under_way_finish_answers_new_ones_restarting_exits_0_in_time_and_the_next_start_restores_every_table(  # noqa: E501
    tmp_path: Path,
) -> None:
    async with SandboxServer(interaction_deadline=3.0) as server:
        service = Service(server, tmp_path, channels=2)
        try:
            await service.start()
            first, second = service.worlds
            tables = [
                await first.open_table(),
                await second.open_table(host="dave", seated=("erin", "frank")),
            ]
            moved = await first.press(first.turn_owner(tables[0]), tables[0], "No thanks")
            assert moved.ok and moved.response_type == 7
            for _ in range(50):  # the report says connected once discord.py is ready (after its guilds)
                code, report = await health(service.env, tmp_path)
                if code == 0:
                    break
                await asyncio.sleep(0.2)
            assert (code, report) == (0, "cardtable: healthy: connected to Discord, database writable")

            backup = await asyncio.create_subprocess_exec(  # on demand, while the bot runs
                sys.executable,
                "-m",
                "bot",
                "backup",
                env=service.env,
                cwd=tmp_path,
                stdout=asyncio.subprocess.PIPE,
            )
            made, _ = await asyncio.wait_for(backup.communicate(), 30)
            assert backup.returncode == 0
            with sqlite3.connect(tmp_path / made.decode().strip()) as copy:
                assert copy.execute("SELECT COUNT(*) FROM live_table_actions").fetchone() == (1,)

            # A press under way (its save waits for another program's lock) when SIGTERM arrives.
            async with write_lock(service.database):
                under_way = asyncio.ensure_future(
                    first.press(first.turn_owner(first.message(tables[0].id)), tables[0], "No thanks")
                )
                await asyncio.sleep(0.4)
                assert service.process is not None
                service.process.send_signal(signal.SIGTERM)
                began = time.monotonic()
                await asyncio.sleep(0.2)
                arriving = await second.press(second.turn_owner(tables[1]), tables[1], "No thanks")
            finished = await under_way
            await asyncio.wait_for(service.process.wait(), 10)
            took = time.monotonic() - began
            stdout, stderr = await service.process.communicate()
            output = (stdout + stderr).decode()
            assert service.process.returncode == 0, output[-3000:]
            assert took < 5.0
            no_traceback(output)
            assert arriving.ok and arriving.ephemeral and arriving.message.text() == RESTARTING
            assert finished.ok and finished.response_type == 7  # the move under way was stored and shown
            assert stored_moves(service.database) == 2
            code, report = await health(service.env, tmp_path)
            assert code == 1 and report == "cardtable: the bot has stopped"
            before = [w.message(table.id).text() for w, table in zip(service.worlds, tables, strict=True)]

            await service.start()  # every table comes back as it was, and plays on
            for world, table, text in zip(service.worlds, tables, before, strict=True):
                await server.wait_for(lambda w=world, t=table, x=text: w.message(t.id).text() == x, 10)
            again = await second.press(second.turn_owner(tables[1]), tables[1], "No thanks")
            assert again.ok and again.response_type == 7
            code, took, output = await service.stop(signal.SIGINT)
            assert code == 0 and took < 5.0, output[-3000:]
            no_traceback(output)
            assert stored_moves(service.database) == 3
        finally:
            service.kill()
        assert server.violations == []


async def test_a_database_write_locked_by_another_process_while_players_press_answers_every_press_in_time_and_loses_nothing(  # noqa: E501
    tmp_path: Path,
) -> None:
    async with SandboxServer(interaction_deadline=3.0) as server:
        service = Service(server, tmp_path, channels=4)
        try:
            await service.start()
            tables = [
                await world.open_table(host=host, seated=seated)
                for world, host, seated in zip(
                    service.worlds[:3],
                    ("alice", "dave", "grace"),
                    (("bob", "carol"), ("erin", "frank"), ("heidi", "ivan")),
                    strict=True,
                )
            ]
            async with write_lock(service.database):
                presses = []
                for world, table in zip(service.worlds, tables, strict=False):
                    owner = world.turn_owner(table)
                    presses += [world.press(owner, table, "No thanks") for _ in range(3)]
                    presses.append(world.press(world.players["alice"], table, "My hand"))
                admin, channel = (
                    service.guild.add_member("admin", manage_guild=True),
                    service.worlds[3].channel,
                )
                presses.append(server.run_command(admin, channel, "table defaults", turn_seconds=30))
                presses.append(service.worlds[3].play(service.players["judy"], game="foist"))
                began = time.monotonic()
                results = await asyncio.gather(*presses)
                assert time.monotonic() - began < 3.5
            assert all(result.ok for result in results), [r for r in results if not r.ok]
            moves = [r for n, r in enumerate(results[:-2]) if n % 4 != 3]
            assert results[-2].ephemeral and results[-2].message.text() == BUSY  # /table defaults
            # A press queued behind another press waiting on the locked database may run out of time for
            # the table first (on a loaded machine): told the table is busy, as honestly; nothing changes.
            assert all(r.ephemeral and r.message.text() in (BUSY, TABLE_BUSY) for r in moves), [
                r.message for r in moves
            ]
            assert any(r.message.text() == BUSY for r in moves)
            assert "busy" in results[-1].message.text() or "could not save" in results[-1].message.text()
            assert stored_moves(service.database) == 0  # nothing was shown as done, nothing stored

            # The lock is gone: the same presses work.
            for world, table in zip(service.worlds, tables, strict=False):
                result = await world.press(world.turn_owner(world.message(table.id)), table, "No thanks")
                assert result.ok and result.response_type == 7
            assert stored_moves(service.database) == 3
            code, _took, output = await service.stop()
            assert code == 0
            no_traceback(output)
        finally:
            service.kill()
        assert server.violations == []


def run_as_unprivileged_root(command: list[str]) -> list[str]:
    """``command`` without the power to ignore file permissions: as root it drops CAP_DAC_OVERRIDE (and
    CAP_DAC_READ_SEARCH) with setpriv, so a read-only file is read-only to it, as to the image's user."""
    if os.geteuid() != 0:
        return command
    if shutil.which("setpriv") is None:
        pytest.skip("running as root without setpriv: file permissions cannot be enforced")
    return ["setpriv", "--bounding-set=-dac_override,-dac_read_search", *command]


def start_refused(env: dict[str, str], cwd: Path) -> tuple[int, str]:
    command = run_as_unprivileged_root([sys.executable, "-m", "bot"])
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=30)
    return done.returncode, done.stderr


def test_a_read_only_database_stops_the_bot_at_start_with_one_line(tmp_path: Path) -> None:
    from storage import Database

    database = tmp_path / "bot.db"
    asyncio.run(_create(Database, database))
    database.chmod(0o444)
    env = bot_environment(tmp_path, DISCORD_TOKEN="t", DISCORD_API_BASE="http://127.0.0.1:9/api/v10")
    code, stderr = start_refused(env, tmp_path)
    assert code == 1
    assert stderr.strip().splitlines() == [
        f"cardtable: the database {database} is read-only (attempt to write a readonly database): the bot "
        f"must be able to write it and to create files in {tmp_path}; check their owner and permissions"
    ]


def test_an_unwritable_data_folder_and_a_folder_as_database_stop_the_bot_at_start_with_one_line(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "data"
    folder.mkdir()
    folder.chmod(0o555)
    env = bot_environment(tmp_path, DISCORD_TOKEN="t", DISCORD_API_BASE="http://127.0.0.1:9/api/v10")
    env["DATABASE_URL"] = f"sqlite:///{folder / 'bot.db'}"
    code, stderr = start_refused(env, tmp_path)
    assert code == 1
    assert stderr.strip().splitlines() == [
        f"cardtable: cannot open the database {folder / 'bot.db'}: unable to open database file"
    ]

    env["DATABASE_URL"] = f"sqlite:///{tmp_path}"
    for _ in range(3):  # the traceback after the line came in some runs only
        code, stderr = start_refused(env, tmp_path)
        assert code == 1
        assert stderr.strip().splitlines() == [
            f"cardtable: cannot open the database {tmp_path}: unable to open database file"
        ]


async def _create(database_class, path: Path) -> None:
    database = await database_class.open(path)
    await database.close()


def test_the_tests_run_the_bot_from_this_checkout() -> None:
    assert bot_environment(Path("/tmp"))["PYTHONPATH"] == str(ROOT)
