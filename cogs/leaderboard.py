"""``/leaderboard``: this server's best players by rating, in a game or each player's best game, this
season or a past one; and how a rating reads for players (:func:`rating_text`, :func:`certainty`), which
``/stats`` shares.

Players read a rating on a familiar scale (everyone starts at 1,000) and how sure it is in words; the
model behind it (openskill's Plackett–Luce, ranked by its conservative estimate) stays in the code and in
``docs/playing.md``, never in a message."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from cogs.names import shown_name
from engine import GAMES
from engine.core import plural
from storage.stats import RatingBoard, RatingRow

if TYPE_CHECKING:
    from cogs.host import Host

LEADERBOARD_SIZE = 10
GAME_CHOICES = [app_commands.Choice(name=rules.display_name, value=key) for key, rules in GAMES.items()]


def game_name(key: str) -> str:
    """A game's display name from its engine key (the key itself for a game this bot no longer has)."""
    return GAMES[key].display_name if key in GAMES else key


RATING_AT_START = 1000
"""What a rating reads before a player's first rated game (the stored conservative estimate is 0 then)."""

POINTS_PER_UNIT = 40
"""Rating points per unit of the stored conservative estimate (openskill's scale, where a new player's
rating is 25 give or take 3 x 25/3)."""

SETTLED_SIGMA = 5.0
"""The uncertainty (openskill's sigma, which starts at 25/3) under which a rating no longer moves much: a
player's rating reads "settled" then, "settling" before."""


def shown_rating(ordinal: float) -> int:
    """The rating players read for a stored conservative estimate (``ordinal``, mu - 3 sigma): the same
    order, on a scale where everyone starts at :data:`RATING_AT_START`."""
    return round(RATING_AT_START + POINTS_PER_UNIT * ordinal)


def rating_text(ordinal: float) -> str:
    """``"1,480"``: a rating as players read it (:func:`shown_rating`)."""
    return f"{shown_rating(ordinal):,}"


def certainty(games: int, min_games: int, sigma: float) -> str:
    """How sure a rating is, in words: ``"provisional"`` with fewer than the server's ``min_games`` rated
    games in the game (the leaderboard lists such players below the others), then ``"settling"`` while its
    uncertainty (``sigma``) is above :data:`SETTLED_SIGMA`, then ``"settled"``."""
    if games < min_games:
        return "provisional"
    return "settling" if sigma > SETTLED_SIGMA else "settled"


def leaderboard_embed(board: RatingBoard, game: str | None) -> discord.Embed:
    """The embed of a rating leaderboard: one line per player, rating, games and wins; the provisional
    players (under the server's minimum of games) below the established ones, each with how many of the
    minimum they have played."""
    scope = game_name(game) if game is not None else "Best game of each player"
    season = f"season {board.season}" + ("" if board.current else " (closed)")
    embed = discord.Embed(title=f"🏆 Leaderboard: {scope}, {season}", colour=discord.Colour.gold())

    def line(place: int, row: RatingRow, games: str) -> str:
        return (
            f"{place}. **{shown_name(row.display_name)}**: {rating_text(row.ordinal)}"
            + ("" if game is not None else f" in {game_name(row.game)}")
            + f" · {games} · {plural(row.wins, 'win')}"
        )

    lines = [line(place, row, plural(row.games, "game")) for place, row in enumerate(board.rows, start=1)]
    if board.provisional:
        lines.append(f"*Provisional: fewer than {plural(board.min_games, 'rated game')}*")
        lines.extend(
            line(place, row, f"{row.games} of {plural(board.min_games, 'game')}")
            for place, row in enumerate(board.provisional, start=len(board.rows) + 1)
        )
    if lines:
        embed.description = "\n".join(lines)
    else:
        embed.description = (
            "Nobody has a rated game yet"
            + (" this season." if board.current else " in that season.")
            + " Play some with `/play`."
        )
    embed.set_footer(
        text=f"Everyone starts at {RATING_AT_START:,}; a rating rises as you win and as it grows surer. A "
        f"player is provisional, listed below the others, until they have {plural(board.min_games, 'game')} "
        "in a game; a shared first place counts as a win."
    )
    return embed


class LeaderboardCog(commands.Cog, name="Leaderboard"):
    """Shows per-server standings."""

    def __init__(self, bot: "Host") -> None:
        self.bot = bot

    @app_commands.command(name="leaderboard")
    @app_commands.describe(
        game="Only this game (default: each player's best game)",
        season="A past season's final standings (default: this season)",
    )
    @app_commands.choices(game=GAME_CHOICES)
    async def leaderboard(
        self,
        interaction: discord.Interaction,
        game: str | None = None,
        season: app_commands.Range[int, 1, 100_000] | None = None,
    ) -> None:
        """Show this server's top players by rating, with their games and wins."""
        if interaction.guild_id is None:
            await interaction.response.send_message(
                "Leaderboards belong to servers: use this in a server.", ephemeral=True
            )
            return
        if game is not None and game not in GAMES:
            await interaction.response.send_message("I don't know that game.", ephemeral=True)
            return
        if season is not None:
            current = await self.bot.db.current_season(interaction.guild_id)
            if season > current:
                await interaction.response.send_message(
                    f"There is no season {season} yet: this server is in season {current}.", ephemeral=True
                )
                return
        board = await self.bot.db.rating_leaderboard(
            interaction.guild_id, game=game, season=season, limit=LEADERBOARD_SIZE
        )
        await interaction.response.send_message(embed=leaderboard_embed(board, game))


async def setup(bot: "Host") -> None:
    """Load the leaderboard cog."""
    await bot.add_cog(LeaderboardCog(bot))
