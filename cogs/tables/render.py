"""Turning a table into Discord messages: embeds and buttons for any game, from the engine's views.

Nothing here decides anything: it draws the lobby, the public table (from the engine's public view), a
seat's private view, and the scoreboard. Every text stays within Discord's limits (see
``shared/DISCORD-NOTES.md``): the renderer trims rather than lets a send fail, and the actions of a
decision are fitted to menus and pages by :mod:`cogs.tables.action_menus`.
"""

from __future__ import annotations

import dataclasses
import functools
import io
import re

import discord
from discord.utils import escape_markdown as _escape_markdown
from discord.utils import format_dt

from cogs.rules import pages as rules_pages
from cogs.tables import action_menus, house_rules, prompts, seat_controls, view_fields
from engine.tables import ai_seats
from cogs.tables import custom_ids as ids
from cogs.tables.action_menus import clip as _clip
from cogs.tables.board_image import board_png
from cogs.tables.components import TableButton, TableView
from cogs.tables.lobby_menus import MENU_ROWS, option_menus
from engine.tables.lobby_options import option_choices
from engine.tables.session import Phase, TableSession
from engine.tables.time_control import seat_clock
from engine import Event, LegalAction, SeatView
from engine.core import STRONG
from engine.lobby import RematchChoice

LOBBY_COLOUR = discord.Colour.blurple()
PLAYING_COLOUR = discord.Colour.green()
FINISHED_COLOUR = discord.Colour.gold()
CLOSED_COLOUR = discord.Colour.dark_grey()
PRIVATE_COLOUR = discord.Colour.dark_teal()
BOARD_FILENAME = "board.png"


# Display names are escaped on every redraw (several times per press); the escape of a name never changes.
escape_markdown = functools.lru_cache(maxsize=4096)(_escape_markdown)


def _name(session: TableSession, user_id: int) -> str:
    return escape_markdown(session.names.get(user_id, "someone"))


SEAT_PLACEHOLDER = re.compile(r"\{seat:(\d{1,2})\}")


def with_names(session: TableSession, text: str) -> str:
    """Engine text as Discord shows it: each ``{seat:N}`` (N = seat index) replaced by that player's display
    name, and each ``{b:...}`` (:func:`engine.core.strong`) in bold.

    Engines name players this way in fields, summaries, events and labels ("{seat:2} won the trick")."""
    if "{b:" in text:
        text = STRONG.sub(r"**\1**", text)
    if "{seat:" not in text:
        return text

    def name(match: re.Match[str]) -> str:
        seat = int(match[1])
        if 0 <= seat < len(session.players):
            return escape_markdown(session.name_of_seat(seat))
        return f"Seat {seat + 1}"

    return SEAT_PLACEHOLDER.sub(name, text)


def _button(
    session: TableSession,
    verb: str,
    label: str,
    style: discord.ButtonStyle,
    *,
    version: int = 0,
    row: int | None = None,
    disabled: bool = False,
) -> TableButton:
    if row is None:  # placed by each view it is added to: not shared
        return _new_button(session.table_id, verb, label, style, version, row, disabled)
    return _shared_button(session.table_id, verb, label, style, version, row, disabled)


def _new_button(
    table_id: str,
    verb: str,
    label: str,
    style: discord.ButtonStyle,
    version: int,
    row: int | None,
    disabled: bool,
) -> TableButton:
    custom_id = ids.TableCustomId(table_id, version, verb)
    return TableButton(custom_id, label=_clip(label, 80), style=style, row=row, disabled=disabled)


# A table's fixed buttons ("My hand", "DM me my hand", the lobby's) are the same on every message it draws,
# so each is built once and shared by the views that show it: a view only reads its items (an item with a
# fixed row is placed the same in every view).
_shared_button = functools.lru_cache(maxsize=8192)(_new_button)


def event_line(session: TableSession, event: Event) -> str:
    """One log line: the seat's name, then what happened."""
    if event.seat is None:
        return with_names(session, event.text)
    return f"**{escape_markdown(session.name_of_seat(event.seat))}** {with_names(session, event.text)}"


DRAWN_EVENTS_KEPT = 64


