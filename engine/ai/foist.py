"""The Foist AI: rules to settle the plain decisions, flat determinised Monte Carlo for the rest.

What it looks at (all of it public, or the seat's own): the card up and the tokens on it, every seat's taken
cards, the turn order, its own token count, the public log of who paid and who took
(``state.history``, ruling 4), from which it counts every other seat's tokens as a player at the table
could, and the draw pile's size. The unseen cards (the draw pile and the nine removed) come from
:meth:`engine.foist.FoistState.resample_hidden`, which is canonical: the sorted pool of unseen cards,
shuffled by the AI's own generator. It never reads another seat's tokens or the true pile order.

The search: for each of ``worlds`` determinisations (one shuffle of the unseen cards each, the same worlds
for both actions), it plays *take* and *pay* and then the rest of the game with a fast rule-based rollout
policy for every seat (take when the card's net cost is low for the tokens one holds, with a little noise),
and keeps the action with the better mean outcome: the share of the win plus a small term for the margin
over the best other score. Forced and clear decisions are made by rule without search.
"""

from __future__ import annotations

import random

from engine.ai.core import AIPlayer
from engine.core import GameState
from engine.foist import PAY, TAKE, FoistState, card_points, starting_tokens

DEFAULT_WORLDS = 24
"""Determinisations per searched decision (each played out once per action)."""

MARGIN_WEIGHT = 0.02
"""Worth of one point of margin over the best other seat, next to a whole win (1)."""


def marginal_cost(cards: set[int] | frozenset[int], card: int) -> int:
    """How many points taking ``card`` adds to a seat holding ``cards`` (only the lowest card of a series
    counts): ``card`` alone, 0 next above a series, -1 just below one, and minus the higher series' lowest
    card when it joins two series.

    >>> [marginal_cost(cards, 11) for cards in ({10, 12}, {10}, {12}, set())]
    [-12, 0, -1, 11]
    """
    below = card - 1 in cards
    above = card + 1 in cards
    if below and above:
        return -(card + 1)
    if below:
        return 0
    if above:
        return -1
    return card


def take_threshold(tokens: int, cards_left: int) -> float:
    """The highest net cost (card points added minus tokens on the card) at which the rollout policy takes
    the card: a seat with many tokens can afford to refuse, one running short takes costlier cards, and
    near the end of the pile tokens are worth less, so it takes sooner."""
    return 1.0 + max(0, 7 - tokens) * 1.6 + max(0, 6 - cards_left) * 0.5


def public_tokens(state: FoistState) -> list[int]:
    """Every seat's token count as the public log shows it: the tokens dealt, minus one per payment, plus
    those on each card the seat took (rulings 3 and 4). If the deal was not the standard one (a scripted
    game), the difference from the public total is spread over the seats so the total is right.
    """
    count = [starting_tokens(state.num_seats)] * state.num_seats
    on_card = 0
    for seat, code in state.history:
        if code == PAY:
            count[seat] -= 1
            on_card += 1
        elif code == TAKE:
            count[seat] += on_card
            on_card = 0
    missing = state.tokens_in_play - state.tokens_on_card - sum(count)
    if missing or min(count) < 0:
        share, extra = divmod(missing, state.num_seats)
        count = [max(0, value + share + (1 if seat < extra else 0)) for seat, value in enumerate(count)]
    return count


def _rollout(
    pile: list[int],
    card: int,
    on_card: int,
    tokens: list[int],
    held: list[set[int]],
    points: list[int],
    order: tuple[int, ...],
    turn: int,
    rng: random.Random,
) -> list[int]:
    """Play the game out with the rollout policy; returns the final scores (card points minus tokens).
    ``pile`` pops the next card from its end. All the lists are changed."""
    seats = len(order)
    noise = rng.random
    while True:
        seat = order[turn]
        have = held[seat]
        cost = marginal_cost(have, card)
        left = tokens[seat]
        if left == 0 or cost - on_card <= take_threshold(left, len(pile)) + 6.0 * (noise() - 0.5):
            have.add(card)
            points[seat] += cost
            tokens[seat] += on_card
            on_card = 0
            if not pile:
                break
            card = pile.pop()
        else:
            tokens[seat] = left - 1
            on_card += 1
            turn = (turn + 1) % seats
    return [points[seat] - tokens[seat] for seat in range(seats)]


