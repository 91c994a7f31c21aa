"""The Minimisère AI: flat determinised Monte Carlo over the rest of the deal, with rule-based rollouts.

Minimisère has one kind of decision at every player count: the card to play. Two choices ride on it: with
four to six players, whether to bid the Lot with one's first card (``"<card>+lot"``), and with three, the
decree of a Joker played third (``"JK+win"`` / ``"JK+lose"``). The AI weighs every legal code the same way.

What it looks at: its own hand, the trick in progress, tricks won and running totals, the dealer, the Lot
bidder, the options (target, end by deals), and the hidden hands only through
:meth:`engine.minimisere.MinimisereState.resample_hidden`, which is canonical (the sorted pool of unseen
cards dealt at random, respecting the suits each seat has shown it lacks). It never reads another hand.

The search: for each of ``worlds`` determinisations it plays every candidate code and then the rest of
the deal with a fast rollout policy for every seat (each seat aims for no tricks while it has none and its
hand is weak, otherwise for tricks, stopping one short of all of them; it leads a Joker, a Deuce or a card
no other hand can beat when it wants the trick and its lowest card otherwise, and wins cheaply or ducks
under the trick accordingly, with a little noise), scores the deal by the printed tables, and rates the
new totals for the seat: a win (1), a shared first place, or a loss (0) when the deal ends the game,
otherwise a smooth function of its margin over the best other total. It plays the code with the best
mean.
"""

from __future__ import annotations

import math
import random

from engine.ai.core import AIPlayer
from engine.core import GameState
from engine.minimisere import (
    HAND_SIZES,
    JOKER,
    RANK_VALUES,
    SCORE_TABLES,
    MinimisereAction,
    MinimisereState,
    score_for_deal,
    special_rank,
)

DEFAULT_ROLLOUTS = 96
"""Deals played out per decision, shared among the candidate cards."""

NOISE = 0.1
"""Chance that a rollout player plays a random legal card instead of its rule's card."""

MARGIN_SCALE = 7.0
"""Points of lead over the best other total that make the rating of an unfinished game clearly better."""

_SUIT: dict[str, str | None] = {}
_VALUE: dict[str, int] = {}
for _rank, _value in RANK_VALUES.items():
    for _suit in "SHCD":
        _SUIT[_rank + _suit] = _suit
        _VALUE[_rank + _suit] = _value
_SUIT[JOKER] = None
_VALUE[JOKER] = 0


class _Deal:
    """The rest of one deal in a determinised world, fast to copy and play out (not a game state: no
    history, no events). ``trick`` is ``[(seat, card, decree)]`` like the engine's."""

    __slots__ = ("seats", "hands", "trick", "leader", "tricks", "done", "lot", "size", "special", "three")

    def __init__(self, seats, hands, trick, leader, tricks, done, lot, size, special):
        self.seats = seats
        self.hands = hands
        self.trick = trick
        self.leader = leader
        self.tricks = tricks
        self.done = done
        self.lot = lot
        self.size = size
        self.special = special
        self.three = seats == 3

    def copy(self) -> _Deal:
        return _Deal(
            self.seats,
            [list(hand) for hand in self.hands],
            list(self.trick),
            self.leader,
            list(self.tricks),
            self.done,
            self.lot,
            self.size,
            self.special,
        )

    def to_play(self) -> int:
        return (self.leader + len(self.trick)) % self.seats

    def playable(self, seat: int) -> list[str]:
        hand = self.hands[seat]
        if not self.trick or self.trick[0][1] == JOKER:
            return hand
        suit = _SUIT[self.trick[0][1]]
        same = [card for card in hand if _SUIT[card] == suit]
        return same or hand

    def winner(self, plays: list[tuple[int, str, str]]) -> int:
        """Index of the card winning ``plays`` so far (the engine's rule, on a partial trick too)."""
        led = plays[0][1]
        if led == JOKER or (self.special is not None and _VALUE[led] == self.special):
            return 0
        best = 0
        suit = _SUIT[led]
        best_value = _VALUE[led]
        for index in range(1, len(plays)):
            card = plays[index][1]
            if card == JOKER:
                if plays[index][2] == "win":
                    return index
                continue
            if _SUIT[card] == suit and _VALUE[card] > best_value and _VALUE[card] != self.special:
                best, best_value = index, _VALUE[card]
        return best

    def play(self, seat: int, card: str, decree: str = "", bid_lot: bool = False) -> bool:
        """Play a card; returns True when the deal is over."""
        self.hands[seat].remove(card)
        self.trick.append((seat, card, decree))
        if bid_lot:
            self.lot = seat
        if len(self.trick) < self.seats:
            return False
        winner = self.trick[self.winner(self.trick)][0]
        self.tricks[winner] += 1
        self.done += 1
        self.trick = []
        self.leader = winner
        if self.lot is not None and winner != self.lot:
            return True  # ruling 7: a lost trick settles the Lot
        return self.done == self.size


