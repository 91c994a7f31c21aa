"""AI players: pure, deterministic decision makers that see only what their seat may see.

:mod:`engine.ai.core` holds the common interface (:class:`AIPlayer`) and the two baselines the strength
benchmark measures against (:class:`RandomPlayer`, :class:`GreedyPlayer`); each game's own player lives in
its game's package (:mod:`engine.foist.ai`, :mod:`engine.minimisere.ai`) or in a module here named after
the game, and :mod:`engine.ai.registry` maps a game's key to its player.
"""