def outcome(scores: list[int], seat: int) -> float:
    """The worth of final ``scores`` (lowest wins) to ``seat``: its share of the win plus
    :data:`MARGIN_WEIGHT` per point of margin over the best other seat (capped at 25 points)."""
    mine = scores[seat]
    best_other = min(score for other, score in enumerate(scores) if other != seat)
    share = 0.0
    if mine < best_other:
        share = 1.0
    elif mine == best_other:
        share = 1.0 / (1 + sum(1 for other, score in enumerate(scores) if other != seat and score == mine))
    return share + MARGIN_WEIGHT * max(-25, min(25, best_other - mine))


class FoistPlayer:
    """Foist's AI (see the module's docstring).

    Parameters
    ----------
    worlds:
        Determinisations per searched decision; the budget (24 by default: a few milliseconds).
    """

    name = "foist-mc"

    def __init__(self, worlds: int = DEFAULT_WORLDS) -> None:
        self.worlds = worlds

    def choose(self, state: GameState, seat: int, rng: random.Random) -> str:
        assert isinstance(state, FoistState)
        if seat not in state.seats_to_act():
            raise ValueError(f"seat {seat} has no legal action")
        mine = state.tokens(seat)  # the seat's own secret, shown in its view
        card = state.card_up
        assert card is not None
        held = [set(state.cards(other)) for other in range(state.num_seats)]
        cost = marginal_cost(held[seat], card)
        on_card = state.tokens_on_card
        if mine == 0:
            return TAKE  # "You cannot choose to place a token if you have no tokens remaining."
        if cost - on_card <= -2:
            return TAKE  # a card that lowers the score by two points or more now
        world = state.resample_hidden(seat, rng)
        pool = sorted(world.draw_pile() + world.removed())
        size = len(world.draw_pile())
        tokens = public_tokens(state)
        tokens[seat] = mine
        points = [card_points(tuple(cards)) for cards in held]
        order = state.turn_order
        turn = order.index(seat)
        totals = {TAKE: 0.0, PAY: 0.0}
        for _ in range(self.worlds):
            rng.shuffle(pool)
            pile = pool[:size]
            for action in (TAKE, PAY):
                sim_pile = list(pile)
                sim_tokens = list(tokens)
                sim_held = [set(cards) for cards in held]
                sim_points = list(points)
                if action == TAKE:
                    sim_held[seat].add(card)
                    sim_points[seat] += cost
                    sim_tokens[seat] += on_card
                    if not sim_pile:
                        scores = [sim_points[s] - sim_tokens[s] for s in range(state.num_seats)]
                        totals[action] += outcome(scores, seat)
                        continue
                    scores = _rollout(
                        sim_pile, sim_pile.pop(), 0, sim_tokens, sim_held, sim_points, order, turn, rng
                    )
                else:
                    sim_tokens[seat] -= 1
                    scores = _rollout(
                        sim_pile,
                        card,
                        on_card + 1,
                        sim_tokens,
                        sim_held,
                        sim_points,
                        order,
                        (turn + 1) % len(order),
                        rng,
                    )
                totals[action] += outcome(scores, seat)
        return TAKE if totals[TAKE] >= totals[PAY] else PAY


def player_for(game_key: str) -> AIPlayer:
    """The AI that sits at Foist tables."""
    return FoistPlayer()


def evaluate(state: GameState, seat: int) -> float:
    """Foist's evaluation for ``seat``, higher is better: the mean score of the other seats minus the
    seat's own score (card points minus tokens; lowest wins), each seat's tokens counted from the public
    log (:func:`public_tokens`) except the seat's own, which it knows."""
    assert isinstance(state, FoistState)
    tokens = public_tokens(state)
    tokens[seat] = state.tokens(seat)
    scores = [card_points(state.cards(other)) - tokens[other] for other in range(state.num_seats)]
    others = [score for other, score in enumerate(scores) if other != seat]
    return sum(others) / len(others) - scores[seat]