def event_log(session: TableSession) -> str:
    """The table's recent events, one :func:`event_line` each; a line is drawn once per table."""
    drawn = session.drawn_events
    lines = []
    for event in session.events:
        line = drawn.get(event)
        if line is None:
            if len(drawn) >= DRAWN_EVENTS_KEPT:
                drawn.clear()
            line = drawn[event] = event_line(session, event)
        lines.append(line)
    return "\n".join(lines)


def footer_text(session: TableSession) -> str:
    """The footer every table message starts with: the game and the table id."""
    return f"{session.rules.display_name} · table {session.table_id}"


# -- lobby -------------------------------------------------------------------------------------------


def lobby_message(session: TableSession) -> tuple[discord.Embed, discord.ui.View]:
    """The lobby: who sits (AI players with their robot marker), who hosts, and Join / Leave / Start /
    Cancel / DM me, then Add / Remove AI player (host only) and How to play, then up to three option menus."""
    rules = session.rules
    players = session.lobby.players
    lines = [
        f"{index}. {_name(session, user)}{' (host)' if user == session.host_id else ''}"
        f"{' ✉️' if user in session.dm_wanted else ''}"
        for index, user in enumerate(players, start=1)
    ]
    embed = discord.Embed(
        title=f"🃏 {rules.display_name}: table open",
        description=f"{rules.summary}\n\nPress **Join** to sit down; the host presses **Start**, and may "
        "seat AI players.",
        colour=LOBBY_COLOUR,
    )
    embed.add_field(
        name=f"Players ({len(players)} of {rules.min_seats}–{rules.max_seats})",
        value="\n".join(lines) or "nobody yet",
        inline=False,
    )
    clock = session.settings.time_control
    embed.add_field(name="Clock", value=clock.label(clock.kind, session.settings.turn_seconds), inline=True)
    missing = rules.min_seats - len(players)
    if missing > 0:
        embed.add_field(name="Waiting for", value=f"{missing} more player{'s' if missing > 1 else ''}")
    settings = [
        f"{choice.description.rstrip('.')}: **{choice.current_label}**" for choice in option_choices(session)
    ]
    if settings:
        embed.add_field(
            name="Options (the host sets them below)", value=_clip("\n".join(settings), 1024), inline=False
        )
    embed.set_footer(text=footer_text(session))
    view = TableView()
    view.add_item(_button(session, ids.JOIN, "Join", discord.ButtonStyle.success, row=0))
    view.add_item(_button(session, ids.LEAVE, "Leave", discord.ButtonStyle.secondary, row=0))
    view.add_item(_button(session, ids.START, "Start", discord.ButtonStyle.primary, row=0))
    view.add_item(_button(session, ids.CANCEL, "Cancel", discord.ButtonStyle.danger, row=0))
    view.add_item(_button(session, ids.DM, "DM me my hand", discord.ButtonStyle.secondary, row=0))
    view.add_item(_button(session, ids.ADD_AI, "Add AI player", discord.ButtonStyle.secondary, row=1))
    view.add_item(_button(session, ids.REMOVE_AI, "Remove AI player", discord.ButtonStyle.secondary, row=1))
    view.add_item(rules_pages.how_to_play_button(session.rules.key, 1))
    for row, menu in enumerate(option_menus(session)[:MENU_ROWS], start=2):
        menu.row = row
        view.add_item(menu)
    return embed, view


# -- the game ----------------------------------------------------------------------------------------


def seat_lines(session: TableSession, view: SeatView) -> str:
    """The "Players" field: a line per seat (▶️ to act; who plays a seat whose player is away or left),
    with the engine's summary of it."""
    lines = []
    for line in view.seats:
        marker = "▶️" if line.to_act else "▫️"
        idle = ai_seats.seat_marker(session, line.seat)
        name = escape_markdown(session.name_of_seat(line.seat))
        clock = seat_clock(session.settings.time_control, session.banks, line.seat)
        lines.append(f"{marker} **{name}**{clock}{idle}: {with_names(session, line.summary)}")
    return _clip("\n".join(lines), 1024)


