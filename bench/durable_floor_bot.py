"""The second baseline of ``bench/press_cost.py``, the *durable floor*: a plain discord.py bot that does, per
press, the work any card table must do and nothing of a game's.

``python bench/durable_floor_bot.py`` with ``DISCORD_TOKEN``, ``DISCORD_API_BASE``, ``BARE_CHANNELS``
(comma-separated channel ids) and ``FLOOR_DATABASE`` (a path for its SQLite file) in the environment. It is
a plain ``discord.Client`` with the default intents. At start it posts one message in each channel: a
Components V2 layout of a table's size (a container of about 600 characters of text, a separator, a select
of ten options and the two buttons that ``bench/press_cost.py`` presses). Every press or pick on it:

1. commits one row of about 400 bytes to SQLite through aiosqlite, in WAL mode with ``synchronous=FULL``
   (a durable save, as a move's);
2. answers by editing the message (``response.edit_message``, one REST request) with the layout again, its
   text changed, carrying a new PNG of about 10 KB on every other press. The PNGs are made at start:
   drawing is a game's work, not the floor's.

No logging per press, no other state.
"""

from __future__ import annotations

import asyncio
import io
import os
import random

import aiosqlite
import discord
from bare_bot import BareBot, channels_from_environment, run
from PIL import Image

TEXT = (
    "A table of a card game, as long as a table message: " + "the seats, the cards up, the last move. " * 14
)
"""About 600 characters, the text of a table message."""
ROW = "x" * 400
"""The row a press stores: about a move's size."""
SIZE = (96, 36)
"""The pictures' size in pixels: noise this size makes a PNG of about 10 KB."""


def pictures(count: int = 8) -> list[bytes]:
    """``count`` different PNGs of about 10 KB each (noise over a plain background, so they do not compress
    to nothing)."""
    rng = random.Random(7)
    made = []
    for index in range(count):
        image = Image.new("RGB", SIZE, (20 + index * 20, 90, 40))
        noise = bytes(rng.randrange(256) for _ in range(SIZE[0] * SIZE[1] * 3))
        image = Image.blend(image, Image.frombytes("RGB", SIZE, noise), 0.5)
        buffer = io.BytesIO()
        image.save(buffer, format="PNG")
        made.append(buffer.getvalue())
    return made


def layout(text: str, picture: str | None) -> discord.ui.LayoutView:
    """The message: a container of ``text``, the picture ``picture`` (a file name) if any, a separator, a
    select and two buttons; stopped (discord.py then keeps no view and starts no timeout for it)."""
    view = discord.ui.LayoutView(timeout=None)
    children: list[discord.ui.Item] = [discord.ui.TextDisplay(text)]
    if picture is not None:
        children.append(discord.ui.MediaGallery(discord.MediaGalleryItem(f"attachment://{picture}")))
    options = [discord.SelectOption(label=f"Card {n}", value=str(n)) for n in range(3, 13)]
    children += [
        discord.ui.Separator(),
        discord.ui.ActionRow(discord.ui.Select(custom_id="bare:pick", options=options)),
        discord.ui.ActionRow(
            discord.ui.Button(label="Take", custom_id="bare:take", style=discord.ButtonStyle.primary),
            discord.ui.Button(label="No thanks", custom_id="bare:pass"),
        ),
    ]
    view.add_item(discord.ui.Container(*children))
    view.stop()
    return view


class DurableFloorBot(BareBot):
    """The bare bot (its login and channels) with a durable save and a table-sized layout per press."""

    def __init__(self, api_base: str, channel_ids: list[int], database: str) -> None:
        super().__init__(api_base, channel_ids)
        self.database_path = database
        self.database: aiosqlite.Connection | None = None
        self.pictures = pictures()

    async def setup_hook(self) -> None:
        self.database = await aiosqlite.connect(self.database_path)
        await self.database.execute("PRAGMA journal_mode=WAL")
        await self.database.execute("PRAGMA synchronous=FULL")
        await self.database.execute(
            "CREATE TABLE IF NOT EXISTS moves (channel INTEGER, move INTEGER, body TEXT)"
        )
        await self.database.commit()

    async def on_ready(self) -> None:
        for channel_id in self.channel_ids:
            await self.get_partial_messageable(channel_id).send(view=layout(TEXT, None))

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        if interaction.type is not discord.InteractionType.component or self.database is None:
            return
        self.presses += 1
        await self.database.execute(
            "INSERT INTO moves (channel, move, body) VALUES (?, ?, ?)",
            (interaction.channel_id, self.presses, ROW),
        )
        await self.database.commit()
        data = interaction.data or {}
        picked = ", ".join(data.get("values", [])) or str(data.get("custom_id"))
        text = f"{TEXT}\nMove {self.presses}: {picked}"
        if self.presses % 2:
            name = f"table-{self.presses}.png"
            png = self.pictures[self.presses % len(self.pictures)]
            file = discord.File(io.BytesIO(png), filename=name)
            await interaction.response.edit_message(view=layout(text, name), attachments=[file])
        else:
            await interaction.response.edit_message(view=layout(text, None), attachments=[])

    async def close(self) -> None:
        if self.database is not None:
            await self.database.close()
        await super().close()


if __name__ == "__main__":
    floor = DurableFloorBot(
        os.environ["DISCORD_API_BASE"], channels_from_environment(), os.environ["FLOOR_DATABASE"]
    )
    asyncio.run(run(floor))
