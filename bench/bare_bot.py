"""The baseline of ``bench/press_cost.py``: a bare discord.py bot that answers presses and does nothing else.

``python bench/bare_bot.py`` with ``DISCORD_TOKEN``, ``DISCORD_API_BASE`` and ``BARE_CHANNELS`` (comma-
separated channel ids) in the environment. It is a plain ``discord.Client`` with the default intents: at
start it posts one message with two buttons and a select in each channel; every press or pick on such a
message is answered by editing that message (``response.edit_message``, one REST request) with a new embed
and the same components, the way a card table answers a move. No state, no storage, no logging per press.
"""

from __future__ import annotations

import asyncio
import os
import signal

import discord
import yarl


def components() -> discord.ui.View:
    """Two buttons and a select, as a stopped view (discord.py keeps no finished view, so it starts no
    timeout task for it: the same as the card-table bot's table views)."""
    view = discord.ui.View(timeout=None)
    view.add_item(discord.ui.Button(label="Take", custom_id="bare:take", style=discord.ButtonStyle.primary))
    view.add_item(discord.ui.Button(label="No thanks", custom_id="bare:pass"))
    view.add_item(
        discord.ui.Select(
            custom_id="bare:pick",
            options=[discord.SelectOption(label=f"Card {n}", value=str(n)) for n in range(3, 13)],
            row=1,
        )
    )
    view.stop()
    return view


class BareBot(discord.Client):
    def __init__(self, api_base: str, channel_ids: list[int]) -> None:
        super().__init__(intents=discord.Intents.default())
        self.api_base = api_base
        self.channel_ids = channel_ids
        self.view = components()
        self.presses = 0

    async def login(self, token: str) -> None:
        discord.http.Route.BASE = self.api_base
        await super().login(token)
        _shards, url, _limits = await self.http.get_bot_gateway()
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(url)

    async def on_ready(self) -> None:
        for channel_id in self.channel_ids:
            channel = self.get_partial_messageable(channel_id)
            embed = discord.Embed(title="Bare table", description="Nothing yet")
            await channel.send(embed=embed, view=self.view)

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        if interaction.type is not discord.InteractionType.component:
            return
        self.presses += 1
        data = interaction.data or {}
        picked = ", ".join(data.get("values", [])) or str(data.get("custom_id"))
        embed = discord.Embed(title="Bare table", description=f"Move {self.presses}: {picked}")
        await interaction.response.edit_message(embed=embed, view=self.view)


def channels_from_environment() -> list[int]:
    """The channel ids of ``BARE_CHANNELS``."""
    return [int(part) for part in os.environ["BARE_CHANNELS"].split(",") if part]


async def run(bot: discord.Client) -> None:
    """Run ``bot`` with ``DISCORD_TOKEN`` until SIGINT or SIGTERM."""
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    loop.add_signal_handler(signal.SIGINT, stop.set)
    loop.add_signal_handler(signal.SIGTERM, stop.set)
    async with bot:
        runner = asyncio.create_task(bot.start(os.environ["DISCORD_TOKEN"]))
        await stop.wait()
        await bot.close()
        await runner


if __name__ == "__main__":
    asyncio.run(run(BareBot(os.environ["DISCORD_API_BASE"], channels_from_environment())))
