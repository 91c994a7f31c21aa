"""``/stats`` (a player's rating with its history as a chart, games, wins, average placement, best game,
recent form) and ``/history`` (a player's most recent games with their ids), from this server's results.

Both answer only to the one who asks unless they choose ``share``.
"""

from __future__ import annotations

import io
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from cogs.leaderboard import GAME_CHOICES, RATING_AT_START, certainty, game_name, rating_text, shown_rating
from cogs.names import shown_name
from cogs.rating_chart import rating_chart_png
from engine import GAMES
from engine.core import plural
from storage.stats import HistoryEntry, PlayerStats

if TYPE_CHECKING:
    from cogs.host import Host

HISTORY_SIZE = 10
CHART_FILE = "rating.png"


def placement(rank: int, seats: int) -> str:
    """``"1st of 4"``: a rank among the seats of a game."""
    suffix = "th" if 10 <= rank % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(rank % 10, "th")
    return f"{rank}{suffix} of {seats}"


def stats_embed(name: str, stats: PlayerStats) -> discord.Embed:
    """The embed of a player's stats (the chart, if any, is attached as :data:`CHART_FILE`)."""
    scope = game_name(stats.game) if stats.game is not None else "all games"
    embed = discord.Embed(
        title=f"📊 {shown_name(name)}: {scope}, season {stats.season}", colour=discord.Colour.blurple()
    )
    best = stats.best  # the game's standing when a game is given
    assert best is not None
    embed.add_field(
        name="Rating",
        value=f"**{rating_text(best.ordinal)}**"
        + ("" if stats.game is not None else f" in {game_name(best.game)}")
        + f", {certainty(best.games, stats.min_games, best.sigma)}",
        inline=False,
    )
    embed.add_field(name="Games", value=str(stats.games))
    embed.add_field(name="Wins", value=f"{stats.wins} ({stats.wins / stats.games:.0%})")
    embed.add_field(name="Average placement", value=f"{stats.average_placement:.2f}")
    if stats.game is None:
        embed.add_field(
            name="Best game", value=f"{game_name(best.game)} ({plural(best.games, 'game')})", inline=False
        )
    missing = stats.games_to_leaderboard
    if missing is not None:
        count, closest = missing
        embed.add_field(
            name="Provisional",
            value=f"{plural(count, 'more rated game')}"
            + ("" if stats.game is not None else f" of {game_name(closest)}")
            + " and the rating counts on the leaderboard.",
            inline=False,
        )
    form = " · ".join(placement(rank, seats) for rank, seats in stats.form)
    embed.add_field(name="Recent form (newest first)", value=form or "—", inline=False)
    if stats.chart:
        embed.set_image(url=f"attachment://{CHART_FILE}")
    embed.set_footer(
        text=f"Everyone starts at {RATING_AT_START:,}; a rating rises as you win and as it grows surer. "
        f"It is provisional until {plural(stats.min_games, 'rated game')} in a game, then settling until "
        "it moves little. Games that count this season."
    )
    return embed


def history_line(entry: HistoryEntry) -> str:
    """One game of ``/history``: its id, date, game and placement."""
    note = "" if entry.counted else " (not rated)"
    return (
        f"`#{entry.game_id}` {entry.finished_at:%Y-%m-%d} · {game_name(entry.game)} · "
        f"{placement(entry.rank, entry.seats)}{note}"
    )


class StatsCog(commands.Cog, name="Stats"):
    """A player's stats and history in this server."""

    def __init__(self, bot: "Host") -> None:
        self.bot = bot

    @app_commands.command(name="stats")
    @app_commands.describe(
        player="Whose stats (default: yours)",
        game="Only this game (default: all games, the chart shows the best one)",
        share="Show them to the channel (default: only you see them)",
    )
    @app_commands.choices(game=GAME_CHOICES)
    async def stats(
        self,
        interaction: discord.Interaction,
        player: discord.User | None = None,
        game: str | None = None,
        share: bool = False,
    ) -> None:
        """Show a player's rating, its history, games, wins, placements and recent form."""
        if interaction.guild_id is None:
            await interaction.response.send_message(
                "Stats belong to servers: use this in a server.", ephemeral=True
            )
            return
        if game is not None and game not in GAMES:
            await interaction.response.send_message("I don't know that game.", ephemeral=True)
            return
        who = player or interaction.user
        stats = await self.bot.db.player_stats(interaction.guild_id, who.id, game)
        if stats.best is None:
            where = f"{game_name(game)} " if game is not None else ""
            await interaction.response.send_message(
                f"{shown_name(who.display_name)} has no rated {where}games on this server this season.",
                ephemeral=True,
            )
            return
        embed = stats_embed(who.display_name, stats)
        if not stats.chart:
            await interaction.response.send_message(embed=embed, ephemeral=not share)
            return
        title = f"{who.display_name}: {game_name(stats.chart_game or '')} rating"
        points = [shown_rating(ordinal) for ordinal in stats.chart]
        picture = discord.File(io.BytesIO(rating_chart_png(points, title)), filename=CHART_FILE)
        await interaction.response.send_message(embed=embed, file=picture, ephemeral=not share)

    @app_commands.command(name="history")
    @app_commands.describe(player="Whose games (default: yours)", share="Show it to the channel")
    async def history(
        self, interaction: discord.Interaction, player: discord.User | None = None, share: bool = False
    ) -> None:
        """List a player's most recent games here: date, game, placement and each game's id."""
        if interaction.guild_id is None:
            await interaction.response.send_message(
                "History belongs to servers: use this in a server.", ephemeral=True
            )
            return
        who = player or interaction.user
        entries = await self.bot.db.player_history(interaction.guild_id, who.id, HISTORY_SIZE)
        name = shown_name(who.display_name)
        if not entries:
            await interaction.response.send_message(
                f"{name} has no finished games on this server.", ephemeral=True
            )
            return
        embed = discord.Embed(title=f"🕘 {name}: recent games", colour=discord.Colour.blurple())
        embed.description = "\n".join(history_line(entry) for entry in entries)
        embed.set_footer(text="Watch one again with /replay game:<id> (the number after #).")
        await interaction.response.send_message(embed=embed, ephemeral=not share)


async def setup(bot: "Host") -> None:
    """Load the stats cog."""
    await bot.add_cog(StatsCog(bot))
