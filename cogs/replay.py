"""``/replay``: step through a finished game from its stored seed and action log.

A replay message shows the public view after a number of moves (the step), what the last move did, the
next move beside what the hard AI would have played there (:mod:`engine.ai.coach`, from that seat's
information only), and buttons to the start, one move back, one move forward and to the end; at the end
every hand is revealed, since the game is over. The buttons carry everything in their custom_id
(``rp:<game id>:<step>:<verb>``), so they work on any replay message, after a restart too. The final
scoreboard's "Replay" button (``rp:t:<table id>``) opens the replay of that table's game.

A server only ever sees its own games: the game is looked up by id *and* the server the press or command
comes from.
"""

from __future__ import annotations

import asyncio
import io
import logging
import re
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from cogs.card_emojis import CARD_EMOJIS
from cogs.names import shown_name
from cogs.press_limits import TOO_FAST, press_limits_of
from cogs.tables import custom_ids as ids
from cogs.tables import lengths
from cogs.tables.board_image import board_png
from cogs.tables.lengths import clip
from engine import GAMES, IllegalAction, replay
from engine.ai import coach
from engine.core import STRONG, Event, GameState, plural
from storage import StoredGame

if TYPE_CHECKING:
    from cogs.host import Host

log = logging.getLogger(__name__)

PREFIX = ids.REPLAY_PREFIX
STEP_PATTERN = re.compile(r"rp:(?P<game>\d{1,18}):(?P<step>\d{1,7}):(?P<verb>[sbfe])")
TABLE_PATTERN = re.compile(r"rp:t:(?P<table>[a-z0-9]{4,16})")
SEAT_PLACEHOLDER = re.compile(r"\{seat:(\d{1,2})\}")
REPLAY_COLOUR = discord.Colour.purple()
BOARD_FILENAME = "board.png"
LOG_LINES = 6  # the moves that led to the step shown, newest last
NOT_FOUND = "No finished game with that id on this server. `/history` lists the ids."


def step_custom_id(game_id: int, step: int, verb: str) -> str:
    """The custom_id of a replay button showing ``step`` (moves applied) of game ``game_id``; ``verb``
    (``s`` start, ``b`` back, ``f`` forward, ``e`` end) keeps the buttons of one message distinct."""
    return f"{PREFIX}{game_id}:{step}:{verb}"


class Replay:
    """One stored game rebuilt step by step.

    ``state_at(step)`` is the game after ``step`` moves (0: the deal; ``moves``: the end) and the events of
    the last :data:`LOG_LINES` moves that led there.

    Raises
    ------
    KeyError
        If the stored game's key is not a game of this bot (any more).
    """

    def __init__(self, stored: StoredGame) -> None:
        self.stored = stored
        self.rules = GAMES[stored.game]
        self.actions = self.rules.upgrade_log(stored.actions)
        self.names = {seat.seat: seat.display_name for seat in stored.seats}

    @property
    def moves(self) -> int:
        """How many moves the game took."""
        return len(self.actions)

    def state_at(self, step: int) -> tuple[GameState, list[Event]]:
        """The game after ``step`` moves (clamped to 0..moves) and the events of the moves just before.

        Raises
        ------
        IllegalAction
            If the stored log does not replay (a corrupt log).
        """
        step = max(0, min(step, self.moves))
        state = replay(self.rules, len(self.stored.seats), self.stored.seed, self.stored.options, [])
        recent: list[Event] = []
        first_logged = max(0, step - LOG_LINES)
        for index, (seat, code) in enumerate(self.actions[:step]):
            events = state.apply(seat, code)
            if index >= first_logged:
                recent.extend(events)
        return state, recent[-3 * LOG_LINES :]

    def named(self, text: str) -> str:
        """Engine text with each ``{seat:N}`` replaced by that seat's stored display name, each ``{b:...}``
        (:func:`engine.core.strong`) in bold, and each card mark (:func:`engine.core.card_mark`) as the
        card's emoji and text (:meth:`cogs.card_emojis.CardEmojis.shown`)."""
        text = CARD_EMOJIS.shown(text)
        if "{b:" in text:
            text = STRONG.sub(r"**\1**", text)
        return SEAT_PLACEHOLDER.sub(lambda match: shown_name(self.name(int(match[1]))), text)

    def name(self, seat: int) -> str:
        """The stored display name of ``seat``."""
        return self.names.get(seat, f"Seat {seat + 1}")


