"""Turning a table into Discord messages: embeds and buttons for any game, from the engine's views.

Nothing here decides anything: it draws the lobby, the public table (from the engine's public view), a
seat's private view, and the scoreboard. Every text stays within Discord's limits (see
``shared/DISCORD-NOTES.md``): the renderer trims rather than lets a send fail.
"""

from __future__ import annotations

import discord
from discord.utils import escape_markdown, format_dt

from cogs.tables import custom_ids as ids
from cogs.tables.components import TableButton, TableView
from cogs.tables.session import Phase, TableSession
from engine import Event, LegalAction, SeatView
from engine.lobby import RematchChoice

LOBBY_COLOUR = discord.Colour.blurple()
PLAYING_COLOUR = discord.Colour.green()
FINISHED_COLOUR = discord.Colour.gold()
CLOSED_COLOUR = discord.Colour.dark_grey()
PRIVATE_COLOUR = discord.Colour.dark_teal()
MAX_ACTION_BUTTONS = 20  # four rows of five; the fifth row holds "My hand" and "DM me"

_STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}


def _name(session: TableSession, user_id: int) -> str:
    return escape_markdown(session.names.get(user_id, "someone"))


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


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
    custom_id = ids.TableCustomId(session.table_id, version, verb)
    return TableButton(custom_id, label=_clip(label, 80), style=style, row=row, disabled=disabled)


def event_line(session: TableSession, event: Event) -> str:
    """One log line: the seat's name, then what happened."""
    if event.seat is None:
        return event.text
    return f"**{escape_markdown(session.name_of_seat(event.seat))}** {event.text}"


def _footer(session: TableSession) -> str:
    return f"{session.rules.display_name} · table {session.table_id}"


# -- lobby -------------------------------------------------------------------------------------------


def lobby_message(session: TableSession) -> tuple[discord.Embed, discord.ui.View]:
    """The lobby: who sits, who hosts, and Join / Leave / Start / Cancel / DM me."""
    rules = session.rules
    players = session.lobby.players
    lines = [
        f"{index}. {_name(session, user)}{' (host)' if user == session.host_id else ''}"
        f"{' ✉️' if user in session.dm_wanted else ''}"
        for index, user in enumerate(players, start=1)
    ]
    embed = discord.Embed(
        title=f"🃏 {rules.display_name}: table open",
        description=f"{rules.summary}\n\nPress **Join** to sit down; the host presses **Start**.",
        colour=LOBBY_COLOUR,
    )
    embed.add_field(
        name=f"Players ({len(players)} of {rules.min_seats}–{rules.max_seats})",
        value="\n".join(lines) or "nobody yet",
        inline=False,
    )
    embed.add_field(name="Turn clock", value=f"{session.settings.turn_seconds} seconds", inline=True)
    missing = rules.min_seats - len(players)
    if missing > 0:
        embed.add_field(name="Waiting for", value=f"{missing} more player{'s' if missing > 1 else ''}")
    embed.set_footer(text=_footer(session))
    view = TableView()
    view.add_item(_button(session, ids.JOIN, "Join", discord.ButtonStyle.success, row=0))
    view.add_item(_button(session, ids.LEAVE, "Leave", discord.ButtonStyle.secondary, row=0))
    view.add_item(_button(session, ids.START, "Start", discord.ButtonStyle.primary, row=0))
    view.add_item(_button(session, ids.CANCEL, "Cancel", discord.ButtonStyle.danger, row=0))
    view.add_item(_button(session, ids.DM, "DM me my hand", discord.ButtonStyle.secondary, row=1))
    return embed, view


# -- the game ----------------------------------------------------------------------------------------


def _seat_lines(session: TableSession, view: SeatView) -> str:
    lines = []
    for line in view.seats:
        marker = "▶️" if line.to_act else "▫️"
        idle = " 💤" if line.seat in session.idle_seats else ""
        lines.append(f"{marker} **{escape_markdown(session.name_of_seat(line.seat))}**{idle}: {line.summary}")
    return _clip("\n".join(lines), 1024)


def _view_embed(session: TableSession, view: SeatView, colour: discord.Colour) -> discord.Embed:
    description = []
    to_act = session.users_to_act()
    if to_act and session.deadline is not None:
        names = ", ".join(f"**{_name(session, user)}**" for user in to_act)
        description.append(f"Turn: {names}, clock runs out {format_dt(session.deadline, 'R')}")
    if session.events:
        description.append("\n".join(event_line(session, event) for event in session.events))
    embed = discord.Embed(
        title=_clip(view.title, 256), description=_clip("\n\n".join(description), 4096), colour=colour
    )
    for field in view.table[:20]:
        embed.add_field(name=_clip(field.name, 256), value=_clip(field.value, 1024), inline=True)
    embed.add_field(name="Players", value=_seat_lines(session, view) or "—", inline=False)
    return embed


