"""The ERADICIZE AI player (Frazzled Wool; rules: ``docs/rules/eradicize.md``).

Method: a rule-based shedding player. Each playable card is rated by what it costs to give it up (a card
matching one of the seat's tokens can always be played, the 14/1 card beats anything, high numbers beat
most: those are kept for later), by the pressure it puts on the next player (the chance that none of the
cards that player may hold beats it or matches their tokens, estimated from the cards the seat has not
seen, times the size of the pile they would pick up), and by its action: a 6 trades hands by their public
sizes, a 10 clears the pile, a 13 brings a token. After a play it draws the pile top it would most like
to keep; on a 13 it takes (or steals from the leader) the token that makes most of its cards playable.
Once the draw piles are out, the rules' best few plays are compared by determinised flat Monte Carlo:
each is played in copies of several sampled worlds, play goes on for a few moves, and :func:`evaluate`
rates the result (:meth:`EradicizePlayer._search`).

Everything it reads comes from its world (see :mod:`engine.frazzled.ai_common`): its own hand, the public
table and its legal actions.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.ai.core import AIPlayer, InformationSet
from engine.ai.monte_carlo import FlatMonteCarlo
from engine.frazzled.actions import COLOUR, Draw, StealToken, TakeToken
from engine.frazzled.ai_common import best_by, legal_codes, pile_tops, unseen_cards, world_for
from engine.frazzled.deck import FOURTEEN_ONE, Card
from engine.frazzled.eradicize import PICK_UP, EradicizeAction, EradicizeState, PlayCard
from engine.frazzled.table import Phase, left_of, right_of
from engine.frazzled.tokens import Tokens

PRESSURE = 1.0
"""Worth, per card of the pile, of the next player having to pick it up, once the draw piles are out
(before that it is not counted: a hand refills from the piles, and pressing early wastes high cards)."""


def keep_value(card: Card, colours: Sequence[int], shapes: Sequence[int]) -> float:
    """What keeping ``card`` is worth to a holder of those tokens: a token match or the 14/1 card can
    always be played; otherwise a higher number beats more."""
    if card.colour in colours or card.shape in shapes:
        return 6.0 + card.number / 14
    if card.number == FOURTEEN_ONE:
        return 7.0
    if card.number == 10:
        return 5.5
    return card.number / 2


WORLDS = 8
"""Worlds sampled for the endgame search (0: rules only)."""
DEPTH = 24
"""Moves played out after each candidate in the endgame search."""
CANDIDATES = 3
"""The rule player's best plays that the endgame search compares."""


