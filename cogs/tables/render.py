"""Turning a table into Discord messages, each message kind drawn once as Discord JSON
(:class:`~cogs.tables.drawn.Drawn`), from the engine's views.

Nothing here decides anything: it draws the lobby, the public table (from the engine's public view, at a
page of its menus), a seat's private view, the scoreboard, a closed or moved table, and the short messages
around them (the question before leaving, "Play again" closed, the notice to a player an AI took over).
The table, the private views, the scoreboards and every message that may replace one of them are
Components V2 layouts (:mod:`cogs.tables.layouts`; their text is put together as a
:class:`~cogs.tables.layouts.Card`, measured and fitted by :mod:`cogs.tables.lengths` as the layout shows
it, then drawn once); the lobby and the new small messages are classic ones.
A press's answer sends the drawing as it is; every other send hands it to discord.py
(:mod:`cogs.tables.drawn`). Every text stays within Discord's limits (see ``shared/DISCORD-NOTES.md``): the
renderer trims rather than lets a send fail, and the actions of a decision are fitted to menus and pages
by :mod:`cogs.tables.action_menus`.
"""

from __future__ import annotations

import functools

import discord

from art.cards import face_of_action
from cogs.card_emojis import CARD_EMOJIS
from cogs.rules import pages as rules_pages
from cogs.tables import action_menus, layouts, lengths, prompts, seat_controls, view_fields
from cogs.tables import custom_ids as ids
from cogs.tables.action_menus import Placed, button, rows
from cogs.tables.drawn import Attachment, Drawn, kept
from cogs.tables.embeds import embed, field
from cogs.tables.layouts import Card, CardField
from cogs.tables.lengths import clip as _clip
from cogs.tables.lobby_menus import MENU_ROWS, option_menus, shown_choices
from cogs.tables.pictures import board_picture, table_picture
from cogs.tables.table_text import (
    STANDING_NOUNS,
    TABLE_LINK,
    event_log,
    masked_link,
    player_name,
    players_field,
    seat_lines,
    turn_line,
    with_latest_events,
    with_names,
)
from engine import Board, LegalAction
from engine.core import plural
from engine.lobby import RematchChoice
from engine.tables import ai_seats
from engine.tables.session import TablePhase, TableSession

LOBBY_COLOUR = discord.Colour.blurple().value
PLAYING_COLOUR = discord.Colour.green().value
FINISHED_COLOUR = discord.Colour.gold().value
CLOSED_COLOUR = discord.Colour.dark_grey().value
PRIVATE_COLOUR = discord.Colour.dark_teal().value

SECONDARY, PRIMARY = discord.ButtonStyle.secondary, discord.ButtonStyle.primary
SUCCESS, DANGER = discord.ButtonStyle.success, discord.ButtonStyle.danger
CONTROL_STYLES = {ids.BACK: SUCCESS, ids.END: DANGER, ids.LEAVE_GAME: DANGER, ids.HINT: SECONDARY}
"""The style of each seat button (:mod:`cogs.tables.seat_controls`)."""

LEAVE_QUESTION = (
    "Leave this game? An AI plays your seat to the end, and you are ranked where your seat finishes. "
    "You can't come back to this game."
)
WINDOW_CLOSED = "The **Play again** window has closed: `/play` opens a new table."
RULES_LABEL = "Rules in play"
"""The table message's button that shows the table's rules in play (:mod:`cogs.tables.rules_in_play`)."""


@functools.lru_cache(maxsize=8192)
def _verb_button(table_id: str, verb: str, label: str, style: discord.ButtonStyle) -> dict:
    """A table button whose custom_id carries no version (the lobby's, "My hand", the seat buttons): the
    same on every message of the table, so drawn once and shared (a drawing is never changed)."""
    return button(str(ids.TableCustomId(table_id, 0, verb)), label, style)


@functools.lru_cache(maxsize=64)
def how_to_play(game: str) -> dict:
    """The "How to play" button of a lobby or table message: opens ``game``'s rules privately
    (:mod:`cogs.rules.pages` answers it)."""
    return button(rules_pages.custom_id(game, 0), rules_pages.BUTTON_LABEL, SECONDARY)


def replay_button(table_id: str) -> dict:
    """The "Replay" button of a finished table (answered by the replay cog)."""
    return button(ids.replay_custom_id(table_id), "Replay", SECONDARY, emoji="⏯️")


def footer_text(session: TableSession) -> str:
    """The footer every table message starts with: the game and the table id."""
    return f"{session.rules.display_name} · table {session.table_id}"