def turn_line(session: TableSession, *, prompt: bool = True) -> str:
    """Whose turn it is and until when ("" if nobody's); with ``prompt``, a line naming each player who
    must decide in their private view (:func:`cogs.tables.prompts.private_deciders`)."""
    to_act = session.users_to_act()
    if not to_act or session.deadline is None:
        return ""
    names = ", ".join(f"**{_name(session, user)}**" for user in to_act)
    turn = f"Turn: {names}, clock runs out {format_dt(session.deadline, 'R')}"
    if prompt:
        deciders = prompts.private_deciders(session)
        turn += "".join(f"\n👉 **{_name(session, user)}**: {prompts.PROMPT}" for user in deciders)
    return turn


def turn_and_log(session: TableSession) -> str:
    """Whose turn it is and until when, then the log."""
    turn = turn_line(session)
    description = [turn] if turn else []
    if session.events:
        description.append(event_log(session))
    return _clip("\n\n".join(description), 4096)


def private_description(session: TableSession) -> str:
    """The top of a private view: whose turn it is and the last move (the table message has the log)."""
    lines = [turn_line(session, prompt=False)]
    if session.events:
        lines.append(f"Last move: {event_line(session, session.events[-1])}")
    return _clip("\n".join(line for line in lines if line), 4096)


def _view_embed(session: TableSession, view: SeatView, colour: discord.Colour) -> discord.Embed:
    embed = discord.Embed(
        title=_clip(with_names(session, view.title), 256), description=turn_and_log(session), colour=colour
    )
    for field in view.table[:20]:
        embed.add_field(
            name=_clip(house_rules.marked(session.rules.key, with_names(session, field.name)), 256),
            value=_clip(with_names(session, field.value), 1024),
            inline=True,
        )
    embed.add_field(name="Players", value=seat_lines(session, view) or "—", inline=False)
    return embed


EMBED_TOTAL_LIMIT = 6000  # Discord: title, description, fields, footer and author together


def fit_embed(embed: discord.Embed) -> discord.Embed:
    """Trim an embed to Discord's 6,000-character total: first the oldest log lines (the turn line and the
    latest moves stay), then the longest fields."""
    budget = EMBED_TOTAL_LIMIT - 20
    excess = len(embed) - budget
    if excess > 0 and embed.description:
        head, _, log = embed.description.partition("\n\n")
        if log:
            keep = max(min(400, len(log)), len(log) - excess - 1)  # the latest moves stay readable
            log = log if keep >= len(log) else "…" + log[len(log) - keep :]
            embed.description = f"{head}\n\n{log}"
        else:
            embed.description = _clip(head, max(1, len(head) - excess))
        excess = len(embed) - budget
    while excess > 0 and embed.fields:
        index, field = max(enumerate(embed.fields), key=lambda item: len(item[1].value or ""))
        value = field.value or ""
        if len(value) <= 40:
            break
        embed.set_field_at(
            index, name=field.name, value=_clip(value, max(40, len(value) - excess)), inline=field.inline
        )
        excess = len(embed) - budget
    if excess > 0 and embed.description:
        embed.description = _clip(embed.description, max(1, len(embed.description) - excess))
    return embed


def action_components(
    session: TableSession, actions: tuple[LegalAction, ...], page: int = 0
) -> list[discord.ui.Item]:
    """The components of ``actions`` at ``page`` of the table's current state (see
    :mod:`cogs.tables.action_menus`): buttons, select menus of 25 in rows 0-3, paging buttons in row 4."""
    assert session.state is not None
    return action_menus.action_components(
        session.table_id, session.state.version, actions, lambda text: with_names(session, text), page
    )


def board_file(view: SeatView) -> discord.File | None:
    """The view's board drawn as a picture, to attach to the message whose embed shows it."""
    if view.board is None:
        return None
    return discord.File(io.BytesIO(board_png(view.board)), filename=BOARD_FILENAME)


def table_files(session: TableSession, user_id: int | None = None) -> list[discord.File]:
    """Attachments of the table message (``user_id=None``) or of a player's private view: the board."""
    if session.state is None or session.phase is Phase.LOBBY:
        return []
    seat = None if user_id is None else session.seat_of(user_id)
    picture = board_file(session.view(seat))
    return [picture] if picture is not None else []


