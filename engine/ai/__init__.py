"""AI players: pure, deterministic decision makers that see only what their seat may see.

:mod:`engine.ai.core` holds the common interface (:class:`AIPlayer`) and the two baselines the strength
benchmark measures against (:class:`RandomPlayer`, :class:`GreedyPlayer`); :mod:`engine.ai.monte_carlo` the
flat determinised Monte Carlo search the games' searching players share (each game supplies its candidates,
worlds, playouts and evaluation); each game's own player is the ``ai`` module of its game's package, and
:mod:`engine.ai.registry` maps a game's key to its player.
It may import the games (``engine``) only.
"""