# -- lobby -------------------------------------------------------------------------------------------


def lobby_message(session: TableSession) -> Drawn:
    """The lobby: who sits (AI players with their robot marker), who hosts, and Join / Leave / Start /
    Cancel / DM me, then Add / Remove AI player (host only) and How to play, then up to three option menus."""
    rules = session.rules
    players = session.lobby.players
    lines = [
        f"{index}. {player_name(session, user)}{' (host)' if user == session.host_id else ''}"
        f"{' ✉️' if user in session.dm_wanted else ''}"
        for index, user in enumerate(players, start=1)
    ]
    drawn = embed(
        f"🃏 {rules.display_name}: table open",
        f"{rules.summary}\n\nPress **Join** to sit down; the host presses **Start**, and may "
        "seat AI players.",
        LOBBY_COLOUR,
    )
    clock = session.settings.time_control
    fields = [
        field(
            f"Players ({len(players)} of {rules.min_seats}–{rules.max_seats})",
            _clip("\n".join(lines), lengths.FIELD_VALUE_MAX) or "nobody yet",
            False,
        ),
        field("Clock", clock.label(clock.kind, session.settings.turn_seconds)),
    ]
    missing = rules.min_seats - len(players)
    if missing > 0:
        fields.append(field("Waiting for", plural(missing, "more player")))
    settings = [
        f"{choice.description.rstrip('.')}: **{choice.current_label}**" for choice in shown_choices(session)
    ]
    if settings:
        fields.append(
            field(
                "Options (the host sets them below)",
                _clip("\n".join(settings), lengths.FIELD_VALUE_MAX),
                False,
            )
        )
    drawn["fields"] = fields
    drawn["footer"] = {"text": footer_text(session)}
    table_id = session.table_id
    # the host sits already: once the game can start, Start is the one green button, Join a grey one
    start_style = SUCCESS if missing <= 0 else SECONDARY
    items: list[Placed] = [
        (0, _verb_button(table_id, ids.JOIN, "Join", SECONDARY)),
        (0, _verb_button(table_id, ids.LEAVE, "Leave", SECONDARY)),
        (0, _verb_button(table_id, ids.START, "Start", start_style)),
        (0, _verb_button(table_id, ids.CANCEL, "Cancel", DANGER)),
        (0, _verb_button(table_id, ids.DM, "DM me my hand", SECONDARY)),
        (1, _verb_button(table_id, ids.ADD_AI, "Add AI player", SECONDARY)),
        (1, _verb_button(table_id, ids.REMOVE_AI, "Remove AI player", SECONDARY)),
        (1, how_to_play(session.rules.key)),
    ]
    items.extend(enumerate(option_menus(session)[:MENU_ROWS], start=2))
    return Drawn(drawn, rows(items))


# -- the game ----------------------------------------------------------------------------------------


def _crowded(text: Card) -> bool:
    """True if the table message's card ``text`` leaves no room for the last move's line within its
    budget."""
    return lengths.layout_length(text) + 2 + lengths.LAST_LINE_MIN > lengths.TABLE_MESSAGE


def action_components(
    session: TableSession,
    actions: tuple[LegalAction, ...],
    page: int = 0,
    *,
    board: Board | None = None,
    row: int | None = None,
) -> list[Placed]:
    """The components of ``actions`` at ``page`` of the table's current state (see
    :mod:`cogs.tables.action_menus`): buttons, select menus of 25 in rows 0-3, paging buttons in row 4;
    choices of ``board``'s positions (Deluxe Memory's grid) as a row, then a card (at ``row``, if chosen). A
    button or option that plays a card carries the card's face emoji once it exists
    (:mod:`cogs.card_emojis`)."""
    assert session.state is not None
    game = session.rules.key
    return action_menus.action_components(
        session.table_id,
        session.state.version,
        actions,
        lambda text: with_names(session, text),
        page,
        lambda code: CARD_EMOJIS.for_action(game, code),
        board=board,
        row=row,
        is_card=lambda code: face_of_action(game, code) is not None,
    )


def _laid_out(text: Card, items: list[Placed], pictures: tuple[Attachment, ...]) -> Drawn:
    """The message whose text is the card ``text`` (fitted to Discord's limits by
    :func:`cogs.tables.lengths.fit_card` once it is whole), with the components ``items`` and ``pictures``,
    as a Components V2 layout (:func:`cogs.tables.layouts.card`)."""
    return Drawn(components=layouts.card(text, rows(items), pictures), attachments=pictures, layout=True)


