"""The rules extension: ``/rules game:<game>``, how to play each game in private pages.

The pages and their buttons live in :mod:`cogs.rules.pages`; presses on them are routed by the tables
cog's ``on_interaction`` (which sees every component press first) to :func:`cogs.rules.pages.answer_press`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from cogs.rules import pages
from engine import GAMES

if TYPE_CHECKING:
    from bot.bot import CardTableBot

GAME_CHOICES = [app_commands.Choice(name=rules.display_name, value=key) for key, rules in GAMES.items()]


class RulesCog(commands.Cog, name="Rules"):
    """Shows how to play a game."""

    def __init__(self, bot: "CardTableBot") -> None:
        self.bot = bot

    @app_commands.command(name="rules")
    @app_commands.describe(game="The game to learn", section="Open at this section (default: Setup)")
    @app_commands.choices(
        game=GAME_CHOICES,
        section=[app_commands.Choice(name=heading, value=kind) for kind, heading in pages.SECTIONS.items()],
    )
    async def rules(self, interaction: discord.Interaction, game: str, section: str | None = None) -> None:
        """How to play a game, in pages (only you see them)."""
        if game not in GAMES:
            await interaction.response.send_message("I don't know that game.", ephemeral=True)
            return
        page = pages.first_page_of(game).get(section or "setup", 0)
        embed, view = pages.rules_message(game, page)
        await interaction.response.send_message(embed=embed, view=view, ephemeral=True)


async def setup(bot: "CardTableBot") -> None:
    """Load the rules cog."""
    await bot.add_cog(RulesCog(bot))
