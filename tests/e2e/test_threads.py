"""Tables in threads: ``/play thread:true`` opens each table in a new public thread of the channel, so one
channel holds several tables at once (and one more in the channel itself); they play to the end through a
restart, a rematch stays in its thread, and a thread is archived once no table is left in it. ``/play``
names a missing thread permission; ``/table defaults threads:true`` makes threads the server's default."""

from __future__ import annotations

import dataclasses
import random

from sandbox.models import Permissions
from tests.e2e.conftest import World, live_tables, play_to_the_end, restartable_world


async def open_in_thread(
    world: World, host: str, game: str = "foist", thread: bool | None = True
) -> tuple[World, object]:
    """``/play thread:true`` (or ``/play`` when ``thread`` is ``None``) as ``host``: the answer points to a
    new thread, whose first message is the lobby. Returns a :class:`World` whose channel is that thread, and
    the lobby message."""
    before = set(map(id, world.server.threads_of(world.channel)))
    options = {} if thread is None else {"thread": thread}
    result = await world.play(world.players[host], game=game, **options)
    assert result.ok and not result.ephemeral, result
    await result.wait_message(timeout=5)
    (thread,) = [t for t in world.server.threads_of(world.channel) if id(t) not in before]
    assert f"<#{thread.id}>" in result.message.text() and "join it there" in result.message.text()
    in_thread = dataclasses.replace(world, channel=thread)
    (lobby,) = in_thread.public_messages()
    assert "table open" in lobby.text() and lobby.buttons()
    return in_thread, lobby


async def seat_and_start(world: World, lobby, host: str, seated: tuple[str, ...]):
    for name in seated:
        joined = await world.press(world.players[name], lobby, "Join")
        assert joined.ok and joined.response_type == 7, joined
    started = await world.press(world.players[host], lobby, "Start")
    assert started.ok and started.response_type == 7, started
    return world.message(lobby.id)


async def test_two_thread_tables_and_a_channel_table_play_through_a_restart(database_url: str) -> None:
    rng = random.Random(12)
    async with restartable_world(database_url, rematch_seconds=60) as (start_bot, world_with):
        async with start_bot() as bot:
            world = world_with(bot)
            first, first_lobby = await open_in_thread(world, "alice")
            second, second_lobby = await open_in_thread(world, "dave")
            assert first.channel.id != second.channel.id != world.channel.id
            assert first.channel.name == "Foist · alice's table"
            here = await world.open_table(host="grace", seated=("heidi", "ivan"))  # the channel's own table
            first_table = await seat_and_start(first, first_lobby, "alice", ("bob", "carol"))
            second_table = await seat_and_start(second, second_lobby, "dave", ("erin", "frank"))
            assert len(live_tables(world)) == 3
            for table_world, table in ((first, first_table), (second, second_table), (world, here)):
                current = table_world.message(table.id)
                moved = await table_world.press(table_world.turn_owner(current), current, "No thanks")
                assert moved.ok and moved.response_type == 7 and not moved.ephemeral, moved
            before = first.message(first_table.id).text()
        async with start_bot() as bot:  # the same database: every table comes back, in its own thread
            world = world_with(bot)
            first, second = (dataclasses.replace(world, channel=t.channel) for t in (first, second))
            assert len(live_tables(world)) == 3
            await world.server.wait_for(lambda: first.message(first_table.id).text() == before, timeout=5)
            hand = await first.press(first.players["bob"], first.message(first_table.id), "My hand")
            assert hand.ok and hand.ephemeral and hand.message.channel_id == first.channel.id
            for table_world, table in ((first, first_table), (second, second_table), (world, here)):
                final = await play_to_the_end(table_world, table, rng)
                assert "final scores" in final.text()
            # Everyone at the first thread's table plays again: the rematch lobby opens in the same thread,
            # which stays open; the second thread's players all leave, so its thread is archived.
            for name in ("alice", "bob", "carol"):
                await first.press(first.players[name], first.message(first_table.id), "Play again")
            await world.server.wait_for(lambda: len(first.public_messages()) == 2, timeout=5)
            rematch = first.public_messages()[-1]
            assert "Playing again" in rematch.text() and rematch.buttons()
            for name in ("dave", "erin", "frank"):
                await second.press(second.players[name], second.message(second_table.id), "Leave")
            await world.server.wait_for(lambda: second.channel.archived, timeout=5)
            assert not first.channel.archived
            cancelled = await first.press(first.players["alice"], rematch, "Cancel")
            assert cancelled.ok
            await world.server.wait_for(lambda: first.channel.archived, timeout=5)
            assert not world.server.violations, world.server.violations


async def test_play_names_the_thread_permissions_the_bot_lacks(world: World) -> None:
    for role in (world.guild.roles[world.guild.id], world.guild.bot_role()):  # @everyone and the bot's
        role.permissions &= ~(Permissions.CREATE_PUBLIC_THREADS | Permissions.SEND_MESSAGES_IN_THREADS)
    result = await world.play(world.players["alice"], game="foist", thread=True)
    assert result.ok and result.ephemeral
    text = result.message.text()
    assert "Create Public Threads" in text and "Send Messages in Threads" in text
    assert world.server.threads_of(world.channel) == [] and live_tables(world) == {}


async def test_the_servers_default_opens_tables_in_threads(world: World) -> None:
    admin = world.guild.add_member("admin", manage_guild=True)
    said = await world.server.run_command(admin, world.channel, "table defaults", threads=True)
    assert said.ok and "new thread" in said.message.text()
    in_thread, lobby = await open_in_thread(world, "alice", game="memory", thread=None)
    # Inside a thread, /play opens the table right there (a thread holds no threads).
    refused = await in_thread.play(in_thread.players["bob"], game="foist", thread=True)
    assert refused.ephemeral and "thread already" in refused.message.text()
    cancelled = await in_thread.press(in_thread.players["alice"], lobby, "Cancel")
    assert cancelled.ok
    await world.server.wait_for(lambda: in_thread.channel.archived, timeout=5)
    here = await in_thread.play(in_thread.players["bob"], game="foist")  # a table in the archived thread
    assert here.ok and not here.ephemeral and here.message.channel_id == in_thread.channel.id
    assert not in_thread.channel.archived  # posting there unarchived it, as Discord does
    off = await world.server.run_command(admin, world.channel, "table defaults", threads=False)
    assert "in the channel itself" in off.message.text()
    plain = await world.play(world.players["carol"], game="foist")
    assert plain.ok and plain.message.channel_id == world.channel.id


async def test_table_defaults_sets_every_default_at_once(world: World) -> None:
    admin = world.guild.add_member("admin", manage_guild=True)
    options = {"turn_seconds": 45, "min_games": 3, "count_ai_games": False, "threads": True}
    said = await world.server.run_command(
        admin, world.channel, "table defaults", **options, hints_in_rated=False
    )
    text = said.message.text()
    assert said.ephemeral and "45 seconds per decision" in text and "at least 3 games" in text
    assert "do not count" in text and "in a new thread of their channel" in text
    assert "Hints are off in rated games" in text


async def test_hand_in_the_channel_points_to_the_thread_of_ones_table(world: World) -> None:
    in_thread, lobby = await open_in_thread(world, "alice")
    await in_thread.press(in_thread.players["bob"], lobby, "Join")
    answer = await world.server.run_command(world.players["bob"], world.channel, "hand")
    assert answer.ephemeral and f"<#{in_thread.channel.id}>" in answer.message.text()
