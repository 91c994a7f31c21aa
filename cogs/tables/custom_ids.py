"""The custom_id of every table component: ``ct:<table>:<version>:<verb>``, within Discord's 100 chars.

``table`` is the table id, ``version`` the game state's version when the component was drawn (so a press
on an older message is refused), and ``verb`` what the press asks for: a lobby or scoreboard verb, or
``a.<code>`` for a game action (the engine's stable action string), or ``p.<n>`` to show page ``n`` of the
message's action menus, or ``r.<n>`` to show the choices in row ``n`` of the board (Deluxe Memory's grid,
:func:`cogs.tables.action_menus.grid_picker`): rendering choices only, that change nothing in the game.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

PREFIX = "ct:"
TEMPLATE = (
    r"ct:(?P<table>[a-z0-9]{4,16}):(?P<version>\d{1,7}):"
    r"(?P<verb>[a-z]{2,10}|a\.[A-Za-z0-9_.,+\-]{1,60}|p\.\d{1,3}|r\.\d{1,2})"
)
_PATTERN = re.compile(TEMPLATE)
SELECT_TEMPLATE = (
    r"ct:(?P<table>[a-z0-9]{4,16}):(?P<version>\d{1,7}):(?P<kind>[so])\.(?P<name>[a-z0-9_]{1,40})"
)
"""A select menu: ``s.<n>``, the n-th game-action menu of its message, whose chosen value is an action code;
or ``o.<field>``, a lobby menu setting the game option ``field`` (``o.rules``: the on/off options)."""
_SELECT_PATTERN = re.compile(SELECT_TEMPLATE)
ACTION_PREFIX = "a."
PAGE_PREFIX = "p."
ROW_PREFIX = "r."
ACTION_CODE = re.compile(r"[A-Za-z0-9_.,+\-]{1,60}")

JOIN, LEAVE, START, CANCEL = "join", "leave", "start", "cancel"
HAND, DM = "hand", "dm"
RULES = "rules"  # "Rules in play": the table's rules, shown to the presser alone
AGAIN, QUIT = "again", "quit"
ADD_AI, REMOVE_AI = "addai", "dropai"  # the host seats or unseats an AI player in the lobby
BACK, LEAVE_GAME, LEAVE_SURE, END = "back", "leavegame", "leavesure", "endtable"  # cogs.tables.seat_controls
HINT = "hint"  # the coach: what the hard AI would play for the presser's seat (cogs.tables.presses)
SEAT_VERBS = frozenset({ADD_AI, REMOVE_AI, BACK, LEAVE_GAME, LEAVE_SURE, END, HINT})
VERBS = frozenset({JOIN, LEAVE, START, CANCEL, HAND, DM, RULES, AGAIN, QUIT}) | SEAT_VERBS


REPLAY_PREFIX = "rp:"
"""Replay buttons (``cogs.replay``): ``rp:t:<table>`` on a final scoreboard, ``rp:<game>:<step>:<verb>``
on a replay message. The tables cog leaves them to the replay cog."""


def replay_custom_id(table_id: str) -> str:
    """The custom_id of a finished table's "Replay" button (it opens the replay of its stored game)."""
    return f"{REPLAY_PREFIX}t:{table_id}"


def select_custom_id(table_id: str, version: int, menu: int) -> str:
    """The custom_id of the ``menu``-th action select menu (0..9) of a message drawn at ``version``."""
    return f"{PREFIX}{table_id}:{version}:s.{menu}"


def parse_select(custom_id: str, value: str) -> "TableCustomId | None":
    """The action press that choosing ``value`` in select menu ``custom_id`` means, or ``None`` if either
    is malformed (a forged option value included)."""
    match = _SELECT_PATTERN.fullmatch(custom_id)
    if match is None or match["kind"] != "s" or ACTION_CODE.fullmatch(value) is None:
        return None
    return TableCustomId.for_action(match["table"], int(match["version"]), value)


def option_custom_id(table_id: str, field: str) -> str:
    """The custom_id of the lobby menu for option ``field`` (or the on/off options' menu, ``"rules"``)."""
    return f"{PREFIX}{table_id}:0:o.{field}"


def parse_option_select(custom_id: str) -> tuple[str, str] | None:
    """``(table_id, field)`` of a lobby option menu's custom_id, else ``None``."""
    match = _SELECT_PATTERN.fullmatch(custom_id)
    if match is None or match["kind"] != "o":
        return None
    return match["table"], match["name"]


@dataclass(frozen=True)
class TableCustomId:
    """A parsed table custom_id. ``action`` is the game action code for ``a.`` verbs, else ``None``."""

    table_id: str
    version: int
    verb: str

    @property
    def action(self) -> str | None:
        """The engine action code of a game-action press, or ``None``."""
        return self.verb[len(ACTION_PREFIX) :] if self.verb.startswith(ACTION_PREFIX) else None

    @property
    def page(self) -> int | None:
        """The page of action menus a paging button asks for (0 is the first), or ``None``."""
        return int(self.verb[len(PAGE_PREFIX) :]) if self.verb.startswith(PAGE_PREFIX) else None

    @property
    def row(self) -> int | None:
        """The row of the board whose choices a row button asks for (0 is the top row), or ``None``."""
        return int(self.verb[len(ROW_PREFIX) :]) if self.verb.startswith(ROW_PREFIX) else None

    @classmethod
    def for_row(cls, table_id: str, version: int, row: int) -> "TableCustomId":
        """The custom_id of a button that shows the choices in row ``row`` (0-based) of the board."""
        return cls(table_id, version, f"{ROW_PREFIX}{row}")

    @classmethod
    def for_page(cls, table_id: str, version: int, page: int) -> "TableCustomId":
        """The custom_id of a button that shows page ``page`` (0-based) of a message's action menus."""
        return cls(table_id, version, f"{PAGE_PREFIX}{page}")

    @classmethod
    def for_action(cls, table_id: str, version: int, code: str) -> "TableCustomId":
        """The custom_id of a game action button."""
        return cls(table_id, version, ACTION_PREFIX + code)

    @classmethod
    def parse(cls, custom_id: str) -> "TableCustomId | None":
        """Parse a custom_id; ``None`` if it is not a well-formed table custom_id with a known verb."""
        match = _PATTERN.fullmatch(custom_id)
        if match is None:
            return None
        parsed = cls(match["table"], int(match["version"]), match["verb"])
        if parsed.action is None and parsed.page is None and parsed.row is None and parsed.verb not in VERBS:
            return None
        return parsed

    def __str__(self) -> str:
        text = f"{PREFIX}{self.table_id}:{self.version}:{self.verb}"
        if len(text) > 100:
            raise ValueError(f"custom_id longer than 100 characters: {text!r}")
        return text