def table_message(session: TableSession, page: int = 0, row: int | None = None) -> Drawn:
    """The public table while playing: public view, log, whose turn and its deadline, and buttons.

    The buttons are the engine's public actions (which reveal no secret, shown at ``page`` if they need
    several; the choices of the board's ``row``, if chosen), plus "My hand" and "DM me", "Rules in play"
    and the seat buttons. The rules in play (rule cards, scoring, options) are not on it: "Rules in play"
    shows them on demand (:mod:`cogs.tables.rules_in_play`).
    The latest moves fill what :data:`cogs.tables.lengths.TABLE_MESSAGE` leaves; a crowded table shows
    each seat's brief line (``SeatLine.brief``), then, if still crowded, the fields' brief values
    (``Field.brief``), then the footer's move number alone.
    """
    assert session.state is not None
    public = session.view(None)
    text = Card(
        PLAYING_COLOUR, _clip(with_names(session, public.title), lengths.TITLE_MAX), turn_line(session)
    )
    text.fields = [
        *view_fields.state_fields(session, public.table),
        CardField("Players", seat_lines(session, public) or "—", False),
    ]
    text.footer = f"table {session.table_id} · move {session.state.version + 1}"  # the title: the game
    if _crowded(text):
        players = CardField(*players_field(session, public, brief=True), False)
        text.fields = [*text.fields[:-1], players]
        if _crowded(text):
            text.fields = [*view_fields.state_fields(session, public.table, brief=True), players]
        if _crowded(text):  # the move alone: the table id is on its lobby and scoreboard
            text.footer = f"move {session.state.version + 1}"
    with_latest_events(session, text, lengths.TABLE_MESSAGE)
    lengths.fit_card(text)
    table_id = session.table_id
    items = action_components(session, prompts.table_actions(session), page, board=public.board, row=row)
    items.append((4, _verb_button(table_id, ids.HAND, "My hand", SECONDARY)))
    controls = seat_controls.table_controls(session)
    if len(controls) < 2:  # "End table" and "I'm back" both: no room, and nobody plays to be DMed
        items.append((4, _verb_button(table_id, ids.DM, "DM me my hand", SECONDARY)))
    items.append((4, _verb_button(table_id, ids.RULES, RULES_LABEL, SECONDARY)))
    items.extend((4, _verb_button(table_id, verb, label, CONTROL_STYLES[verb])) for verb, label in controls)
    return _laid_out(text, items, table_picture(session, public))


def private_message(
    session: TableSession,
    user_id: int,
    *,
    jump_url: str | None = None,
    offer_dm: bool = False,
    page: int = 0,
    row: int | None = None,
) -> Drawn:
    """A seat's private view (for an ephemeral message or a DM): its secrets and all its legal actions
    (at ``page`` of their menus, if they need several; the choices of the board's ``row``, if chosen).

    ``offer_dm``: the ephemeral "My hand" view, read in the channel just under the table message, so it
    shows only what is the seat's (:func:`cogs.tables.view_fields.own_fields`) and adds a "DM me my hand"
    button; its budget is :data:`cogs.tables.lengths.PRIVATE_VIEW`. A DM is read away from the table:
    after the seat's own fields come the table's fields and "Players" (brief if need be) each where it
    still fits, and the latest moves in what is left of :data:`cogs.tables.lengths.DM` less
    :data:`cogs.tables.lengths.DM_INTRO`. The footer names the player ("Private to <name>"), which the
    leak tests look for. The title links to the table message (``jump_url``).
    """
    assert session.state is not None
    seat = session.seat_of(user_id)
    assert seat is not None
    view = session.view(seat)
    description = turn_line(session, prompt=False, viewer=user_id)
    notice = ai_seats.away_notice(session, user_id)
    if notice is not None:
        description = _clip(f"{with_names(session, notice)}\n{description}", lengths.DESCRIPTION_MAX)
    text = Card(
        PRIVATE_COLOUR,
        _clip(f"Your hand · {with_names(session, view.title)}", lengths.TITLE_MAX),
        description,
    )
    text.url = jump_url or None
    text.footer = f"Private to {player_name(session, user_id)} · table {session.table_id}"
    if offer_dm:
        room = lengths.PRIVATE_VIEW - lengths.layout_length(text)
        text.fields = view_fields.own_fields(session, view, room)
    else:
        view_fields.with_table(session, view, text, lengths.DM - lengths.DM_INTRO)
    lengths.fit_card(text)
    table_id = session.table_id
    items = action_components(session, view.legal_actions, page, board=view.board, row=row)
    if offer_dm:
        items.append((4, _verb_button(table_id, ids.DM, "DM me my hand", SECONDARY)))
    items.extend(
        (4, _verb_button(table_id, verb, label, CONTROL_STYLES[verb]))
        for verb, label in seat_controls.private_controls(session, user_id)
    )
    return _laid_out(text, items, board_picture(view))