class EradicizePlayer(AIPlayer):
    """Frazzled Wool ERADICIZE: shed cheap cards, keep the escapes, pressure the next player.

    Parameters
    ----------
    pressure:
        Worth per pile card of the next player's chance of having to pick the pile up, once the draw
        piles are out.
    early_pressure:
        The same while the draw piles last.
    worlds, depth, candidates:
        The endgame search: sampled worlds (0: rules only), moves played out after each candidate, and
        how many of the rules' best plays it compares.
    """

    name = "eradicize-rules"

    def __init__(
        self,
        pressure: float = PRESSURE,
        early_pressure: float = 0.0,
        worlds: int = WORLDS,
        depth: int = DEPTH,
        candidates: int = CANDIDATES,
    ) -> None:
        self.pressure = pressure
        self.early_pressure = early_pressure
        self.worlds = worlds
        self.depth = depth
        self.candidates = candidates

    def decide(self, seen: InformationSet, rng: random.Random) -> str:
        state, seat = seen.world, seen.seat
        assert isinstance(state, EradicizeState)
        codes = legal_codes(state, seat)
        if len(codes) == 1:
            return codes[0]
        world = world_for(state, seat, rng)
        tokens = world.tokens()
        colours, shapes = tokens.colours[seat], tokens.shapes[seat]
        phase = world.phase
        if phase is Phase.PLAY:
            pool = self._unseen(world, seat)
            values = [self._play_value(world, seat, code, tokens, pool) for code in codes]
            order = sorted(range(len(codes)), key=lambda index: (-values[index], index))
            rated = [codes[index] for index in order]
            endgame = not any(world.pile(index) for index in range(3))
            if endgame and self.worlds and self.candidates > 1 and len(rated) > 1:
                return self._search(state, world, seat, rated[: self.candidates], rng)
            return rated[0]
        if phase is Phase.DRAW:
            tops = dict(pile_tops(world))

            def draw_value(code: str) -> float:
                action = EradicizeAction.parse(code)
                assert isinstance(action, Draw)
                return keep_value(tops[action.pile], colours, shapes)

            return best_by(codes, draw_value)
        if phase is Phase.TOKEN:
            return best_by(codes, lambda code: self._token_value(world, seat, code, tokens))
        return codes[0]  # a blind pick from a face-down fan: every position is alike

    def _search(
        self, state: EradicizeState, world: EradicizeState, seat: int, codes: list[str], rng: random.Random
    ) -> str:
        """Flat Monte Carlo (:class:`engine.ai.monte_carlo.FlatMonteCarlo`) over ``self.worlds`` worlds (the
        first is ``world``, the rest fresh ``resample_hidden`` draws): each candidate is played in a copy of
        every world, then every seat plays on for up to ``self.depth`` moves (:func:`endgame_playout`), and
        the position is rated with :func:`evaluate`. The best total wins; ties go to the rule order of
        ``codes``. Every world is searched (no CPU guard)."""
        search = FlatMonteCarlo(
            candidates=codes,
            determinise=lambda number, rng: world if number == 0 else state.resample_hidden(seat, rng),
            playout=lambda sample, code, rng: endgame_playout(sample, seat, code, self.depth, rng),
            evaluate=lambda game: evaluate(game, seat),
            worlds=self.worlds,
        )
        return search.run(rng).best

    def _unseen(self, world: EradicizeState, seat: int) -> list[Card]:
        face_up = [card for other in range(world.num_seats) for card in world.face_up(other)]
        return unseen_cards(world, seat, face_up, world.removed)

    def _play_value(
        self, world: EradicizeState, seat: int, code: str, tokens: Tokens, pool: list[Card]
    ) -> float:
        if code == PICK_UP:
            return -100.0
        action = EradicizeAction.parse(code)
        assert isinstance(action, PlayCard)
        card = action.card
        value = -keep_value(card, tokens.colours[seat], tokens.shapes[seat])
        pile = len(world.discard_pile) + 1
        top = 1 if card.number == FOURTEEN_ONE else card.number
        if card.number == 10:
            pile, top = 1, 10
            value += 0.1 * len(world.discard_pile)  # nobody can be made to take those cards any more
        if card.number == 6:
            # The hands move left after the draw: this seat gets the hand on its right (sizes are public).
            drawing = any(world.pile(index) for index in range(3))
            mine = len(world.hand(seat)) - (card in world.hand(seat)) + drawing
            value += 1.0 * (mine - len(world.hand(right_of(seat, world.num_seats))))
        elif card.number == 13:
            value += 2.0
        nxt = left_of(seat, world.num_seats)
        drawing = any(world.pile(index) for index in range(3))
        weight = self.early_pressure if drawing else self.pressure
        if weight:
            value += weight * pile * self._stuck_chance(world, nxt, top, tokens, pool)
        return value

    def _stuck_chance(self, world: EradicizeState, other: int, top: int, tokens: Tokens, pool) -> float:
        """The chance that ``other`` can play nothing on a top of ``top``: each card it may hold (its hand
        drawn from the unseen cards; its face-up cards once the hand is empty) neither beats nor matches."""
        colours, shapes = tokens.colours[other], tokens.shapes[other]
        hand_size = len(world.hand(other))
        if hand_size == 0:
            return float(all(not self._beats(card, top, colours, shapes) for card in world.face_up(other)))
        if not pool:
            return 0.0
        stuck = sum(1 for card in pool if not self._beats(card, top, colours, shapes)) / len(pool)
        return stuck**hand_size

    @staticmethod
    def _beats(card: Card, top: int, colours, shapes) -> bool:
        return card.number > top or card.colour in colours or card.shape in shapes

    def _token_value(self, world: EradicizeState, seat: int, code: str, tokens: Tokens) -> float:
        action = EradicizeAction.parse(code)
        assert isinstance(action, TakeToken | StealToken)
        attribute = "colour" if action.kind == COLOUR else "shape"
        mine = list(world.hand(seat)) + list(world.face_up(seat))
        value = float(sum(1 for card in mine if getattr(card, attribute) == action.index))
        if isinstance(action, StealToken):
            value += 3.0 / (1 + world.cards_left(action.owner))  # hold back the player nearest to winning
        return value


def endgame_playout(
    world: EradicizeState, seat: int, code: str, depth: int, rng: random.Random
) -> EradicizeState:
    """``code`` played for ``seat`` in a copy of ``world`` (which is not changed), then up to ``depth`` moves
    (or to the game's end): ``seat`` its quiet timeout move (ruling 9), every other seat a random legal move
    drawn with ``rng`` (the cheapest model of players it knows nothing about). The position reached."""
    game = world.copy()
    game.apply(seat, code)
    for _ in range(depth):
        if game.is_terminal():
            break
        mover = game.seats_to_act()[0]
        if mover == seat:
            game.apply(mover, game.default_action(mover))
        else:
            game.apply(mover, rng.choice(legal_codes(game, mover)))
    return game


def evaluate(state: EradicizeState, seat: int) -> float:
    """ERADICIZE position value for ``seat`` (higher is better): minus the cards it still has to shed,
    plus 0.4 for each card it can always play (matching one of its tokens, or the 14/1 card), plus a
    tenth of the fewest cards another player has left. At the end: 100 for a winner, else minus the cards
    left."""
    if state.is_terminal():
        return 100.0 if state.is_winner(seat) else -float(state.cards_left(seat))
    tokens = state.tokens()
    colours, shapes = tokens.colours[seat], tokens.shapes[seat]
    cards = list(state.hand(seat)) + list(state.face_up(seat))
    escapes = sum(
        1 for card in cards if card.colour in colours or card.shape in shapes or card.number == FOURTEEN_ONE
    )
    nearest = min(state.cards_left(other) for other in range(state.num_seats) if other != seat)
    return -float(state.cards_left(seat)) + 0.4 * escapes + 0.1 * nearest
