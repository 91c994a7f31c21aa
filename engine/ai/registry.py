"""Which AI player plays which game, at which level.

Each game's AI lives in the ``ai`` module of its game's package (named in :data:`AI_MODULES`), which
defines

- ``player_for(game_key: str) -> AIPlayer``: the game's AI player (the normal level),
- ``hard_player_for(game_key: str) -> AIPlayer``: the hard level, the same search with a larger budget, and
- ``evaluate(state: GameState, seat: int) -> float``: the game's evaluation of a position for a seat,
  higher is better, used by :class:`~engine.ai.core.GreedyPlayer` (the benchmark's one-move lookahead).
"""

from __future__ import annotations

import functools
from types import ModuleType

from engine.ai.core import AIPlayer, BeginnerPlayer, GreedyPlayer
from engine.declare import ai as declare
from engine.foist import ai as foist
from engine.frazzled import ai as frazzled
from engine.memory import ai as memory
from engine.minimisere import ai as minimisere

AI_MODULES: dict[str, ModuleType] = {
    "foist": foist,
    "minimize": frazzled,
    "tokenize": frazzled,
    "eradicize": frazzled,
    "declare": declare,
    "minimisere": minimisere,
    "memory": memory,
}
"""Game key -> the module holding that game's AI."""


LEVELS = ("easy", "normal", "hard")
"""The levels of an AI seat: easy (:class:`~engine.ai.core.BeginnerPlayer`, a newcomer's play), normal (the
game's own player) and hard (its search with a larger budget)."""

NORMAL = "normal"
"""The level of an AI seat nobody chose a level for (and of every AI seat stored before levels)."""


@functools.cache
def ai_player(game_key: str, level: str = NORMAL) -> AIPlayer:
    """The AI player that takes a seat of this game at ``level`` (one of :data:`LEVELS`).

    Raises
    ------
    KeyError
        If no game has that key, or ``level`` is not a level.
    """
    module = AI_MODULES[game_key]
    if level == "easy":
        return BeginnerPlayer(module.evaluate)
    if level == NORMAL:
        return module.player_for(game_key)
    if level == "hard":
        return module.hard_player_for(game_key)
    raise KeyError(f"not an AI level: {level!r}")


@functools.cache
def greedy_player(game_key: str) -> GreedyPlayer:
    """The one-move-lookahead baseline for this game, with the game's own evaluation.

    Raises
    ------
    KeyError
        If no game has that key.
    """
    return GreedyPlayer(AI_MODULES[game_key].evaluate)
