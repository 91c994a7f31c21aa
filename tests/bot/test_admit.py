"""The bot's gate in front of every interaction (``CardTableBot.admit``, asked by the command tree's
``interaction_check``): while the bot stops, an interaction is answered "restarting" and refused (an
autocomplete refused with no answer); otherwise it is let through with the press's database write deadline
set for the rest of its task, and no other."""

from __future__ import annotations

import asyncio
import time
from types import SimpleNamespace
from typing import Any

import discord

from bot.bot import CardTableBot, CardTableTree
from bot.press_deadline import PRESS_WRITE_SECONDS
from bot.shutdown import RESTARTING
from storage import press_write_deadline


class RecordingResponse:
    def __init__(self) -> None:
        self.sent: list[tuple[str, bool]] = []

    def is_done(self) -> bool:
        return bool(self.sent)

    async def send_message(self, text: str, *, ephemeral: bool) -> None:
        self.sent.append((text, ephemeral))


def interaction(kind: discord.InteractionType = discord.InteractionType.component) -> Any:
    return SimpleNamespace(type=kind, response=RecordingResponse())


def bot(*, draining: bool) -> Any:
    """What ``admit`` reads of the bot."""
    return SimpleNamespace(draining=draining, answer_restarting=CardTableBot.answer_restarting)


async def test_while_the_bot_stops_an_interaction_is_answered_restarting_and_refused() -> None:
    for kind in (discord.InteractionType.component, discord.InteractionType.application_command):
        pressed = interaction(kind)
        assert not await CardTableBot.admit(bot(draining=True), pressed)
        assert pressed.response.sent == [(RESTARTING, True)]
        assert press_write_deadline.get() is None


async def test_while_the_bot_stops_an_autocomplete_is_refused_with_no_answer() -> None:
    typed = interaction(discord.InteractionType.autocomplete)
    assert not await CardTableBot.admit(bot(draining=True), typed)
    assert typed.response.sent == []


async def test_an_interaction_let_through_has_the_write_deadline_for_its_own_task_only() -> None:
    pressed = interaction()

    async def handled() -> float | None:  # as discord.py runs a check and its callback: in one task
        assert await CardTableBot.admit(bot(draining=False), pressed)
        await asyncio.sleep(0)
        return press_write_deadline.get()

    began = time.monotonic()
    deadline = await asyncio.create_task(handled())
    assert deadline is not None and began < deadline <= time.monotonic() + PRESS_WRITE_SECONDS
    assert pressed.response.sent == []
    assert press_write_deadline.get() is None  # not the caller's


async def test_the_command_tree_asks_the_bot_s_gate() -> None:
    asked: list[Any] = []

    class Gated(discord.Client):
        async def admit(self, interaction: Any) -> bool:
            asked.append(interaction)
            return False

    client = Gated(intents=discord.Intents.none())
    tree = CardTableTree(client)
    typed = interaction(discord.InteractionType.application_command)
    assert not await tree.interaction_check(typed)
    assert asked == [typed]
    await client.close()
