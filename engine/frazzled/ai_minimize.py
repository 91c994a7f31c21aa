"""The MINIMIZE AI player (Frazzled Wool; rules: ``docs/rules/minimize.md``).

Method: rules to choose the draw, the discard, the rule change and the card to pass (each candidate is
scored by the hand's MINIMIZE score after it, :func:`engine.frazzled.minimize_scoring.score_hand`, with the
expected effect of the discarded card's action), and determinised Monte Carlo for the one decision that
depends on the other hands: whether to say "challenge". For that it draws worlds consistent with what the
seat has seen (:meth:`~engine.frazzled.table.FrazzledTable.resample_hidden`), lets every opponent improve
its redrawn hand as a careful player would have over the turns it has taken (a greedy swap with a few
unseen cards), and challenges when it goes through in enough of them.

Everything it reads comes from its world (see :mod:`engine.frazzled.ai_common`): its own hand, the public
table and its legal actions.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence

from engine.ai.core import AIPlayer, InformationSet
from engine.frazzled.actions import Discard, Draw
from engine.frazzled.ai_common import best_by, card_id, legal_codes, pile_tops, unseen_cards, world_for
from engine.frazzled.deck import DECK, Card
from engine.frazzled.minimize import FrazzledMinimizeState
from engine.frazzled.minimize_scoring import score_hand
from engine.frazzled.minimize_table import (
    CHALLENGE,
    FLIP_ACTIONS,
    FLIP_DUPLICATES,
    FrazzledMinimizeAction,
    Give,
    SwapBonus,
)
from engine.frazzled.rule_cards import (
    BONUS_CARDS,
    CHANGE_RULE,
    EXTRA_TURN,
    GIVE_ONE,
    GIVE_TWO,
    PASS_LEFT,
    PASS_RIGHT,
    SHAPE_OR_COLOUR,
    SKIP_NEXT,
    TAKE_ONE,
    TAKE_TWO,
    BonusCard,
)
from engine.frazzled.table import Phase

OPPONENT_GUESS = (5.5, 4.4, 3.0, 2.0, 1.7, 1.5, 0.9, 0.7, 0.3)
"""The mean score (points) of a careful player's hand after 0, 1, 2, ... 8 or more turns of a round
(measured in self-play of this player against the greedy baseline): what a 6 hands you."""

PASS_MARGIN = 1.5
"""Points added to the hand a 6 hands you, for not knowing it (tuned against the greedy baseline)."""

EXTRA_TURN_GAIN = 1.0
"""Points a 13 ("take another turn") is worth: one more draw to improve the hand."""

SKIP_GAIN = 0.5
"""Points a 13 on side B ("the next player misses a turn") is worth."""


def total(cards: Sequence[Card], rules: Sequence[BonusCard]) -> int:
    """The MINIMIZE score of ``cards`` under ``rules`` (points, lower is better), remembered: the
    players score the same few hands again and again."""
    return _total(tuple(sorted(card.id for card in cards)), tuple(rules))


@functools.lru_cache(maxsize=1 << 16)
def _total(ids: tuple[int, ...], rules: tuple[BonusCard, ...]) -> int:
    return score_hand([DECK[index] for index in ids], rules).total


class MinimizePlayer(AIPlayer):
    """Frazzled Wool MINIMIZE: rule-based draws and discards, Monte Carlo challenges.

    Parameters
    ----------
    samples:
        Worlds drawn to judge a challenge (more: slower, steadier).
    improve_steps:
        At most this many unseen cards each opponent's redrawn hand is improved with, in a world
        (one per turn it has taken this round).
    threshold:
        Challenge when the seat goes through in at least this share of the worlds.
    final_threshold:
        The same in the final, where losing the challenge loses the game.
    """

    name = "minimize-mc"

    def __init__(
        self,
        samples: int = 10,
        improve_steps: int = 3,
        threshold: float = 0.5,
        final_threshold: float = 0.6,
    ) -> None:
        self.samples = samples
        self.improve_steps = improve_steps
        self.threshold = threshold
        self.final_threshold = final_threshold

    def decide(self, seen: InformationSet, rng: random.Random) -> str:
        state, seat = seen.world, seen.seat
        assert isinstance(state, FrazzledMinimizeState)
        codes = legal_codes(state, seat)
        if len(codes) == 1:
            return codes[0]
        world = world_for(state, seat, rng)
        rules = world.rules_in_play()
        phase = world.phase
        if phase is Phase.DRAW:
            if CHALLENGE in codes and self._should_challenge(world, seat, rng):
                return CHALLENGE
            draws = [code for code in codes if code != CHALLENGE]
            return best_by(draws, lambda code: self._draw_value(world, seat, code, rules, rng))
        if phase is Phase.DISCARD:
            drawn = world.drawn
            assert drawn is not None
            hand = list(world.hand(seat))
            return best_by(
                codes, lambda code: -self._discard_cost(world, seat, hand, drawn, _card(code), rules, rng)
            )
        if phase is Phase.RULE:
            return best_by(codes, lambda code: -self._rule_score(world, seat, code))
        if phase is Phase.GIVE:
            hand = list(world.hand(seat))
            return best_by(codes, lambda code: -self._give_cost(hand, _card(code), rules))
        return codes[0]  # a blind pick from a face-down fan: every position is alike

    # -- draw and discard ---------------------------------------------------------------------------

    def _draw_value(
        self, world: FrazzledMinimizeState, seat: int, code: str, rules: Sequence[BonusCard], rng
    ) -> float:
        """Minus the expected score after drawing from that pile and making the best discard."""
        pile = FrazzledMinimizeAction.parse(code)
        assert isinstance(pile, Draw)
        top = dict(pile_tops(world))[pile.pile]
        hand = list(world.hand(seat))
        return -min(self._discard_cost(world, seat, hand, top, card, rules, rng) for card in hand)

    def _discard_cost(
        self,
        world: FrazzledMinimizeState,
        seat: int,
        hand: list[Card],
        drawn: Card,
        card: Card,
        rules: Sequence[BonusCard],
        rng: random.Random,
    ) -> float:
        """The expected score (points) after discarding ``card`` and taking ``drawn`` into the hand,
        the discarded card's action included."""
        kept = [other for other in hand if other != card] + [drawn]
        score = total(kept, rules)
        kind = world.actions_side.kind(card.number)
        if kind is None:
            return score
        if kind in (PASS_LEFT, PASS_RIGHT):
            # You get a neighbour's hand (and give yours away): its score is about what a hand scores
            # after the turns that neighbour has taken this round, plus a margin for not knowing it.
            giver = world.right_of(seat) if kind == PASS_LEFT else world.left_of(seat)
            return OPPONENT_GUESS[min(world.turns_taken(giver), len(OPPONENT_GUESS) - 1)] + PASS_MARGIN
        if kind == CHANGE_RULE:
            return min(score, self._best_rule_score(world, kept))
        if kind == EXTRA_TURN:
            return score - EXTRA_TURN_GAIN
        if kind == SKIP_NEXT:
            return score - SKIP_GAIN
        count = 1 if kind in (TAKE_ONE, GIVE_ONE) else 2
        pool = unseen_cards(world, seat)
        if kind in (TAKE_ONE, TAKE_TWO):
            return self._swap_expectation(kept, count, pool, rules, rng, chosen=False)
        if kind in (GIVE_ONE, GIVE_TWO):
            return self._swap_expectation(kept, count, pool, rules, rng, chosen=True)
        return score

    def _swap_expectation(
        self,
        hand: list[Card],
        count: int,
        pool: list[Card],
        rules: Sequence[BonusCard],
        rng: random.Random,
        *,
        chosen: bool,
        tries: int = 4,
    ) -> float:
        """The expected score after ``count`` cards of ``hand`` leave it (blindly picked, or the worst
        ones chosen) and as many unseen cards come in."""
        results = []
        for _ in range(tries):
            rest = list(hand)
            for _ in range(count):
                if chosen:
                    worst = min(
                        rest, key=lambda card: (total([c for c in rest if c != card], rules), card.id)
                    )
                    rest.remove(worst)
                else:
                    rest.pop(rng.randrange(len(rest)))
            rest += rng.sample(pool, min(count, len(pool)))
            results.append(total(rest, rules))
        return sum(results) / len(results)

    def _give_cost(self, hand: list[Card], card: Card, rules: Sequence[BonusCard]) -> float:
        """The score of the hand without ``card`` (side B: passing a card on); ties pass the higher card."""
        rest = [other for other in hand if other != card]
        return total(rest, rules) - card.number / 100

    # -- rule changes (the 10) ------------------------------------------------------------------------

    def _rule_sets(self, world: FrazzledMinimizeState, code: str) -> list[tuple[BonusCard, ...]]:
        """The rules in play after flipping a double-sided card (``code``: ``flip.dup`` or
        ``flip.act``)."""
        bonus = list(world.bonus_cards)
        duplicates = world.duplicates_rule
        if code == FLIP_DUPLICATES:
            other = next(side for side in SHAPE_OR_COLOUR.sides if side is not duplicates)
            assert isinstance(other, BonusCard)
            return [(*bonus, other)]
        if code == FLIP_ACTIONS:
            return [(*bonus, duplicates)]
        raise ValueError(f"not a flip: {code}")

    def _rule_score(self, world: FrazzledMinimizeState, seat: int, code: str, hand=None) -> float:
        """The expected score of ``hand`` (default: the seat's) after the rule change ``code``. For a
        swap, the bonus card's benefit is replaced by the mean benefit of the cards the bonus pile may
        show (the 14/1 reading kept as it is)."""
        cards = list(world.hand(seat)) if hand is None else hand
        if not code.startswith("swap."):
            (rules,) = self._rule_sets(world, code)
            return float(total(cards, rules))
        swap = FrazzledMinimizeAction.parse(code)
        assert isinstance(swap, SwapBonus)
        score = score_hand(cards, world.rules_in_play())
        low = bool(score.low_aces)
        old = world.bonus_cards[swap.index].points(cards, low_aces=low)
        in_play = {card.id for card in world.bonus_cards}
        new = [card.points(cards, low_aces=low) for card in BONUS_CARDS if card.id not in in_play]
        return score.total + old - (sum(new) / len(new) if new else old)

    def _best_rule_score(self, world: FrazzledMinimizeState, hand: list[Card]) -> float:
        swaps = [SwapBonus(index).format() for index in range(len(world.bonus_cards))]
        codes = [FLIP_DUPLICATES, FLIP_ACTIONS, *swaps]
        return min(self._rule_score(world, -1, code, hand) for code in codes)

    # -- challenges ---------------------------------------------------------------------------------

    def _should_challenge(self, world: FrazzledMinimizeState, seat: int, rng: random.Random) -> bool:
        """Monte Carlo: in how many worlds would the seat go through (lowest, or tied as challenger)?

        The cards of an opponent's hand that the seat has seen go in (drawn from a face-up pile, passed
        by the seat) are in that hand in every world: those found in two worlds are taken as known. Each
        sample deals the rest of every opponent's hand from the unseen cards and improves it as a careful
        player would have over the turns it has taken this round."""
        rules = world.rules_in_play()
        mine = total(world.hand(seat), rules)
        opponents = [other for other in world.playing() if other != seat]
        second = world.resample_hidden(seat, rng)
        known = {
            other: sorted(set(world.hand(other)) & set(second.hand(other)), key=card_id)
            for other in opponents
        }
        taken = {card for cards in known.values() for card in cards}
        pool = [card for card in unseen_cards(world, seat) if card not in taken]
        wins = 0
        for _ in range(self.samples):
            rng.shuffle(pool)
            start, lowest = 0, None
            for other in opponents:
                missing = len(world.hand(other)) - len(known[other])
                dealt = pool[start : start + missing]
                start += missing
                score = self._opponent_score(world, other, known[other], dealt, pool[start:], rules, rng)
                lowest = score if lowest is None else min(lowest, score)
            wins += lowest is None or mine <= lowest
        share = wins / self.samples
        return share >= (self.final_threshold if world.is_final else self.threshold)

    def _opponent_score(
        self,
        world: FrazzledMinimizeState,
        other: int,
        known: list[Card],
        dealt: list[Card],
        outside: list[Card],
        rules: Sequence[BonusCard],
        rng: random.Random,
    ) -> int:
        """An opponent's score in a sample: its ``known`` cards and the ``dealt`` unknown ones, the unknown
        ones improved by greedy swaps with one of the ``outside`` cards per turn it has taken this round
        (at most ``improve_steps``)."""
        hand = known + dealt
        score = total(hand, rules)
        steps = min(self.improve_steps, world.turns_taken(other), len(dealt), len(outside))
        for new in rng.sample(outside, steps):
            for index in range(len(known), len(hand)):
                trial = hand[:index] + [new] + hand[index + 1 :]
                trial_score = total(trial, rules)
                if trial_score < score:
                    hand, score = trial, trial_score
                    break
        return score


