"""Fitting a decision's actions to Discord: buttons, select menus of 25, and pages of menus.

The engine offers every legal choice of a decision, in groups of any size; this module alone knows
Discord's limits. Ungrouped actions become buttons (five a row) and each group becomes select menus of at
most 25 options, in rows 0-3. A group whose every choice is one card (a card to play, discard, give...)
is drawn as buttons instead, one per card with its face (its application emoji, when synced) and its
name, five a row from a row of its own, when the whole decision still fits in rows 0-3 (groups in the
engine's order, each while it fits; the others stay menus). When buttons and menus need more than four
rows the buttons fold into a menu of their own, and when even then more than four menus are needed the
menus are shown four at a time, with "◀ Previous" and "Next ▶" buttons in the fifth row. The page shown
lives only in the paging buttons' custom_ids (``p.<n>``): pressing one redraws the same message at that
page and changes nothing in the game.

Fitting the rows keeps a message within Components V2's 40 components: rows 0-4 hold at most 5 × (1 row
+ 5 buttons) = 30, and the layout around them (:mod:`cogs.tables.layouts`: a container, the heading, the
picture's media gallery, the fields, a notice or a DM's intro, a separator) at most 7.

A decision that chooses a position on the view's board (Deluxe Memory's grid: codes ending in the
position's name, ``look.C5``) is picked in two presses instead, never from lists of coordinates
(:func:`grid_picker`): first a row, one button per row that holds a choice (``r.<n>``: a rendering choice
only, like a page), then a button per choice of that row, which is the action itself.

Components are drawn as Discord JSON (:func:`button`, :func:`select`, :func:`rows`), for every message of
:mod:`cogs.tables.render`; their labels are cut to Discord's limits by :func:`cogs.tables.lengths.clip`.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from dataclasses import dataclass

import discord

from cogs.tables import custom_ids as ids
from cogs.tables.lengths import clip
from engine import Board, LegalAction
from engine.core import plain

ACTION_ROWS = 4  # rows 0-3 hold actions; the fifth row holds paging, "My hand" and "DM me"
PAGING_ROW = 4
OPTIONS_PER_MENU = 25
BUTTONS_PER_ROW = 5
BUTTON_LABEL_MAX = 80
OPTION_TEXT_MAX = 100
PLACEHOLDER_MAX = 150
PREVIOUS, NEXT = "◀ Previous", "Next ▶"
OTHER_ROWS = "◀ Other rows"
PICK_DETAIL_MAX = 16  # a choice's description longer than this stays off its button ("7♥, face-up" fits)

_STYLES = {
    "main": discord.ButtonStyle.primary,
    "": discord.ButtonStyle.secondary,
    "good": discord.ButtonStyle.success,
    "bad": discord.ButtonStyle.danger,
}
"""The button style of each :class:`~engine.core.LegalAction` tone."""


Menu = tuple[str, list[LegalAction]]


def menus_of(actions: list[LegalAction], placeholder: str | None = None) -> list[Menu]:
    """Actions grouped into select menus of at most 25 options, in order of first appearance; a group
    split over several menus numbers them in its placeholder ("Pick a card… (2/3)")."""
    groups: dict[str, list[LegalAction]] = {}
    for action in actions:
        groups.setdefault(placeholder or action.group, []).append(action)
    menus = []
    for group, members in groups.items():
        chunks = [
            members[start : start + OPTIONS_PER_MENU] for start in range(0, len(members), OPTIONS_PER_MENU)
        ]
        for number, chunk in enumerate(chunks, start=1):
            menus.append((group if len(chunks) == 1 else f"{group} ({number}/{len(chunks)})", chunk))
    return menus


@dataclass(frozen=True)
class ActionLayout:
    """How a decision's actions are drawn: runs of ``buttons`` from row 0, each run starting a row of its
    own (the ungrouped actions, then each group shown as buttons), then the ``pages`` of menus (at most
    four menus each; one page when nothing is paged)."""

    buttons: list[list[LegalAction]]
    pages: list[list[Menu]]

    def button_rows(self) -> int:
        """The rows the buttons take."""
        return sum(_rows_of(run) for run in self.buttons)


def _rows_of(buttons: list[LegalAction]) -> int:
    return math.ceil(len(buttons) / BUTTONS_PER_ROW)


def layout(
    actions: tuple[LegalAction, ...] | list[LegalAction],
    action_rows: int = ACTION_ROWS,
    is_card: Callable[[str], bool] | None = None,
) -> ActionLayout:
    """Buttons for ungrouped actions and menus for groups; buttons fold into a menu and menus go on pages
    when ``action_rows`` rows (at least 1) do not hold them all. When they do, a group whose every action
    chooses one card (``is_card`` of its code) becomes buttons from a row of its own, each group in turn
    while everything still fits in ``action_rows`` rows."""
    buttons = [action for action in actions if not action.group]
    grouped = [action for action in actions if action.group]
    menus = menus_of(grouped)
    if _rows_of(buttons) + len(menus) > action_rows:
        menus = menus_of(buttons, "Choose…") + menus
        pages = [menus[start : start + action_rows] for start in range(0, len(menus), action_rows)]
        return ActionLayout([], pages)
    runs = [buttons] if buttons else []
    used = _rows_of(buttons) + len(menus)
    groups: dict[str, list[LegalAction]] = {}
    for action in grouped:
        groups.setdefault(action.group, []).append(action)
    for members in groups.values():
        more_rows = _rows_of(members) - math.ceil(len(members) / OPTIONS_PER_MENU)  # than as menus
        fits = used + more_rows <= action_rows
        if is_card is not None and fits and all(is_card(action.code) for action in members):
            runs.append(members)
            used += more_rows
    shown = {run[0].group for run in runs if run[0].group}
    return ActionLayout(runs, [menus_of([action for action in grouped if action.group not in shown])])


def grid_positions(board: Board) -> dict[str, tuple[int, int]]:
    """Every position of ``board`` by its name (row label, then column label: ``"C5"``) as
    ``(row, column)`` indexes."""
    return {
        row_label + column_label: (row, column)
        for row, row_label in enumerate(board.row_labels)
        for column, column_label in enumerate(board.column_labels)
    }


def position_of(action: LegalAction, positions: dict[str, tuple[int, int]]) -> tuple[int, int] | None:
    """The ``(row, column)`` an action names by the end of its code (``"look.C5"``: C5), or ``None``."""
    return positions.get(action.code.rpartition(".")[2])


@dataclass(frozen=True)
class GridPick:
    """A decision's choices of board positions, split from its other actions: ``picks`` with their
    ``(row, column)``, in the engine's order (all of one group: the first group whose every action names a
    position), and the ``others``."""

    picks: list[tuple[LegalAction, tuple[int, int]]]
    others: list[LegalAction]

    def rows(self) -> list[int]:
        """The rows (indexes) that hold a choice, top to bottom."""
        return sorted({row for _, (row, _) in self.picks})

    def in_row(self, row: int) -> list[LegalAction]:
        """The choices in ``row``, left to right."""
        return [
            action
            for action, _ in sorted(
                ((action, at) for action, at in self.picks if at[0] == row), key=lambda pick: pick[1][1]
            )
        ]


def grid_pick(actions: tuple[LegalAction, ...], board: Board | None) -> GridPick | None:
    """The choices of positions of ``board`` among ``actions`` (see :class:`GridPick`), or ``None`` when
    there is no board or no group whose every action names one of its positions."""
    if board is None:
        return None
    positions = grid_positions(board)
    groups: dict[str, list[LegalAction]] = {}
    for action in actions:
        if action.group:
            groups.setdefault(action.group, []).append(action)
    for group, members in groups.items():
        at = [position_of(action, positions) for action in members]
        if all(place is not None for place in at):
            picks = list(zip(members, at, strict=True))
            return GridPick(picks, [action for action in actions if action.group != group])  # type: ignore[arg-type]
    return None


def page_turns(page: int, pages: int) -> list[tuple[int, str]]:
    """The paging buttons shown on ``page`` (0-based) of ``pages``: ``(page they open, label)``, e.g.
    ``[(0, "◀ Previous (1/3)"), (2, "Next ▶ (3/3)")]``; none for a single page."""
    turns = []
    if page > 0:
        turns.append((page - 1, f"{PREVIOUS} ({page}/{pages})"))
    if page < pages - 1:
        turns.append((page + 1, f"{NEXT} ({page + 2}/{pages})"))
    return turns


Placed = tuple[int, dict]
"""A component and the row (0-4) it sits in."""


def button(
    custom_id: str, label: str, style: discord.ButtonStyle, *, emoji: str | dict | None = None
) -> dict:
    """A button as Discord JSON (what ``discord.ui.Button.to_component_dict`` gives); ``emoji`` is a
    Unicode emoji or a custom emoji's ``{"id", "name", "animated"}``."""
    payload: dict = {"type": 2, "style": style.value, "disabled": False}
    if label:
        payload["label"] = label
    payload["custom_id"] = custom_id
    if isinstance(emoji, str):
        payload["emoji"] = {"id": None, "name": emoji}
    elif emoji is not None:
        payload["emoji"] = emoji
    return payload


