"""The AI players of the Frazzled Wool games: MINIMIZE, TOKENIZE and ERADICIZE.

One module for the three game keys of :data:`engine.ai.registry.AI_MODULES`:

- :func:`player_for` gives the game's AI: :class:`~engine.frazzled.ai_minimize.MinimizePlayer`,
  :class:`~engine.frazzled.ai_tokenize.TokenizePlayer` or
  :class:`~engine.frazzled.ai_eradicize.EradicizePlayer`;
- :func:`evaluate` rates a position for a seat with the game's own evaluation (the benchmark's greedy
  baseline uses it).

Every player decides on a world drawn with the state's canonical ``resample_hidden`` for its seat
(:mod:`engine.frazzled.ai_common`), so it sees only what its seat may see.
"""

from __future__ import annotations

from engine.ai.core import AIPlayer
from engine.core import GameState
from engine.frazzled import ai_eradicize, ai_minimize, ai_search, ai_tokenize
from engine.frazzled.eradicize import EradicizeState
from engine.frazzled.minimize import FrazzledMinimizeState
from engine.frazzled.tokenize import TokenizeState

GAME_KEYS = ("minimize", "tokenize", "eradicize")

HARD_WORLDS = {"tokenize": 8, "eradicize": 8}
"""Worlds the hard level's search draws per decision, by game."""

HARD_MOVES = {"tokenize": 16, "eradicize": 20}
"""At most this many rollout moves after each candidate, by game."""


def player_for(game_key: str) -> AIPlayer:
    """The AI player for ``game_key`` (``"minimize"``, ``"tokenize"`` or ``"eradicize"``).

    Raises
    ------
    KeyError
        For any other key.
    """
    if game_key == "minimize":
        return ai_minimize.MinimizePlayer()
    if game_key == "tokenize":
        return ai_tokenize.TokenizePlayer()
    if game_key == "eradicize":
        return ai_eradicize.EradicizePlayer()
    raise KeyError(f"not a Frazzled Wool game: {game_key!r}")


def hard_player_for(game_key: str) -> AIPlayer:
    """The hard level for ``game_key`` (figures in the game's rules doc, "Levels"). TOKENIZE and
    ERADICIZE: determinised Monte Carlo search with rollouts over the normal player's moves
    (:class:`engine.frazzled.ai_search.SearchPlayer`: :data:`HARD_WORLDS` worlds per decision, rollouts of
    at most :data:`HARD_MOVES` moves with the game's rollout policy, rated by the game's evaluation; a CPU
    guard of 90 ms). MINIMIZE: the normal player with three times the samples for its challenge test (30):
    the same search, in worlds as sampled or with the other hands improved over their players' turns,
    measured weaker against the normal player there (figures in ``docs/rules/minimize.md``).

    Raises
    ------
    KeyError
        For any other key.
    """
    if game_key == "minimize":
        return ai_minimize.MinimizePlayer(samples=30)
    if game_key == "tokenize":
        return ai_search.SearchPlayer(
            ai_tokenize.TokenizePlayer(),
            ai_search.tokenize_rollout,
            ai_tokenize.evaluate,
            worlds=HARD_WORLDS["tokenize"],
            moves=HARD_MOVES["tokenize"],
        )
    if game_key == "eradicize":
        return ai_search.SearchPlayer(
            ai_eradicize.EradicizePlayer(worlds=0),
            ai_search.eradicize_rollout,
            ai_eradicize.evaluate,
            worlds=HARD_WORLDS["eradicize"],
            moves=HARD_MOVES["eradicize"],
        )
    raise KeyError(f"not a Frazzled Wool game: {game_key!r}")


def evaluate(state: GameState, seat: int) -> float:
    """How good the position is for ``seat`` (higher is better), by the game's own evaluation:
    :func:`engine.frazzled.ai_minimize.evaluate`, :func:`engine.frazzled.ai_tokenize.evaluate` or
    :func:`engine.frazzled.ai_eradicize.evaluate`.

    Raises
    ------
    TypeError
        If ``state`` is not a game of MINIMIZE, TOKENIZE or ERADICIZE.
    """
    if isinstance(state, FrazzledMinimizeState):
        return ai_minimize.evaluate(state, seat)
    if isinstance(state, TokenizeState):
        return ai_tokenize.evaluate(state, seat)
    if isinstance(state, EradicizeState):
        return ai_eradicize.evaluate(state, seat)
    raise TypeError(f"not a Frazzled Wool game: {type(state).__name__}")
