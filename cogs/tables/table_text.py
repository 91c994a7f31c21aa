"""The text of a table's messages: players' names in engine text, the log of moves, the "Players" lines and
whose turn it is (the lines :mod:`cogs.tables.render` lays out in its cards, within the budgets of
:mod:`cogs.tables.lengths`)."""

from __future__ import annotations

import re

from discord.utils import format_dt

from cogs.card_emojis import CARD_EMOJIS
from cogs.names import shown_name
from cogs.tables import prompts
from cogs.tables.layouts import Card
from cogs.tables.lengths import (
    DESCRIPTION_MAX,
    FIELD_NAME_MAX,
    FIELD_VALUE_MAX,
    latest_lines,
    layout_length,
    opening,
)
from cogs.tables.lengths import clip as _clip
from engine import Event, SeatView
from engine.core import STRONG, plural
from engine.frazzled import words_minimize
from engine.tables import ai_seats
from engine.tables.session import TableSession
from engine.tables.time_control import seat_clock


def player_name(session: TableSession, user_id: int) -> str:
    """The display name of ``user_id`` at the table, as messages show it (:func:`cogs.names.shown_name`;
    "someone" if unknown)."""
    return shown_name(session.names.get(user_id, "someone"))


def masked_link(text: str, url: str) -> str:
    """``text`` as a link to ``url`` (Discord's masked link, ``[text](url)``): a short word in place of a
    long address. ``text`` may hold no brackets."""
    return f"[{text}]({url})"


TABLE_LINK = "Go to the table"
"""The words of a link to a table message (:func:`masked_link`)."""
STANDING_NOUNS: dict[str, tuple[str, str]] = {"minimize": words_minimize.STANDING_NOUN}
"""What a game's number in the final standings counts, where it is not points (singular, plural)."""


SEAT_PLACEHOLDER = re.compile(r"\{seat:(\d{1,2})\}")
FACE_ALONE = re.compile(r"\{card:(fo):([^|{}]+)\|[^{}]*\}")
"""A card mark of a deck whose face shows nothing but the card's text (a Foist card is its number): where
the card has an emoji, the emoji alone, not the face and then its number again."""


def _face_alone(match: re.Match[str]) -> str:
    emoji = CARD_EMOJIS.markup(match[1], match[2])
    return match[0] if emoji is None else emoji


STYLED_KEPT = 4096
_styled: dict[str, str] = {}
"""Engine texts with their card marks and bold shown (:func:`_styled_text`), while the card emojis stay as
they were (:attr:`CardEmojis.revision`); emptied when it holds :data:`STYLED_KEPT` texts. A table's texts
come back move after move and table after table ("{b:{card:fo:27|27}} with 3 tokens on it")."""
_styled_revision = -1


def _styled_text(text: str) -> str:
    """``text`` with its card marks and ``{b:...}`` shown, its ``{seat:N}`` left as they are."""
    global _styled_revision
    if _styled_revision != CARD_EMOJIS.revision:
        _styled.clear()
        _styled_revision = CARD_EMOJIS.revision
    shown = _styled.get(text)
    if shown is None:
        if len(_styled) >= STYLED_KEPT:
            _styled.clear()
        shown = text
        if "{card:fo:" in shown:
            shown = FACE_ALONE.sub(_face_alone, shown)
        if "{card:" in shown:
            shown = CARD_EMOJIS.shown(shown)
        if "{b:" in shown:
            shown = STRONG.sub(r"**\1**", shown)
        _styled[text] = shown
    return shown


def with_names(session: TableSession, text: str) -> str:
    """Engine text as Discord shows it: each ``{seat:N}`` (N = seat index) replaced by that player's display
    name, each ``{b:...}`` (:func:`engine.core.strong`) in bold, and each card mark
    (:func:`engine.core.card_mark`) as the card's emoji and text (:meth:`CardEmojis.shown`), or its emoji
    alone for a card whose face is only its text (:data:`FACE_ALONE`).

    Engines name players this way in fields, summaries, events and labels ("{seat:2} won the trick")."""
    if "{" not in text:  # no mark of any kind
        return text
    if "{card:" in text or "{b:" in text:
        text = _styled_text(text)
    if "{seat:" not in text:
        return text

    def name(match: re.Match[str]) -> str:
        seat = int(match[1])
        if 0 <= seat < len(session.players):
            return shown_name(session.name_of_seat(seat))
        return f"Seat {seat + 1}"

    return SEAT_PLACEHOLDER.sub(name, text)


def event_line(session: TableSession, event: Event) -> str:
    """One log line: the seat's name, then what happened."""
    if event.seat is None:
        return with_names(session, event.text)
    return f"**{shown_name(session.name_of_seat(event.seat))}** {with_names(session, event.text)}"


DRAWN_LINES_KEPT = 4096
_drawn_lines: dict[tuple[str, tuple[int, ...], Event], str] = {}
"""Log lines already drawn, by table, its players and event (a line names a seat's player, and the players
of a game do not change), so each move draws only its own events; emptied when it holds
:data:`DRAWN_LINES_KEPT` lines."""


