"""The queues that find partners, through the sandbox: ``/queue join`` and the **Looking for a game**
message's buttons, the message edited in place, a table opening in a thread once three Foist players wait
(seated, the first one hosting), one queue per member per server, the AI fill after the server's wait, a
restart, concurrent joins, and a forged press."""

from __future__ import annotations

import asyncio
import dataclasses

import pytest

from sandbox.models import Permissions
from tests.e2e.conftest import World, live_tables, restartable_world
from tests.e2e.stored_rows import stored


def board(world: World):
    """The channel's Looking for a game message (the only one with that title), or ``None``."""
    found = [m for m in world.public_messages() if "Looking for a game" in m.text() and not m.deleted]
    assert len(found) <= 1, [m.text() for m in found]
    return found[0] if found else None


async def join(world: World, name: str, game: str = "foist", **options):
    result = await world.server.run_command(
        world.players[name], world.channel, "queue join", game=game, **options
    )
    assert result.ok and result.ephemeral, result
    await result.wait_message(timeout=5)
    return result


async def answer_text(result) -> str:
    await result.wait_message(timeout=5)
    return result.message.text()


async def test_three_foist_players_fill_a_table_in_a_thread(world: World) -> None:
    first = await join(world, "alice")
    assert "waiting for a Foist table of 3 players" in first.message.text(), first.message.text()
    await world.server.wait_for(lambda: board(world) is not None and "alice" in board(world).text())
    message = board(world)
    pressed = await world.press(world.players["bob"], message, "Foist")
    assert pressed.ok and pressed.ephemeral, pressed
    assert "2 of 3" in await answer_text(pressed)
    await world.server.wait_for(lambda: "bob" in world.message(message.id).text())
    assert "alice" in world.message(message.id).text() and "<t:" in world.message(message.id).text()
    threads_before = list(world.server.threads_of(world.channel))
    third = await join(world, "carol")
    assert "table is open" in third.message.text(), third.message.text()
    (thread,) = [t for t in world.server.threads_of(world.channel) if t not in threads_before]
    assert f"<#{thread.id}>" in third.message.text()
    in_thread = dataclasses.replace(world, channel=thread)
    (lobby,) = in_thread.public_messages()
    (ready,) = in_thread.turn_lines()  # the line that mentions the seated players
    assert all(f"<@{world.players[n].id}>" in ready.text() for n in ("alice", "bob", "carol"))
    (session,) = live_tables(world).values()
    assert session.phase.name == "LOBBY" and session.host_id == world.players["alice"].id
    assert set(session.seated_users()) == {world.players[n].id for n in ("alice", "bob", "carol")}
    await world.server.wait_for(lambda: "Nobody is waiting" in world.message(message.id).text())
    assert board(world).id == message.id  # edited in place, never posted again
    assert stored(world.database_url, "SELECT COUNT(*) FROM queue_players") == [(0,)]
    started = await in_thread.press(world.players["alice"], lobby, "Start")
    assert started.ok and started.response_type == 7, started
    assert not world.server.violations, world.server.violations


def admin(world: World):
    return world.guild.add_member("admin", manage_guild=True)


async def test_leave_by_command_and_by_button_and_one_queue_per_member(world: World) -> None:
    await join(world, "alice")
    await world.server.wait_for(lambda: board(world) is not None)
    message = board(world)
    moved = await join(world, "alice", game="memory")
    assert "You left the Foist queue." in moved.message.text(), moved.message.text()
    await world.server.wait_for(lambda: "Deluxe Memory" in world.message(message.id).text())
    assert "Foist" not in world.message(message.id).text().split("players waiting")[0].split("Memory")[-1]
    elsewhere = await world.server.run_command(
        world.players["alice"], world.other_channel, "queue join", game="foist"
    )
    await elsewhere.wait_message(timeout=5)
    assert "waiting for a Foist table" in elsewhere.message.text()
    rows = stored(world.database_url, "SELECT channel_id, game FROM queue_players")
    assert rows == [(world.other_channel.id, "foist")]  # one queue per member and server
    await world.server.wait_for(lambda: "Nobody is waiting" in world.message(message.id).text())
    left = await world.server.run_command(world.players["alice"], world.channel, "queue leave")
    assert "You left the Foist queue." in await answer_text(left)
    again = await world.server.run_command(world.players["alice"], world.channel, "queue leave")
    assert "not waiting" in await answer_text(again)
    await join(world, "bob")
    await world.server.wait_for(lambda: "bob" in world.message(message.id).text())
    pressed = await world.press(world.players["bob"], world.message(message.id), "Leave the queue")
    assert pressed.ok and pressed.ephemeral and "You left the Foist queue." in await answer_text(pressed)
    await world.server.wait_for(lambda: "Nobody is waiting" in world.message(message.id).text())
    assert stored(world.database_url, "SELECT COUNT(*) FROM queue_players") == [(0,)]
    assert board(world).id == message.id


