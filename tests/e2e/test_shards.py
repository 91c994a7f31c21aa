"""Two bot processes, one shard each, sharing one PostgreSQL database, against the sandbox's sharded
gateway: a table in a guild of each shard; DM interactions (which Discord delivers to shard 0) about the
shard-1 table reach the shard-1 process and are applied there (acknowledged at once by shard 0's process
with a deferred answer, which the shard-1 process's edit completes within 3 s of the press), also while its
shard reconnects; those in
flight when that process is SIGKILLed are each answered once, by one process; with the process dead they
are answered "restarting" in time while the shard-0 table plays on; restarted, it
restores only its own table and answers a DM relayed to it as soon as its gateway session is ready (as
Discord's clients would press, before discord.py's ``on_ready``), and the table plays to the end. Each
result is stored once and each guild's leaderboard counts its own game."""

from __future__ import annotations

import asyncio
import random
import re
import signal
import sys
from pathlib import Path
from typing import Any

import psycopg

from bot.sandbox_demo import sandbox_bot
from sandbox import SandboxServer
from tests.bot.test_entrypoint import bot_environment
from tests.e2e import reading
from tests.e2e.conftest import MACHINE_SPEED, World, play_to_the_end

ROOT = Path(__file__).resolve().parents[2]
SHARDS = 2
RESTARTING = "restarting"


class BotProcess:
    """``python -m bot`` holding one shard, with its log lines collected as they come."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process
        self.lines: list[str] = []
        self._reader = asyncio.ensure_future(self._read())

    @classmethod
    async def start(cls, env: dict[str, str], shard: int, cwd: Path) -> BotProcess:
        cwd.mkdir(parents=True, exist_ok=True)
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bot",
            cwd=cwd,
            env={**env, "SHARD_IDS": str(shard)},
            stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.PIPE,
        )
        return cls(process)

    async def _read(self) -> None:
        assert self.process.stderr is not None
        async for line in self.process.stderr:
            self.lines.append(line.decode(errors="replace"))

    def logged(self, text: str) -> bool:
        return any(text in line for line in self.lines)

    async def kill(self) -> None:
        if self.process.returncode is None:
            self.process.send_signal(signal.SIGKILL)
        await self.process.wait()
        await self._reader


def world_of(server: SandboxServer, guild: Any, names: tuple[str, ...]) -> World:
    """A guild's channel and players, with a manager who can set the server's defaults."""
    channel = guild.add_channel("cards")
    players = {name: guild.add_member(name) for name in names}
    manager = guild.add_member(f"manager-{names[0]}", manage_guild=True)
    return World(server, guild, channel, channel, players, manager, None, None)


async def some_moves(world: World, table: Any, rng: random.Random, moves: int) -> None:
    """``moves`` presses on the table message by the player whose turn it is (Take or No thanks)."""
    for _ in range(moves):
        current = world.message(table.id)
        actor = world.turn_owner(current)
        result = await world.press(actor, current, "No thanks" if rng.random() < 0.6 else "Take")
        if result.ephemeral:  # no tokens left: must take
            result = await world.press(actor, current, "Take")
        assert result.ok and result.response_type == 7, result


async def dm_command(server: SandboxServer, user: Any, name: str = "hand", **options: Any) -> Any:
    """A command typed in ``user``'s DM, returned once its answer is what the player sees, within Discord's
    3 s of the command: its response, or for one relayed to another process (acknowledged at once with a
    deferred answer, type 5) the owner's edit of it (or the relay's "restarting")."""
    began = asyncio.get_running_loop().time()
    result = await server.run_command(user, None, name, **options)
    if result.ok and result.response_type == 5:
        await result.wait_message(timeout=max(0.0, began + 3.0 - asyncio.get_running_loop().time()))
    return result


def private_to(result: Any, name: str, world: World) -> bool:
    """The answer is ``name``'s private view of the table in ``world``'s channel (its title links there)."""
    link = reading.link(result.message)
    return (
        f"Private to {name}" in result.message.text()
        and f"/channels/{world.guild.id}/{world.channel.id}/" in link
    )


def stored_moves(database_url: str, table_id: str) -> int:
    with psycopg.connect(database_url) as db:
        row = db.execute(
            "SELECT COUNT(*) FROM live_table_actions WHERE table_id = %s", (table_id,)
        ).fetchone()
    return row[0]


def move_number(table: Any) -> int:
    """The move the table message's footer shows."""
    match = re.search(r"· move (\d+)", table.text())
    assert match is not None, table.text()
    return int(match[1])


