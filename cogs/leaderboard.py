"""``/leaderboard``: this server's top players, from the stored results."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands
from discord.utils import escape_markdown

from engine import GAMES

if TYPE_CHECKING:
    from bot.bot import CardTableBot

LEADERBOARD_SIZE = 10
GAME_CHOICES = [app_commands.Choice(name=rules.display_name, value=key) for key, rules in GAMES.items()]


class LeaderboardCog(commands.Cog, name="Leaderboard"):
    """Shows per-server standings."""

    def __init__(self, bot: "CardTableBot") -> None:
        self.bot = bot

    @app_commands.command(name="leaderboard")
    @app_commands.describe(game="Only this game (default: all games)")
    @app_commands.choices(game=GAME_CHOICES)
    async def leaderboard(self, interaction: discord.Interaction, game: str | None = None) -> None:
        """Show this server's top players: wins, games played, win rate."""
        if interaction.guild_id is None:
            await interaction.response.send_message(
                "Leaderboards belong to servers: use this in a server.", ephemeral=True
            )
            return
        rows = await self.bot.db.leaderboard(interaction.guild_id, game=game, limit=LEADERBOARD_SIZE)
        scope = GAMES[game].display_name if game in GAMES else "All games"
        embed = discord.Embed(title=f"🏆 Leaderboard: {scope}", colour=discord.Colour.gold())
        if not rows:
            embed.description = "No finished games on this server yet. Start one with `/play`."
        else:
            lines = [
                f"{place}. **{escape_markdown(row.display_name)}**: {row.wins} "
                f"{'win' if row.wins == 1 else 'wins'} in {row.played} "
                f"{'game' if row.played == 1 else 'games'} ({row.win_rate:.0%})"
                for place, row in enumerate(rows, start=1)
            ]
            embed.description = "\n".join(lines)
        embed.set_footer(text="Ranked by wins, then win rate. A shared first place counts as a win.")
        await interaction.response.send_message(embed=embed)


async def setup(bot: "CardTableBot") -> None:
    """Load the leaderboard cog."""
    await bot.add_cog(LeaderboardCog(bot))
