"""The bot spends little on gateway events it does not use: few intents, no message cache, and the
messages created or edited in its channels (its own table edits echoed back) are not parsed."""

from __future__ import annotations

import random

import discord

from tests.e2e.conftest import World


async def test_the_bot_asks_only_for_the_intents_it_needs(world: World) -> None:
    intents = world.bot.intents
    assert intents == discord.Intents(guilds=True, guild_messages=True)
    assert not (intents.members or intents.presences or intents.message_content)  # nothing privileged
    assert list(world.bot.cached_messages) == []


async def test_echoed_edits_and_chat_are_dropped_unparsed(world: World) -> None:
    heard: list[str] = []

    async def on_raw_message_edit(payload: object) -> None:
        heard.append("raw_message_edit")

    async def on_message(message: object) -> None:
        heard.append("message")

    world.bot.add_listener(on_raw_message_edit)
    world.bot.add_listener(on_message)
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
    assert heard == []