def leave_question(session: TableSession) -> Drawn:
    """The question before "Leave game" (ephemeral), with its "Yes, leave the game" button."""
    sure = _verb_button(session.table_id, ids.LEAVE_SURE, "Yes, leave the game", DANGER)
    return Drawn(components=rows([(0, sure)]), content=LEAVE_QUESTION)


def text_message(text: str) -> Drawn:
    """Text alone, with no components, as a layout (it may replace one): what a question becomes once
    answered (its buttons go), a live DM once its table closed."""
    return Drawn(components=layouts.notice(text), layout=True)


def away_message(session: TableSession, user_id: int) -> Drawn:
    """The DM to a player an AI took over, with an "I'm back" button."""
    notice = with_names(session, ai_seats.away_notice(session, user_id) or "")
    text = f"{notice} ({session.rules.display_name} table {session.table_id})"
    back = _verb_button(session.table_id, ids.BACK, "I'm back", SUCCESS)
    return Drawn(components=rows([(0, back)]), content=text)


# -- the end -----------------------------------------------------------------------------------------


def _standings(session: TableSession, brief: bool = False) -> str:
    """The scoreboard's lines in rank order, with ✅ for "Play again", ~~struck~~ leavers and each player's
    hints where a rated table offered them (:func:`engine.tables.ai_seats.hints_used`): "· 💡 2 hints", or
    ``brief`` " 💡2" (a crowded scoreboard). Rank order is the game's own: for Foist, "the scores listed
    in ascending order" (Foist page, "Scoreboard")."""
    lines = []
    rematch = session.rematch
    noun, nouns = STANDING_NOUNS.get(session.rules.key, ("point", "points"))
    for standing in sorted(session.standings(), key=lambda standing: (standing.rank, standing.seat)):
        user = session.players[standing.seat]
        name = player_name(session, user)
        choice = rematch.choices.get(user) if rematch else None
        if choice is RematchChoice.LEAVE:
            name = f"~~{name}~~"
        mark = " ✅" if choice is RematchChoice.PLAY_AGAIN else ""
        medal = "🏆 " if standing.rank == 1 else ""
        detail = f" ({with_names(session, standing.detail)})" if standing.detail else ""
        hints = ai_seats.hints_used(session, user)
        used = "" if not hints else f" 💡{hints}" if brief else f" · 💡 {plural(hints, 'hint')}"
        lines.append(
            f"{standing.rank}. {medal}{name}{mark}: "
            f"{plural(standing.points, noun, nouns, shown=f'**{standing.points}**')}{detail}{used}"
        )
    return _clip("\n".join(lines), lengths.DESCRIPTION_MAX)


def _scoreboard(session: TableSession) -> Card:
    """The scoreboard (:func:`_standings`; its hint counts brief if the full ones leave no room for a last
    move), the final table and as many of the last moves as :data:`cogs.tables.lengths.TABLE_MESSAGE`
    leaves room for (the standings first: no last move if it would not keep
    :data:`~cogs.tables.lengths.LAST_LINE_MIN` characters)."""
    assert session.state is not None
    title = f"🏁 {session.rules.display_name}: final scores"
    text = Card(FINISHED_COLOUR, title, _standings(session))
    public = session.view(None)
    footer = [footer_text(session), session.rules.winning_rule]
    again = []
    if session.rematch_open():
        closes_at = session.rematch_closes_at()
        if closes_at is not None:
            when = f"<t:{int(closes_at.timestamp())}:t>"
            again.append(
                CardField("Play again?", f"Press **Play again** by {when} to sit at a new table.", False)
            )
        footer.append("play again?")
    text.fields = again
    text.footer = " · ".join(filter(None, footer))
    last_moves = lengths.field_size(CardField("Last moves", ""))
    if lengths.layout_length(text) > lengths.TABLE_MESSAGE - last_moves - lengths.LAST_LINE_MIN:
        text.description = _standings(session, brief=True)
    room = lengths.TABLE_MESSAGE - lengths.layout_length(text)
    room -= last_moves + lengths.LAST_LINE_MIN if session.events else 0
    fields, _ = view_fields.fitting_fields(session, public.table[:10], room)  # the standings come first
    fields = [shown._replace(inline=False) for shown in fields]
    text.fields = [*fields, *again]
    room = lengths.TABLE_MESSAGE - lengths.layout_length(text) - last_moves
    if session.events and room >= lengths.LAST_LINE_MIN:  # the last moves, as many as there is room for
        last = lengths.latest_lines(event_log(session).split("\n"), room)
        text.fields = [*fields, CardField("Last moves", _clip(last, lengths.FIELD_VALUE_MAX), False), *again]
    return lengths.fit_card(text)