def table_message(session: TableSession, page: int = 0) -> tuple[discord.Embed, discord.ui.View]:
    """The public table while playing: public view, log, whose turn and its deadline, and buttons.

    The buttons are the engine's public actions (which reveal no secret, shown at ``page`` if they need
    several), plus "My hand" and "DM me".
    """
    embed = table_embed(session)
    view = TableView()
    for item in action_components(session, session.public_actions(), page):
        view.add_item(item)
    view.add_item(_button(session, ids.HAND, "My hand", discord.ButtonStyle.secondary, row=4))
    controls = seat_controls.table_controls(session)
    if len(controls) < 2:  # "End table" and "I'm back" both: no room, and nobody plays to be DMed
        view.add_item(_button(session, ids.DM, "DM me my hand", discord.ButtonStyle.secondary, row=4))
    view.add_item(rules_pages.how_to_play_button(session.rules.key, 4))
    for verb, label in controls:
        view.add_item(_button(session, verb, label, CONTROL_STYLES[verb], row=4))
    return embed, view


CONTROL_STYLES = {
    ids.BACK: discord.ButtonStyle.success,
    ids.END: discord.ButtonStyle.danger,
    ids.LEAVE_GAME: discord.ButtonStyle.danger,
}


def table_embed(session: TableSession) -> discord.Embed:
    """The embed of :func:`table_message`, trimmed to Discord's limits."""
    assert session.state is not None
    public = session.view(None)
    embed = _view_embed(session, public, PLAYING_COLOUR)
    embed.set_footer(text=f"{footer_text(session)} · move {session.state.version + 1}")
    fit_embed(embed)
    if public.board is not None:
        embed.set_image(url=f"attachment://{BOARD_FILENAME}")
    return embed


def private_message(
    session: TableSession, user_id: int, *, jump_url: str | None = None, offer_dm: bool = False, page: int = 0
) -> tuple[discord.Embed, discord.ui.View]:
    """A seat's private view (for an ephemeral message or a DM): its secrets and all its legal actions
    (at ``page`` of their menus, if they need several).

    ``offer_dm`` adds a "DM me my hand" button (for the ephemeral view; a DM needs none). The footer names
    the player ("Private to <name>"), which the leak tests look for.
    """
    assert session.state is not None
    seat = session.seat_of(user_id)
    assert seat is not None
    view = session.view(seat)
    shown = dataclasses.replace(view, table=view_fields.state_fields(session.rules.key, view.table))
    embed = _view_embed(session, shown, PRIVATE_COLOUR)
    embed.description = private_description(session) or None
    embed.title = _clip(f"Your hand · {with_names(session, view.title)}", 256)
    notice = ai_seats.away_notice(session, user_id)
    if notice is not None:
        embed.description = _clip(f"{notice}\n\n{embed.description or ''}", 4096)
    for index, field in enumerate(view.private[:20]):
        embed.insert_field_at(
            index,
            name=_clip(with_names(session, field.name), 256),
            value=_clip(with_names(session, field.value), 1024),
            inline=True,
        )
    if jump_url:
        embed.add_field(name="Table", value=f"[Back to the table]({jump_url})", inline=False)
    embed.set_footer(text=f"Private to {session.names.get(user_id, 'you')} · {footer_text(session)}")
    fit_embed(embed)
    if view.board is not None:
        embed.set_image(url=f"attachment://{BOARD_FILENAME}")
    components = TableView()
    for item in action_components(session, view.legal_actions, page):
        components.add_item(item)
    if offer_dm:
        components.add_item(_button(session, ids.DM, "DM me my hand", discord.ButtonStyle.secondary, row=4))
    for verb, label in seat_controls.private_controls(session, user_id):
        components.add_item(_button(session, verb, label, CONTROL_STYLES[verb], row=4))
    return embed, components


# -- the end -----------------------------------------------------------------------------------------


