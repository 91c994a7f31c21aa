"""AI players: pure, deterministic decision makers that see only what their seat may see.

:mod:`engine.ai.core` holds the common interface (:class:`AIPlayer`) and the two baselines the strength
benchmark measures against (:class:`RandomPlayer`, :class:`GreedyPlayer`); each game's own player lives in a
module named after the game (here, or ``ai`` in the game's package), and :mod:`engine.ai.registry` maps a
game's key to its player.
"""
