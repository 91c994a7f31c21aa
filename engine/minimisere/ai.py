"""The Minimisère AI: flat determinised Monte Carlo over the rest of the deal, on the game's own rules, with
rule-based rollouts.

Minimisère has one kind of decision at every player count: the card to play. Two choices ride on it: with
four to six players, whether to bid the Lot with one's first card, and with three, the decree of a Joker
played third (``"JK+win"`` / ``"JK+lose"``). The AI weighs every card the same way, a card with the Lot bid
(``"<card>+lot"``) included: the engine offers those in a step of their own ("Bid the Lot…", ruling 13), so
the AI weighs them beside the plain plays before the step and opens it only when a bid is its choice; in the
step it weighs the bids alone (or cancels with a hand that could not win every trick).

What it looks at: its own hand, the trick in progress, tricks won and running totals, the dealer, the Lot
bidder, the options (target, end by deals), and the hidden hands only through
:meth:`engine.minimisere.MinimisereState.resample_hidden`, which is canonical (the sorted pool of unseen
cards dealt at random, respecting the suits each seat has shown it lacks). It never reads another hand.

The search (the games' shared flat Monte Carlo, :class:`engine.ai.monte_carlo.FlatMonteCarlo`): for each of
``worlds`` determinisations it plays every candidate on a copy of the world and then the rest of the deal with
the engine's own rules (:meth:`~engine.minimisere.MinimisereState.play`, the fast path of ``apply``) and a
rollout policy for every seat (each seat aims for no tricks while it has none and its hand is weak, otherwise
for tricks, stopping one short of all of them; it leads a Joker, a Deuce or a card no other hand can beat when
it wants the trick and its lowest card otherwise, and wins cheaply or ducks under the trick accordingly, with
a little noise). The engine scores the deal by the printed tables; the AI rates the new totals for the seat: a
win (1), a shared first place, or a loss (0) when the deal ends the game, otherwise a smooth function of its
margin over the best other total. It plays the code with the best mean.
"""

from __future__ import annotations

import functools
import math
import random

from engine.ai.core import SEARCH_CPU_SECONDS, AIPlayer, InformationSet
from engine.ai.monte_carlo import FlatMonteCarlo, first_best
from engine.core import GameState
from engine.minimisere.actions import BID_LOT, CANCEL_LOT, LOT, Decree, MinimisereAction
from engine.minimisere.cards import HAND_SIZES, JOKER, RANK_VALUES, SUIT, VALUE, trick_winner
from engine.minimisere.rules import MinimisereState, Phase
from engine.minimisere.scoring import SCORE_TABLES

DEFAULT_ROLLOUTS = 96
"""Deals played out per decision, shared among the candidate cards."""

NOISE = 0.1
"""Chance that a rollout player plays a random legal card instead of its rule's card."""

MARGIN_SCALE = 7.0
"""Points of lead over the best other total that make the rating of an unfinished game clearly better."""


def _strength(hand: list[str] | tuple[str, ...], special: int | None) -> float:
    """A rough count of the tricks a hand can win: Aces, Kings with company, the Joker and led Deuces
    (``special``: the value of the rank that wins when led, or ``None``)."""
    suits: dict[str | None, int] = {}
    for card in hand:
        suits[SUIT[card]] = suits.get(SUIT[card], 0) + 1
    total = 0.0
    for card in hand:
        value = VALUE[card]
        if card == JOKER:
            total += 0.8
        elif special is not None and value == special:
            total += 0.7
        elif value == 14:
            total += 1.0
        elif value == 13:
            total += 0.6 if suits[SUIT[card]] >= 2 else 0.3
        elif value == 12:
            total += 0.3 if suits[SUIT[card]] >= 3 else 0.1
    return total


@functools.cache
def _action(card: str, decree: str) -> MinimisereAction:
    """The action playing ``card`` with ``decree`` (``"win"``, ``"lose"`` or ``""``), made once."""
    return MinimisereAction(card, decree=Decree(decree) if decree else None)


