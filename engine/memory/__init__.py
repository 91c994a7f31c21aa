"""Deluxe Memory, 2 to 4 players: rules (cards, actions, decisions, table, effects, state), words and ai.
Imports engine.core, engine.ai.core (ai only) and its own modules; no cogs, bot, storage, sandbox, discord."""

from __future__ import annotations

from typing import ClassVar

from engine.core import GameOptions, GameRules, GameState
from engine.memory.actions import (
    Buy,
    ChooseCross,
    ChoosePlayer,
    ChooseSquare,
    CopyEffect,
    Done,
    EndTurn,
    Hide,
    Look,
    MemoryAction,
    MoveFrom,
    MoveTo,
    Reveal,
    Show,
)
from engine.memory.cards import (
    card_text,
    is_black,
    is_joker,
    is_red,
    layout,
    parse_card,
    parse_position,
    position_name,
    rank_of,
)
from engine.memory.decisions import Decision, Phase, Purpose
from engine.memory.state import REARRANGE_SECONDS, MemoryState
from engine.memory.table import MemoryOptions
from engine.memory.words import CHART

__all__ = [
    "CHART",
    "REARRANGE_SECONDS",
    "Buy",
    "ChooseCross",
    "ChoosePlayer",
    "ChooseSquare",
    "CopyEffect",
    "Decision",
    "DeluxeMemory",
    "Done",
    "EndTurn",
    "Hide",
    "Look",
    "MemoryAction",
    "MemoryOptions",
    "MemoryState",
    "MoveFrom",
    "MoveTo",
    "Phase",
    "Purpose",
    "Reveal",
    "Show",
    "card_text",
    "is_black",
    "is_joker",
    "is_red",
    "layout",
    "parse_card",
    "parse_position",
    "position_name",
    "rank_of",
]


class DeluxeMemory(GameRules[MemoryOptions]):
    """Deluxe Memory (Jonathan A. Leistiko, Invisible City Productions Free Game #56): match ranks in a
    face-down Poker deck; pairs move tokens; most tokens wins.

    Rules source: ``shared/seeds/004_661a3fd4e50c3a3d.txt``; rulings, the modules and the tests that show
    each rule: ``docs/rules/memory.md``.
    """

    key: ClassVar[str] = "memory"
    display_name: ClassVar[str] = "Deluxe Memory"
    summary: ClassVar[str] = (
        "Look at two face-down cards a turn: black pairs cost a player tokens, red pairs pay, mixed pairs "
        "trigger the Mixed Chart. Remember where everything is."
    )
    winning_rule: ClassVar[str] = "most tokens wins"
    min_seats: ClassVar[int] = 2
    max_seats: ClassVar[int] = 4
    max_moves: ClassVar[int] = 4_000  # docs/rules/memory.md, "How long a game lasts"
    options_model: ClassVar[type[GameOptions]] = MemoryOptions
    state_class: ClassVar[type[GameState]] = MemoryState
