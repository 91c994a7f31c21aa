"""What MINIMIZE, TOKENIZE and ERADICIZE share (``shared/seeds/000_d97c66fde1b75dcf.txt``).

The three games deal from the same 78-card Frazzled Wool deck (:mod:`engine.frazzled.deck`) into hands
and three face-up draw piles, keep a face-up discard pile, and share the 14/1 and 2 actions:

* 14/1 - "All players fan out their cards face down and let the player to their left select one."
* 2 - "... let the player to their left select two."

TOKENIZE and ERADICIZE also give each player a colour token and a shape token and share two more actions:

* 6 - "All players pass their entire hand to their left."
* 13 - "The current player receives a token from the middle if any are available (they can choose which
  token) ... If there are no tokens left in the middle, steal one from another player."

Seats and directions: seat ``s``'s left neighbour is ``s + 1`` and its right neighbour ``s - 1`` (modulo
the seat count, skipping seats not taking part); play passes to the left, so seat order is turn order. A
player picks from the fan of the player on their *right* (the fan's owner lets "the player to their left"
pick).

Layers: :class:`FrazzledTable` here (every game: hands, draw piles, discard pile, cards out of a scripted
deal, the turn, the phase, the fan exchange, hidden-information resampling, the moves every game has) and
:class:`~engine.frazzled.token_table.TokenTable` (TOKENIZE and ERADICIZE: the six-card deal into three
equal piles, the tokens, the 6 and 13 actions, the scripted deal). Their words are
:mod:`engine.frazzled.words`.
"""

from __future__ import annotations

import enum
import random
from collections.abc import Sequence
from typing import Any, ClassVar, Self

from engine.core import (
    GameOptions,
    GameRules,
    GameState,
    IllegalAction,
    OptionsT,
    Standing,
    competition_ranks,
    rng_of_state,
    rng_state,
    snapshot_header,
    state_of_snapshot,
)
from engine.frazzled.actions import NUM_PILES, Draw, FrazzledAction
from engine.frazzled.deck import DECK, FOURTEEN_ONE, Card, sorted_cards
from engine.frazzled.fan import FanExchange
from engine.frazzled.snapshot import (
    card_ids,
    cards_of,
    fan_data,
    fan_of,
    known_data,
    known_of,
    optional_card_of,
)
from engine.frazzled.state_copy import copy_state

HAND_SIZE = 6


def _card_id(card: Card) -> int:
    return card.id


ACTION_NUMBERS = frozenset({FOURTEEN_ONE, 2, 6, 10, 13})
"""The numbers that carry an action (the 14/1 card, 2, 6, 10 and 13)."""

NOT_YOUR_TURN = "It is not your turn."
NOT_NOW = "That move is not allowed right now."


class Phase(enum.Enum):
    """The decision a Frazzled Wool game waits for (each game uses some of them)."""

    PLAY = "play"
    """ERADICIZE: play a card onto the discard pile, or pick the pile up."""
    DRAW = "draw"
    """Draw the top card of a face-up draw pile (MINIMIZE: or say 'challenge' first)."""
    DISCARD = "discard"
    """Discard a card other than the one just drawn."""
    FAN = "fan"
    """A 14/1 or 2 exchange: everyone picks from the face-down fan on their right."""
    GIVE = "give"
    """MINIMIZE side B: everyone chooses cards of their own to pass left."""
    TOKEN = "token"
    """A 13: take (or steal) a token."""
    RULE = "rule"
    """A 10: change a rule card (TOKENIZE: replace a bonus card; MINIMIZE: flip or swap)."""
    OVER = "over"


def first_quiet(cards: Sequence[Card]) -> Card:
    """The first of ``cards`` without an action (TOKENIZE and ERADICIZE timeouts), else the first."""
    quiet = [card for card in cards if card.number not in ACTION_NUMBERS]
    return (quiet or list(cards))[0]


# -- draw piles and seats ---------------------------------------------------------------------------