def table_id_of(message: Any) -> str:
    return next(b["custom_id"] for b in message.buttons() if b["custom_id"].startswith("ct:")).split(":")[1]


async def test_two_processes_one_shard_each_relay_dms_and_recover_alone(
    tmp_path: Path, postgres_url: str
) -> None:
    rng = random.Random(15)
    async with SandboxServer(interaction_deadline=3.0, shard_count=SHARDS) as server:
        zero = world_of(server, server.add_guild("Shard Zero Club", shard=0), ("alice", "bob", "carol"))
        one = world_of(server, server.add_guild("Shard One Club", shard=1), ("dave", "erin", "frank"))
        env = bot_environment(
            tmp_path,
            DISCORD_TOKEN=server.bot_token,
            DISCORD_API_BASE=server.api_base,
            SHARD_COUNT=str(SHARDS),
            DEFAULT_TURN_SECONDS="3600",
            REMATCH_SECONDS="3600",
            BACKUP_INTERVAL_MINUTES="0",
            LOG_LEVEL="INFO",
            **{name.upper(): str(value) for name, value in MACHINE_SPEED.items()},
        )
        env["DATABASE_URL"] = postgres_url
        processes: dict[int, BotProcess] = {}

        async def start(shard: int) -> None:
            """Start the process of ``shard`` and return once its gateway session is READY: players press
            from then on, as on Discord (discord.py's own ready comes seconds later)."""
            processes[shard] = await BotProcess.start(env, shard, tmp_path / f"shard-{shard}")
            await server.wait_for_shards([shard], SHARDS, timeout=30)

        try:
            await asyncio.gather(start(0), start(1))  # both at once, as a deployment starts them
            await server.wait_for_commands(["play", "hand", "leaderboard"], timeout=30)
            table_zero = await zero.open_table(host="alice", seated=("bob", "carol"))
            table_one = await one.open_table(host="dave", seated=("erin", "frank"))
            await some_moves(zero, table_zero, rng, 3)
            await some_moves(one, table_one, rng, 3)

            # A DM /hand for a player of each table: both reach shard 0's process, which answers its own
            # table's and relays the shard-1 table's to the shard-1 process, which answers with that hand.
            # The relayed one is acknowledged by shard 0's process (a deferred answer), then edited by its
            # owner.
            for world, name, answer_type in ((zero, "alice", 4), (one, "dave", 5)):
                hand = await dm_command(server, world.players[name])
                assert hand.ok and hand.ephemeral and hand.shard == 0, hand
                assert hand.response_type == answer_type, hand
                assert private_to(hand, name, world), hand.message.text()

            # A button on a DM'd hand view of the shard-1 table, pressed in the DM, is applied once there.
            actor = one.turn_owner(one.message(table_one.id))
            asked = await server.run_command(actor, one.channel, "hand", dm=True)
            assert asked.ok and asked.shard == 1, asked
            dm = server.dm_channel(actor)
            await server.wait_for(lambda: any(m.buttons() for m in dm.messages), timeout=5)
            dm_view = [m for m in dm.messages if m.buttons()][-1]
            (_, _, take, _, _), *_ = [c for c in World.choices_on(dm_view, 0) if c[4].startswith("Take")]
            shown_before = move_number(one.message(table_one.id))
            moves_before = stored_moves(postgres_url, table_id_of(dm_view))
            # Shard 0's process acknowledges it (a deferred update) and relays it; the owner edits the DM.
            pressed_at = asyncio.get_running_loop().time()
            pressed = await server.press(actor, dm_view, take)
            assert pressed.ok and pressed.response_type == 6 and pressed.shard == 0, pressed
            left = max(0.0, pressed_at + 3.0 - asyncio.get_running_loop().time())
            await pressed.wait_message(timeout=left)  # the DM'd view redrawn within 3 s of the press
            assert stored_moves(postgres_url, table_id_of(dm_view)) == moves_before + 1
            moved = f"move {shown_before + 1}"  # the table message follows
            await server.wait_for(lambda: moved in one.message(table_one.id).text(), timeout=5)

            # Shard 1's gateway connection drops (resumable): a DM about its table, relayed while the shard
            # reconnects, is answered by the shard-1 process.
            await server.drop_shards([1], resumable=True)
            hand = await dm_command(server, one.players["frank"])
            assert hand.ok and hand.shard == 0 and private_to(hand, "frank", one), hand

            # The shard-1 process is SIGKILLed while DMs about its table are relayed to it (some taken and
            # answered, some not yet): each is answered once, by one process, within Discord's 3 s.
            in_flight = [
                asyncio.ensure_future(dm_command(server, one.players[name]))
                for name in ("dave", "erin", "frank", "dave", "erin", "frank")
            ]
            await asyncio.sleep(0.01)  # here: some relayed, some taken, some answered (the log tells which)
            await processes[1].kill()
            await server.drop_shards([1])
            for answer in await asyncio.gather(*in_flight):
                assert answer.ok and answer.ephemeral, answer  # answered in time: nobody sees "failed"
                assert RESTARTING in answer.message.text() or "Private to" in answer.message.text(), answer
            # The only second answer possible: the owner killed in the instant between its answer and its
            # word to the sender; Discord refuses it (40060) and the player sees the first.
            refused = [line for line in server.violations if "answered twice" in line]
            assert server.violations == refused, server.violations

            # Dead, it no longer takes them: a DM about its table is answered "restarting" in time,
            # while the shard-0 table plays on.
            restarting, _ = await asyncio.gather(
                dm_command(server, one.players["erin"]), some_moves(zero, table_zero, rng, 3)
            )
            assert restarting.ok and restarting.ephemeral, restarting
            assert RESTARTING in restarting.message.text(), restarting.message.text()

            # Restarted, it brings back only its own table (of the two live ones) and takes a DM relayed
            # to it at once, before discord.py is ready; the table plays to the end, so does shard 0's.
            await start(1)
            hand = await dm_command(server, one.players["erin"])
            assert hand.ok and private_to(hand, "erin", one), hand
            assert processes[1].logged("Restored 1 table") and not processes[0].logged("Restored")
            finals = await asyncio.gather(
                play_to_the_end(zero, table_zero, rng), play_to_the_end(one, table_one, rng)
            )
            assert all("final scores" in reading.title(final) for final in finals)

            # Each result stored once; each server's leaderboard has its own three players, one game each.
            for world in (zero, one):
                assert world.outsider is not None
                set_min = await server.run_command(
                    world.outsider, world.channel, "table defaults", min_games=1
                )
                assert set_min.ok, set_min
                board = (
                    await server.run_command(
                        world.players["bob" if world is zero else "erin"], world.channel, "leaderboard"
                    )
                ).message.text()
                listed = re.findall(r"\d+\. \*\*([^*]+)\*\*: .* · 1 game · ", board)
                assert sorted(listed) == sorted(world.players), board

            # Both stop cleanly on SIGTERM (the relay's connections closed with the rest).
            for process in processes.values():
                process.process.send_signal(signal.SIGTERM)
            for process in processes.values():
                assert await asyncio.wait_for(process.process.wait(), timeout=10) == 0, process.lines[-5:]
        finally:
            for shard, process in processes.items():
                await process.kill()
                print(f"--- shard {shard} process log (last lines) ---", *process.lines[-30:], sep="\n")

        with psycopg.connect(postgres_url) as db:
            games = db.execute("SELECT guild_id, COUNT(*) FROM games GROUP BY guild_id").fetchall()
        assert sorted(games) == sorted([(zero.guild.id, 1), (one.guild.id, 1)])


