"""The Foist AI: rules to settle the plain decisions, flat determinised Monte Carlo on the game's own rules
for the rest.

What it looks at (all of it public, or the seat's own): the card up and the tokens on it, every seat's taken
cards, the turn order, its own token count, the public log of who paid and who took
(``state.history``, ruling 4), from which it counts every other seat's tokens as a player at the table
could, and the draw pile's size. The unseen cards (the draw pile and the nine removed) come from
:meth:`engine.foist.FoistState.resample_hidden`, which is canonical: the sorted pool of unseen cards,
shuffled by the AI's own generator; the tokens it counted go into that world with
:meth:`~engine.foist.FoistState.with_tokens`. It never reads another seat's tokens or the true pile order.

The search (the games' shared flat Monte Carlo, :class:`engine.ai.monte_carlo.FlatMonteCarlo`): for each
of ``worlds`` determinisations (the same worlds for both actions), it plays *take* and *pay* on a copy of
the world and then the rest of the game with the engine's own rules (:meth:`~engine.foist.FoistState.play`,
the fast path of ``apply``) and a rule-based rollout policy for every seat (take when the card's net cost
is low for the tokens one holds, with a little noise), and keeps the action with the better mean outcome:
the share of the win plus a small term for the margin over the best other score. Forced and clear
decisions are made by rule without search.
"""

from __future__ import annotations

import random

from engine.ai.core import SEARCH_CPU_SECONDS, AIPlayer, InformationSet
from engine.ai.monte_carlo import FlatMonteCarlo
from engine.core import GameState, plural, strong
from engine.foist.cards import card_points, starting_tokens
from engine.foist.rules import PAY, PAY_ACTION, TAKE, TAKE_ACTION, FoistState

DEFAULT_WORLDS = 24
"""Determinisations per searched decision (each played out once per action)."""

MARGIN_WEIGHT = 0.02
"""Worth of one point of margin over the best other seat, next to a whole win (1)."""


def take_threshold(tokens: int, cards_left: int) -> float:
    """The highest net cost (card points added minus tokens on the card) at which the rollout policy takes
    the card: a seat with many tokens can afford to refuse, one running short takes costlier cards, and
    near the end of the pile tokens are worth less, so it takes sooner."""
    short = (7 - tokens) * 1.6 if tokens < 7 else 0.0  # max(0, 7 - tokens) * 1.6, in a rollout's hot loop
    return 1.0 + short + ((6 - cards_left) * 0.5 if cards_left < 6 else 0.0)


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


def counted_tokens(state: FoistState, seat: int) -> list[int]:
    """Every seat's token count as ``seat`` knows it: its own, and the others' from the public log
    (:func:`public_tokens`). The total is always the tokens the seats hold; if the log does not add up
    (a scripted deal), the others' counts are moved one by one, never below zero, until it does."""
    tokens = public_tokens(state)
    tokens[seat] = state.tokens(seat)
    missing = state.tokens_in_play - state.tokens_on_card - sum(tokens)
    others = [other for other in range(state.num_seats) if other != seat]
    while missing:
        for other in others:
            if missing > 0:
                tokens[other] += 1
                missing -= 1
            elif missing < 0 and tokens[other] > 0:
                tokens[other] -= 1
                missing += 1
    return tokens


def rollout(world: FoistState, rng: random.Random) -> None:
    """Play ``world`` to the end of the game with the rollout policy for every seat, on the engine's rules
    (``world`` is changed): a seat takes the card up when its net cost (card points added, minus the
    tokens on it) is at most :func:`take_threshold` plus noise, or when it has no token left."""
    noise, tokens, take_cost, play = rng.random, world.tokens, world.take_cost, world.play
    while (seat := world.seat_to_act) is not None:
        left = tokens(seat)
        if left == 0 or take_cost(seat) - world.tokens_on_card <= take_threshold(
            left, world.cards_left
        ) + 6.0 * (noise() - 0.5):
            play(seat, TAKE_ACTION)
        else:
            play(seat, PAY_ACTION)