def select(
    custom_id: str,
    options: list[dict],
    *,
    placeholder: str = "Choose…",
    min_values: int = 1,
    max_values: int = 1,
) -> dict:
    """A select menu of ``options`` (:func:`option`) as Discord JSON (what
    ``discord.ui.Select.to_component_dict`` gives); a menu needs one option, so none gives "…"."""
    payload: dict = {
        "type": 3,
        "custom_id": custom_id,
        "min_values": min_values,
        "max_values": max_values,
        "disabled": False,
        "required": True,
    }
    if placeholder:
        payload["placeholder"] = placeholder
    payload["options"] = options or [option("…", "…")]
    return payload


def option(
    label: str,
    value: str,
    *,
    description: str | None = None,
    default: bool = False,
    emoji: dict | None = None,
) -> dict:
    """An option of a select menu as Discord JSON (what ``discord.SelectOption.to_dict`` gives); ``emoji``
    a custom emoji's ``{"id", "name", "animated"}``."""
    payload: dict = {"label": label, "value": value, "default": default}
    if description:
        payload["description"] = description
    if emoji is not None:
        payload["emoji"] = emoji
    return payload


def action_components(
    table_id: str,
    version: int,
    actions: tuple[LegalAction, ...],
    names,
    page: int = 0,
    emoji_of=None,
    *,
    board: Board | None = None,
    row: int | None = None,
    is_card: Callable[[str], bool] | None = None,
) -> list[Placed]:
    """The components of ``actions`` at ``page`` (clamped to the pages there are), in order: the
    :func:`grid_picker` of the choices of ``board``'s positions (at ``row``, if chosen) in rows 0-1, then
    buttons and menus of the other actions in the rows left of 0-3 and, when there are several pages, the
    paging buttons in row 4.

    ``names`` turns engine text into display text (``{seat:N}`` to a player's name); ``emoji_of`` (if
    given) gives a button's or an option's emoji from its action's code (the face of the card it plays), or
    ``None``. ``is_card`` (if given) tells from an action's code whether it chooses one card: a group whose
    every action does is a button per action while the decision fits (:func:`layout`), with the card's face
    where ``emoji_of`` has one and its name alone where not (the emojis not synced yet, or unavailable).
    """
    items: list[Placed] = []
    grid = grid_pick(actions, board)
    if grid is not None:
        assert board is not None
        items = grid_picker(table_id, version, grid, board, names, row, page)
        actions = tuple(grid.others)
    face = functools.cache(emoji_of or (lambda code: None))  # each code's emoji looked up once
    first_row = max((placed for placed, _ in items), default=-1) + 1
    drawn = layout(actions, ACTION_ROWS - first_row, is_card)
    page = min(max(page, 0), len(drawn.pages) - 1)
    run_row = first_row
    for run in drawn.buttons:
        items.extend(
            (
                run_row + index // BUTTONS_PER_ROW,
                button(
                    str(ids.TableCustomId.for_action(table_id, version, action.code)),
                    clip(names(plain(action.label)), BUTTON_LABEL_MAX),
                    _STYLES.get(action.tone, discord.ButtonStyle.secondary),
                    emoji=face(action.code),
                ),
            )
            for index, action in enumerate(run)
        )
        run_row += _rows_of(run)
    first_menu_row = first_row + drawn.button_rows()
    for number, (placeholder, members) in enumerate(drawn.pages[page]):
        options = [
            option(
                clip(names(plain(action.label)), OPTION_TEXT_MAX) or "…",
                action.code,
                description=clip(names(plain(action.description)), OPTION_TEXT_MAX),
                emoji=face(action.code),
            )
            for action in members
        ]
        custom_id = ids.select_custom_id(table_id, version, page * ACTION_ROWS + number)
        menu = select(custom_id, options, placeholder=clip(placeholder, PLACEHOLDER_MAX))
        items.append((first_menu_row + number, menu))
    for to, label in page_turns(page, len(drawn.pages)):
        target = ids.TableCustomId.for_page(table_id, version, to)
        items.append((PAGING_ROW, button(str(target), label, discord.ButtonStyle.primary)))
    return items