def scoreboard_message(session: TableSession) -> tuple[discord.Embed, discord.ui.View | None]:
    """The scoreboard in rank order, with ✅ for "Play again" and ~~struck~~ leavers.

    Rank order is the game's own: for Foist, "the scores listed in ascending order" (Foist page,
    "Scoreboard"). Buttons are shown while the choice is open.
    """
    standings = sorted(session.standings(), key=lambda standing: (standing.rank, standing.seat))
    rematch = session.rematch
    lines = []
    for standing in standings:
        user = session.players[standing.seat]
        name = _name(session, user)
        choice = rematch.choices.get(user) if rematch else None
        if choice is RematchChoice.LEAVE:
            name = f"~~{name}~~"
        mark = " ✅" if choice is RematchChoice.PLAY_AGAIN else ""
        medal = "🏆 " if standing.rank == 1 else ""
        detail = f" ({standing.detail})" if standing.detail else ""
        lines.append(f"{standing.rank}. {medal}{name}{mark}: **{standing.points}** points{detail}")
    assert session.state is not None
    embed = discord.Embed(
        title=f"🏁 {session.rules.display_name}: final scores",
        description=_clip("\n".join(lines), 4096),
        colour=FINISHED_COLOUR,
    )
    public = session.view(None)
    for field in public.table[:10]:
        embed.add_field(
            name=_clip(house_rules.marked(session.rules.key, with_names(session, field.name)), 256),
            value=_clip(with_names(session, field.value), 1024),
            inline=False,
        )
    if session.events:
        embed.add_field(
            name="Last moves",
            value=_clip(event_log(session), 1024),
            inline=False,
        )
    if session.phase is not Phase.SCOREBOARD:
        embed.set_footer(text=" · ".join(filter(None, (footer_text(session), session.rules.winning_rule))))
        return fit_embed(embed), None
    closes_at = session.rematch_closes_at()
    if closes_at is not None:
        embed.add_field(
            name="Play again?",
            value=f"Press **Play again** by <t:{int(closes_at.timestamp())}:t> to sit at a new table.",
            inline=False,
        )
    embed.set_footer(
        text=" · ".join(filter(None, (footer_text(session), session.rules.winning_rule, "play again?")))
    )
    fit_embed(embed)
    view = TableView()
    view.add_item(_button(session, ids.AGAIN, "Play again", discord.ButtonStyle.success))
    view.add_item(_button(session, ids.QUIT, "Leave", discord.ButtonStyle.secondary))
    view.add_item(replay_button(session.table_id))
    return embed, view


def replay_button(table_id: str) -> discord.ui.Button:
    """The "Replay" button of a finished table's scoreboard (answered by the replay cog)."""
    return discord.ui.Button(
        label="Replay",
        emoji="⏯️",
        custom_id=ids.replay_custom_id(table_id),
        style=discord.ButtonStyle.secondary,
    )


def final_view(session: TableSession) -> discord.ui.View | None:
    """The buttons a closed table keeps for good: "Replay" once its game is over, else none."""
    if session.state is None or not session.state.is_terminal():
        return None
    return replay_view(session.table_id)


def replay_view(table_id: str) -> discord.ui.View:
    """A view holding only the "Replay" button of ``table_id``."""
    view = TableView()
    view.add_item(replay_button(table_id))
    return view


def closed_message(session: TableSession, reason: str) -> discord.Embed:
    """What a lobby message turns into when the table closes without a game."""
    return discord.Embed(
        title=f"{session.rules.display_name}: table closed", description=reason, colour=CLOSED_COLOUR
    ).set_footer(text=footer_text(session))


def moved_message(session: TableSession, jump_url: str) -> discord.Embed:
    """What an old table message turns into when the table moves to a fresh message."""
    return discord.Embed(
        title=f"{session.rules.display_name}: the table moved",
        description=f"The game goes on in a fresh message: {jump_url}",
        colour=CLOSED_COLOUR,
    )


def current_message(session: TableSession, page: int = 0) -> tuple[discord.Embed, discord.ui.View | None]:
    """The table message for the table's phase (lobby, playing at ``page`` of its menus, or scoreboard)."""
    if session.phase is Phase.LOBBY:
        return lobby_message(session)
    if session.phase is Phase.PLAYING:
        return table_message(session, page)
    if session.state is None:  # closed before a game was played
        return closed_message(session, "This table is closed."), None
    return scoreboard_message(session)