def _policy(
    world: MinimisereState,
    seat: int,
    nil: list[bool],
    special: int | None,
    rng: random.Random,
    noise: float = NOISE,
) -> MinimisereAction:
    """The rollout player's play for ``seat`` (``special``: the value of the rank that wins when led;
    ``noise``: the chance of a random legal card instead)."""
    cards = world.playable(seat)
    decreed = JOKER in cards and world.joker_decreed  # a Joker played now comes with a decree
    if len(cards) == 1 and not (decreed and cards[0] == JOKER):
        return _action(cards[0], "")
    if rng.random() < noise:
        card = rng.choice(cards)
        return _action(card, rng.choice(("win", "lose")) if card == JOKER and decreed else "")
    won = world.tricks_won()[seat]
    if world.lot_bidder is not None:
        want = True  # the bidder must win them all; the others need only one to beat it
    elif won == 0:
        want = not nil[seat]
    else:
        want = won < world.hand_size - 1
    trick = world.current_trick()
    position = len(trick)
    if position == 0:
        if want:
            for card in cards:
                if card == JOKER or VALUE[card] == special:
                    return _action(card, "")
            top = _best_held(world, seat)  # no other hand holds a higher card of these "masters"
            masters = [card for card in cards if top.get(SUIT[card], 0) < VALUE[card]]
            if masters:
                return _action(masters[0], "")
            return _action(min(cards, key=VALUE.__getitem__), "")
        plain = [card for card in cards if card != JOKER and VALUE[card] != special] or cards
        return _action(min(plain, key=VALUE.__getitem__), "")
    if decreed:
        return _action(JOKER, "win" if want else "lose")
    led = trick[0][1]
    if led == JOKER or VALUE[led] == special:
        winning: list[str] = []
        losing = cards
    else:
        suit = SUIT[led]
        best = max(VALUE[card] for _, card, _ in trick if SUIT[card] == suit)
        winning = [card for card in cards if SUIT[card] == suit and VALUE[card] > best]
        losing = [card for card in cards if card not in winning] if winning else cards
    last = position == world.num_seats - 1
    if want:
        if winning:
            return _action((min if last else max)(winning, key=VALUE.__getitem__), "")
        return _action(min(losing, key=VALUE.__getitem__), "")
    if losing:
        return _action(max(losing, key=VALUE.__getitem__), "")
    return _action((max if last else min)(winning, key=VALUE.__getitem__), "")


def _best_held(world: MinimisereState, seat: int) -> dict[str | None, int]:
    """The highest value of each suit in the world's other hands (the Joker's "suit" ``None``: 0)."""
    top: dict[str | None, int] = {}
    for other in range(world.num_seats):
        if other != seat:
            for held in world.hand(other):
                suit = SUIT[held]
                if VALUE[held] > top.get(suit, 0):
                    top[suit] = VALUE[held]
    return top


def aims_for_no_tricks(world: MinimisereState, rng: random.Random) -> list[bool]:
    """For each seat of ``world`` (a determinisation), whether its rollout player aims for no tricks while
    it has none: a weak hand (fewer than about one sure trick, with a little noise)."""
    special = None if world.special is None else RANK_VALUES[world.special]
    return [
        _strength(world.hand(other), special) + 0.6 * (rng.random() - 0.5) < 1.0
        for other in range(world.num_seats)
    ]


def rule_action(world: MinimisereState, seat: int, rng: random.Random) -> MinimisereAction:
    """The rollout policy's play for ``seat`` in ``world`` (a determinisation), without its noise: a
    sensible newcomer's card (the benchmark's rule-based baseline)."""
    special = None if world.special is None else RANK_VALUES[world.special]
    return _policy(world, seat, aims_for_no_tricks(world, rng), special, rng, noise=0.0)


def rollout(world: MinimisereState, deal: int, nil: list[bool], rng: random.Random) -> None:
    """Play deal number ``deal`` (1-based) to its end with the rollout policy for every seat, on the
    engine's rules (``world`` is changed: the engine scores the deal, then deals the next one or ends the
    game); nothing is played if it is already over. ``nil``: :func:`aims_for_no_tricks`."""
    special = None if world.special is None else RANK_VALUES[world.special]
    while (to_act := world.seats_to_act()) and world.deal_number == deal:
        world.play(to_act[0], _policy(world, to_act[0], nil, special, rng))


def rate_totals(totals: list[int], seat: int, ends: bool) -> float:
    """The worth to ``seat`` of running ``totals`` (highest wins): when the game ends with them, 1 for a
    win, 0 for a loss, and for a shared first place (an extra deal follows) a part of a win; otherwise a
    logistic function of the seat's margin over the best other total (1/3 or so when level)."""
    mine = totals[seat]
    best_other = max(total for other, total in enumerate(totals) if other != seat)
    if ends:
        if mine > best_other:
            return 1.0
        if mine == best_other:
            return 1.0 / (1 + sum(1 for other, total in enumerate(totals) if other != seat and total == mine))
        return 0.0
    return 1.0 / (1.0 + math.exp(-((mine - best_other) / MARGIN_SCALE) + 0.7))


