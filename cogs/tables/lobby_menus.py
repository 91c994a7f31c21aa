"""The lobby's option menus: the game's options (from :mod:`engine.tables.lobby_options`), the AI seats'
levels and the table's clock, as select menus (Discord JSON). A lobby message has :data:`MENU_ROWS` rows
for them: the first row holds Join, Leave, Start, Cancel and "DM me my hand", the second "Add AI player",
"Remove AI player" and "How to play"."""

from __future__ import annotations

from cogs.tables import custom_ids as ids
from cogs.tables.action_menus import OPTION_TEXT_MAX, PLACEHOLDER_MAX, option, select
from cogs.tables.lengths import clip as _clip
from engine.tables import ai_seats, lobby_options
from engine.tables.lobby_options import OptionChoice, clock_choices, option_choices
from engine.tables.session import TableSession

MENU_ROWS = 3
MAX_OPTIONS = 25
"""Discord's most options in one select menu (a table of ten seats offers the levels of its first eight
AIs in the lobby; ``/play level:`` sets them all)."""


def seats_for(session: TableSession, choice: OptionChoice) -> tuple[int, ...] | None:
    """The numbers of players ``choice`` is for (``None``: any), as its options model field says
    (``json_schema_extra={"seats": [...]}``, e.g. Minimisère's three-player options)."""
    info = session.rules.options_model.model_fields.get(choice.name)
    extra = info.json_schema_extra if info is not None and isinstance(info.json_schema_extra, dict) else {}
    seats = extra.get("seats")
    return tuple(seats) if seats else None


def shown_choices(session: TableSession) -> list[OptionChoice]:
    """The game's options the lobby shows: those for the number of players seated now (AI players
    count), so a host sees no option for a table of another size."""
    seated = len(session.lobby.players)
    shown = []
    for choice in option_choices(session):
        seats = seats_for(session, choice)
        if seats is None or seated in seats:
            shown.append(choice)
    return shown


def option_menus(session: TableSession) -> list[dict]:
    """The lobby's option menus, as select menus' JSON: one multi-select for every on/off option, one menu
    per other option, and the table's clock (fixed, time bank, slow mode) when a row is left for it."""
    choices = shown_choices(session)
    menus = []
    switches = [choice for choice in choices if choice.kind == "bool"]
    if switches:
        menus.append(
            select(
                ids.option_custom_id(session.table_id, lobby_options.RULES_MENU),
                [
                    option(
                        _clip(choice.description, OPTION_TEXT_MAX), choice.name, default=bool(choice.current)
                    )
                    for choice in switches
                ],
                placeholder="Optional rules: pick the ones to play with",
                min_values=0,
                max_values=len(switches),
            )
        )
    for choice in choices:
        if choice.kind != "choice":
            continue
        menus.append(
            select(  # no option pre-selected, so the question shows, with the value now set
                ids.option_custom_id(session.table_id, choice.name),
                [
                    option(
                        _clip(label, OPTION_TEXT_MAX),
                        value,
                        description="now set" if value == str(choice.current) else None,
                    )
                    for label, value in choice.values
                ],
                placeholder=_clip(
                    f"{choice.description.rstrip('.')} (now: {choice.current_label})", PLACEHOLDER_MAX
                ),
            )
        )
    levels = ai_seats.level_choices(session)
    if levels and len(menus) < MENU_ROWS:  # a row is free (else the level is set with /play level:)
        menus.append(
            select(  # no option pre-selected: each AI's level now set is marked
                ids.option_custom_id(session.table_id, lobby_options.LEVELS_MENU),
                [
                    option(_clip(label, OPTION_TEXT_MAX), value, description="now set" if now else None)
                    for label, value, now in levels[:MAX_OPTIONS]
                ],
                placeholder="AI players' levels: pick one AI's level",
            )
        )
    if len(menus) < MENU_ROWS:  # a row is free (else the clock is set with /play clock:)
        current = session.settings.time_control.kind
        options = [
            option(_clip(f"Clock: {label}", OPTION_TEXT_MAX), kind, default=kind == current)
            for label, kind in clock_choices(session)
        ]
        menus.append(select(ids.option_custom_id(session.table_id, lobby_options.CLOCK_MENU), options))
    return menus
