"""A server's defaults for its tables (``/table defaults``) and the checks the tables' commands share: who
may change them (Manage Server) and which turn lengths the bot allows.

``/table defaults`` sets, each only when given: the turn length of new tables (seconds per decision;
given alone empty, it resets to the bot's default), the games a player needs before a leaderboard lists
them, whether games with AI players count on the leaderboard, and whether new tables open in a thread of
their channel, whether a player whose turn it is gets a mention in the channel (players who chose a
DM still get theirs), whether the coach's Hint is offered in rated games too (then each player's count
of hints shows on the scoreboard), and the limits on the server's tables (:mod:`cogs.tables.table_limits`:
open lobbies per member, tables, games with no person seated; each a count, 0 for no limit), and the
minutes a queue waits before AI players fill its table (``queue_ai_after``; 0: never, the default). The
admin is answered privately with one sentence per setting changed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import discord

from cogs import ratings_admin
from engine.core import plural

if TYPE_CHECKING:
    from cogs.host import Host, HostSettings
    from cogs.tables.turn_alerts import AlertChoices
    from engine.tables.queues import TableQueues


@dataclass(frozen=True)
class TableLimitsGiven:
    """The table limits an admin gave to ``/table defaults`` (counts, 0 for no limit; ``None``: not given):
    open lobbies per member, tables on the server, games with no person seated."""

    member_lobbies: int | None = None
    tables: int | None = None
    ai_tables: int | None = None

    def given(self) -> bool:
        """True if any limit was given."""
        return any(limit is not None for limit in (self.member_lobbies, self.tables, self.ai_tables))


def _limit_sentences(limits: TableLimitsGiven) -> list[tuple[str, int, str]]:
    """``(column, limit, sentence)`` for each limit given (see :data:`storage.database.TABLE_LIMITS`)."""
    said = []
    if limits.member_lobbies is not None:
        count = limits.member_lobbies
        said.append(
            (
                "member_lobby_limit",
                count,
                f"A member may now host {plural(count, 'open lobby', 'open lobbies')} at once."
                if count
                else "A member may now host any number of open lobbies.",
            )
        )
    if limits.tables is not None:
        count = limits.tables
        said.append(
            (
                "table_limit",
                count,
                f"This server may now have {plural(count, 'table')} open at once."
                if count
                else "This server may now have any number of tables open.",
            )
        )
    if limits.ai_tables is not None:
        count = limits.ai_tables
        said.append(
            (
                "ai_table_limit",
                count,
                f"AI players may now finish {plural(count, 'game')} at once with no person seated."
                if count
                else "AI players may now finish any number of games with no person seated.",
            )
        )
    return said


def turn_length_refusal(settings: "HostSettings", seconds: int) -> str | None:
    """Words for a turn length (``seconds``) outside the bot's range, or ``None`` if it is allowed."""
    low, high = settings.min_turn_seconds, settings.max_turn_seconds
    return None if low <= seconds <= high else f"Turns can last {low} to {plural(high, 'second')}."


async def check_manager(interaction: discord.Interaction) -> bool:
    """True if the user has Manage Server here; otherwise they are told so (the command's default
    permissions can be loosened by a server's admins, so it is checked again)."""
    permissions = interaction.permissions
    if interaction.guild_id is not None and (permissions.manage_guild or permissions.administrator):
        return True
    await interaction.response.send_message(
        "Only members with the **Manage Server** permission can do that.", ephemeral=True
    )
    return False


async def set_defaults(
    bot: "Host",
    interaction: discord.Interaction,
    alert_choices: "AlertChoices",
    *,
    turn_seconds: int | None,
    min_games: int | None,
    count_ai_games: bool | None,
    threads: bool | None,
    turn_mentions: bool | None = None,
    hints_in_rated: bool | None = None,
    limits: TableLimitsGiven = TableLimitsGiven(),
    queue_ai_after: int | None = None,
    queues: "TableQueues | None" = None,
) -> None:
    """Store the server's defaults given (see the module's docstring) and answer the admin; a turn length
    out of range, or a member without Manage Server, is refused and nothing is stored. ``queues``: the
    server's queues, whose AI-fill clocks a new ``queue_ai_after`` (minutes) re-arms."""
    if not await check_manager(interaction):
        return
    refusal = None if turn_seconds is None else turn_length_refusal(bot.settings, turn_seconds)
    if refusal is not None:
        await interaction.response.send_message(refusal, ephemeral=True)
        return
    guild_id = interaction.guild_id
    assert guild_id is not None
    said = []
    if min_games is not None:
        said.append(await ratings_admin.set_min_games(bot.db, guild_id, min_games))
    if count_ai_games is not None:
        await bot.db.set_guild_counts_ai_games(guild_id, count_ai_games)
        counted = "count" if count_ai_games else "do not count"
        said.append(f"Games with AI players {counted} on the leaderboard.")
    if threads is not None:
        await bot.db.set_guild_table_threads(guild_id, threads)
        where = "in a new thread of their channel" if threads else "in the channel itself"
        said.append(f"New tables in this server now open {where}.")
    if turn_mentions is not None:
        await alert_choices.set_mentions(guild_id, turn_mentions)
        said.append(
            "Tables mention a player in the channel when it is their turn."
            if turn_mentions
            else "Tables no longer mention anyone in the channel (players who chose a DM still get one)."
        )
    if hints_in_rated is not None:
        await bot.db.set_guild_hints_in_rated(guild_id, hints_in_rated)
        said.append(
            "Hints on in rated games too; each player's hint count shows on the scoreboard."
            if hints_in_rated
            else "Hints are off in rated games (games with AI players that count on the leaderboard)."
        )
    for column, limit, sentence in _limit_sentences(limits):
        await bot.db.set_guild_table_limit(guild_id, column, limit)
        said.append(sentence)
    if queue_ai_after is not None:
        await bot.db.set_guild_queue_ai_after(guild_id, queue_ai_after or None)
        if queues is not None:
            await queues.settings_changed(guild_id)
        said.append(
            f"A queue now fills its table with AI players once its first player has waited "
            f"{plural(queue_ai_after, 'minute')}."
            if queue_ai_after
            else "Queues no longer fill tables with AI players: they wait for people."
        )
    given = (min_games, count_ai_games, threads, turn_mentions, hints_in_rated, queue_ai_after)
    if turn_seconds is not None or (all(setting is None for setting in given) and not limits.given()):
        await bot.db.set_guild_turn_seconds(guild_id, turn_seconds)  # alone, an empty one resets it
        now = turn_seconds or bot.settings.default_turn_seconds
        said.insert(0, f"New tables in this server now give {plural(now, 'second')} per decision.")
    await interaction.response.send_message(" ".join(said), ephemeral=True)
