"""The games: rules, words and AI players, pure and deterministic (no Discord, asyncio or I/O); and, in
``engine.tables``, the table runtime around them. A game imports only engine.core and its own package."""

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
    Scene,
    SceneRow,
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
    "Scene",
    "SceneRow",
    "SeatLine",
    "SeatView",
    "Standing",
    "get_rules",
    "replay",
]
