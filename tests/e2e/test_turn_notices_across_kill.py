"""Turn lines outlive the process that posted them: the bot is killed with SIGKILL while a player's "it is
your turn" line stands, and the next process settles it. A line whose turn still waits is kept (no second
ping for the same turn) and deleted once the turn is over; a line whose turn timed out while no bot ran is
deleted at restart; a line whose message id never reached the database (a kill between Discord's answer
and that write) is found in the channel and deleted, and its player gets a fresh line."""

from __future__ import annotations

import asyncio
import signal
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from sandbox import SandboxServer
from tests.e2e.conftest import PLAYER_NAMES, World, bot_process_environment, start_bot_process
from tests.e2e.stored_rows import change, stored

NOTICES = "SELECT user_id, message_id FROM turn_notices"


def live_lines(world: World) -> list[Any]:
    """The channel's turn lines not deleted."""
    return [line for line in world.turn_lines() if not line.deleted]


@asynccontextmanager
async def killable_bot(
    tmp_path: Path, database_url: str
) -> AsyncIterator[tuple[World, Callable[[], Awaitable]]]:
    """A sandbox with one guild and the bot as its own process; yields the world and ``restart()``, which
    kills the bot with SIGKILL and starts a new process on the same database."""
    async with SandboxServer(interaction_deadline=3.0) as server:
        guild = server.add_guild("Card Club")
        channel = guild.add_channel("cards")
        players = {name: guild.add_member(name) for name in PLAYER_NAMES}
        env = bot_process_environment(
            tmp_path,
            database_url,
            DISCORD_TOKEN=server.bot_token,
            DISCORD_API_BASE=server.api_base,
            DEV_GUILD_ID=str(guild.id),
            MIN_TURN_SECONDS="1",
            DEFAULT_TURN_SECONDS="3600",
            TURN_ALERT_DELAY_SECONDS="0",
            AI_PAUSE_SECONDS="0",
            LOG_LEVEL="WARNING",
        )
        outsider = guild.add_member("mallory")
        world = World(server, guild, channel, channel, players, outsider, None, database_url)
        processes: list[asyncio.subprocess.Process] = []

        async def start() -> None:
            processes.append(await start_bot_process(server, env, tmp_path))

        async def restart(while_down: Callable[[], Awaitable] | None = None) -> None:
            process = processes.pop()
            process.send_signal(signal.SIGKILL)
            await process.wait()
            await server.drop_bot_connections(resumable=False)
            if while_down is not None:
                await while_down()
            await start()

        await start()
        try:
            yield world, restart
        finally:
            for process in processes:
                process.send_signal(signal.SIGKILL)
                await process.wait()


async def first_line(world: World) -> Any:
    """The one line of the game's first turn, once it is posted and its row has its message id."""
    await world.server.wait_for(lambda: len(live_lines(world)) == 1, timeout=10)
    (line,) = live_lines(world)
    await world.server.wait_for(lambda: stored(world.database_url, NOTICES) != [], timeout=10)
    await world.server.wait_for(lambda: stored(world.database_url, NOTICES)[0][1] is not None, timeout=10)
    return line


async def look_at(world: World, table: Any) -> None:
    """A press on the table that moves nothing ("Rules in play" by someone not seated): the restarted bot
    replays the table to answer it, and settles its notices."""
    result = await world.press(world.outsider, table, "Rules in play")
    assert result.ok and result.ephemeral, result


async def test_a_line_whose_turn_still_waits_is_kept_across_a_kill_and_deleted_once_the_turn_is_over(
    tmp_path: Path, database_url: str
) -> None:
    async with killable_bot(tmp_path, database_url) as (world, restart):
        table = await world.open_table()
        line = await first_line(world)
        actor = world.turn_owner(world.message(table.id))
        assert line.content.startswith(f"🔔 <@{actor.id}>")
        await restart()
        await look_at(world, table)
        await asyncio.sleep(1.0)  # the restored table has settled its notices by now
        assert world.turn_lines() == [line] and not line.deleted  # kept, and no second ping
        moved = await world.press(actor, world.message(table.id), "No thanks")
        assert moved.ok and moved.response_type == 7, moved
        await world.server.wait_for(lambda: line.deleted, timeout=10)
        await world.server.wait_for(lambda: len(live_lines(world)) == 1, timeout=10)  # the next player's
        assert live_lines(world)[0].content.startswith(
            f"🔔 <@{world.turn_owner(world.message(table.id)).id}>"
        )


async def test_a_line_whose_turn_timed_out_while_no_bot_ran_is_deleted_at_restart(
    tmp_path: Path, database_url: str
) -> None:
    async with killable_bot(tmp_path, database_url) as (world, restart):
        table = await world.open_table(turn_seconds=2)
        line = await first_line(world)
        await restart(lambda: asyncio.sleep(3))  # the turn's 2 s run out while the bot is down
        await look_at(world, table)
        await world.server.wait_for(lambda: line.deleted, timeout=10)
        told = int(line.content.split("<@")[1].split(">")[0])
        await world.server.wait_for(
            lambda: all(user_id != told for user_id, _ in stored(world.database_url, NOTICES)), timeout=10
        )


async def test_a_line_whose_id_was_never_stored_is_found_in_the_channel_and_deleted(
    tmp_path: Path, database_url: str
) -> None:
    async with killable_bot(tmp_path, database_url) as (world, restart):
        table = await world.open_table()
        line = await first_line(world)

        async def lose_the_id() -> None:  # as a kill between Discord's answer and the write leaves it
            change(world.database_url, [("UPDATE turn_notices SET message_id = NULL", [()])])

        await restart(lose_the_id)
        await look_at(world, table)
        await world.server.wait_for(lambda: line.deleted, timeout=10)
        await world.server.wait_for(lambda: len(live_lines(world)) == 1, timeout=10)  # a fresh line instead
        (fresh,) = live_lines(world)
        assert fresh.content.split(",")[0] == line.content.split(",")[0]  # the same player
        await world.server.wait_for(
            lambda: [message_id for _, message_id in stored(world.database_url, NOTICES)] == [fresh.id],
            timeout=10,
        )
