"""Which AI player plays which game.

Each game's AI lives in its own module (named in :data:`AI_MODULES`): its game package's ``ai`` module
(:mod:`engine.foist.ai`, :mod:`engine.minimisere.ai`), or a module of :mod:`engine.ai` named after the
game. That module defines

- ``player_for(game_key: str) -> AIPlayer``: the game's AI player (the one that sits at tables), and
- ``evaluate(state: GameState, seat: int) -> float``: the game's evaluation of a position for a seat,
  higher is better, used by :class:`~engine.ai.core.GreedyPlayer` (the benchmark's one-move lookahead).
"""

from __future__ import annotations

import functools
from types import ModuleType

from engine.ai import frazzled, ivak_declare, memory
from engine.ai.core import AIPlayer, GreedyPlayer
from engine.foist import ai as foist
from engine.minimisere import ai as minimisere

AI_MODULES: dict[str, ModuleType] = {
    "foist": foist,
    "minimize": frazzled,
    "tokenize": frazzled,
    "eradicize": frazzled,
    "declare": ivak_declare,
    "minimisere": minimisere,
    "memory": memory,
}
"""Game key -> the module holding that game's AI."""


@functools.cache
def ai_player(game_key: str) -> AIPlayer:
    """The AI player that takes a seat at a table of this game.

    Raises
    ------
    KeyError
        If no game has that key.
    """
    return AI_MODULES[game_key].player_for(game_key)


@functools.cache
def greedy_player(game_key: str) -> GreedyPlayer:
    """The one-move-lookahead baseline for this game, with the game's own evaluation.

    Raises
    ------
    KeyError
        If no game has that key.
    """
    return GreedyPlayer(AI_MODULES[game_key].evaluate)