def _strength(hand: list[str], special: int | None) -> float:
    """A rough count of the tricks a hand can win: Aces, Kings with company, the Joker and led Deuces."""
    suits: dict[str | None, int] = {}
    for card in hand:
        suits[_SUIT[card]] = suits.get(_SUIT[card], 0) + 1
    total = 0.0
    for card in hand:
        value = _VALUE[card]
        if card == JOKER:
            total += 0.8
        elif special is not None and value == special:
            total += 0.7
        elif value == 14:
            total += 1.0
        elif value == 13:
            total += 0.6 if suits[_SUIT[card]] >= 2 else 0.3
        elif value == 12:
            total += 0.3 if suits[_SUIT[card]] >= 3 else 0.1
    return total


def _policy(deal: _Deal, seat: int, nil: list[bool], rng: random.Random) -> tuple[str, str]:
    """The rollout player's card and decree for ``seat``."""
    hand = deal.hands[seat]
    trick = deal.trick
    position = len(trick)
    special = deal.special
    if position and trick[0][1] != JOKER:
        suit = _SUIT[trick[0][1]]
        cards = [card for card in hand if _SUIT[card] == suit] or hand
    else:
        cards = hand
    if len(cards) == 1 and not (position == 2 and deal.three and cards[0] == JOKER):
        return cards[0], ""
    if rng.random() < NOISE:
        card = rng.choice(cards)
        decree = rng.choice(("win", "lose")) if card == JOKER and deal.three and position == 2 else ""
        return card, decree
    won = deal.tricks[seat]
    if deal.lot is not None:
        want = True  # the bidder must win them all; the others need only one to beat it
    elif won == 0:
        want = not nil[seat]
    else:
        want = won < deal.size - 1
    if position == 0:
        if want:
            for card in cards:
                if card == JOKER or _VALUE[card] == special:
                    return card, ""
            masters = [card for card in cards if _is_master(deal, seat, card)]
            if masters:
                return masters[0], ""
            return min(cards, key=_VALUE.__getitem__), ""
        plain = [card for card in cards if card != JOKER and _VALUE[card] != special] or cards
        return min(plain, key=_VALUE.__getitem__), ""
    if deal.three and position == 2 and JOKER in cards:
        return JOKER, ("win" if want else "lose")
    led = trick[0][1]
    if led == JOKER or _VALUE[led] == special:
        winning: list[str] = []
        losing = cards
    else:
        suit = _SUIT[led]
        best = max(_VALUE[card] for _, card, _ in trick if _SUIT[card] == suit)
        winning = [card for card in cards if _SUIT[card] == suit and _VALUE[card] > best]
        losing = [card for card in cards if card not in winning] if winning else cards
    last = position == deal.seats - 1
    if want:
        if winning:
            return (min if last else max)(winning, key=_VALUE.__getitem__), ""
        return min(losing, key=_VALUE.__getitem__), ""
    if losing:
        return max(losing, key=_VALUE.__getitem__), ""
    return (max if last else min)(winning, key=_VALUE.__getitem__), ""


def _is_master(deal: _Deal, seat: int, card: str) -> bool:
    """Whether no other hand of the world holds a higher card of ``card``'s suit."""
    suit, value = _SUIT[card], _VALUE[card]
    for other, hand in enumerate(deal.hands):
        if other != seat:
            for held in hand:
                if _SUIT[held] == suit and _VALUE[held] > value:
                    return False
    return True


def _rollout(deal: _Deal, nil: list[bool], rng: random.Random) -> None:
    """Play the deal out with the rollout policy (``deal`` is changed)."""
    while True:
        seat = (deal.leader + len(deal.trick)) % deal.seats
        card, decree = _policy(deal, seat, nil, rng)
        if deal.play(seat, card, decree):
            return


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


def _deal_of(world: MinimisereState) -> _Deal:
    seats = world.num_seats
    trick = list(world.current_trick())
    leader = trick[0][0] if trick else world.seats_to_act()[0]
    special = special_rank(seats, world.options.nines)
    return _Deal(
        seats,
        [list(world.hand(seat)) for seat in range(seats)],
        trick,
        leader,
        list(world.tricks_won()),
        world.tricks_played,
        world.lot_bidder,
        HAND_SIZES[seats],
        None if special is None else RANK_VALUES[special],
    )


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
        suit, value = _SUIT[card], _VALUE[card]
        key = (suit, action.bid_lot, sum(1 for c in blockers if _SUIT[c] == suit and _VALUE[c] > value))
        if key not in keys:
            keys.add(key)
            kept.append(index)
    return kept