def _card(code: str) -> Card:
    action = FrazzledMinimizeAction.parse(code)
    assert isinstance(action, Discard | Give)
    return action.card


def evaluate(state: FrazzledMinimizeState, seat: int) -> float:
    """MINIMIZE position value for ``seat`` (higher is better): 30 points per round survived, 30 more
    for being through to the next round, else 15 minus the hand's score (a low score goes through); a
    token still held is worth 1. At the end: the rank's worth (winner 30 above the runner-up)."""
    survived = len(state.eliminated)
    if state.is_terminal():
        standing = state.standings()[seat]
        return 30.0 * standing.points + (30.0 if standing.rank == 1 else 0.0)
    if seat in state.eliminated:
        return 30.0 * state.eliminated.index(seat)
    value = 30.0 * survived
    if seat not in state.playing():
        return value + 30.0
    hand = state.hand(seat)
    if state.drawn is not None and seat in state.seats_to_act() and state.phase is Phase.DISCARD:
        # Mid-turn: the best hand the drawn card allows.
        rules = state.rules_in_play()
        score = min(total([c for c in hand if c != card] + [state.drawn], rules) for card in hand)
    else:
        score = total(hand, state.rules_in_play()) if hand else 0
    return value + 15.0 - max(-15, min(15, score)) + state.tokens(seat)