def rate_deal(game: MinimisereState, seat: int) -> float:
    """The worth to ``seat`` of a playout's end (a deal played out and scored): :func:`rate_totals` of the
    running totals, as final if the game is over or the end was reached with a tie for first."""
    return rate_totals(list(game.scores()), seat, game.phase is not Phase.DEAL)


def distinct_actions(actions: list[MinimisereAction], unseen: set[str], trick: list[str]) -> list[int]:
    """Indices of ``actions`` that can lead to different deals: of two plain cards of one suit with no
    card between them still unseen or in the trick in progress, only the first (the higher) is kept, as
    they win and lose the same tricks. The Joker, a Deuce or Nine, decrees and Lot bids are always kept.
    ``unseen`` is every card in the other hands (and the card set aside)."""
    kept: list[int] = []
    keys: set[tuple[str | None, bool, int]] = set()
    blockers = [card for card in (*unseen, *trick) if card != JOKER]
    for index, action in enumerate(actions):
        card = action.card
        if card == JOKER or action.decree is not None or card[:-1] in ("2", "9"):
            kept.append(index)
            continue
        suit, value = SUIT[card], VALUE[card]
        key = (suit, action.bid_lot, sum(1 for c in blockers if SUIT[c] == suit and VALUE[c] > value))
        if key not in keys:
            keys.add(key)
            kept.append(index)
    return kept


