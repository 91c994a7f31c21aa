"""The game options a lobby offers, read from the game's pydantic options model, the table's clock, and
the check of a host's choice in the lobby menus. The Discord layer draws the menus."""

from __future__ import annotations

import types
import typing
from dataclasses import replace

from engine.lobby import LobbyError
from engine.tables import ai_seats
from engine.tables.table import TableDraft, TableError, TablePhase, TableQuestions
from engine.tables.time_control import KINDS

RULES_MENU = "rules"
"""The lobby menu of the game's on/off options (its values are the options switched on)."""
LEVELS_MENU = "levels"
"""The lobby menu of the AI seats' levels (its one value: ``"<ai id>:<level>"``)."""
CLOCK_MENU = "clock"
"""The lobby menu of the table's clock (fixed, time bank or slow mode), not a game option."""
MAX_VALUES = 25
"""An option with more values than one menu holds is not offered (it keeps its default)."""


class OptionChoice(typing.NamedTuple):
    """One game option as the lobby offers it: ``values`` are ``(label, value)`` pairs (value as text)."""

    name: str
    description: str
    kind: str  # "bool", "choice"
    values: list[tuple[str, str]]
    current: object
    current_label: str


def _bound(info: typing.Any, name: str) -> int | None:
    return next((getattr(m, name) for m in info.metadata if getattr(m, name, None) is not None), None)


def _is_int(annotation: object) -> bool:
    """``int``, or ``int | None`` (``None``: a default that depends on the number of players)."""
    return annotation is int or (
        typing.get_origin(annotation) in (typing.Union, types.UnionType)
        and set(typing.get_args(annotation)) == {int, type(None)}
    )


def _default_label(session: TableQuestions, name: str) -> str:
    """What an option left at ``None`` means for the players seated now, from the options model's
    ``default_for(name, num_seats)`` when it has one (Minimisère's target: 31 with three players)."""
    default_for = getattr(session.rules.options_model, "default_for", None)
    value = default_for(name, len(session.lobby.players)) if default_for is not None else None
    return "the rules' default" if value is None else f"{value} (the rules' default for this many players)"


def option_choices(session: TableQuestions) -> list[OptionChoice]:
    """The game's options the lobby can offer, from its pydantic model: on/off (``bool``), a fixed set of
    values (``Literal``) or a bounded ``int`` with at most 25 values (``int | None``: ``None`` means the
    game's default for the number of players); other kinds keep their default.

    An option whose field says ``json_schema_extra={"shown_when": {other: value}}`` is offered only while
    those other options have those values (Minimisère's number of deals, when ending by deals)."""
    choices = []
    fields = session.rules.options_model.model_fields
    for name, info in fields.items():
        extra = info.json_schema_extra if isinstance(info.json_schema_extra, dict) else {}
        shown_when = extra.get("shown_when") or {}
        if any(session.options.get(key, fields[key].default) != value for key, value in shown_when.items()):
            continue
        current = session.options.get(name, info.default)
        description = info.description or name.replace("_", " ").capitalize()
        annotation = info.annotation
        if annotation is bool:
            label = "on" if current else "off"
            choices.append(
                OptionChoice(name, description, "bool", [("on", "1"), ("off", "0")], current, label)
            )
            continue
        if typing.get_origin(annotation) is typing.Literal:
            values = [(str(value), str(value)) for value in typing.get_args(annotation)]
        elif _is_int(annotation):
            low, high = _bound(info, "ge"), _bound(info, "le")
            if low is None or high is None or high - low >= MAX_VALUES:
                continue
            values = [(str(value), str(value)) for value in range(low, high + 1)]
        else:
            continue
        if len(values) > MAX_VALUES:
            continue
        label = _default_label(session, name) if current is None else str(current)
        choices.append(OptionChoice(name, description, "choice", values, current, label))
    return choices


def option_value(session: TableQuestions, name: str, text: str) -> object:
    """The typed value of option ``name`` chosen as ``text`` in its menu.

    Raises
    ------
    KeyError
        If ``name`` is not an offered option or ``text`` not one of its values.
    """
    for choice in option_choices(session):
        if choice.name == name and choice.kind == "choice":
            info = session.rules.options_model.model_fields[name]
            literal = typing.get_origin(info.annotation) is typing.Literal
            for value in (
                typing.get_args(info.annotation)
                if literal
                else range(int(choice.values[0][1]), int(choice.values[-1][1]) + 1)
            ):
                if str(value) == text:
                    return value
    raise KeyError(name)


def choose(session: TableDraft, user_id: int, field: str, values: list[str]) -> None:
    """Apply a choice made in lobby menu ``field``: the on/off options (:data:`RULES_MENU`, ``values`` are
    the options switched on), the clock (:data:`CLOCK_MENU`), an AI seat's level (:data:`LEVELS_MENU`) or
    one other option (its one value).

    Raises
    ------
    TableError
        Not the host, not in the lobby, an option or value the game does not offer.
    """
    if field == CLOCK_MENU:
        choose_clock(session, user_id, values[0] if values else "")
        return
    if field == LEVELS_MENU:
        ai_seats.choose_level(session, user_id, values[0] if values else "")
        return
    if field == RULES_MENU:
        switches = [choice for choice in option_choices(session) if choice.kind == "bool"]
        if not set(values) <= {choice.name for choice in switches}:
            raise TableError("That option is not one of this game's.")
        for choice in switches:
            session.set_option(user_id, choice.name, choice.name in values)
        return
    try:
        value = option_value(session, field, values[0] if values else "")
    except KeyError:
        raise TableError("That value is not allowed for this option.") from None
    session.set_option(user_id, field, value)


def clock_choices(session: TableQuestions) -> list[tuple[str, str]]:
    """The clocks the lobby offers, as ``(label, kind)``: fixed, time bank and slow mode, with the table's
    numbers (see :mod:`engine.tables.time_control`)."""
    control, turn = session.settings.time_control, session.settings.turn_seconds
    return [(control.label(kind, turn), kind) for kind in KINDS]


def choose_clock(session: TableDraft, user_id: int, kind: str) -> None:
    """Set the table's clock to ``kind`` ("fixed", "bank" or "slow"), host only, in the lobby.

    Raises
    ------
    TableError
        Not in the lobby, not the host, or not a clock the lobby offers.
    """
    if session.phase is not TablePhase.LOBBY:
        raise TableError("Options can only be changed before the game starts.")
    try:
        session.lobby.check_host(user_id, "change the options")
    except LobbyError as error:
        raise TableError(str(error)) from None
    if kind not in KINDS:
        raise TableError("That value is not allowed for this option.")
    session.settings = replace(session.settings, time_control=session.settings.time_control.with_kind(kind))