def scoreboard_message(session: TableSession) -> Drawn:
    """The table message once the game is over: the scoreboard (:func:`_scoreboard`) and the final
    board's picture; "Play again", "Leave" and "Replay" while the "Play again" choice is open."""
    text = _scoreboard(session)
    picture = table_picture(session, session.view(None))
    if not session.rematch_open():  # over, or everyone chose (every person left): only the replay
        shown = [] if session.phase is not TablePhase.SCOREBOARD else [(0, replay_button(session.table_id))]
        return _laid_out(text, shown, picture)
    buttons = [
        _verb_button(session.table_id, ids.AGAIN, "Play again", SUCCESS),
        _verb_button(session.table_id, ids.QUIT, "Leave", SECONDARY),
        replay_button(session.table_id),
    ]
    return _laid_out(text, [(0, shown) for shown in buttons], picture)


GAME_OVER = "🏁 The game is over.\nThe final scores are on the table message."


def private_scoreboard(session: TableSession) -> Drawn:
    """What a private view becomes when a move pressed in it ends the game: a line that says so, no
    buttons (the scores are on the table message, which is redrawn apart: they show once)."""
    return text_message(GAME_OVER)


def dm_scoreboard(session: TableSession) -> Drawn:
    """The last state of a player's live DM once the game is over: the standings alone, within
    :data:`cogs.tables.lengths.DM` (the final table, the last moves and "Play again" stay on the table
    message)."""
    full = _scoreboard(session)
    return _laid_out(Card(full.colour, full.title, full.description, footer=full.footer), [], ())


def final_components(session: TableSession) -> list[Placed]:
    """The buttons a closed table keeps for good: "Replay" once its game is over, else none."""
    if session.state is None or not session.state.is_terminal():
        return []
    return [(0, replay_button(session.table_id))]


def final_scoreboard(session: TableSession) -> Drawn:
    """The table message for good once the "Play again" window is over: the scoreboard, the final
    picture and "Replay"."""
    final = table_picture(session, session.view(None))
    return _laid_out(_scoreboard(session), final_components(session), final)


def window_closed(table_id: str, shown: tuple[dict, ...] | None, files: tuple[str, ...] = ()) -> Drawn:
    """A scoreboard whose "Play again" window ran out, as a late press leaves it: the same scores (the
    layout ``shown``, with the files named ``files``; ``None``: an embed, which the edit leaves), a
    sentence saying so, and only "Replay"."""
    replay = rows([(0, replay_button(table_id))])
    if shown is None:
        return Drawn(components=replay, content=WINDOW_CLOSED)
    layout = layouts.with_notice(shown, WINDOW_CLOSED, replay)
    return Drawn(components=layout, attachments=tuple(map(kept, files)), layout=True)


def closed_message(session: TableSession, reason: str) -> Drawn:
    """What the table message turns into for good when the table closes (``reason`` says why), with
    "Replay" if its game is over."""
    title = f"{session.rules.display_name}: table closed"
    text = Card(CLOSED_COLOUR, title, reason, footer=footer_text(session))
    return _laid_out(text, final_components(session), ())


def moved_message(session: TableSession, jump_url: str) -> Drawn:
    """What an old table message turns into when the table moves to a fresh message."""
    description = f"The game goes on in a fresh message.\n{masked_link(TABLE_LINK, jump_url)}"
    text = Card(CLOSED_COLOUR, f"{session.rules.display_name}: the table moved", description)
    return _laid_out(text, [], ())


def current_message(session: TableSession, page: int = 0) -> Drawn:
    """The table message for the table's phase (lobby, playing at ``page`` of its menus, or scoreboard)."""
    if session.phase is TablePhase.LOBBY:
        return lobby_message(session)
    if session.phase is TablePhase.PLAYING:
        return table_message(session, page)
    if session.state is None:  # closed before a game was played
        return closed_message(session, "This table is closed.")
    return scoreboard_message(session)
