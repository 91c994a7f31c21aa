"""The TOKENIZE AI player (Frazzled Wool; rules: ``docs/rules/tokenize.md``).

Method: a rule-based player over an evaluation of the hand's *set potential*: every group a set can be
made of (a number, a colour of one of the seat's colour tokens, a shape of one of its shape tokens) is
worth more the more of it the hand holds and the more of its cards the seat has not seen used up (the
cards it cannot see, half of the discard pile, which comes back at a reshuffle, and the face-up pile tops,
which it can draw now). The player declares the best set as soon as it holds one (its own turn: the table
asks an AI only then), draws and discards by the potential of the resulting hand plus the expected worth
of the discarded card's action (estimated by sampling unseen cards for the 14/1 and 2 exchanges and the
6), replaces the bonus rule that helps its near sets least, and takes the token that adds most potential.

Everything it reads comes from its world (see :mod:`engine.frazzled.ai_common`): its own hand, the public
table and its legal actions.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence

from engine.ai.core import AIPlayer, InformationSet
from engine.frazzled.actions import COLOUR, Discard, Draw, StealToken, TakeToken
from engine.frazzled.ai_common import best_by, legal_codes, pile_tops, unseen_cards, world_for
from engine.frazzled.deck import FOURTEEN_ONE, Card
from engine.frazzled.table import Phase
from engine.frazzled.tokenize import DeclareSet, ReplaceBonus, TokenizeAction, TokenizeState, set_points

SET_HELD = 8.0
"""Worth of a complete set still in hand (less than the 10+ it scores once declared)."""

PAIR = 4.0
"""Worth of two cards of one group when every card that completes it is still to be found."""

SINGLE = 0.6
"""Worth of one card of a group, likewise."""

TOKEN_GAIN = 2.0
"""A 13 (a token) is worth at least this."""


class Potential:
    """The set potential of hands for one seat: its tokens and how many cards of each group it may still
    get.

    ``colours`` and ``shapes`` are the seat's token indices; ``available`` maps a group key (``("n",
    number)``, ``("c", colour)``, ``("s", shape)``) to the number of its cards the seat may still get
    (weighted: unseen 1, discarded 0.5, on a pile top 2).
    """

    def __init__(self, colours: Iterable[int], shapes: Iterable[int], available: Counter) -> None:
        self.colours = set(colours)
        self.shapes = set(shapes)
        self.available = available

    def groups(self, card: Card) -> list[tuple[str, int]]:
        """The groups ``card`` counts for."""
        keys = [("n", card.number)]
        if card.colour in self.colours:
            keys.append(("c", card.colour))
        if card.shape in self.shapes:
            keys.append(("s", card.shape))
        return keys

    def of(self, hand: Sequence[Card]) -> float:
        """The potential of ``hand`` (in points, about what its sets will score)."""
        counts: Counter = Counter()
        for card in hand:
            counts.update(self.groups(card))
        value = 0.0
        for key, count in counts.items():
            if count >= 3:
                value += SET_HELD * (count // 3)
                count %= 3
            if count:
                left = self.available.get(key, 0.0)
                factor = left / (left + 2.0)
                value += (PAIR if count == 2 else SINGLE) * factor
        return value


def potential_for(world: TokenizeState, seat: int, colours=None, shapes=None) -> Potential:
    """The :class:`Potential` of ``seat`` in ``world`` (its tokens unless ``colours``/``shapes`` given)."""
    tokens = world.tokens()
    colours = tokens.colours[seat] if colours is None else colours
    shapes = tokens.shapes[seat] if shapes is None else shapes
    available: Counter = Counter()

    def add(cards: Iterable[Card], weight: float) -> None:
        for card in cards:
            available[("n", card.number)] += weight
            available[("c", card.colour)] += weight
            available[("s", card.shape)] += weight

    sets = [card for other in range(world.num_seats) for trio in world.sets(other) for card in trio]
    add(unseen_cards(world, seat, sets), 1.0)
    add(world.discard_pile, 0.5)
    add((top for _, top in pile_tops(world)), 2.0)
    return Potential(colours, shapes, available)


class TokenizePlayer(AIPlayer):
    """Frazzled Wool TOKENIZE: declare at once, draw and discard for set potential.

    Parameters
    ----------
    samples:
        Unseen-card samples used to value the 14/1 and 2 exchanges and the 6.
    """

    name = "tokenize-rules"

    def __init__(self, samples: int = 4) -> None:
        self.samples = samples

    def decide(self, seen: InformationSet, rng: random.Random) -> str:
        state, seat = seen.world, seen.seat
        assert isinstance(state, TokenizeState)
        codes = legal_codes(state, seat)
        if len(codes) == 1:
            return codes[0]
        world = world_for(state, seat, rng)
        potential = potential_for(world, seat)
        hand = list(world.hand(seat))
        sets = [code for code in codes if code.startswith("set.")]
        if sets:
            return best_by(sets, lambda code: self._set_value(world, hand, code, potential))
        phase = world.phase
        if phase is Phase.DRAW:
            tops = dict(pile_tops(world))

            def draw_value(code: str) -> float:
                action = TokenizeAction.parse(code)
                assert isinstance(action, Draw)
                return (
                    max(
                        self._discard_value(world, seat, hand, tops[action.pile], card, potential, rng)
                        for card in hand
                    )
                    if hand
                    else 0.0
                )

            return best_by(codes, draw_value)
        if phase is Phase.DISCARD:
            drawn = world.drawn
            assert drawn is not None
            return best_by(
                codes,
                lambda code: self._discard_value(world, seat, hand, drawn, _card(code), potential, rng),
            )
        if phase is Phase.RULE:
            return best_by(codes, lambda code: -self._bonus_use(world, hand, code, potential))
        if phase is Phase.TOKEN:
            return best_by(codes, lambda code: self._token_value(world, seat, hand, code))
        return codes[0]  # a blind pick from a face-down fan: every position is alike

    def _set_value(self, world: TokenizeState, hand: list[Card], code: str, potential: Potential) -> float:
        trio = TokenizeAction.parse(code)
        assert isinstance(trio, DeclareSet)
        points, _ = set_points(trio.cards, world.bonus_cards)
        rest = [card for card in hand if card not in trio.cards]
        return points + potential.of(rest)

    def _discard_value(
        self,
        world: TokenizeState,
        seat: int,
        hand: list[Card],
        drawn: Card,
        card: Card,
        potential: Potential,
        rng: random.Random,
    ) -> float:
        """The potential after discarding ``card`` and taking ``drawn``, plus the card's action's worth."""
        kept = [other for other in hand if other != card] + [drawn]
        value = potential.of(kept)
        number = card.number
        if number in (FOURTEEN_ONE, 2, 6):
            pool = unseen_cards(world, seat)
            results = []
            for _ in range(self.samples):
                if number == 6:
                    new = rng.sample(pool, min(len(kept), len(pool)))
                else:
                    rest = list(kept)
                    for _ in range(1 if number == FOURTEEN_ONE else 2):
                        if rest:
                            rest.pop(rng.randrange(len(rest)))
                    new = rest + rng.sample(pool, min(len(kept) - len(rest), len(pool)))
                results.append(potential.of(new))
            value = sum(results) / len(results)
            if number == 6:
                value -= 0.5 * potential.of(kept)  # the player on the left gets this hand
        elif number == 13:
            value += TOKEN_GAIN
        elif number == 10:
            value += 0.5
        return value

    def _bonus_use(self, world: TokenizeState, hand: list[Card], code: str, potential: Potential) -> float:
        """How much the bonus card in that slot adds to the sets the hand is building (points)."""
        action = TokenizeAction.parse(code)
        assert isinstance(action, ReplaceBonus)
        card = world.bonus_cards[action.slot]
        groups: dict[tuple[str, int], list[Card]] = {}
        for held in hand:
            for key in potential.groups(held):
                groups.setdefault(key, []).append(held)
        near = [cards[:3] for cards in groups.values() if len(cards) >= 2]
        if not near:
            return 0.0
        return sum(card.best_points(cards) for cards in near) / len(near)

    def _token_value(self, world: TokenizeState, seat: int, hand: list[Card], code: str) -> float:
        action = TokenizeAction.parse(code)
        assert isinstance(action, TakeToken | StealToken)
        tokens = world.tokens()
        colours, shapes = list(tokens.colours[seat]), list(tokens.shapes[seat])
        (colours if action.kind == COLOUR else shapes).append(action.index)
        value = potential_for(world, seat, colours, shapes).of(hand)
        if isinstance(action, StealToken):
            value += 0.05 * world.score(action.owner)  # hold back the leader
        return value


def _card(code: str) -> Card:
    action = TokenizeAction.parse(code)
    assert isinstance(action, Discard)
    return action.card


def evaluate(state: TokenizeState, seat: int) -> float:
    """TOKENIZE position value for ``seat`` (higher is better, in points): its score, plus the set
    potential of its hand (with the card it has just drawn), minus the best other score. At the end:
    the score margin over the best other player."""
    best_other = max(state.score(other) for other in range(state.num_seats) if other != seat)
    mine = float(state.score(seat))
    if state.is_terminal():
        return mine - best_other
    hand = list(state.hand(seat))
    if state.drawn is not None and seat in state.seats_to_act():
        hand.append(state.drawn)
    return mine + potential_for(state, seat).of(hand) - best_other