def split_into_piles(cards: Sequence[Card]) -> list[list[Card]]:
    """Split ``cards`` into three draw piles as equal as possible, the first piles taking any extra card.

    Each pile is a list whose last element is its top (face-up) card. Source: "Split the remaining cards
    into three equal decks ... and place them face up" (equal as far as the count allows).
    """
    sizes = [len(cards) // NUM_PILES + (1 if index < len(cards) % NUM_PILES else 0) for index in range(3)]
    piles: list[list[Card]] = []
    start = 0
    for size in sizes:
        piles.append(list(cards[start : start + size]))
        start += size
    return piles


def non_empty_piles(piles: Sequence[Sequence[Card]]) -> list[int]:
    """Indices (0..2) of the piles that still hold cards."""
    return [index for index, pile in enumerate(piles) if pile]


def left_of(seat: int, num_seats: int) -> int:
    """The seat on ``seat``'s left: the next seat in turn order."""
    return (seat + 1) % num_seats


def right_of(seat: int, num_seats: int) -> int:
    """The seat on ``seat``'s right: the previous seat in turn order."""
    return (seat - 1) % num_seats


def _refill_below_tops(piles: list[list[Card]], cards: list[Card]) -> list[Card]:
    """Put ``cards``, in order, under the face-up top of every draw pile that has one (each pile keeps its
    size; ``piles`` are changed) and return the cards left over."""
    for pile in piles:
        if pile:
            size = len(pile) - 1
            pile[:-1], cards = cards[:size], cards[size:]
    return cards


def pass_hands_left(hands: Sequence[list[Card]]) -> list[list[Card]]:
    """The 6 action: every hand moves to the seat on its owner's left ("pass their entire hand to their
    left"). An empty hand passes nothing; its owner still receives the hand from their right."""
    count = len(hands)
    return [list(hands[right_of(seat, count)]) for seat in range(count)]


# -- the states ---------------------------------------------------------------------------------------


class FrazzledTable(GameState[OptionsT]):
    """What every Frazzled Wool game keeps: hands, three face-up draw piles (each a list whose last card is
    its face-up top), the face-up discard pile, cards out of a scripted deal, the turn, the phase and the
    fan exchange in progress.

    Public queries for tests, AI players and scoring: :meth:`hand`, :meth:`pile`, :attr:`discard_pile`,
    :attr:`set_aside`, :attr:`drawn`, :attr:`phase`, :meth:`fan_cards`. A hand is its owner's secret; a
    fan's order is secret to everyone: these queries are not views.
    """

    action_type: ClassVar[type[FrazzledAction]]
    options_class: ClassVar[type[GameOptions]]
    """The game's options model (its rules' ``options_model``)."""
    turn_phase: ClassVar[Phase] = Phase.DRAW
    """The phase each turn starts in."""

    def __init__(self, num_seats: int, seed: int, options: OptionsT) -> None:
        super().__init__(num_seats, seed, options)
        self._rng = random.Random(seed)
        self._hands: list[list[Card]] = [[] for _ in range(num_seats)]
        self._piles: list[list[Card]] = [[] for _ in range(NUM_PILES)]
        self._discard: list[Card] = []
        self._box: list[Card] = []  # cards left out of a scripted deal (never in a real game)
        self._drawn: Card | None = None  # drawn this turn, not yet in the hand (MINIMIZE, TOKENIZE)
        self._turn = 0
        self._phase = self.turn_phase
        self._fan: FanExchange | None = None
        # viewer (None: everyone) -> seat -> cards that viewer knows lie in that seat's hand; read only by
        # resample_hidden, and only while the card is still in that hand.
        self._known: dict[int | None, dict[int, set[Card]]] = {}

    # -- the scripted deal --------------------------------------------------------------------------

    def _stack(
        self,
        hands: Sequence[Sequence[Card]],
        piles: Sequence[Sequence[Card]],
        discard: Sequence[Card],
        also: Sequence[Card] = (),
    ) -> None:
        """Lay out a scripted deal: ``hands`` per seat, ``piles`` bottom to top, the discard pile bottom to
        top, and ``also`` (cards a game places elsewhere); every other card is set aside.

        Raises
        ------
        ValueError
            If a card is placed twice or there are not three piles.
        """
        placed = [card for group in (*hands, *piles, discard, also) for card in group]
        if len(set(placed)) != len(placed):
            raise ValueError("a card is placed twice")
        if len(piles) != NUM_PILES:
            raise ValueError("three draw piles, please")
        self._hands = [list(hand) for hand in hands]
        self._piles = [list(pile) for pile in piles]
        self._discard = list(discard)
        self._box = [card for card in DECK if card not in set(placed)]

    # -- queries -----------------------------------------------------------------------------------

    @property
    def phase(self) -> Phase:
        """The decision the game waits for."""
        return self._phase

    def hand(self, seat: int) -> tuple[Card, ...]:
        """``seat``'s hand in display order (its secret: for its own view, scoring, tests and AI)."""
        return tuple(sorted_cards(self._hands[seat]))

    def pile(self, index: int) -> tuple[Card, ...]:
        """Draw pile ``index`` (0..2), bottom card first: only its last (top) card is face up."""
        return tuple(self._piles[index])

    @property
    def discard_pile(self) -> tuple[Card, ...]:
        """The discard pile, bottom card first (face up: every card went there in sight)."""
        return tuple(self._discard)

    @property
    def set_aside(self) -> tuple[Card, ...]:
        """Cards left out of a scripted deal (none in a dealt game), in deck order."""
        return tuple(self._box)

    @property
    def drawn(self) -> Card | None:
        """The card the player to act has drawn and not yet put in hand (public: it came off a face-up
        pile), or ``None``."""
        return self._drawn

    def fan_cards(self, picker: int) -> tuple[Card, ...]:
        """During an exchange, the face-down fan ``picker`` picks from, in its secret order (position 0
        first); empty otherwise. Secret to everyone: for tests and AI, never a view."""
        if self._fan is None:
            return ()
        return tuple(self._fan.fans.get(picker, ()))

    def is_terminal(self) -> bool:
        return self._phase is Phase.OVER

    def seats_to_act(self) -> tuple[int, ...]:
        if self._phase is Phase.OVER:
            return ()
        if self._phase is Phase.FAN:
            assert self._fan is not None
            return self._fan.waiting()
        return (self._turn,)

    def _to_act(self, seat: int) -> bool:
        """Whether ``seat`` is one of :meth:`seats_to_act`, asked of one seat without listing them all (the
        decision keys ask it of every seat after every move)."""
        if self._phase is Phase.FAN:
            fan = self._fan
            assert fan is not None
            return len(fan.picked.get(seat, ())) < fan.need(seat)
        return self._phase is not Phase.OVER and seat == self._turn

    def has_decision(self, seat: int) -> bool:
        """The seats to act decide (TOKENIZE adds the sets any seat may declare)."""
        return self._to_act(seat)

    def _tops(self) -> tuple[Card | None, ...]:
        """The face-up top of each draw pile (``None``: empty): what the draw actions are made of."""
        return tuple(pile[-1] if pile else None for pile in self._piles)

    def _fan_key(self, seat: int) -> tuple[int, int, tuple[int, ...]]:
        """What the fan picks of ``seat``, a picker still to pick, are made of (:meth:`FanExchange.actions`,
        MINIMIZE's fan labels): the cards each picker takes, the size of its fan, the positions it picked."""
        fan = self._fan
        assert fan is not None
        return fan.count, len(fan.fans[seat]), tuple(fan.picked[seat])

    def _check_draw(self, action: Draw) -> str | None:
        """A draw must take the top of a pile that has cards."""
        return None if self._piles[action.pile] else "That draw pile is empty."

    def _first_draw(self) -> str:
        return Draw(non_empty_piles(self._piles)[0]).format()

    def default_action(self, seat: int) -> str:
        """On a timeout: in an exchange the first fan position not yet picked, in a draw the first pile
        that has cards, else the game's own choice (:meth:`_default`).

        Raises
        ------
        IllegalAction
            If ``seat`` has no decision now.
        """
        if seat not in self.seats_to_act():
            raise IllegalAction(NOT_YOUR_TURN)
        if self._phase is Phase.FAN:
            assert self._fan is not None
            return self._fan.default(seat)
        if self._phase is Phase.DRAW:
            return self._first_draw()
        return self._default(seat)

    def _default(self, seat: int) -> str:
        """The timeout move of the game's own phases."""
        raise NotImplementedError

    def _standings(
        self, points: Sequence[int], details: Sequence[str], *, lower_is_better: bool
    ) -> tuple[Standing, ...]:
        """The final standings from each seat's ``points`` and ``detail``, ties sharing a rank.

        Raises
        ------
        RuntimeError
            If the game is not over.
        """
        if not self.is_terminal():
            raise RuntimeError("The game is not over.")
        ranks = competition_ranks(points, lower_is_better=lower_is_better)
        return tuple(
            Standing(seat=seat, points=points[seat], rank=ranks[seat], detail=details[seat])
            for seat in range(self.num_seats)
        )

    # -- hidden information -------------------------------------------------------------------------

    def _learn(self, seat: int, cards: Sequence[Card], viewer: int | None = None) -> None:
        """Note that ``viewer`` (``None``: everyone) has seen ``cards`` go into ``seat``'s hand."""
        self._known.setdefault(viewer, {}).setdefault(seat, set()).update(cards)

    def _forget(self, seats: Sequence[int]) -> None:
        """Nobody knows any more which cards lie in the hands of ``seats`` (they changed unseen)."""
        for known in self._known.values():
            for seat in seats:
                known.pop(seat, None)

    def _hands_moved(self, moved: dict[int, int], before: Sequence[Sequence[Card]]) -> None:
        """Whole hands moved, ``seat -> seat it went to`` (``before``: the hands before): what anyone
        knew of a hand follows it, and each passer now knows the hand it passed."""
        for known in self._known.values():
            old = dict(known)
            known.clear()
            known.update({moved[seat]: cards for seat, cards in old.items() if seat in moved})
        for seat, target in moved.items():
            self._learn(target, before[seat], viewer=seat)

    def _resolve_fan(self) -> dict[int, tuple[list[Card], list[Card]]]:
        """Carry out the finished fan exchange (see :meth:`FanExchange.resolve`); nobody knows the fanned
        hands any more, except that each owner knows which of its cards its picker took."""
        fan = self._fan
        assert fan is not None
        moves = fan.resolve(self._hands)
        self._forget([*fan.owners.values(), *fan.owners])
        for picker, owner in fan.owners.items():
            self._learn(picker, moves[owner][1], viewer=owner)
        return moves

    # -- engine snapshots ----------------------------------------------------------------------------

    def engine_snapshot(self) -> dict[str, Any]:
        """Every field of the game as JSON-ready data (see :meth:`GameState.engine_snapshot`): the header
        (:func:`engine.core.snapshot_header`), then each layer's fields (:meth:`_snapshot_fields`): cards
        as their ids, rule cards as their ids, the generator's state, mappings as ``[key, value]`` pairs in
        their order (:mod:`engine.frazzled.snapshot`)."""
        return {**snapshot_header(self), **self._snapshot_fields()}

    @classmethod
    def from_engine_snapshot(cls, data: dict[str, Any], history: Sequence[tuple[int, str]]) -> Self:
        """The game :meth:`engine_snapshot` wrote as ``data``, with action log ``history``.

        Raises
        ------
        ValueError, KeyError, TypeError
            If ``data`` is not a snapshot of this game in this format (another game's lacks this one's
            fields).
        """
        state = state_of_snapshot(cls, cls.options_class, data, history)
        state._read_fields(data)
        if len(state._hands) != state.num_seats or len(state._piles) != NUM_PILES:
            raise ValueError("a snapshot with hands for another number of seats")
        return state

    def _snapshot_fields(self) -> dict[str, Any]:
        """The fields every Frazzled Wool game keeps, as JSON-ready data; a game's layer adds its own to
        these (and reads them in :meth:`_read_fields`)."""
        return {
            "rng": rng_state(self._rng),
            "hands": [card_ids(hand) for hand in self._hands],
            "piles": [card_ids(pile) for pile in self._piles],
            "discard": card_ids(self._discard),
            "box": card_ids(self._box),
            "drawn": None if self._drawn is None else self._drawn.id,
            "turn": self._turn,
            "phase": self._phase.value,
            "fan": fan_data(self._fan),
            "known": known_data(self._known),
        }

    def _read_fields(self, data: dict[str, Any]) -> None:
        """Set the fields :meth:`_snapshot_fields` wrote in ``data`` (on a state made without its
        constructor)."""
        self._rng = rng_of_state(data["rng"])
        self._hands = [cards_of(hand) for hand in data["hands"]]
        self._piles = [cards_of(pile) for pile in data["piles"]]
        self._discard = cards_of(data["discard"])
        self._box = cards_of(data["box"])
        self._drawn = optional_card_of(data["drawn"])
        self._turn = int(data["turn"])
        self._phase = Phase(data["phase"])
        self._fan = fan_of(data["fan"])
        self._known = known_of(data["known"])

    def copy(self) -> Self:
        """An exact, independent copy (hidden information included), much faster than a deep copy
        (:func:`engine.frazzled.state_copy.copy_state`)."""
        return copy_state(self)

    def resample_hidden(self, viewer: int | None, rng: random.Random) -> Self:
        """A copy in which what ``viewer`` may not see is redrawn: the other hands (sizes kept, and the
        cards ``viewer`` saw go into them and still there kept: drawn from a face-up pile, picked up,
        passed by ``viewer``), the draw piles below their face-up tops, the cards set aside, every fan's
        order, the other seats' private notes (dropped), the game's own future draws, and what
        :meth:`_resample_more` adds. This state is not changed.

        Canonical: the result depends only on what ``viewer`` has seen and on ``rng``, never on where the
        hidden cards truly lie (the unseen cards are pooled and sorted before the shuffle, the redrawn
        hands are sorted, and what other seats know is not carried over), so resampling a resample gives
        the same world as resampling the original with the same ``rng``."""
        other = self.copy()
        seats = [seat for seat in range(self.num_seats) if seat != viewer]
        public = {seat: self._known_by(None, seat) for seat in range(self.num_seats)}
        private: dict[int, set[Card]] = {}
        if viewer is not None:
            private = {seat: self._known_by(viewer, seat) for seat in range(self.num_seats)}
        kept = {seat: sorted(public[seat] | private.get(seat, set()), key=_card_id) for seat in seats}
        hidden = [card for seat in seats for card in other._hands[seat] if card not in kept[seat]]
        hidden += [card for pile in other._piles for card in pile[:-1]] + other._box
        hidden.sort(key=_card_id)
        rng.shuffle(hidden)
        for seat in seats:  # the kept cards first: _fit_hidden redraws only the rest
            size = len(other._hands[seat]) - len(kept[seat])
            other._hands[seat], hidden = kept[seat] + sorted(hidden[:size], key=_card_id), hidden[size:]
        other._box = sorted(_refill_below_tops(other._piles, hidden), key=_card_id)
        # What other seats know is theirs, not the viewer's: keep only public knowledge and the viewer's.
        other._known = {None: {seat: set(cards) for seat, cards in public.items() if cards}}
        if viewer is not None:
            other._known[viewer] = {seat: set(cards) for seat, cards in private.items() if cards}
        other._fit_hidden(viewer, rng, {seat: len(cards) for seat, cards in kept.items()})
        for seat in seats:
            other._hands[seat].sort(key=_card_id)
        if other._fan is not None:
            other._fan = other._fan.refanned(other._hands, rng)
        other._resample_more(viewer, rng)
        other._rng = random.Random(rng.random())
        return other

    def resample_unseen(self, rng: random.Random) -> Self:
        """A copy in which only what no seat has seen is redrawn (see
        :meth:`engine.core.GameState.resample_unseen`, the benchmark's perfect-information ceiling): every
        hand, the card drawn, the face-up tops and the discard pile stay as they are, and so does what any
        seat knows; the draw piles' cards below their tops and the cards set aside are reshuffled among
        themselves (each pile keeps its size), every fan's order is redrawn (secret to everyone), the game's
        own unseen order is redrawn (:meth:`_reshuffle_unseen`), and so are its future draws (its generator
        is reseeded from ``rng``). This state is not changed."""
        other = self.copy()
        unseen = [card for pile in other._piles for card in pile[:-1]] + other._box
        unseen.sort(key=_card_id)
        rng.shuffle(unseen)
        other._box = sorted(_refill_below_tops(other._piles, unseen), key=_card_id)
        if other._fan is not None:
            other._fan = other._fan.refanned(other._hands, rng)
        other._reshuffle_unseen(rng)
        other._rng = random.Random(rng.random())
        return other

    def _reshuffle_unseen(self, rng: random.Random) -> None:
        """Redraw the order of the game's own face-down things that no seat has seen, in this copy
        (default: none)."""

    def _fit_hidden(self, viewer: int | None, rng: random.Random, known: dict[int, int]) -> None:
        """Adjust the redrawn cards of this copy to what the game has made public about them (default:
        nothing). ``known[seat]``: how many cards at the start of that seat's hand are the ones ``viewer``
        knows (the rest were redrawn)."""

    def _known_by(self, viewer: int | None, seat: int) -> set[Card]:
        """The cards of ``seat``'s hand that ``viewer`` (``None``: everyone) knows are there."""
        known = self._known.get(viewer, {}).get(seat, set())
        return {card for card in self._hands[seat] if card in known}

    def _resample_more(self, viewer: int | None, rng: random.Random) -> None:
        """Redraw the game's own hidden things in this copy (default: none)."""


class FrazzledRules(GameRules[OptionsT]):
    """The rules of a Frazzled Wool game: 3 to 8 players, and the options model of its ``state_class``."""

    min_seats: ClassVar[int] = 3
    max_seats: ClassVar[int] = 8

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        cls.options_model = cls.state_class.options_class  # type: ignore[attr-defined]