def grid_picker(
    table_id: str, version: int, grid: GridPick, board: Board, names, row: int | None, page: int = 0
) -> list[Placed]:
    """The buttons that pick a position of ``board`` in at most two presses, in rows 0-1 (a board of at
    most 10 rows and 9 columns, such as Deluxe Memory's 7 × 8 grid):

    - at most ten choices: a button for each, the action itself (one press);
    - else, with no ``row`` chosen (or one without a choice): a "Row A" button for each row holding
      several choices (custom_id ``r.<row index>``, answered by redrawing the message at that row, no
      move), and the choice itself for a row that holds one;
    - at ``row``: a button for each choice in that row (the action), then "◀ Other rows" (``p.<page>``:
      the message redrawn as it was).
    """
    rows_with = grid.rows()
    if len(grid.picks) <= 2 * BUTTONS_PER_ROW:
        shown = [action for action, _ in grid.picks]
    elif row in rows_with or len(rows_with) == 1:
        shown = grid.in_row(row if row in rows_with else rows_with[0])
    else:
        shown = []
    if shown:
        buttons = [_pick_button(table_id, version, action, names) for action in shown]
        if len(shown) < len(grid.picks):
            back = ids.TableCustomId.for_page(table_id, version, page)
            buttons.append(button(str(back), OTHER_ROWS, discord.ButtonStyle.secondary))
    else:
        buttons = []
        for index in rows_with:
            in_row = grid.in_row(index)
            if len(in_row) == 1:  # a row with one choice: that choice, one press
                buttons.append(_pick_button(table_id, version, in_row[0], names))
            else:
                target = ids.TableCustomId.for_row(table_id, version, index)
                label = f"Row {board.row_labels[index]}"
                buttons.append(button(str(target), label, discord.ButtonStyle.primary))
    return [(index // BUTTONS_PER_ROW, shown_button) for index, shown_button in enumerate(buttons)]


def _pick_button(table_id: str, version: int, action: LegalAction, names) -> dict:
    """A choice of a position as its action's button: its label, and its description when short
    ("C5 · 7♥, face-up")."""
    label = names(plain(action.label))
    detail = names(plain(action.description))
    if detail and len(detail) <= PICK_DETAIL_MAX:
        label = f"{label} · {detail}"
    custom_id = str(ids.TableCustomId.for_action(table_id, version, action.code))
    return button(custom_id, clip(label, BUTTON_LABEL_MAX), discord.ButtonStyle.primary)


def rows(items: list[Placed]) -> tuple[dict, ...]:
    """Components placed in their rows, as Discord JSON action rows (rows in order, each component in the
    order given)."""
    placed: dict[int, list[dict]] = {}
    for row, component in sorted(items, key=lambda item: item[0]):
        placed.setdefault(row, []).append(component)
    return tuple({"type": 1, "components": components} for components in placed.values())
