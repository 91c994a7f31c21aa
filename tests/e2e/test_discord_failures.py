"""Discord failures never touch a game, and admins' tools: a deleted table message, a missing permission,
an old table message, /table end and /table defaults, and /play in a channel where the bot can't work."""

from __future__ import annotations

import asyncio

import pytest

from tests.e2e import reading
from tests.e2e.conftest import World, live_tables


async def test_a_deleted_table_message_is_posted_again_and_play_goes_on(world: World) -> None:
    table = await world.open_table()
    world.server._delete_message(world.server.message(table.id))
    await world.server.wait_for(
        lambda: any("Foist" in reading.title(m) for m in world.public_messages() if not m.deleted)
    )
    fresh = next(m for m in world.public_messages() if not m.deleted and reading.title(m))  # not a turn line
    assert fresh.id != table.id
    result = await world.press(world.turn_owner(fresh), fresh, "No thanks")
    assert result.ok and result.response_type == 7
    assert world.server.violations == []


async def test_a_missing_permission_is_told_to_the_host_once_and_the_game_goes_on(world: World) -> None:
    alice = world.players["alice"]
    table = await world.open_table(host="alice")
    world.server.inject_failure(
        "PATCH", rf"/channels/\d+/messages/{table.id}", status=403, code=50013, times=5
    )
    tables = live_tables(world)
    for _ in range(2):  # moves made in private views update the table message by plain edits
        (session,) = tables.values()
        (actor_id,) = session.users_to_act()
        actor = next(p for p in world.players.values() if p.id == actor_id)
        hand = await world.press(actor, world.message(table.id), "My hand")
        pressed = await world.press(actor, hand.message, "No thanks")
        assert pressed.ok and pressed.response_type == 7
    await world.server.wait_for(lambda: world.server.dm_messages(alice))
    await asyncio.sleep(0.3)
    warnings = [m for m in world.server.dm_messages(alice) if "missing a permission" in m.text()]
    assert len(warnings) == 1 and "Attach Files" in warnings[0].text()


@pytest.mark.bot_settings(table_message_max_age_seconds=1)
async def test_an_old_table_message_moves_to_a_fresh_one(world: World) -> None:
    table = await world.open_table()
    await asyncio.sleep(1.2)
    actor = world.turn_owner(world.message(table.id))
    hand = await world.press(actor, world.message(table.id), "My hand")
    assert (await world.press(actor, hand.message, "No thanks")).ok
    await world.server.wait_for(lambda: "the table moved" in world.message(table.id).text())
    assert world.message(table.id).buttons() == []
    fresh = [m for m in world.public_messages() if m.id != table.id and m.buttons() and reading.title(m)]
    assert len(fresh) == 1 and "said no thanks" in fresh[0].text()
    assert fresh[0].id != table.id
    result = await world.press(world.turn_owner(fresh[0]), fresh[0], "No thanks")
    assert result.ok and result.response_type == 7


async def test_table_end_needs_manage_server_and_closes_a_stuck_table(world: World) -> None:
    table = await world.open_table()
    refused = await world.server.run_command(world.players["bob"], world.channel, "table end", forged=True)
    assert refused.ephemeral and "Manage Server" in refused.message.text()
    assert world.message(table.id).buttons()
    admin = world.guild.add_member("admin", manage_guild=True)
    ended = await world.server.run_command(admin, world.channel, "table end")
    assert ended.ok and ended.ephemeral and "closed" in ended.message.text()
    await world.server.wait_for(lambda: "ended this table" in world.message(table.id).text())
    assert world.message(table.id).buttons() == []
    # The channel is free again.
    again = await world.play(world.players["alice"], game="foist")
    assert again.ok and not again.ephemeral


async def test_table_defaults_set_the_servers_turn_length(world: World) -> None:
    admin = world.guild.add_member("admin", manage_guild=True)
    set_it = await world.server.run_command(admin, world.channel, "table defaults", turn_seconds=45)
    assert set_it.ok and "45 seconds" in set_it.message.text()
    opened = await world.play(world.players["alice"], game="foist")
    assert "fixed 45 s per decision" in opened.message.text()


async def test_play_where_the_bot_lacks_a_permission_says_which(world: World) -> None:
    attach_files = 1 << 15
    world.guild.bot_role().permissions &= ~attach_files
    world.guild.roles[world.guild.id].permissions &= ~attach_files  # @everyone
    refused = await world.play(world.players["alice"], game="foist")
    assert refused.ephemeral and "Attach Files" in refused.message.text()
