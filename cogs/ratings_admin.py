"""The admin's side of ratings (``/table season``, ``/table forget``, the minimum of games in
``/table defaults``): what those subcommands of the tables cog do, each answering only the admin."""

from __future__ import annotations

import discord

from cogs.names import shown_name
from engine.core import plural
from storage import Database


async def start_season(database: Database, interaction: discord.Interaction) -> None:
    """Close this server's season (its ratings stay, shown by ``/leaderboard season:``) and start the next,
    with no ratings yet; tell the channel."""
    assert interaction.guild_id is not None
    season = await database.start_season(interaction.guild_id)
    await interaction.response.send_message(
        f"🏁 Season {season} has begun: ratings start afresh. Season {season - 1}'s final standings stay "
        f"on `/leaderboard season:{season - 1}`."
    )


async def forget_member(
    database: Database, interaction: discord.Interaction, member: discord.User | discord.Member
) -> None:
    """Erase ``member``'s ratings, stats and history from this server (their seats in stored games become
    a nameless former member's; the other players' results and ratings stay as they were)."""
    assert interaction.guild_id is not None
    seats = await database.forget_member(interaction.guild_id, member.id)
    name = shown_name(member.display_name)
    if seats == 0:
        await interaction.response.send_message(f"I had nothing stored about {name} here.", ephemeral=True)
        return
    await interaction.response.send_message(
        f"Forgotten: {name}'s ratings, stats and history on this server are erased, and their "
        f"{plural(seats, 'seat')} in finished games are now a former member's.",
        ephemeral=True,
    )


async def set_min_games(database: Database, guild_id: int, games: int) -> str:
    """Store the games a player needs in a game before a leaderboard ranks them among the established
    players (fewer: provisional, listed below them); returns the words for the admin."""
    await database.set_min_rated_games(guild_id, games)
    return (
        f"Leaderboards now rank players with at least {plural(games, 'game')} in a game; "
        "players with fewer are listed below them as provisional."
    )
