"""Who sits at a table is stored with it, so any bot process can find a user's tables (the shard routing of
DMs): written when the seats change, and only then."""

from __future__ import annotations

from typing import Any

from tests.e2e.conftest import World, session_of


async def test_the_seats_are_stored_when_they_change_and_only_then(world: World, monkeypatch) -> None:
    seats_written: list[list[int] | None] = []
    real_save = world.bot.db.save_table

    async def recording_save(*args: Any, **kwargs: Any) -> None:
        seats_written.append(kwargs.get("seated_users"))
        await real_save(*args, **kwargs)

    monkeypatch.setattr(world.bot.db, "save_table", recording_save)
    alice, bob, carol = (world.players[name] for name in ("alice", "bob", "carol"))
    opened = await world.play(alice, game="foist")
    assert opened.ok, opened
    table = opened.message
    table_id = session_of(world).table_id
    await world.press(bob, table, "Join")
    await world.press(carol, table, "Join")
    changes = [seats for seats in seats_written if seats is not None]
    assert changes == [[alice.id], sorted([alice.id, bob.id]), sorted([alice.id, bob.id, carol.id])]
    assert await world.bot.db.tables_of_user(carol.id) == [(table_id, world.guild.id, world.channel.id)]
    written = len(seats_written)
    started = await world.press(alice, table, "Start")
    assert started.ok and started.response_type == 7
    current = world.message(table.id)
    moved = await world.press(world.turn_owner(current), current, "No thanks")
    assert moved.ok and moved.response_type == 7
    assert len(seats_written) > written and seats_written[written:] == [None] * (len(seats_written) - written)
    for user in (alice, bob, carol):  # the game's players are the lobby's: nothing rewritten
        assert await world.bot.db.tables_of_user(user.id) == [(table_id, world.guild.id, world.channel.id)]
    assert await world.bot.db.table_guild(table_id) == world.guild.id
    assert await world.bot.db.tables_of_user(world.outsider.id) == []
