"""The bot spends little on gateway events it does not use: few intents, no message cache, and the
messages created or edited in its channels (its own table edits echoed back) are kept nowhere and change
nothing."""

from __future__ import annotations

import random

import discord

from tests.e2e.conftest import World


async def test_the_bot_asks_only_for_the_intents_it_needs(world: World) -> None:
    intents = world.bot.intents
    assert intents == discord.Intents(guilds=True, guild_messages=True)
    assert not (intents.members or intents.presences or intents.message_content)  # nothing privileged
    assert list(world.bot.cached_messages) == []


async def test_echoed_edits_and_chat_are_kept_nowhere_and_change_nothing(world: World) -> None:
    table = await world.open_table()
    rng = random.Random(3)
    for _ in range(5):
        current = world.message(table.id)
        actor = world.turn_owner(current)
        assert actor is not None
        result = await world.press(actor, current, rng.choice(["Take", "No thanks"]))
        assert result.ok
    world.server.post_message(world.players["dave"], world.channel, "nice move")
    await world.press(world.players["alice"], world.message(table.id), "My hand")  # a round trip later
    assert len(world.message(table.id).versions) > 5  # the sandbox sent MESSAGE_UPDATE for each edit
    assert list(world.bot.cached_messages) == []
    assert world.message(table.id).id == table.id  # the table message stays where it is
    assert world.server.violations == []
