"""The benchmark's rule-based baselines: each plays a game the way a sensible newcomer would,
from its seat's information only (an :class:`~engine.ai.core.InformationSet`), with no search.

- Foist: take the card when out of tokens, or when its net cost (points it adds, minus the tokens on it)
  is low for the tokens one holds and the cards left (:func:`engine.foist.ai.take_threshold`); otherwise
  pay.
- Minimisère: aim for no tricks with a weak hand, for tricks with a strong one; lead a sure winner when
  wanting the trick and the lowest card otherwise; win cheaply or duck under (the rollout policy of
  :mod:`engine.minimisere.ai`, read on one guess of the other hands, without its noise:
  :func:`engine.minimisere.ai.rule_action`).
- The other games: the game's normal player, itself a rule player in TOKENIZE, ERADICIZE, Deluxe Memory
  and Minimize: Declare (rules with a small sampled estimate); in MINIMIZE a sampled search (no rule
  player of its own yet).
"""

from __future__ import annotations

import random

from engine.ai.core import AIPlayer, InformationSet
from engine.ai.registry import ai_player
from engine.foist.ai import take_threshold
from engine.foist.rules import PAY, TAKE, FoistState
from engine.minimisere import ai as minimisere_ai
from engine.minimisere.rules import MinimisereState


class FoistRules(AIPlayer):
    """Foist by rule (see the module's docstring)."""

    name = "foist-rules"

    def decide(self, seen: InformationSet, rng: random.Random) -> str:
        state, seat = seen.world, seen.seat
        assert isinstance(state, FoistState)
        tokens = state.tokens(seat)
        net = state.take_cost(seat) - state.tokens_on_card
        return TAKE if tokens == 0 or net <= take_threshold(tokens, state.cards_left) else PAY


class MinimisereRules(AIPlayer):
    """Minimisère by rule (see the module's docstring)."""

    name = "minimisere-rules"

    def decide(self, seen: InformationSet, rng: random.Random) -> str:
        codes = seen.legal_codes()
        if len(codes) == 1:
            return codes[0]
        world = seen.sample(rng)
        assert isinstance(world, MinimisereState)
        code = minimisere_ai.rule_action(world, seen.seat, rng).format()
        return code if code in codes else codes[0]


def rule_player(game_key: str) -> AIPlayer:
    """The rule-based baseline of ``game_key`` (see the module's docstring)."""
    if game_key == "foist":
        return FoistRules()
    if game_key == "minimisere":
        return MinimisereRules()
    return ai_player(game_key)
