"""Foist ("You Don't Want Points!", No Thanks! online): its cards, rules, words and AI player.
Imports only :mod:`engine.core`, :mod:`engine.ai.core` (the AI) and its own modules.

Rules source: ``shared/seeds/002_393ce4ef34d5d30a.txt`` and the seeds README; rulings in
``docs/rules/foist.md``. The parts, from the bottom up:

* :mod:`engine.foist.cards`: the deck, the tokens dealt, series and card points (plain numbers).
* :mod:`engine.foist.words`: labels, refusals, events and the views' text.
* :mod:`engine.foist.rules`: the action, the game in progress, its hidden information and the rules object.
* :mod:`engine.foist.ai`: the AI player (searches on copies of the game through :meth:`FoistState.play`).
"""

from __future__ import annotations

from engine.foist.cards import (
    HIGHEST_CARD,
    LOWEST_CARD,
    REMOVED_UNSEEN,
    card_points,
    marginal_cost,
    runs,
    starting_tokens,
)
from engine.foist.rules import (
    PAY,
    PAY_ACTION,
    TAKE,
    TAKE_ACTION,
    Foist,
    FoistAction,
    FoistOptions,
    FoistState,
)
from engine.foist.words import format_runs

__all__ = [
    "HIGHEST_CARD",
    "LOWEST_CARD",
    "PAY",
    "PAY_ACTION",
    "REMOVED_UNSEEN",
    "TAKE",
    "TAKE_ACTION",
    "Foist",
    "FoistAction",
    "FoistOptions",
    "FoistState",
    "card_points",
    "format_runs",
    "marginal_cost",
    "runs",
    "starting_tokens",
]
