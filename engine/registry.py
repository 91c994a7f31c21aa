"""The games this bot hosts, by their stable key (the key stored in the database and in custom_ids)."""

from __future__ import annotations

from engine.core import GameRules
from engine.declare import MinimizeDeclare
from engine.foist import Foist
from engine.frazzled.eradicize import Eradicize
from engine.frazzled.minimize import FrazzledMinimize
from engine.frazzled.tokenize import Tokenize
from engine.memory import DeluxeMemory
from engine.minimisere import Minimisere

GAMES: dict[str, GameRules] = {
    rules.key: rules
    for rules in (
        Foist(),
        FrazzledMinimize(),
        Tokenize(),
        Eradicize(),
        MinimizeDeclare(),
        Minimisere(),
        DeluxeMemory(),
    )
}


def get_rules(key: str) -> GameRules:
    """The rules of the game with this key.

    Raises
    ------
    KeyError
        If no game has that key.
    """
    return GAMES[key]
