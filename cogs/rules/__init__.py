"""The rules extension: ``/rules game:<game>``, how to play each game in private pages.
It may import the games and discord.py; never bot.

The pages and their buttons live in :mod:`cogs.rules.pages`. Presses on them ("How to play" on a lobby
or table message, and the pages' own buttons and menu; custom_ids starting ``rules:``) are answered by this
cog's ``on_interaction`` (:func:`cogs.rules.pages.answer_press`); the prefix is registered in
``bot.component_prefixes`` so the tables cog leaves them alone.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from cogs.rules import pages
from engine import GAMES

if TYPE_CHECKING:
    from cogs.host import Host

GAME_CHOICES = [app_commands.Choice(name=rules.display_name, value=key) for key, rules in GAMES.items()]


class RulesCog(commands.Cog, name="Rules"):
    """Shows how to play a game."""

    def __init__(self, bot: "Host") -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.component_prefixes.add(pages.PREFIX)

    async def cog_unload(self) -> None:
        self.bot.component_prefixes.discard(pages.PREFIX)

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Answer the presses of rules buttons and menus (``rules:`` custom_ids) past the bot's gate
        ("restarting" while it stops); leave every other press."""
        if interaction.type is not discord.InteractionType.component:
            return
        custom_id = str((interaction.data or {}).get("custom_id", ""))
        if custom_id.startswith(pages.PREFIX) and await self.bot.admit(interaction):
            await pages.answer_press(interaction)

    @app_commands.command(name="rules")
    @app_commands.describe(game="The game to learn", section="Open at this section (default: Quick start)")
    @app_commands.choices(
        game=GAME_CHOICES,
        section=[app_commands.Choice(name=heading, value=kind) for kind, heading in pages.SECTIONS.items()],
    )
    async def rules(self, interaction: discord.Interaction, game: str, section: str | None = None) -> None:
        """How to play a game, in pages (only you see them)."""
        if game not in GAMES:
            await interaction.response.send_message("I don't know that game.", ephemeral=True)
            return
        page = pages.first_page_of(game).get(section or "quickstart", 0)
        embed, view = pages.rules_message(game, page)
        await interaction.response.send_message(embed=embed, view=view, ephemeral=True)


async def setup(bot: "Host") -> None:
    """Load the rules cog."""
    await bot.add_cog(RulesCog(bot))