class MinimiserePlayer:
    """Minimisère's AI (see the module's docstring).

    Parameters
    ----------
    rollouts:
        The budget: about this many deals played out per decision, shared among the distinct candidate
        cards (96 by default: a few milliseconds).
    min_worlds, max_worlds:
        Bounds on the determinisations per decision (each candidate is played out once in each).
    """

    name = "minimisere-mc"

    def __init__(self, rollouts: int = DEFAULT_ROLLOUTS, min_worlds: int = 6, max_worlds: int = 24) -> None:
        self.rollouts = rollouts
        self.min_worlds = min_worlds
        self.max_worlds = max_worlds

    def choose(self, state: GameState, seat: int, rng: random.Random) -> str:
        assert isinstance(state, MinimisereState)
        codes = [action.code for action in state.legal_actions(seat)]
        if not codes:
            raise ValueError(f"seat {seat} has no legal action")
        if len(codes) == 1:
            return codes[0]
        actions = [MinimisereAction.parse(code) for code in codes]
        special = special_rank(state.num_seats, state.options.nines)
        own = list(state.hand(seat))  # the seat's own hand, shown in its view
        if any(action.bid_lot for action in actions):
            # The Lot is worth weighing only with a hand that might win every trick.
            strength = _strength(own, None if special is None else RANK_VALUES[special])
            if strength < HAND_SIZES[state.num_seats] - 1:
                actions = [action for action in actions if not action.bid_lot]
                codes = [action.format() for action in actions]
        first = state.resample_hidden(seat, rng)
        unseen = {card for other in range(state.num_seats) if other != seat for card in first.hand(other)}
        unseen.update(first.set_aside())
        kept = distinct_actions(actions, unseen, [card for _, card, _ in state.current_trick()])
        actions = [actions[index] for index in kept]
        codes = [codes[index] for index in kept]
        if len(actions) == 1:
            return codes[0]
        worlds = max(self.min_worlds, min(self.max_worlds, self.rollouts // len(actions)))
        scores = list(state.scores())
        ends_by_deals = state.num_seats == 3 and state.options.end_by == "deals"
        deals_after = state.deal_number  # deals played once this one ends
        totals = [0.0] * len(actions)
        for number in range(worlds):
            world = _deal_of(first if number == 0 else state.resample_hidden(seat, rng))
            nil = [
                _strength(world.hands[other], world.special) + 0.6 * (rng.random() - 0.5) < 1.0
                for other in range(world.seats)
            ]
            for index, action in enumerate(actions):
                deal = world.copy()
                decree = "" if action.decree is None else action.decree.value
                if not deal.play(seat, action.card, decree, action.bid_lot):
                    _rollout(deal, nil, rng)
                gains = score_for_deal(deal.seats, deal.tricks, deal.lot)
                after = [score + gain for score, gain in zip(scores, gains, strict=True)]
                if ends_by_deals:
                    ends = deals_after >= state.options.deals
                else:
                    ends = max(after) >= state.target
                totals[index] += rate_totals(after, seat, ends)
        best = max(range(len(actions)), key=lambda index: (totals[index], -index))
        return codes[best]


def player_for(game_key: str) -> AIPlayer:
    """The AI that sits at Minimisère tables."""
    return MinimiserePlayer()


def evaluate(state: GameState, seat: int) -> float:
    """Minimisère's evaluation for ``seat``, higher is better: its projected total minus the best other
    seat's. A seat's projection is its running total plus the printed table's points for the tricks it
    has won this deal, the trick in progress if its card leads it, and its sure winners: the cards that
    no card left in another hand can beat (the Joker and a Deuce or Nine count as half a trick, as they
    win only when led). At the end of the game: the final margin. (The benchmark's greedy player calls it
    on a determinisation, so the other hands it reads are a sample.)"""
    assert isinstance(state, MinimisereState)
    scores = state.scores()
    if state.is_terminal():
        return scores[seat] - max(score for other, score in enumerate(scores) if other != seat)
    special_code = special_rank(state.num_seats, state.options.nines)
    special = None if special_code is None else RANK_VALUES[special_code]
    table = SCORE_TABLES[state.num_seats]
    hands = [state.hand(other) for other in range(state.num_seats)]
    top: dict[tuple[int, str | None], int] = {}  # (holder, suit) -> best value held
    for other, hand in enumerate(hands):
        for card in hand:
            key = (other, _SUIT[card])
            top[key] = max(top.get(key, 0), _VALUE[card])
    trick = list(state.current_trick())
    leading, sure = -1, 0.0
    if trick:
        deal = _deal_of(state)
        index = deal.winner(trick)
        leading, card = trick[index][0], trick[index][1]
        later = [(trick[0][0] + place) % state.num_seats for place in range(len(trick), state.num_seats)]
        led = trick[0][1]
        beaten = led != JOKER and _VALUE[led] != special and card != JOKER
        if beaten:
            beaten = any(top.get((rival, _SUIT[card]), 0) > _VALUE[card] for rival in later)
        sure = 0.0 if beaten else 1.0
    projected = []
    for other, hand in enumerate(hands):
        tricks = float(state.tricks_won()[other]) + (sure if other == leading else 0.0)
        rivals = [rival for rival in range(state.num_seats) if rival != other]
        for card in hand:
            if card == JOKER or _VALUE[card] == special:
                tricks += 0.5
            elif all(top.get((rival, _SUIT[card]), 0) < _VALUE[card] for rival in rivals):
                tricks += 1
        low = int(tricks)
        frac = tricks - low
        value = (1 - frac) * table[min(low, len(table) - 1)] + frac * table[min(low + 1, len(table) - 1)]
        projected.append(scores[other] + value)
    return projected[seat] - max(value for other, value in enumerate(projected) if other != seat)
