"""The AI players of the Frazzled Wool games: MINIMIZE, TOKENIZE and ERADICIZE (issue #11).

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
from engine.frazzled import ai_eradicize, ai_minimize, ai_tokenize
from engine.frazzled.eradicize import EradicizeState
from engine.frazzled.minimize import FrazzledMinimizeState
from engine.frazzled.tokenize import TokenizeState

GAME_KEYS = ("minimize", "tokenize", "eradicize")


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
    """The hard level for ``game_key``: the game's player with a larger search budget (MINIMIZE and
    TOKENIZE: three times the samples; ERADICIZE: the normal budget, at the decision-time limit already).

    Raises
    ------
    KeyError
        For any other key.
    """
    if game_key == "minimize":
        return ai_minimize.MinimizePlayer(samples=30)
    if game_key == "tokenize":
        return ai_tokenize.TokenizePlayer(samples=12)
    if game_key == "eradicize":
        return ai_eradicize.EradicizePlayer()
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