async def test_one_process_holding_both_shards_answers_every_dm_itself(tmp_path: Path) -> None:
    """``SHARD_COUNT=2`` without ``SHARD_IDS``: one process, both shards, SQLite, nothing relayed."""
    async with SandboxServer(interaction_deadline=3.0, shard_count=SHARDS) as server:
        zero = world_of(server, server.add_guild("Shard Zero Club", shard=0), ("alice", "bob", "carol"))
        one = world_of(server, server.add_guild("Shard One Club", shard=1), ("dave", "erin", "frank"))
        database = tmp_path / "bot.db"
        async with sandbox_bot(
            server, zero.guild.id, database, dev_guild_id=None, shard_count=SHARDS, **MACHINE_SPEED
        ) as bot:
            await server.wait_for_shards([0, 1], SHARDS, timeout=20)  # discord.py identifies 5 s apart
            assert bot.relay is None and sorted(bot.shards) == [0, 1]
            tables = [
                await zero.open_table("alice", ("bob", "carol")),
                await one.open_table("dave", ("erin", "frank")),
            ]
            assert [server.shard_of(world.guild) for world in (zero, one)] == [0, 1]
            for world, name in ((zero, "bob"), (one, "erin")):
                hand = await server.run_command(world.players[name], None, "hand")
                assert hand.ok and hand.shard == 0 and private_to(hand, name, world), hand
            assert len(tables) == len(bot.get_cog("Tables").registry.tables) == 2
