"""Minimize: Declare (IVAK MINIMIZE™, ``shared/seeds/001_faa9b8d9abeda876.txt``): cards, throws, actions,
scoring, table, rules, words and AI. Imports engine.core, engine.ai.core (ai.py only) and its own modules."""

from engine.declare.actions import (
    DECLARE,
    DECLARE_NOW_CODE,
    DRAW,
    NO_CARD,
    NO_PICK_CODE,
    Declare,
    DeclareAction,
    DeclareNow,
    Discover,
    Draw,
    NoCard,
    NoPick,
    Take,
    ThrowBack,
    ThrowCards,
)
from engine.declare.cards import FULL_DECK, POWER_CARDS, card_points, hand_quarters
from engine.declare.rules import DeclareOptions, DeclareState, MinimizeDeclare, Phase
from engine.declare.throws import classify, legal_throws, throw_back_fits
from engine.declare.words import THROW_GROUP, card_text, format_points, throw_description

__all__ = [
    "DECLARE",
    "DECLARE_NOW_CODE",
    "DRAW",
    "FULL_DECK",
    "NO_CARD",
    "NO_PICK_CODE",
    "POWER_CARDS",
    "THROW_GROUP",
    "Declare",
    "DeclareAction",
    "DeclareNow",
    "DeclareOptions",
    "DeclareState",
    "Discover",
    "Draw",
    "MinimizeDeclare",
    "NoCard",
    "NoPick",
    "Phase",
    "Take",
    "ThrowBack",
    "ThrowCards",
    "card_points",
    "card_text",
    "classify",
    "format_points",
    "hand_quarters",
    "legal_throws",
    "throw_back_fits",
    "throw_description",
]
