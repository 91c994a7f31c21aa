"""The Minimize: Declare AI: rule-based throws and picks planned together, and a Monte Carlo declare; its
hard level searches the declare.

Rules: ``docs/rules/declare.md`` (its "AI player" section describes this player). The player decides only
from what its seat may see: its own hand (``state.hand(seat)``), the public piles (the previous throw, the
throw just made, the discard pile), the cards each other seat is known to have taken from the discard pile
(:meth:`~engine.declare.rules.DeclareState.known_cards`), hand sizes, totals and the public history
(turns since the last declare); its sampled deals redraw the unseen cards as
:meth:`~engine.declare.rules.DeclareState.resample_hidden` does (sorted, then shuffled with its
generator), without copying the state. It chooses among ``state.legal_actions(seat)`` by parsing their
codes, so a decision it does not know gets a legal answer too (the first one offered).

The hand heuristic: a hand is worth its points minus half the points of the best throw it holds (that
throw goes next turn), halved once per My Half Value held (twice at most). Lower is better.

* Throw: every legal throw is tried together with the pick that would follow it (take an end of the
  previous throw, draw, play I Don't Pick, or I Discover Now), a draw counting the expected worth over the
  cards the seat has not seen; the throw whose best follow-up leaves the best hand is played.
* Pick: the same comparison for the throw already made (a power card is played only when it gains at least
  ``POWER_MARGIN`` points over the best plain pick, since it is worth keeping for later).
* Declare: with 7 or less, ``samples`` deals of the unseen cards to the other hands (hand sizes kept, the
  cards they took in view of all included) estimate the chance that every other hand is higher (a hand
  equal to its own makes the call fail, ruling 2, so a tied deal counts against it); the AI declares when
  that chance is at least its threshold: ``declare_at`` (default 0.9) for the first ``DRAG_START`` rounds
  of turns of a deal, then lowered in equal steps to 0 at ``DRAG_END`` rounds, from where it declares
  whenever it may (a failed call costs 25 points but ends the round; a sure failure, such as a tie between
  hands everyone has seen, would otherwise never be called).
* A round that drags on: from ``DRAG_END`` rounds of turns on, every pick is a draw (when one is legal), so
  no cycle of seats passing the same known cards to each other (seat after seat throwing a 5 and taking
  the 4 just thrown) can hold a round forever.
* A quick throw-back, when offered, is always taken (it only sheds points).

The hard level, :class:`DeclareSearchPlayer` (``docs/rules/declare.md``, "Levels"),
throws and picks as the normal player does but crediting a hand with ``HARD_KEEP_WEIGHT`` (0.75, not 0.5)
of its best next throw, and searches every decision where it may declare (its other decisions are the
normal player's, with that weight):

* Worlds: ``worlds`` draws of ``seen.sample(rng)`` (the canonical ``resample_hidden`` of the seat's
  information set, never the state), each weighted by :func:`likelihood`, the opponent inference: what
  each other seat's last throw says of the cards it kept (:func:`last_throws`; players throw their highest
  cards and keep low ones, so a deal that gives a seat cards above its last throw is unlikely).
* Declaring is rated exactly in every world (the round is scored there, then :func:`rating` rates the new
  totals: the seat's room below 101 points against the others'); holding plays its own throw or pick
  and the rest of the round by :func:`rollout` (a fast rule policy for every seat, on the engine's own
  rules) in ``rollouts`` of the worlds drawn again by weight. It declares when the weighted mean rating
  of declaring is at least that of holding. Past ``cpu_seconds`` of the deciding thread's CPU time
  (``time.thread_time``) no further world or rollout is started.
"""

from __future__ import annotations

import math
import random
from collections import Counter