def _action_buttons(session: TableSession, actions: tuple[LegalAction, ...]) -> list[TableButton]:
    assert session.state is not None
    version = session.state.version
    if len(actions) > MAX_ACTION_BUTTONS:
        raise ValueError(f"{len(actions)} actions do not fit in buttons; this game needs a select menu")
    return [
        TableButton(
            ids.TableCustomId.for_action(session.table_id, version, action.code),
            label=_clip(action.label, 80),
            style=_STYLES.get(action.style, discord.ButtonStyle.secondary),
            row=index // 5,
        )
        for index, action in enumerate(actions)
    ]


def table_message(session: TableSession) -> tuple[discord.Embed, discord.ui.View]:
    """The public table while playing: public view, log, whose turn and its deadline, and buttons.

    The buttons are the engine's public actions (which reveal no secret), plus "My hand" and "DM me".
    """
    assert session.state is not None
    public = session.state.view(None)
    embed = _view_embed(session, public, PLAYING_COLOUR)
    embed.set_footer(text=f"{_footer(session)} · move {session.state.version + 1}")
    view = TableView()
    for button in _action_buttons(session, session.state.public_actions()):
        view.add_item(button)
    view.add_item(_button(session, ids.HAND, "My hand", discord.ButtonStyle.secondary, row=4))
    view.add_item(_button(session, ids.DM, "DM me my hand", discord.ButtonStyle.secondary, row=4))
    return embed, view


def private_message(
    session: TableSession, user_id: int, *, jump_url: str | None = None, offer_dm: bool = False
) -> tuple[discord.Embed, discord.ui.View]:
    """A seat's private view (for an ephemeral message or a DM): its secrets and all its legal actions.

    ``offer_dm`` adds a "DM me my hand" button (for the ephemeral view; a DM needs none). The footer names
    the player ("Private to <name>"), which the leak tests look for.
    """
    assert session.state is not None
    seat = session.seat_of(user_id)
    assert seat is not None
    view = session.state.view(seat)
    embed = _view_embed(session, view, PRIVATE_COLOUR)
    embed.title = _clip(f"Your hand · {view.title}", 256)
    for index, field in enumerate(view.private[:20]):
        embed.insert_field_at(index, name=_clip(field.name, 256), value=_clip(field.value, 1024), inline=True)
    if jump_url:
        embed.add_field(name="Table", value=f"[Back to the table]({jump_url})", inline=False)
    embed.set_footer(text=f"Private to {session.names.get(user_id, 'you')} · {_footer(session)}")
    components = TableView()
    for button in _action_buttons(session, view.legal_actions):
        components.add_item(button)
    if offer_dm:
        components.add_item(_button(session, ids.DM, "DM me my hand", discord.ButtonStyle.secondary, row=4))
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
    public = session.state.view(None)
    for field in public.table[:10]:
        embed.add_field(name=_clip(field.name, 256), value=_clip(field.value, 1024), inline=False)
    if session.events:
        embed.add_field(
            name="Last moves",
            value=_clip("\n".join(event_line(session, event) for event in session.events), 1024),
            inline=False,
        )
    if session.phase is not Phase.SCOREBOARD:
        embed.set_footer(text=" · ".join(filter(None, (_footer(session), session.rules.winning_rule))))
        return embed, None
    embed.set_footer(
        text=" · ".join(filter(None, (_footer(session), session.rules.winning_rule, "play again?")))
    )
    view = TableView()
    view.add_item(_button(session, ids.AGAIN, "Play again", discord.ButtonStyle.success))
    view.add_item(_button(session, ids.QUIT, "Leave", discord.ButtonStyle.secondary))
    return embed, view


def closed_message(session: TableSession, reason: str) -> discord.Embed:
    """What a lobby message turns into when the table closes without a game."""
    return discord.Embed(
        title=f"{session.rules.display_name}: table closed", description=reason, colour=CLOSED_COLOUR
    ).set_footer(text=_footer(session))


def current_message(session: TableSession) -> tuple[discord.Embed, discord.ui.View | None]:
    """The table message for the table's phase (lobby, playing or scoreboard)."""
    if session.phase is Phase.LOBBY:
        return lobby_message(session)
    if session.phase is Phase.PLAYING:
        return table_message(session)
    if session.state is None:  # closed before a game was played
        return closed_message(session, "This table is closed."), None
    return scoreboard_message(session)
