"""Minimize: Declare's opponent inference for the hard AI (issue 23): how likely a deal of the unseen cards
is, given every throw and pick each other seat has made this deal (``docs/rules/declare.md``, "Levels
(issue 23)").

:func:`deal_turns` reads the public history once per decision: each other seat's turns since the last
declare (its throw, its pick with the ends it was offered, a quick throw-back) and the cards it took in view
of all and still held at each pick. :func:`likelihood` then rates one sampled world: it walks each seat's
turns backwards from the hand the world gives it (a throw gives its cards back, a take or a draw takes the
card away; the card a draw brought is the one thrown back if it was, else the highest card that seat does
not hold in view of all: the draw that best excuses a high card) and, at every turn, scores what the seat
did with the hand it then held under a softened model of a sensible player, the one the normal and greedy
players follow (measured over their games, 2026-11-27):

* the throw: players throw the throw that sheds the most points (the greedy player in 99.9% of its
  throws, the normal player in 96%); a world where the hand held a throw worth ``r`` points more is
  weighted ``THROW_SLIP x THROW_SLIP_DECAY ** (r - 1)``;
* not declaring: a seat that threw with 7 points or less in hand passed a declare it could have made; with
  1 point or less players declare three times in four, so such a world is weighted ``PASS_SURE``, any
  other world where it could have declared ``PASS_MAY``;
* the pick (a draw or taking an end): a softmax over the normal player's worth of each pick
  (:func:`~engine.ivak_declare.ai.hand_worth` with the card taken; a draw at the deck's mean) with
  ``PICK_BETA`` per point: taking a 9 says the hand pairs with it, drawing past a 2 says the hand keeps a
  big throw.

Everything here reads only the seat's information: the public history, hand sizes and the world drawn from
its information set.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field

from engine.ivak_declare.actions import (
    DECLARE,
    DECLARE_NOW_CODE,
    DeclareAction,
    Discover,
    Draw,
    NoCard,
    NoPick,
    Take,
    ThrowBack,
    ThrowCards,
)
from engine.ivak_declare.cards import (
    DECLARE_LIMIT_Q,
    DISCOVER,
    FULL_DECK,
    HALF_VALUE,
    NO_PICK,
    card_points,
    card_sort_key,
    hand_quarters,
)
from engine.ivak_declare.rules import DeclareState
from engine.ivak_declare.throws import legal_throws, pickable_ends, throw_back_fits

THROW_SLIP = 0.05
"""The weight of a world in which a seat's throw shed one point less than the best throw its hand then
held."""

THROW_SLIP_DECAY = 0.8
"""The further factor per further point the throw fell short of the best one."""

PASS_SURE = 0.25
"""The weight of a world in which a seat threw with 1 point or less in hand instead of declaring."""

PASS_MAY = 0.55
"""The weight of a world in which a seat threw with 7 points or less (over 1) instead of declaring."""

PICK_BETA = 0.7
"""The softmax's sharpness per point of hand worth over a seat's picks (fitted to the normal and greedy
players' picks)."""

TILT = 0.08
""":func:`last_turn_likelihood`'s tilt per point of the cards other seats hold unseen."""

KEEP = 0.5  # the normal player's share of the best next throw a hand is credited with (ai.KEEP_WEIGHT)

_DECK_POINTS = Counter(card_points(card) for card in FULL_DECK)
_DECK_COUNT = len(FULL_DECK)


@dataclass
class Turn:
    """One turn of another seat this deal, as the table saw it.

    Attributes
    ----------
    thrown:
        The cards it threw.
    pick:
        Its pick's action (``None`` if the turn has not reached its pick yet).
    ends:
        The ends of the previous throw it could take at its pick.
    known:
        The cards it held in view of all (taken from the discard pile, not thrown since) at its pick.
    thrown_back:
        The drawn card it threw back after the turn, if it did.
    """

    thrown: tuple[str, ...]
    pick: DeclareAction | None = None
    ends: tuple[str, ...] = ()
    known: Counter[str] = field(default_factory=Counter)
    thrown_back: str | None = None


def deal_turns(state: DeclareState, seat: int) -> dict[int, list[Turn]]:
    """Every other seat's turns of this deal (since the last declare), oldest first, read from the public
    history: the evidence :func:`likelihood` weighs worlds by. Seats without a throw this deal are left
    out."""
    start = len(state.history)
    while start and state.history[start - 1][1] not in (DECLARE, DECLARE_NOW_CODE):
        start -= 1
    turns: dict[int, list[Turn]] = {}
    known: dict[int, Counter[str]] = {}
    previous: list[str] = []
    current: list[str] = []
    for actor, code in state.history[start:]:
        try:
            action = DeclareAction.parse(code)
        except ValueError:
            continue
        held = known.setdefault(actor, Counter())
        if isinstance(action, ThrowCards):
            current = list(action.cards)
            for card in action.cards:
                if held[card]:
                    held[card] -= 1
            if actor != seat:
                turns.setdefault(actor, []).append(Turn(action.cards))
        elif isinstance(action, ThrowBack):
            if throw_back_fits(previous, action.card) == 0:
                previous.insert(0, action.card)
            else:
                previous.append(action.card)
            if actor in turns and actor != seat:
                turns[actor][-1].thrown_back = action.card
        elif isinstance(action, Draw | Take | Discover | NoPick | NoCard):
            if actor != seat and actor in turns:
                turn = turns[actor][-1]
                turn.pick, turn.ends, turn.known = action, tuple(pickable_ends(previous)), Counter(+held)
            if isinstance(action, Take | Discover):
                held[action.card] += 1
                if action.card in previous:
                    previous.remove(action.card)
            previous, current = current, []
    return turns


def _sorted(hand: Counter[str]) -> tuple[str, ...]:
    return tuple(sorted(hand.elements(), key=card_sort_key))


def _best(hand: tuple[str, ...]) -> int:
    throws = legal_throws(hand)
    return throws[0].points if throws else 0


def _worth(hand: tuple[str, ...]) -> float:
    """:func:`~engine.ivak_declare.ai.hand_worth` of a sorted hand (the normal player's)."""
    points = sum(card_points(card) for card in hand)
    return (points - KEEP * _best(hand)) / (1 << min(hand.count(HALF_VALUE), 2))


def _draw_worth(hand: tuple[str, ...]) -> float:
    """The expected worth after drawing a card at the deck's mean (the normal player's draw, from a seat
    that has seen nothing)."""
    best = _best(hand)
    points = sum(card_points(card) for card in hand)
    expected = sum(n * (value - KEEP * max(best, value)) for value, n in _DECK_POINTS.items()) / _DECK_COUNT
    return (points + expected) / (1 << min(hand.count(HALF_VALUE), 2))


def _pick_odds(after_throw: Counter[str], turn: Turn) -> float:
    """The chance of ``turn``'s pick (a draw or a take) under the softmax of :data:`PICK_BETA` over the
    worth each pick leaves the hand ``after_throw`` with; 1 for a turn whose pick tells nothing."""
    if not turn.ends or not isinstance(turn.pick, Draw | Take):
        return 1.0
    hand = _sorted(after_throw)
    values = {"draw": _draw_worth(hand)}
    for end in turn.ends:
        values[end] = _worth(_sorted(after_throw + Counter([end])))
    chosen = values["draw"] if isinstance(turn.pick, Draw) else values.get(turn.pick.card)
    if chosen is None:
        return 1.0
    low = min(values.values())
    total = sum(math.exp(-PICK_BETA * (value - low)) for value in values.values())
    return math.exp(-PICK_BETA * (chosen - low)) / total


def _throw_odds(before: Counter[str], thrown: tuple[str, ...]) -> float:
    """The weight of throwing ``thrown`` from the hand ``before`` instead of declaring or throwing more
    points."""
    hand = _sorted(before)
    weight = 1.0
    quarters = hand_quarters(hand)
    if quarters <= DECLARE_LIMIT_Q:
        weight = PASS_SURE if quarters <= 4 else PASS_MAY
    short = _best(hand) - sum(card_points(card) for card in thrown)
    if short > 0:
        weight *= THROW_SLIP * THROW_SLIP_DECAY ** (short - 1)
    return weight


def _drawn_card(hand: Counter[str], turn: Turn) -> str | None:
    """The card ``turn``'s draw most likely brought into ``hand`` (the hand after the pick): the one that
    best excuses the throw before it. First the highest card the seat does not hold in view of all; if the
    hand before the throw would then still hold a throw of more points than it threw, one of that throw's
    cards instead when that leaves none (a Joker drawn after a throw explains a sequence it was not in).
    ``None`` if every card in hand is held in view of all."""
    hidden = [card for card, count in hand.items() if count > turn.known[card]]
    if not hidden:
        return None
    drawn = max(hidden, key=lambda card: (card_points(card), card_sort_key(card)))
    before = hand.copy()
    before[drawn] -= 1
    before.update(turn.thrown)
    throws = legal_throws(_sorted(before))
    shed = sum(card_points(card) for card in turn.thrown)
    if not throws or throws[0].points <= shed:
        return drawn
    for card in sorted(set(throws[0].cards), key=card_sort_key):
        if card != drawn and card in hidden:
            trial = hand.copy()
            trial[card] -= 1
            trial.update(turn.thrown)
            if _best(_sorted(trial)) <= shed:
                return card
    return drawn


def likelihood(world: DeclareState, turns: dict[int, list[Turn]]) -> float:
    """How likely ``world``'s deal of the unseen cards is given the other seats' turns this deal
    (:func:`deal_turns`), relative (not normalised): the product over every turn of each seat of the
    model's chance of its throw, its passed declare and its pick (module docstring), the hands it held
    rebuilt backwards from the hand ``world`` gives it."""
    weight = 1.0
    for other, seat_turns in turns.items():
        hand = Counter(world.hand(other))
        for turn in reversed(seat_turns):
            drawn = None
            if turn.thrown_back is not None:
                hand[turn.thrown_back] += 1
                drawn = turn.thrown_back
            pick = turn.pick
            if isinstance(pick, Draw):
                if drawn is None:
                    drawn = _drawn_card(hand, turn)
                    if drawn is None:
                        break  # a world that cannot be rebuilt (not one this history allows)
                hand[drawn] -= 1
            elif isinstance(pick, Take | Discover):
                if not hand[pick.card]:
                    break
                hand[pick.card] -= 1
            if isinstance(pick, Discover):
                hand[DISCOVER] += 1
            elif isinstance(pick, NoPick):
                hand[NO_PICK] += 1
            hand = +hand
            weight *= _pick_odds(hand, turn)
            hand.update(turn.thrown)
            weight *= _throw_odds(hand, turn.thrown)
    return weight


def last_turn_likelihood(world: DeclareState, turns: dict[int, list[Turn]]) -> float:
    """A cheaper variant: only each seat's last turn (the card its draw brought averaged over the cards
    it does not hold in view of all), times ``exp(-TILT x`` the points of those cards ``)``."""
    weight = 1.0
    points = 0
    for other, seat_turns in turns.items():
        hand = Counter(world.hand(other))
        known = Counter(world.known_cards(other))
        hidden = hand - known
        points += sum(card_points(card) * count for card, count in hidden.items())
        turn = seat_turns[-1]
        if turn.thrown_back is not None:
            hand[turn.thrown_back] += 1
        pick = turn.pick
        if isinstance(pick, Draw) and turn.thrown_back is None:
            total = 0.0
            count = 0
            for card, n in hidden.items():
                before = hand.copy()
                before[card] -= 1
                before.update(turn.thrown)
                total += n * _throw_odds(+before, turn.thrown)
                count += n
            weight *= total / count if count else 1.0
            continue
        if isinstance(pick, Draw):
            hand[turn.thrown_back] -= 1
        elif isinstance(pick, Take | Discover):
            hand[pick.card] -= 1
        if isinstance(pick, Discover):
            hand[DISCOVER] += 1
        elif isinstance(pick, NoPick):
            hand[NO_PICK] += 1
        hand.update(turn.thrown)
        weight *= _throw_odds(+hand, turn.thrown)
    return weight * math.exp(-TILT * points)
