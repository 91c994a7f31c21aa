"""Minimisère (David Parlett), plain tricks for 3 to 6 players: its cards, scores, rules, words and AI.
Imports only :mod:`engine.core`, :mod:`engine.ai.core` (the AI), pydantic and its own modules.

Rules source: ``shared/seeds/003_f35f0b9afdf8689d.txt``; rulings in ``docs/rules/minimisere.md``. The
parts, from the bottom up:

* :mod:`engine.minimisere.cards`: cards as short strings (``"10H"``, ``"JK"``), packs, hands, trick winner.
* :mod:`engine.minimisere.scoring`: the score tables, the Lot, the target score.
* :mod:`engine.minimisere.actions`: the typed moves and their stable codes (``"10H"``, ``"QS+lot"``,
  ``"JK+win"``; the Lot step's ``"lot"`` and ``"lot-cancel"``).
* :mod:`engine.minimisere.deal`: dealing the unseen cards again around the suits a seat has shown it lacks.
* :mod:`engine.minimisere.words`: card names, the choices' labels, refusals, events and the views' text.
* :mod:`engine.minimisere.rules`: the game in progress, its options and hidden information, the rules object.
* :mod:`engine.minimisere.ai`: the AI player (searches on copies of the game through
  :meth:`MinimisereState.play`).
"""

from __future__ import annotations

from engine.minimisere.actions import (
    BID_LOT,
    CANCEL_LOT,
    JOKER_LOSES,
    JOKER_WINS,
    LOT,
    Decree,
    LotStep,
    MinimisereAction,
    MinimisereMove,
)
from engine.minimisere.cards import (
    HAND_SIZES,
    JOKER,
    RANK_VALUES,
    SUITS,
    build_pack,
    pack_ranks,
    rank_of,
    sort_cards,
    special_rank,
    suit_of,
    trick_winner,
)
from engine.minimisere.rules import (
    DealResult,
    Minimisere,
    MinimisereOptions,
    MinimisereState,
    Phase,
)
from engine.minimisere.scoring import LOT_SCORES, SCORE_TABLES, default_target, score_for_deal
from engine.minimisere.words import LOT_GROUP, PLAY_GROUP, card_text

__all__ = [
    "BID_LOT",
    "CANCEL_LOT",
    "HAND_SIZES",
    "JOKER",
    "JOKER_LOSES",
    "JOKER_WINS",
    "LOT",
    "LOT_GROUP",
    "LOT_SCORES",
    "PLAY_GROUP",
    "RANK_VALUES",
    "SCORE_TABLES",
    "SUITS",
    "DealResult",
    "Decree",
    "LotStep",
    "Minimisere",
    "MinimisereAction",
    "MinimisereMove",
    "MinimisereOptions",
    "MinimisereState",
    "Phase",
    "build_pack",
    "card_text",
    "default_target",
    "pack_ranks",
    "rank_of",
    "score_for_deal",
    "sort_cards",
    "special_rank",
    "suit_of",
    "trick_winner",
]
