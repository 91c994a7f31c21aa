"""The three Frazzled Wool games on one 78-card deck (MINIMIZE, TOKENIZE, ERADICIZE): rules, words and AI.
Imports engine.core, engine.ai.core (the ``ai*`` modules only) and its own modules."""

from engine.frazzled.eradicize import PICK_UP, Eradicize, EradicizeAction, EradicizeOptions, EradicizeState
from engine.frazzled.minimize import FrazzledMinimize, FrazzledMinimizeState
from engine.frazzled.minimize_scoring import Score, score_hand
from engine.frazzled.minimize_table import (
    CHALLENGE,
    FLIP_ACTIONS,
    FLIP_DUPLICATES,
    FrazzledMinimizeAction,
    FrazzledMinimizeOptions,
)
from engine.frazzled.table import Phase, split_into_piles
from engine.frazzled.tokenize import (
    KEEP,
    Tokenize,
    TokenizeAction,
    TokenizeOptions,
    TokenizeState,
    set_kind,
    set_points,
)
from engine.frazzled.words import card_label, card_long_label

__all__ = [
    "CHALLENGE",
    "FLIP_ACTIONS",
    "FLIP_DUPLICATES",
    "KEEP",
    "PICK_UP",
    "Eradicize",
    "EradicizeAction",
    "EradicizeOptions",
    "EradicizeState",
    "FrazzledMinimize",
    "FrazzledMinimizeAction",
    "FrazzledMinimizeOptions",
    "FrazzledMinimizeState",
    "Phase",
    "Score",
    "Tokenize",
    "TokenizeAction",
    "TokenizeOptions",
    "TokenizeState",
    "card_label",
    "card_long_label",
    "score_hand",
    "set_kind",
    "set_points",
    "split_into_piles",
]