from engine.ai.core import SEARCH_CPU_SECONDS, AIPlayer, InformationSet, SearchGuard, legal_codes, win_share
from engine.core import GameState
from engine.declare.actions import (
    DECLARE,
    DECLARE_NOW_CODE,
    DRAW,
    NO_CARD,
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
from engine.declare.cards import (
    DISCOVER,
    FULL_DECK,
    HALF_VALUE,
    NO_PICK,
    card_points,
    card_sort_key,
    hand_quarters,
    is_number,
)
from engine.declare.rules import DeclareState
from engine.declare.table import Phase
from engine.declare.throws import legal_throws, pickable_ends

KEEP_WEIGHT = 0.5  # the share of the best next throw's points a hand is credited with
POWER_MARGIN = 2.0  # points a power card must gain over a plain pick to be played
HIDDEN_CARD_GUESS = 4.5  # points the evaluation counts per card in another seat's hand
DRAG_START = 10  # rounds of turns of a deal after which the declare threshold starts to fall
DRAG_END = 20  # rounds of turns of a deal from which the AI declares whenever it may and always draws


def _halving(hand: tuple[str, ...] | list[str]) -> float:
    return 1.0 / (1 << min(hand.count(HALF_VALUE), 2))


def hand_worth(hand: tuple[str, ...] | list[str], keep_weight: float = KEEP_WEIGHT) -> float:
    """The heuristic worth of ``hand`` in points, lower is better: its points minus ``keep_weight`` times
    the points of its best throw, halved per My Half Value (at most twice)."""
    ordered = tuple(sorted(hand, key=card_sort_key))
    points = sum(card_points(card) for card in ordered)
    throws = legal_throws(ordered)
    best = throws[0].points if throws else 0
    return (points - keep_weight * best) * _halving(ordered)


def _remove(hand: list[str], cards: tuple[str, ...] | list[str]) -> list[str]:
    rest = list(hand)
    for card in cards:
        rest.remove(card)
    return rest


class DeclarePlayer(AIPlayer):
    """The Minimize: Declare AI (see the module docstring).

    Parameters
    ----------
    samples:
        Deals of the unseen cards used to estimate a declare's chance of success.
    declare_at:
        The least estimated chance of success (0..1) at which it declares.
    keep_weight:
        The share of the best next throw's points a hand is credited with (:func:`hand_worth`).
    """

    name = "declare-rules-mc"

    def __init__(self, samples: int = 24, declare_at: float = 0.9, keep_weight: float = KEEP_WEIGHT) -> None:
        self.samples = samples
        self.declare_at = declare_at
        self.keep_weight = keep_weight

    # -- public ---------------------------------------------------------------------------------------

    def decide(self, seen: InformationSet, rng: random.Random) -> str:
        """One legal code for ``seen.seat``; from the seat's information only.

        Raises
        ------
        ValueError
            If ``seat`` has no legal action.
        """
        state, seat = seen.world, seen.seat
        codes = legal_codes(state, seat)
        if len(codes) == 1 or not isinstance(state, DeclareState):
            return codes[0]
        actions = parsed(codes)
        for code, action in actions:
            if isinstance(action, ThrowBack):
                return code
        kinds = {type(action) for _, action in actions}
        rounds = rounds_of_turns(state)
        threshold = self._threshold(rounds)
        if (Declare in kinds or DeclareNow in kinds) and (
            threshold <= 0 or self._declare_chance(state, seat, rng) >= threshold
        ):
            return next(code for code, action in actions if isinstance(action, Declare | DeclareNow))
        draw_only = rounds >= DRAG_END
        if draw_only and Draw in kinds:
            return DRAW
        return self.best_move(state, seat, actions, draw_only) or codes[0]

    def best_move(
        self,
        state: DeclareState,
        seat: int,
        actions: list[tuple[str, DeclareAction | None]],
        draw_only: bool = False,
    ) -> str | None:
        """The throw or pick among ``actions`` (``(code, parsed action)`` pairs of ``seat``'s legal codes, in
        the engine's order) that leaves the lowest heuristic worth in points (ties: the first), or ``None``
        if ``actions`` holds neither: the normal player's move once it has not declared (the hard level's
        move when it holds). A throw is rated with its best following pick (a hair better per point shed), a
        pick as it is; ``draw_only``: a round past ``DRAG_END``, where only a draw follows a throw. Other
        actions (declares, throw-backs) are left out."""
        hand = list(state.hand(seat))
        draw_points = self._unseen_points(state, hand)
        best_code, best_value = None, float("inf")
        for code, action in actions:
            if isinstance(action, ThrowCards):
                rest = _remove(hand, action.cards)
                value = self._best_pick(state, rest, draw_points, draw_only)[1] - 1e-3 * sum(
                    map(card_points, action.cards)
                )
            elif isinstance(action, Draw | Take | NoPick | Discover | NoCard):
                value = self._pick_value(hand, action, draw_points)
            else:
                continue
            if value < best_value - 1e-9:
                best_code, best_value = code, value
        return best_code

    def _worth(self, hand: list[str]) -> float:
        return hand_worth(hand, self.keep_weight)

    # -- picks ----------------------------------------------------------------------------------------

    def _pick_value(self, hand: list[str], action: DeclareAction, draw_points: Counter[int]) -> float:
        """The worth of the hand after the pick ``action`` (lower is better), power cards charged
        ``POWER_MARGIN``."""
        if isinstance(action, Take):
            return self._worth(hand + [action.card])
        if isinstance(action, Draw):
            return self._draw_worth(hand, draw_points)
        if isinstance(action, NoPick):
            return self._worth(_remove(hand, [NO_PICK])) + POWER_MARGIN
        if isinstance(action, Discover):
            return self._worth(_remove(hand, [DISCOVER]) + [action.card]) + POWER_MARGIN
        return self._worth(hand)  # NoCard

    def _draw_worth(self, hand: list[str], unseen: Counter[int]) -> float:
        """The expected worth after drawing a card the seat has not seen: the hand's points plus the drawn
        card's, minus ``keep_weight`` times the larger of the hand's best throw and the drawn card (new
        combinations ignored)."""
        count = sum(unseen.values())
        ordered = tuple(sorted(hand, key=card_sort_key))
        throws = legal_throws(ordered)
        best = throws[0].points if throws else 0
        points = sum(card_points(card) for card in ordered)
        if not count:
            return self._worth(hand)
        expected = (
            sum(n * (value - self.keep_weight * max(best, value)) for value, n in unseen.items()) / count
        )
        return (points + expected) * _halving(ordered)

    def _best_pick(
        self, state: DeclareState, hand: list[str], draw_points: Counter[int], draw_only: bool = False
    ) -> tuple[str, float]:
        """The best pick after a throw leaving ``hand`` (before its pick), and the worth it leaves; with
        ``draw_only`` (a round past ``DRAG_END``) the draw."""
        options: list[DeclareAction] = [Draw()]
        if draw_only:
            return DRAW, self._pick_value(hand, options[0], draw_points)
        options += [Take(card) for card in pickable_ends(state.previous_throw)]
        if NO_PICK in hand:
            options.append(NoPick())
        if DISCOVER in hand:
            pile = set(state.discard_pile) | set(state.previous_throw)
            options += [Discover(card) for card in sorted(pile, key=card_sort_key) if is_number(card)]
        scored = [(self._pick_value(hand, option, draw_points), option.format()) for option in options]
        value, code = min(scored, key=lambda item: item[0])
        return code, value

    @staticmethod
    def _unseen_cards(state: DeclareState, hand: list[str]) -> Counter[str]:
        """The cards the seat has not seen (in other hands, bar those taken in view of all, and in the
        draw pile)."""
        seen = Counter(hand)
        seen.update(state.discard_pile)
        seen.update(state.previous_throw)
        seen.update(state.throw_this_turn)
        for other in range(state.num_seats):
            seen.update(state.known_cards(other))
        return Counter(FULL_DECK) - seen

    def _unseen_points(self, state: DeclareState, hand: list[str]) -> Counter[int]:
        """How many cards of each point value the seat has not seen."""
        points: Counter[int] = Counter()
        for card, count in self._unseen_cards(state, hand).items():
            points[card_points(card)] += count
        return points

    # -- declaring ------------------------------------------------------------------------------------

    def _threshold(self, rounds: float) -> float:
        """The least chance of success at which it declares after ``rounds`` rounds of turns of a deal
        (:func:`rounds_of_turns`): ``declare_at`` up to ``DRAG_START``, then lowered in equal steps to 0 at
        ``DRAG_END`` (so that a table of cautious players still ends its rounds, even when every call
        would fail)."""
        eased = (rounds - DRAG_START) / (DRAG_END - DRAG_START)
        return self.declare_at * min(1.0, max(0.0, 1.0 - eased))

    def _declare_chance(self, state: DeclareState, seat: int, rng: random.Random) -> float:
        """The share of ``samples`` deals of the cards the seat has not seen (sorted, then shuffled with
        ``rng``: the draw of :meth:`DeclareState.resample_hidden` without its copy) in which every other
        hand in play is higher. A deal where another hand equals the seat's counts as a failed call: "If any
        other player has the same number of points or fewer points than the caller, the caller scores 25"
        (ruling 2, :func:`~engine.declare.scoring.round_scores`)."""
        mine = hand_quarters(state.hand(seat))
        others = [other for other in range(state.num_seats) if other != seat and state.alive(other)]
        known = {other: list(state.known_cards(other)) for other in others}
        unknown = {other: state.hand_size(other) - len(known[other]) for other in others}
        pool = sorted(self._unseen_cards(state, list(state.hand(seat))).elements(), key=card_sort_key)
        wins = 0
        for _ in range(self.samples):
            rng.shuffle(pool)
            start = 0
            beaten = False
            for other in others:
                dealt = pool[start : start + unknown[other]]
                start += unknown[other]
                if hand_quarters(known[other] + dealt) <= mine:
                    beaten = True
                    break
            wins += not beaten
        return wins / self.samples


def parsed(codes: list[str]) -> list[tuple[str, DeclareAction | None]]:
    """Each of ``codes`` with its parsed action (``None`` for a code this player does not know)."""
    actions: list[tuple[str, DeclareAction | None]] = []
    for code in codes:
        try:
            actions.append((code, DeclareAction.parse(code)))
        except ValueError:
            actions.append((code, None))
    return actions


def rounds_of_turns(state: DeclareState) -> float:
    """How many rounds of turns this deal has lasted: the throws in the public history since the last
    declare (or since the game began), divided by the number of seats still in the game."""
    throws = 0
    for _, code in reversed(state.history):
        if code in (DECLARE, DECLARE_NOW_CODE):
            break
        if code.startswith("t") and not code.startswith("take") and not code.startswith("tb"):
            throws += 1
    alive = sum(1 for other in range(state.num_seats) if state.alive(other))
    return throws / max(alive, 1)


def evaluate(state: GameState, seat: int) -> float:
    """The position's worth to ``seat`` in points, higher is better: the mean over the other seats in play
    of (their total + ``HIDDEN_CARD_GUESS`` per card in hand) minus (``seat``'s total + the heuristic worth
    of its hand, :func:`hand_worth`). A finished game is worth 1000 per share of the win, a seat out -500.
    Reads only totals, hand sizes and ``seat``'s own hand."""
    assert isinstance(state, DeclareState)
    if state.is_terminal():
        standings = state.standings()
        winners = [standing.seat for standing in standings if standing.rank == 1]
        return 1000.0 / len(winners) if seat in winners else -500.0
    if not state.alive(seat):
        return -500.0
    others = [other for other in range(state.num_seats) if other != seat and state.alive(other)]
    mine = float(state.total(seat)) + hand_worth(state.hand(seat))
    if not others:
        return 1000.0
    theirs = sum(float(state.total(other)) + HIDDEN_CARD_GUESS * len(state.hand(other)) for other in others)
    return theirs / len(others) - mine


DEFAULT_WORLDS = 48
"""Worlds drawn per searched decision: a declare is rated in each of them, weighted by :func:`likelihood`."""

HARD_KEEP_WEIGHT = 0.75
"""The hard level's ``keep_weight``: the share of the best next throw's points its throws and picks credit a
hand with (the normal player: ``KEEP_WEIGHT``, 0.5). Chosen by a sweep against greedy players; the figures
are in ``docs/rules/declare.md``, "Levels"."""

DEFAULT_ROLLOUTS = 16
"""Of those worlds, how many (drawn again by weight) the best throw is played out in to the end of the
round."""

ROLLOUT_STEPS = 150
"""Actions a rollout plays at most before the round is rated as it stands (a round of three seats lasts
about 25 actions)."""

TAKE_AT = 3
"""A rollout seat takes the cheaper end of the previous throw when it is worth this many points or fewer,
and draws otherwise."""

SURE_DECLARE_Q = 4
"""A rollout seat declares whenever it may with a hand of this many quarter points or fewer (1 point)."""

LOWEST_DECLARE = 0.5
"""The chance per turn that a rollout seat declares when it may and its hand is the lowest of the world."""

STRENGTH_POWER = 2.0
"""The exponent of a seat's room below 101 points in :func:`rating`."""

ABOVE_THROW_ODDS = 0.2
""":func:`likelihood`'s factor per unseen card in another hand worth more than that seat's last throw's
highest card."""

POINT_TILT = 0.08
""":func:`likelihood`'s exponential tilt per point of unseen cards in other hands."""


def rollout(world: DeclareState, dealt: int, rng: random.Random, steps: int = ROLLOUT_STEPS) -> bool:
    """Play ``world`` (changed) to the end of its round number ``dealt``, or ``steps`` actions, and say
    whether that round ended (or the game); a fast rule policy for
    every seat: declare when allowed with 1 point or less, or (with chance :data:`LOWEST_DECLARE` per turn)
    when its hand is strictly the lowest in this world; otherwise throw the throw that sheds the most
    points (:func:`~engine.declare.throws.legal_throws`' first); then take the cheaper end of the
    previous throw if it is worth :data:`TAKE_AT` points or less, else draw. Power cards are not played."""
    alive = [seat for seat in range(world.num_seats) if world.alive(seat)]
    for _ in range(steps):
        if world.is_terminal() or world.round_number != dealt:
            return True
        seat = world.seats_to_act()[0]
        if world.phase is Phase.THROW:
            hand = world.hand(seat)
            throws = legal_throws(hand)
            if world.can_declare(seat):
                mine = hand_quarters(hand)
                if (
                    not throws
                    or mine <= SURE_DECLARE_Q
                    or (
                        all(hand_quarters(world.hand(other)) > mine for other in alive if other != seat)
                        and rng.random() < LOWEST_DECLARE
                    )
                ):
                    world.apply(seat, DECLARE)
                    continue
            world.apply(seat, throws[0].code if throws else DECLARE)
            continue
        ends = pickable_ends(world.previous_throw)
        cheap = min(ends, key=card_points, default=None)
        if cheap is not None and (card_points(cheap) <= TAKE_AT or not world.draw_pile):
            world.apply(seat, "take" + cheap)
        else:
            world.apply(seat, DRAW if world.draw_pile else NO_CARD)
    return world.is_terminal() or world.round_number != dealt


def rating(state: DeclareState, seat: int, ended: bool = True) -> float:
    """``seat``'s chances in ``state`` (0..1, higher is better): in a finished game its share of the win;
    otherwise its room below the elimination line (101 points minus its total) to the power
    :data:`STRENGTH_POWER` over the sum of every seat's still in the game (a seat out: 0). Unless the round
    ``ended``, half of each hand's points count as if scored."""
    if state.is_terminal():
        return win_share(state, seat)
    if not state.alive(seat):
        return 0.0
    strengths = []
    mine = 0.0
    for other in range(state.num_seats):
        if not state.alive(other):
            continue
        total = float(state.total(other))
        if not ended:
            total += hand_quarters(state.hand(other)) / 8
        strength = max(1.0, 101.0 - total) ** STRENGTH_POWER
        strengths.append(strength)
        if other == seat:
            mine = strength
    return mine / sum(strengths)


def last_throws(state: DeclareState, seat: int) -> dict[int, tuple[int, bool]]:
    """What the public history of this deal says about each other seat's hand (opponent inference): for
    each other seat that has thrown since the last declare, the points of the highest card of its last
    throw, and whether it has since drawn a card from the pile that it still holds (not thrown back).
    Players throw their highest cards first (the normal and greedy players do, as do timeouts, ruling 17,
    and any sensible player), so the cards left in that hand are likely worth no more than that card,
    but for the one it drew."""
    found: dict[int, tuple[int, bool]] = {}
    drew: dict[int, bool] = {}
    for other, code in reversed(state.history):
        if code in (DECLARE, DECLARE_NOW_CODE):
            break
        if other == seat or other in found:
            continue
        try:
            action = DeclareAction.parse(code)
        except ValueError:
            continue
        if isinstance(action, ThrowCards):
            found[other] = (max(map(card_points, action.cards)), drew.get(other, False))
        elif isinstance(action, Draw):
            drew.setdefault(other, True)
        elif isinstance(action, ThrowBack):
            drew[other] = False
    return found


def likelihood(world: DeclareState, evidence: dict[int, tuple[int, bool]]) -> float:
    """How likely ``world``'s deal of the unseen cards is, given :func:`last_throws` ``evidence``
    (relative, not normalised): :data:`ABOVE_THROW_ODDS` per unseen card in another seat's hand worth
    more than its last throw's highest card (one such card excused if it drew since), times
    ``exp(-POINT_TILT x`` the points of every unseen card in those hands ``)``: players keep low cards
    (Jokers and power cards are worth 0) and throw high ones. Its two constants were set so that the
    chance of a successful declare it gives matches the outcomes of normal players' games (docs/rules/
    declare.md, "Levels")."""
    weight = 1.0
    points = 0
    for other, (top, drew) in evidence.items():
        unseen = Counter(world.hand(other))
        unseen.subtract(world.known_cards(other))
        above = 0
        for card, count in unseen.items():
            if count > 0:
                value = card_points(card)
                points += value * count
                above += count if value > top else 0
        if drew and above:
            above -= 1
        weight *= ABOVE_THROW_ODDS**above
    return weight * math.exp(-POINT_TILT * points)


class DeclareSearchPlayer(AIPlayer):
    """The hard Minimize: Declare AI (see the module docstring): the normal player's throws and picks at
    ``keep_weight`` (:data:`HARD_KEEP_WEIGHT`), and a search at every decision where it may declare.

    Parameters
    ----------
    worlds:
        Worlds drawn per searched decision (a declare is rated in each, weighted by :func:`likelihood`).
    rollouts:
        Of those worlds, how many (drawn again by weight) its throw is played out in.
    cpu_seconds:
        A cap on one decision's search, in CPU seconds of the deciding thread (``time.thread_time``), or
        ``None``: past it no further world or rollout is started (a guard: the budget stays well within
        it).
    keep_weight:
        The ``keep_weight`` of the :class:`DeclarePlayer` whose throws and picks it plays (default
        :data:`HARD_KEEP_WEIGHT`).
    """

    name = "declare-search"

    def __init__(
        self,
        worlds: int = DEFAULT_WORLDS,
        rollouts: int = DEFAULT_ROLLOUTS,
        cpu_seconds: float | None = SEARCH_CPU_SECONDS,
        keep_weight: float = HARD_KEEP_WEIGHT,
    ) -> None:
        self.worlds = worlds
        self.rollouts = rollouts
        self.cpu_seconds = cpu_seconds
        self.base = DeclarePlayer(keep_weight=keep_weight)

    def decide(self, seen: InformationSet, rng: random.Random) -> str:
        """One legal code for ``seen.seat``, from the seat's information only.

        Raises
        ------
        ValueError
            If the seat has no legal action.
        """
        state, seat = seen.world, seen.seat
        codes = seen.legal_codes()
        if len(codes) == 1 or not isinstance(state, DeclareState):
            return codes[0]
        actions = parsed(codes)
        declares = [code for code, action in actions if isinstance(action, Declare | DeclareNow)]
        if (
            not declares
            or any(isinstance(action, ThrowBack) for _, action in actions)
            or rounds_of_turns(state) >= DRAG_END
        ):
            return self.base.decide(seen, rng)
        best = self.base.best_move(state, seat, actions)
        if best is None:
            return declares[0]
        return declares[0] if self.declare_beats(seen, declares[0], best, rng) else best

    def declare_beats(self, seen: InformationSet, declare: str, hold: str, rng: random.Random) -> bool:
        """Whether ``declare`` (the code of a declare or I Declare Now) rates better than ``hold`` (its throw
        or pick, :meth:`DeclarePlayer.best_move`) and the round played on: the declare's mean :func:`rating`
        over ``worlds`` worlds weighted by :func:`likelihood`, against the mean rating of ``hold`` and a
        :func:`rollout` in ``rollouts`` of them drawn again by weight."""
        seat, state = seen.seat, seen.world
        assert isinstance(state, DeclareState)
        guard = SearchGuard(self.cpu_seconds)
        evidence = last_throws(state, seat)
        worlds: list[DeclareState] = []
        weights: list[float] = []
        declared = 0.0
        for _ in range(self.worlds):
            if worlds and guard.spent():
                break
            world = seen.sample(rng)
            assert isinstance(world, DeclareState)
            weight = likelihood(world, evidence)
            game = world.copy()
            game.apply(seat, declare)
            declared += weight * rating(game, seat)
            worlds.append(world)
            weights.append(weight)
        total = sum(weights)
        chosen = rng.choices(worlds, weights=weights, k=self.rollouts)
        held = 0.0
        played = 0
        for world in chosen:
            if played and guard.spent():
                break
            dealt = world.round_number
            world = world.copy()
            world.apply(seat, hold)
            held += rating(world, seat, rollout(world, dealt, random.Random(rng.random())))
            played += 1
        return declared / total >= held / played


def player_for(game_key: str) -> DeclarePlayer:
    """The AI that sits at Minimize: Declare tables."""
    return DeclarePlayer()


def hard_player_for(game_key: str) -> DeclareSearchPlayer:
    """The hard level at Minimize: Declare tables: :class:`DeclareSearchPlayer`, the normal player's throws
    and picks at :data:`HARD_KEEP_WEIGHT` and a determinised Monte Carlo search of each declare (worlds
    weighted by what the other seats' throws say of their hands; holding played to the end of the round),
    within 90 ms of CPU time. How it does against the other levels and players is measured in
    ``docs/rules/declare.md`` ("Levels")."""
    return DeclareSearchPlayer()


__all__ = [
    "DRAG_END",
    "DRAG_START",
    "DeclarePlayer",
    "DeclareSearchPlayer",
    "evaluate",
    "hand_worth",
    "hard_player_for",
    "last_throws",
    "likelihood",
    "parsed",
    "player_for",
    "rating",
    "rollout",
    "rounds_of_turns",
]