def replay_message(
    replay_game: Replay, step: int
) -> tuple[discord.Embed, discord.ui.View, list[discord.File]]:
    """The replay message at ``step``: embed, the four stepping buttons, and the board picture if the game
    has one.

    Raises
    ------
    IllegalAction
        If the stored log does not replay.
    """
    step = max(0, min(step, replay_game.moves))
    state, events = replay_game.state_at(step)
    stored = replay_game.stored
    public = state.view(None)
    lines = [
        f"**{shown_name(replay_game.name(event.seat))}** {replay_game.named(event.text)}"
        if event.seat is not None
        else replay_game.named(event.text)
        for event in events
    ]
    where = "the deal" if step == 0 else f"move {step} of {replay_game.moves}"
    embed = discord.Embed(
        title=clip(
            f"⏯️ Replay of game #{stored.id}: {replay_game.rules.display_name}, {where}", lengths.TITLE_MAX
        ),
        description=clip("\n".join(lines) or "The cards are dealt.", lengths.DESCRIPTION_MAX),
        colour=REPLAY_COLOUR,
    )
    for field in public.table[:8]:
        embed.add_field(
            name=clip(replay_game.named(field.name), lengths.FIELD_NAME_MAX),
            value=clip(replay_game.named(field.value), lengths.FIELD_VALUE_MAX),
        )
    seat_lines = [
        f"{'▶️' if line.to_act else '▫️'} **{shown_name(replay_game.name(line.seat))}**: "
        f"{replay_game.named(line.summary)}"
        for line in public.seats
    ]
    embed.add_field(
        name="Players", value=clip("\n".join(seat_lines), lengths.FIELD_VALUE_MAX) or "—", inline=False
    )
    if step < replay_game.moves:
        embed.add_field(
            name="Next move",
            value=clip(next_move(replay_game, state, step), lengths.FIELD_VALUE_MAX),
            inline=False,
        )
    if step == replay_game.moves and state.is_terminal():
        _reveal_hands(embed, replay_game, state)
    embed.set_footer(
        text=f"{replay_game.rules.display_name} · game #{stored.id} · finished "
        f"{stored.finished_at:%Y-%m-%d %H:%M} UTC"
    )
    _fit(embed)
    files: list[discord.File] = []
    if public.board is not None:
        files.append(discord.File(io.BytesIO(board_png(public.board)), filename=BOARD_FILENAME))
        embed.set_image(url=f"attachment://{BOARD_FILENAME}")
    return embed, _stepping_buttons(stored.id, step, replay_game.moves), files


def next_move(replay_game: Replay, state: GameState, step: int) -> str:
    """The move after ``step`` and, when it was the seat's decision, what the hard AI would have played
    there from that seat's information (:func:`engine.ai.coach.hint_for`) with its reason."""
    seat, code = replay_game.actions[step]
    labels = {action.code: action.label for action in state.legal_actions(seat)}
    who = f"**{shown_name(replay_game.name(seat))}**"
    played = f"{who} played **{replay_game.named(labels.get(code, code))}**"
    if seat not in state.seats_to_act() or len(labels) < 2:
        return f"{played}."
    hint = coach.hint_for(replay_game.stored.game, state, seat)
    if hint.code == code:
        return f"{played}: the hard AI's choice too."
    return f"{played}; the hard AI would have played: {replay_game.named(hint.reason)}"


def _reveal_hands(embed: discord.Embed, replay_game: Replay, state: GameState) -> None:
    """At the end of the replay: every seat's private view (their hand, their secrets), then the result."""
    for seat in range(state.num_seats):
        private = state.view(seat).private
        if not private:
            continue
        value = "\n".join(
            f"{replay_game.named(field.name)}: {replay_game.named(field.value)}" for field in private[:6]
        )
        heading = clip(f"🂠 {shown_name(replay_game.name(seat))}", lengths.FIELD_NAME_MAX)
        embed.add_field(name=heading, value=clip(value, lengths.FIELD_VALUE_MAX), inline=False)
    standings = sorted(state.standings(), key=lambda standing: (standing.rank, standing.seat))
    result = "\n".join(
        f"{standing.rank}. {'🏆 ' if standing.rank == 1 else ''}"
        f"**{shown_name(replay_game.name(standing.seat))}**: {plural(standing.points, 'point')}"
        for standing in standings
    )
    embed.add_field(name="Result", value=clip(result, lengths.FIELD_VALUE_MAX), inline=False)


def _fit(embed: discord.Embed, budget: int = 5900) -> None:
    """Drop the last fields until the embed is within Discord's 6,000-character total."""
    while len(embed) > budget and len(embed.fields) > 1:
        embed.remove_field(len(embed.fields) - 2)  # keep the result (the last field) while trimming hands


