"""Pure game logic: rules, deals, legal actions, views and scores. No Discord, asyncio or I/O here."""

from engine.core import (
    Board,
    Cell,
    Event,
    Field,
    GameOptions,
    GameRules,
    GameState,
    IllegalAction,
    LegalAction,
    SeatLine,
    SeatView,
    Standing,
    replay,
)
from engine.registry import GAMES, get_rules

__all__ = [
    "Board",
    "Cell",
    "Event",
    "Field",
    "GAMES",
    "GameOptions",
    "GameRules",
    "GameState",
    "IllegalAction",
    "LegalAction",
    "SeatLine",
    "SeatView",
    "Standing",
    "get_rules",
    "replay",
]