class MinimiserePlayer(AIPlayer):
    """Minimisère's AI (see the module's docstring).

    Parameters
    ----------
    rollouts:
        The budget: about this many deals played out per decision, shared among the distinct candidate
        cards (96 by default: a few milliseconds).
    min_worlds, max_worlds:
        Bounds on the determinisations per decision (each candidate is played out once in each).
    cpu_seconds:
        A cap on the search's CPU time (the deciding thread's, ``time.thread_time``), or ``None``: past it,
        no further world is searched once ``min_worlds`` were (the hard level's guard).
    """

    name = "minimisere-mc"

    def __init__(
        self,
        rollouts: int = DEFAULT_ROLLOUTS,
        min_worlds: int = 6,
        max_worlds: int = 24,
        cpu_seconds: float | None = None,
    ) -> None:
        self.cpu_seconds = cpu_seconds
        self.rollouts = rollouts
        self.min_worlds = min_worlds
        self.max_worlds = max_worlds

    def decide(self, seen: InformationSet, rng: random.Random) -> str:
        state, seat = seen.world, seen.seat
        assert isinstance(state, MinimisereState)
        codes = [action.code for action in state.legal_actions(seat)]
        if not codes:
            raise ValueError(f"seat {seat} has no legal action")
        if len(codes) == 1:
            return codes[0]
        special = None if state.special is None else RANK_VALUES[state.special]
        own = state.hand(seat)  # the seat's own hand, shown in its view
        in_step = state.choosing_lot_card
        if in_step or BID_LOT in codes:
            # The Lot is worth weighing only with a hand that might win every trick.
            strong = _strength(own, special) >= HAND_SIZES[state.num_seats] - 1
            if in_step:  # the bids alone, as the step was opened to bid (or cancel with a weak hand)
                if not strong:
                    return CANCEL_LOT
                codes = [code for code in codes if code != CANCEL_LOT]
            else:  # the plain plays, and each of them with the bid, which the step would offer
                codes = [code for code in codes if code != BID_LOT]
                if strong:
                    codes += [f"{code}+{LOT}" for code in codes]
            if len(codes) == 1:
                return codes[0]
        actions = [MinimisereAction.parse(code) for code in codes]
        first = state.resample_hidden(seat, rng)
        unseen = {card for other in range(state.num_seats) if other != seat for card in first.hand(other)}
        unseen.update(first.set_aside())
        kept = distinct_actions(actions, unseen, [card for _, card, _ in state.current_trick()])
        actions = [actions[index] for index in kept]
        codes = [codes[index] for index in kept]
        if len(actions) == 1:
            return self._step_to(codes[0], in_step)
        deal = state.deal_number

        def determinise(number: int, rng: random.Random) -> tuple[MinimisereState, list[bool]]:
            world = first if number == 0 else state.resample_hidden(seat, rng)
            return world, aims_for_no_tricks(world, rng)

        def playout(
            world: tuple[MinimisereState, list[bool]], action: MinimisereAction, rng: random.Random
        ) -> MinimisereState:
            game = world[0].copy()
            game.play(seat, action)
            rollout(game, deal, world[1], rng)  # to the end of the deal: the engine has scored it
            return game

        search = FlatMonteCarlo(
            candidates=actions,
            determinise=determinise,
            playout=playout,
            evaluate=lambda game: rate_deal(game, seat),
            worlds=max(self.min_worlds, min(self.max_worlds, self.rollouts // len(actions))),
            min_worlds=self.min_worlds,
            cpu_seconds=self.cpu_seconds,
        )
        return self._step_to(codes[first_best(search.run(rng).totals)], in_step)

    @staticmethod
    def _step_to(code: str, in_step: bool) -> str:
        """The legal code that leads to ``code``: a Lot bid chosen before the Lot step opens the step
        (the bid's card is chosen again in it); any other code is legal as it is."""
        return BID_LOT if code.endswith("+" + LOT) and not in_step else code


def player_for(game_key: str) -> AIPlayer:
    """The AI that sits at Minimisère tables."""
    return MinimiserePlayer()


def hard_player_for(game_key: str) -> AIPlayer:
    """The hard level at Minimisère tables: the same search on four times the rollouts, within 90 ms of
    the deciding thread's CPU time."""
    return MinimiserePlayer(
        rollouts=4 * DEFAULT_ROLLOUTS, min_worlds=12, max_worlds=96, cpu_seconds=SEARCH_CPU_SECONDS
    )


def evaluate(state: GameState, seat: int) -> float:
    """Minimisère's evaluation for ``seat``, higher is better: its projected total minus the best other
    seat's. A seat's projection is its running total plus the printed table's points for the tricks it
    has won this deal, the trick in progress if its card leads it, and its sure winners: the cards that
    no card left in another hand can beat (the Joker and a Deuce or Nine count as half a trick, as they
    win only when led). At the end of the game: the final margin. (The benchmark's greedy player calls it
    on a determinisation, so the other hands it reads are a sample.)"""
    assert isinstance(state, MinimisereState)
    if state.choosing_lot_card:
        # The Lot step plays no card: one move ahead it would look as good as not playing at all, so it is
        # rated below every play (a one-move lookahead never opens it; in it, it bids or cancels).
        return -math.inf
    scores = state.scores()
    if state.is_terminal():
        return scores[seat] - max(score for other, score in enumerate(scores) if other != seat)
    special = None if state.special is None else RANK_VALUES[state.special]
    table = SCORE_TABLES[state.num_seats]
    hands = [state.hand(other) for other in range(state.num_seats)]
    top: dict[tuple[int, str | None], int] = {}  # (holder, suit) -> best value held
    for other, hand in enumerate(hands):
        for card in hand:
            key = (other, SUIT[card])
            top[key] = max(top.get(key, 0), VALUE[card])
    trick = list(state.current_trick())
    leading, sure = -1, 0.0
    if trick:
        index = trick_winner(trick, state.special)
        leading, card = trick[index][0], trick[index][1]
        later = [(trick[0][0] + place) % state.num_seats for place in range(len(trick), state.num_seats)]
        led = trick[0][1]
        beaten = led != JOKER and VALUE[led] != special and card != JOKER
        if beaten:
            beaten = any(top.get((rival, SUIT[card]), 0) > VALUE[card] for rival in later)
        sure = 0.0 if beaten else 1.0
    projected = []
    for other, hand in enumerate(hands):
        tricks = float(state.tricks_won()[other]) + (sure if other == leading else 0.0)
        rivals = [rival for rival in range(state.num_seats) if rival != other]
        for card in hand:
            if card == JOKER or VALUE[card] == special:
                tricks += 0.5
            elif all(top.get((rival, SUIT[card]), 0) < VALUE[card] for rival in rivals):
                tricks += 1
        low = int(tricks)
        frac = tricks - low
        value = (1 - frac) * table[min(low, len(table) - 1)] + frac * table[min(low + 1, len(table) - 1)]
        projected.append(scores[other] + value)
    return projected[seat] - max(value for other, value in enumerate(projected) if other != seat)