def event_log(session: TableSession) -> str:
    """The table's recent events, one :func:`event_line` each; a line is drawn once per table."""
    players = tuple(session.players)
    lines = []
    for event in session.events:
        key = (session.table_id, players, event)
        line = _drawn_lines.get(key)
        if line is None:
            if len(_drawn_lines) >= DRAWN_LINES_KEPT:
                _drawn_lines.clear()
            line = _drawn_lines[key] = event_line(session, event)
        lines.append(line)
    return "\n".join(lines)


SEGMENT = " · "
"""What separates the parts of a seat's summary ("6 cards · **12** pts · dealer")."""


def shared_segment(summaries: list[str]) -> str:
    """The first part (between :data:`SEGMENT`s) that every one of three or more ``summaries`` has, ``""``
    if none (or fewer than three)."""
    if len(summaries) < 3:
        return ""
    first, *others = (summary.split(SEGMENT) for summary in summaries)
    return next((part for part in first if all(part in parts for parts in others)), "")


def seat_lines(session: TableSession, view: SeatView, *, brief: bool = False, shared: str = "") -> str:
    """The "Players" field: a line per seat (▶️ to act, • the others; who plays a seat whose player is away
    or left), with the engine's summary of it (``brief``: its shorter one, for a crowded table), less the
    part ``shared`` by every seat (:func:`players_field` names it once)."""
    lines = []
    for line in view.seats:
        marker = "▶️" if line.to_act else "•"
        idle = ai_seats.seat_marker(session, line.seat)
        name = shown_name(session.name_of_seat(line.seat))
        clock = seat_clock(session.settings.time_control, session.banks, line.seat)
        summary = (brief and line.brief) or line.summary
        if shared:
            summary = SEGMENT.join(part for part in summary.split(SEGMENT) if part != shared)
        lines.append(f"{marker} **{name}**{clock}{idle}: {with_names(session, summary)}".removesuffix(": "))
    return _clip("\n".join(lines), FIELD_VALUE_MAX)


def players_field(session: TableSession, view: SeatView, *, brief: bool = False) -> tuple[str, str]:
    """The "Players" field's name and value (:func:`seat_lines`). ``brief`` (a crowded table): the seats'
    brief lines, and a part every seat's line has ("6 cards") said once in the name,
    "Players (all: 6 cards)"."""
    shared = ""
    if brief:
        shared = shared_segment([line.brief or line.summary for line in view.seats])
    name = f"Players (all: {with_names(session, shared)})" if shared else "Players"
    return _clip(name, FIELD_NAME_MAX), seat_lines(session, view, brief=brief, shared=shared) or "—"


def _names(session: TableSession, users: list[int]) -> str:
    """``users`` named in bold; three or more as "everyone" when they are all the table's players, else
    by their count (their lines in "Players" are marked ▶️)."""
    if len(users) > 2:
        return "everyone" if len(users) == len(session.players) else f"the {plural(len(users), 'player')} ▶️"
    return ", ".join(f"**{player_name(session, user)}**" for user in users)


def turn_line(session: TableSession, *, prompt: bool = True, viewer: int | None = None) -> str:
    """Whose turn it is and until when ("" if nobody's); with ``prompt``, each player who must decide in
    their private view (:func:`cogs.tables.prompts.private_deciders`) is told so on a line of its own
    ("👉 **Ann**, **Bob**: open **My hand** to make your move"), the others to act are named after
    "Turn:"; the clock ends the first line. In the private view of ``viewer`` (a user id) to act alone, the
    line is "Your turn"."""
    to_act = session.users_to_act()
    if not to_act or session.deadline is None:
        return ""
    deciders = prompts.private_deciders(session) if prompt else []
    others = [user for user in to_act if user not in deciders]
    lines = [f"👉 {_names(session, deciders)}: {prompts.PROMPT}"] if deciders else []
    if others == [viewer]:
        lines.insert(0, "Your turn")
    elif others:
        lines.insert(0, f"Turn: {_names(session, others)}")
    lines[0] += f", clock runs out {format_dt(session.deadline, 'R')}"
    return "\n".join(lines)


def with_latest_events(session: TableSession, text: Card, budget: int, label: str = "") -> None:
    """Add to the description of the card ``text`` (changed in place) the latest moves that keep its layout
    within ``budget`` characters of text (:func:`cogs.tables.lengths.layout_length`,
    :func:`cogs.tables.lengths.latest_lines`), after ``label``."""
    if session.events:
        head = text.description
        gap = "\n\n" if head and not label else "\n" if head else ""
        room = budget - layout_length(text) - opening(text) - len(gap) - len(label)
        log = latest_lines(event_log(session).split("\n"), room)
        text.description = _clip(f"{head}{gap}{label}{log}", DESCRIPTION_MAX)