async def test_bad_requests_are_refused_privately_and_change_nothing(world: World) -> None:
    size = await world.server.run_command(
        world.players["alice"], world.channel, "queue join", game="foist", players=9
    )
    assert size.ok and size.ephemeral and "3 to 7 players" in size.message.text(), size.message.text()
    await join(world, "bob")
    twice = await join(world, "bob")
    assert "already waiting" in twice.message.text()
    table = await world.play(world.players["carol"], game="memory")
    assert table.ok and not table.ephemeral
    seated = await join(world, "carol")
    assert "seated at a table" in seated.message.text(), seated.message.text()
    in_thread = await world.play(world.players["erin"], game="foist", thread=True)
    await in_thread.wait_message(timeout=5)
    (thread,) = world.server.threads_of(world.channel)
    there = await world.server.run_command(world.players["frank"], thread, "queue join", game="foist")
    assert there.ok and there.ephemeral and "text channels" in there.message.text(), there.message.text()
    not_admin = await world.server.run_command(world.players["dave"], world.channel, "queue post")
    assert not_admin.ephemeral and "Manage Server" in not_admin.message.text()
    await world.server.wait_for(lambda: board(world) is not None)
    forged = await world.server.press(
        world.players["dave"], board(world), "queue:join:nosuchgame", forged=True
    )
    assert forged.ok and forged.ephemeral and "not one of mine" in forged.message.text(), forged
    rows = stored(world.database_url, "SELECT user_id FROM queue_players")
    assert rows == [(world.players["bob"].id,)]


async def test_queue_post_posts_the_message_again_and_the_old_one_goes(world: World) -> None:
    boss = admin(world)
    posted = await world.server.run_command(boss, world.channel, "queue post")
    assert "posted here" in await answer_text(posted)
    first = board(world)
    assert first is not None and "Nobody is waiting" in first.text()
    again = await world.server.run_command(boss, world.channel, "queue post")
    await answer_text(again)
    await world.server.wait_for(lambda: board(world) is not None and board(world).id != first.id)
    assert len(board(world).buttons()) == 8  # a button per game, and Leave the queue


async def test_a_channel_where_the_bot_cannot_start_threads_holds_no_queue(world: World) -> None:
    for role in (world.guild.roles[world.guild.id], world.guild.bot_role()):
        role.permissions &= ~Permissions.CREATE_PUBLIC_THREADS
    result = await world.server.run_command(world.players["alice"], world.channel, "queue join", game="foist")
    assert result.ok and result.ephemeral and "Create Public Threads" in result.message.text()
    assert stored(world.database_url, "SELECT COUNT(*) FROM queue_players") == [(0,)] and board(world) is None


async def test_a_table_limit_keeps_the_queue_and_says_why(world: World) -> None:
    said = await world.server.run_command(admin(world), world.channel, "table defaults", max_tables=1)
    assert said.ok
    other = await world.server.run_command(world.players["dave"], world.other_channel, "play", game="memory")
    assert other.ok and not other.ephemeral
    await join(world, "alice")
    await join(world, "bob")
    third = await join(world, "carol")
    assert "no table could open" in third.message.text() and "stay in the queue" in third.message.text()
    assert len(live_tables(world)) == 1
    assert stored(world.database_url, "SELECT COUNT(*) FROM queue_players") == [(3,)]


@pytest.mark.bot_settings(queue_minute_seconds=0.2)
async def test_ai_players_fill_the_table_after_the_servers_wait(world: World) -> None:
    said = await world.server.run_command(admin(world), world.channel, "table defaults", queue_ai_after=1)
    assert "1 minute" in said.message.text(), said.message.text()
    await join(world, "alice")
    await world.server.wait_for(lambda: len(live_tables(world)) == 1, timeout=5)
    (session,) = live_tables(world).values()
    assert session.host_id == world.players["alice"].id
    assert len(session.seated_users()) == 3 and sum(1 for u in session.seated_users() if u < 0) == 2
    await world.server.wait_for(lambda: "Nobody is waiting" in board(world).text())
    assert stored(world.database_url, "SELECT COUNT(*) FROM queue_players") == [(0,)]


async def test_two_joins_at_once_open_exactly_one_table(world: World) -> None:
    await join(world, "alice")
    await join(world, "bob")
    results = await asyncio.gather(
        *(
            world.server.run_command(world.players[name], world.channel, "queue join", game="foist")
            for name in ("carol", "dave")
        )
    )
    texts = [await answer_text(result) for result in results]
    assert sum("table is open" in text for text in texts) == 1, texts
    (session,) = live_tables(world).values()
    seated = set(session.seated_users())
    assert len(seated) == 3 and {world.players["alice"].id, world.players["bob"].id} <= seated
    (left,) = stored(world.database_url, "SELECT user_id FROM queue_players")
    assert left[0] not in seated


async def test_a_queue_and_its_message_survive_a_restart_and_its_ai_fill_fires(database_url: str) -> None:
    async with restartable_world(database_url, queue_minute_seconds=3.0) as (start_bot, world_with):
        async with start_bot() as bot:
            world = world_with(bot)
            await join(world, "alice")
            await world.server.wait_for(lambda: board(world) is not None and "alice" in board(world).text())
            message = board(world)
            said = await world.server.run_command(
                admin(world), world.channel, "table defaults", queue_ai_after=1
            )
            assert said.ok
            assert live_tables(world) == {}  # stopped before the wait is over: the next bot fills the table
        assert world.server.threads_of(world.channel) == []
        async with start_bot() as bot:
            world = world_with(bot)
            assert world.bot.get_cog("Queue").queues.where(world.guild.id, world.players["alice"].id)
            await world.server.wait_for(lambda: len(live_tables(world)) == 1, timeout=10)
            (session,) = live_tables(world).values()
            assert session.host_id == world.players["alice"].id
            await world.server.wait_for(lambda: "Nobody is waiting" in world.message(message.id).text())
            assert board(world).id == message.id
            bob = await join(world, "bob")  # the queue goes on after the restart
            assert "waiting for a Foist table" in bob.message.text()
            await world.server.wait_for(lambda: "bob" in world.message(message.id).text())