def _stepping_buttons(game_id: int, step: int, moves: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.stop()  # routed by custom_id in on_interaction; discord.py keeps nothing for this view
    for verb, label, target, disabled in (
        ("s", "⏮ Start", 0, step == 0),
        ("b", "◀ Back", max(0, step - 1), step == 0),
        ("f", "Forward ▶", min(moves, step + 1), step >= moves),
        ("e", "End ⏭", moves, step >= moves),
    ):
        view.add_item(
            discord.ui.Button(
                label=label,
                custom_id=step_custom_id(game_id, target, verb),
                style=discord.ButtonStyle.secondary,
                disabled=disabled,
            )
        )
    return view


class ReplayCog(commands.Cog, name="Replay"):
    """``/replay`` and the replay buttons (also the scoreboard's "Replay")."""

    def __init__(self, bot: "Host") -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.component_prefixes.add(PREFIX)

    async def cog_unload(self) -> None:
        self.bot.component_prefixes.discard(PREFIX)

    async def _replay(self, guild_id: int, game_id: int) -> Replay | None:
        stored = await self.bot.db.finished_game(guild_id, game_id)
        if stored is None or stored.game not in GAMES:
            return None
        return Replay(stored)

    @app_commands.command(name="replay")
    @app_commands.describe(game="The game's id, as /history shows it")
    async def replay_command(
        self, interaction: discord.Interaction, game: app_commands.Range[int, 1]
    ) -> None:
        """Step through a finished game of this server, move by move."""
        if interaction.guild_id is None:
            await interaction.response.send_message(
                "Replays belong to servers: use this in a server.", ephemeral=True
            )
            return
        await self._show(interaction, interaction.guild_id, game, 0, new_message=True)

    async def _show(
        self, interaction: discord.Interaction, guild_id: int, game_id: int, step: int, *, new_message: bool
    ) -> None:
        replay_game = await self._replay(guild_id, game_id)
        if replay_game is None:
            await interaction.response.send_message(NOT_FOUND, ephemeral=True)
            return
        try:
            # a long game replays in tens of milliseconds: off the event loop, which goes on answering presses
            embed, view, files = await asyncio.to_thread(replay_message, replay_game, step)
        except IllegalAction:
            log.error("stored game %s of guild %s does not replay", game_id, guild_id)
            await interaction.response.send_message(
                "That game's stored moves do not replay with this version of the bot.", ephemeral=True
            )
            return
        if new_message:
            await interaction.response.send_message(embed=embed, view=view, files=files, ephemeral=True)
        else:
            await interaction.response.edit_message(embed=embed, view=view, attachments=files)

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Answer the presses of replay buttons (``rp:`` custom_ids) past the bot's gate ("restarting"
        while it stops), each counted against the member's press limit (:mod:`cogs.press_limits`); leave
        every other press alone."""
        if interaction.type is not discord.InteractionType.component:
            return
        custom_id = str((interaction.data or {}).get("custom_id", ""))
        if not custom_id.startswith(PREFIX) or not await self.bot.admit(interaction):
            return
        if not press_limits_of(self.bot).allow(interaction.user.id, "replay"):  # a step replays the game
            await interaction.response.send_message(TOO_FAST, ephemeral=True)
            return
        if interaction.guild_id is None:
            await interaction.response.send_message("Replays belong to servers.", ephemeral=True)
            return
        table = TABLE_PATTERN.fullmatch(custom_id)
        if table is not None:
            game_id = await self.bot.db.finished_game_id(interaction.guild_id, table["table"])
            if game_id is None:
                await interaction.response.send_message(NOT_FOUND, ephemeral=True)
                return
            await self._show(interaction, interaction.guild_id, game_id, 0, new_message=True)
            return
        step = STEP_PATTERN.fullmatch(custom_id)
        if step is None:
            await interaction.response.send_message(
                "That button is not one of mine: nothing happened.", ephemeral=True
            )
            return
        # A stepping button edits the replay it is on; pressed anywhere else (a table message, whose
        # Components V2 layout cannot take an embed: a forged or misplaced custom_id) it opens a replay.
        message = interaction.message
        on_a_replay = message is not None and message.flags.ephemeral and not message.flags.components_v2
        game_id, shown = int(step["game"]), int(step["step"])
        await self._show(interaction, interaction.guild_id, game_id, shown, new_message=not on_a_replay)


async def setup(bot: "Host") -> None:
    """Load the replay cog."""
    await bot.add_cog(ReplayCog(bot))