ACTIONS = {TAKE: TAKE_ACTION, PAY: PAY_ACTION}
"""The action of each code, made once (the fast path :meth:`~engine.foist.FoistState.play` takes one)."""


def play_out(world: FoistState, seat: int, code: str, rng: random.Random) -> FoistState:
    """``code`` (take or pay) played for ``seat`` in a copy of ``world``, then the rest of the game by
    :func:`rollout`: the finished game (``world`` is not changed)."""
    game = world.copy()
    game.play(seat, ACTIONS[code])
    rollout(game, rng)
    return game


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


class FoistPlayer(AIPlayer):
    """Foist's AI (see the module's docstring).

    Parameters
    ----------
    worlds:
        Determinisations per searched decision; the budget (24 by default: a few milliseconds).
    cpu_seconds:
        A cap on the search's CPU time (the deciding thread's, ``time.thread_time``, so other threads' load
        does not count), or ``None``: past it, no further world is searched (the hard level's guard; its
        worlds fit well within it, so it bounds only a pathological case).
    """

    name = "foist-mc"

    def __init__(self, worlds: int = DEFAULT_WORLDS, cpu_seconds: float | None = None) -> None:
        self.worlds = worlds
        self.cpu_seconds = cpu_seconds

    def decide(self, seen: InformationSet, rng: random.Random) -> str:
        state, seat = seen.world, seen.seat
        assert isinstance(state, FoistState)
        if seat not in state.seats_to_act():
            raise ValueError(f"seat {seat} has no legal action")
        mine = state.tokens(seat)  # the seat's own secret, shown in its view
        if mine == 0:
            return TAKE  # "You cannot choose to place a token if you have no tokens remaining."
        if state.take_cost(seat) - state.tokens_on_card <= -2:
            return TAKE  # a card that lowers the score by two points or more now
        tokens = counted_tokens(state, seat)
        search = FlatMonteCarlo(
            candidates=(TAKE, PAY),  # take first: it wins a tie
            determinise=lambda number, rng: state.resample_hidden(seat, rng).with_tokens(tokens),
            playout=lambda world, code, rng: play_out(world, seat, code, rng),
            evaluate=lambda game: outcome([game.score(other) for other in range(game.num_seats)], seat),
            worlds=self.worlds,
            cpu_seconds=self.cpu_seconds,
        )
        return search.run(rng).best


def player_for(game_key: str) -> AIPlayer:
    """The AI that sits at Foist tables."""
    return FoistPlayer()


def hard_player_for(game_key: str) -> AIPlayer:
    """The hard level at Foist tables: the same search on four times the determinisations, within
    :data:`~engine.ai.core.SEARCH_CPU_SECONDS`."""
    return FoistPlayer(worlds=4 * DEFAULT_WORLDS, cpu_seconds=SEARCH_CPU_SECONDS)


def explain(seen: InformationSet, code: str) -> str:
    """The coach's one-line reason for ``code`` (take or pay) at ``seen.seat``'s decision, in Foist's
    terms: the points the card adds to the seat's score against the tokens on it and in hand."""
    state = seen.world
    assert isinstance(state, FoistState)
    cost, on_card, mine = state.take_cost(seen.seat), state.tokens_on_card, state.tokens(seen.seat)
    net = cost - on_card
    if code == TAKE:
        return (
            f"{strong('Take it')}: it adds {plural(cost, 'point')} and brings {plural(on_card, 'token')}, "
            f"{net:+d} to your score, cheaper than what passing it on is likely to cost you."
        )
    return (
        f"{strong('No thanks')}: taking it would add {plural(cost, 'point')} for "
        f"{plural(on_card, 'token')} ({net:+d}); paying one of your {plural(mine, 'token')} costs 1 point."
    )


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
