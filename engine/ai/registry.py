"""Which AI player plays which game.

Each game's AI lives in its own module of :mod:`engine.ai` (named in :data:`AI_MODULES`), which defines

- ``player_for(game_key: str) -> AIPlayer``: the game's AI player (the one that sits at tables), and
- ``evaluate(state: GameState, seat: int) -> float``: the game's evaluation of a position for a seat,
  higher is better, used by :class:`~engine.ai.core.GreedyPlayer` (the benchmark's one-move lookahead).

A game whose module is not written yet is played by :class:`~engine.ai.core.RandomPlayer`.
"""

from __future__ import annotations

import functools
import importlib

from engine.ai.core import AIPlayer, GreedyPlayer, RandomPlayer
from engine.core import GameState

AI_MODULES: dict[str, str] = {
    "foist": "engine.ai.foist",
    "minimize": "engine.ai.frazzled",
    "tokenize": "engine.ai.frazzled",
    "eradicize": "engine.ai.frazzled",
    "declare": "engine.ai.ivak_declare",
    "minimisere": "engine.ai.minimisere",
    "memory": "engine.ai.memory",
}
"""Game key -> the module holding that game's AI."""


def _module(game_key: str):
    try:
        return importlib.import_module(AI_MODULES[game_key])
    except ModuleNotFoundError:
        return None


@functools.cache
def ai_player(game_key: str) -> AIPlayer:
    """The AI player that takes a seat at a table of this game.

    Raises
    ------
    KeyError
        If no game has that key.
    """
    module = _module(game_key)
    return module.player_for(game_key) if module is not None else RandomPlayer()


def _no_evaluation(state: GameState, seat: int) -> float:
    return 0.0


@functools.cache
def greedy_player(game_key: str) -> GreedyPlayer:
    """The one-move-lookahead baseline for this game, with the game's own evaluation.

    Raises
    ------
    KeyError
        If no game has that key.
    """
    module = _module(game_key)
    return GreedyPlayer(module.evaluate if module is not None else _no_evaluation)
