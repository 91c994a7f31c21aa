"""Minimize: Declare's table: the options, the cards in play (hands, the draw pile, the discard pile and the
live throws), totals, turns, the deal, and what each seat may know of where the cards are (the hidden
information: :meth:`DeclareTable.known_cards`, :meth:`DeclareTable.resample_hidden`, and the fast
:meth:`DeclareTable.copy`). The moves are :class:`~engine.declare.rules.DeclareState`'s."""

from __future__ import annotations

import enum
import random
from collections import Counter
from collections.abc import Sequence
from typing import Any, Self

from pydantic import Field as OptionField

from engine.core import (
    GameOptions,
    GameState,
    rng_of_state,
    rng_state,
    snapshot_header,
    state_of_snapshot,
)
from engine.declare.cards import (
    DECLARE_LIMIT_Q,
    ELIMINATION_Q,
    FULL_DECK,
    HAND_SIZE,
    card_sort_key,
    hand_quarters,
    is_card,
    points_value,
)
from engine.declare.scoring import RoundResult, Settlement
from engine.declare.throws import throw_back_fits


def _copied(counter: Counter) -> Counter:
    """A copy of ``counter`` made at C speed (``Counter(counter)`` runs its ``update`` in Python: a copy of
    the game, made thousands of times per AI decision, holds one per seat)."""
    copied = dict.__new__(Counter)
    dict.update(copied, counter)
    return copied


class Phase(enum.Enum):
    """The part of a turn the player to act is in: throwing (or declaring), then picking one card."""

    THROW = "throw"
    PICK = "pick"


# -- options ----------------------------------------------------------------------------------------


class DeclareOptions(GameOptions):
    """The manual's three "ADDITIONAL RULES" ("decided mutually by the players and are not mandatory")."""

    quick_throw_back: bool = OptionField(
        True, description="Throw back a just-drawn card that matches your throw (manual's Note, rule 1)"
    )
    triplet_skips: bool = OptionField(
        False, description="Throwing exactly three of a number skips the next player (rule 2)"
    )
    pure_three_reverses: bool = OptionField(
        False, description="A pure sequence of exactly three cards reverses the direction of play (rule 3)"
    )


class DeclareTable(GameState[DeclareOptions]):
    """The table of a game of Minimize: Declare: what lies where, whose turn it is, and what each seat may
    know; :class:`~engine.declare.rules.DeclareState` adds the moves.

    Secret information: each seat's hand (secret to all but its owner until a declare reveals every hand)
    and the draw pile's order. Public: the discard pile, hand sizes, running totals, the direction of play,
    and the cards a seat took from the discard pile (everyone saw them go into that hand).
    """

    def __init__(self, num_seats: int, seed: int, options: DeclareOptions) -> None:
        super().__init__(num_seats, seed, options)
        self._rng = random.Random(seed)
        self._totals_q = [0] * num_seats
        self._out_round: list[int | None] = [None] * num_seats
        self._round = 0
        self._over = False
        self._last: RoundResult | None = None
        self._hands: list[list[str]] = [[] for _ in range(num_seats)]
        # Where each card in a hand came from, for resample_hidden: ``(card, None)`` for a card everyone saw
        # go into the hand (taken from the discard pile), ``(card, pile)`` for a card dealt or drawn unseen
        # from the shuffled pile number ``pile`` (each deal and each reshuffle starts a new number).
        self._sources: list[Counter[tuple[str, int | None]]] = [Counter() for _ in range(num_seats)]
        self._pile = 0  # the number of the current draw pile's shuffle
        # The cards of the current draw pile when the discard pile was shuffled into it (public: the discard
        # pile lay face-up), sorted; ``None`` for a pile dealt from the full deck.
        self._reshuffled: list[str] | None = None
        self._draw: list[str] = []  # the top card is the END of the list
        self._discard: list[str] = []  # older discards, power cards played: never pickable
        self._prev_throw: list[str] = []  # the previous player's throw: its ends are pickable
        self._this_throw: list[str] = []  # the current player's throw this turn
        self._turn = 0
        self._phase = Phase.THROW  # of seat self._turn
        self._direction = 1  # +1 clockwise (seat order), -1 anticlockwise
        self._skip_next = False
        self._window_seat: int | None = None  # who just finished a turn (throw-back / I Declare Now)
        self._window_card: str | None = None  # the just-drawn card, if it may be thrown back
        self._drawn: list[str | None] = [None] * num_seats  # last card each seat drew (its private view)
        # The shuffle the drawn card came from, or None once it is public (thrown back).
        self._drawn_pile: list[int | None] = [None] * num_seats
        # "The person next to the dealer plays the 1st turn": the first dealer is drawn by the seed.
        self._dealer = self._rng.randrange(num_seats)
        self._start_round(self._next_alive(self._dealer, 1))

    @classmethod
    def scripted(
        cls,
        hands: Sequence[Sequence[str]],
        draw: Sequence[str] = (),
        *,
        dealer: int | None = None,
        starter: int | None = None,
        totals: Sequence[float] | None = None,
        discard: Sequence[str] = (),
        full_deck: bool = True,
        options: DeclareOptions | dict | None = None,
        seed: int = 0,
    ) -> Self:
        """A round with a known deal, for rule scenarios (tests only).

        Parameters
        ----------
        hands:
            One hand per seat (2..10 seats), card codes such as ``"5r"``; any size up to 7.
        draw:
            The draw pile from the top down.
        dealer:
            The dealer (default: the last seat).
        starter:
            Who plays first (default: the dealer's left).
        totals:
            Running totals in points before this round (default all 0); a total above 100 means that
            seat is already out (its hand must be empty).
        discard:
            Older discards lying on the discard pile (never pickable), oldest first; none by default.
        full_deck:
            ``True`` (default): the rest of the 108 cards lies under ``draw`` in a fixed order. ``False``:
            the draw pile is exactly ``draw`` and the other cards are out of play (a stripped table, for
            scenarios near the end of the draw pile).
        options:
            Table options.
        seed:
            Seeds later deals and reshuffles.

        Raises
        ------
        ValueError
            For an invalid seat count, an unknown card, more copies of a card than the deck holds, a
            hand over 7 cards, or cards for a seat already out.
        """
        num_seats = len(hands)
        if not 2 <= num_seats <= 10:
            raise ValueError("Minimize: Declare needs 2 to 10 players")
        chosen = [card for hand in hands for card in hand] + list(draw) + list(discard)
        if not all(is_card(card) for card in chosen):
            raise ValueError("unknown card code")
        if any(len(hand) > HAND_SIZE for hand in hands):
            raise ValueError("a hand holds at most 7 cards")
        rest = Counter(FULL_DECK)
        rest.subtract(Counter(chosen))
        if any(count < 0 for count in rest.values()):
            raise ValueError("more copies of a card than the deck holds")
        if isinstance(options, dict):
            options = DeclareOptions.model_validate(options)
        state = cls(num_seats, seed, options or DeclareOptions())
        if totals is not None:
            state._totals_q = [round(total * 4) for total in totals]
            state._out_round = [0 if q > ELIMINATION_Q else None for q in state._totals_q]
            if any(hands[seat] for seat in range(num_seats) if not state.alive(seat)):
                raise ValueError("a seat already out holds no cards")
        state._dealer = num_seats - 1 if dealer is None else dealer
        state._hands = [sorted(hand, key=card_sort_key) for hand in hands]
        state._sources = [Counter((card, state._pile) for card in hand) for hand in hands]
        remaining = sorted(rest.elements(), key=card_sort_key) if full_deck else []
        state._draw = remaining + list(reversed(draw))
        state._discard = list(discard)
        state._turn = state._next_alive(state._dealer, 1) if starter is None else starter
        state._drawn = [None] * num_seats
        state._drawn_pile = [None] * num_seats
        return state

    # -- seats, turns and public queries --------------------------------------------------------------

    def alive(self, seat: int) -> bool:
        """True while ``seat`` is still in the game (100 points or less)."""
        return self._out_round[seat] is None

    def _alive_seats(self) -> list[int]:
        return [seat for seat in range(self.num_seats) if self.alive(seat)]

    def _next_alive(self, seat: int, direction: int) -> int:
        """The next seat still in the game from ``seat`` in ``direction`` (``seat`` itself if alone)."""
        for step in range(1, self.num_seats + 1):
            other = (seat + direction * step) % self.num_seats
            if self.alive(other):
                return other
        return seat

    def seats_to_act(self) -> tuple[int, ...]:
        return () if self._over else (self._turn,)

    def is_terminal(self) -> bool:
        return self._over

    def hand(self, seat: int) -> tuple[str, ...]:
        """``seat``'s cards in hand order (its secret: for tests and scoring, never another seat's view)."""
        return tuple(self._hands[seat])

    def hand_size(self, seat: int) -> int:
        """How many cards ``seat`` holds (public: every seat's line in the view says so)."""
        return len(self._hands[seat])

    def total(self, seat: int) -> int | float:
        """``seat``'s running game total in points."""
        return points_value(self._totals_q[seat])

    @property
    def round_number(self) -> int:
        """The round being played, from 1."""
        return self._round

    @property
    def dealer(self) -> int:
        """The seat that dealt this round (public: its line in the view says "dealer")."""
        return self._dealer

    @property
    def direction(self) -> int:
        """+1 while play goes clockwise (up the seat order), -1 after a reversal (additional rule 3)."""
        return self._direction

    @property
    def phase(self) -> Phase:
        """Whether the player to act is to throw (or declare) or to pick a card."""
        return self._phase

    @property
    def draw_pile(self) -> tuple[str, ...]:
        """The draw pile, top card first. Its order is secret (for tests; no view shows it); its size is
        public."""
        return tuple(reversed(self._draw))

    @property
    def discard_pile(self) -> tuple[str, ...]:
        """The older discards and played power cards under the live throws, oldest first: public, never
        pickable (I Discover Now excepted)."""
        return tuple(self._discard)

    @property
    def previous_throw(self) -> tuple[str, ...]:
        """The previous player's throw in thrown order; its first and last cards may be taken."""
        return tuple(self._prev_throw)

    @property
    def throw_this_turn(self) -> tuple[str, ...]:
        """The cards the player to act has thrown this turn (empty before the throw)."""
        return tuple(self._this_throw)

    def can_declare(self, seat: int) -> bool:
        """7 points or less in hand, halvings counted (seeds README; "This card can also be used to
        'Declare' if the player holds cards with point value of greater than 7 along with 'My Half
        Value'")."""
        return hand_quarters(self._hands[seat]) <= DECLARE_LIMIT_Q

    # -- where cards in hand came from ----------------------------------------------------------------

    def _receive(self, seat: int, card: str, pile: int | None) -> None:
        """``card`` joins ``seat``'s hand, drawn unseen from shuffle ``pile`` (``None``: seen by all)."""
        self._hands[seat].append(card)
        self._hands[seat].sort(key=card_sort_key)
        self._sources[seat][(card, pile)] += 1

    def _give_up(self, seat: int, card: str, source: tuple[str, int | None] | None = None) -> None:
        """``card`` leaves ``seat``'s hand: the copy from ``source`` if given, else a copy everyone saw
        arrive if it holds one (the least the table can conclude), else any copy."""
        self._hands[seat].remove(card)
        sources = self._sources[seat]
        key = source or (card, None)
        if not sources[key]:
            key = next(known for known, count in sources.items() if known[0] == card and count)
        sources[key] -= 1
        if not sources[key]:
            del sources[key]

    def copy(self) -> Self:
        """An independent exact copy (hidden cards and the game's generator included), much faster than
        ``copy.deepcopy``: AI players search on copies."""
        other = object.__new__(type(self))
        other.__dict__.update(self.__dict__)
        other.history = list(self.history)
        other._rng = random.Random.__new__(random.Random)  # no seeding from the system: the state is set
        other._rng.setstate(self._rng.getstate())
        other._totals_q = list(self._totals_q)
        other._out_round = list(self._out_round)
        other._hands = [list(hand) for hand in self._hands]
        other._sources = [_copied(sources) for sources in self._sources]
        other._draw = list(self._draw)
        other._discard = list(self._discard)
        other._prev_throw = list(self._prev_throw)
        other._this_throw = list(self._this_throw)
        other._drawn = list(self._drawn)
        other._drawn_pile = list(self._drawn_pile)
        if self._reshuffled is not None:
            other._reshuffled = list(self._reshuffled)
        return other

    def engine_snapshot(self) -> dict[str, Any]:
        """Every field of the game as JSON-ready data (see :meth:`GameState.engine_snapshot`): hands in
        hand order, the draw pile bottom first, each hand's card sources in their order (a card given up
        takes the first matching source), the generator's state, the last round's result."""
        return {
            **snapshot_header(self),
            "rng": rng_state(self._rng),
            "totals_q": list(self._totals_q),
            "out_round": list(self._out_round),
            "round": self._round,
            "over": self._over,
            "last": None if self._last is None else _round_result_data(self._last),
            "hands": [list(hand) for hand in self._hands],
            "sources": [
                [[card, pile, count] for (card, pile), count in sources.items()] for sources in self._sources
            ],
            "pile": self._pile,
            "reshuffled": None if self._reshuffled is None else list(self._reshuffled),
            "draw": list(self._draw),
            "discard": list(self._discard),
            "prev_throw": list(self._prev_throw),
            "this_throw": list(self._this_throw),
            "turn": self._turn,
            "phase": self._phase.value,
            "direction": self._direction,
            "skip_next": self._skip_next,
            "window_seat": self._window_seat,
            "window_card": self._window_card,
            "drawn": list(self._drawn),
            "drawn_pile": list(self._drawn_pile),
            "dealer": self._dealer,
        }

    @classmethod
    def from_engine_snapshot(cls, data: dict[str, Any], history: Sequence[tuple[int, str]]) -> Self:
        """The game :meth:`engine_snapshot` wrote as ``data``, with action log ``history``.

        Raises
        ------
        ValueError, KeyError, TypeError
            If ``data`` is not a Minimize: Declare snapshot of this format.
        """
        state = state_of_snapshot(cls, DeclareOptions, data, history)
        state._rng = rng_of_state(data["rng"])
        state._totals_q = [int(total) for total in data["totals_q"]]
        state._out_round = [None if out is None else int(out) for out in data["out_round"]]
        state._round = int(data["round"])
        state._over = bool(data["over"])
        state._last = None if data["last"] is None else _round_result_of(data["last"])
        state._hands = [[str(card) for card in hand] for hand in data["hands"]]
        state._sources = [
            Counter(
                {(str(card), None if pile is None else int(pile)): int(count) for card, pile, count in seat}
            )
            for seat in data["sources"]
        ]
        state._pile = int(data["pile"])
        state._reshuffled = None if data["reshuffled"] is None else [str(c) for c in data["reshuffled"]]
        state._draw = [str(card) for card in data["draw"]]
        state._discard = [str(card) for card in data["discard"]]
        state._prev_throw = [str(card) for card in data["prev_throw"]]
        state._this_throw = [str(card) for card in data["this_throw"]]
        state._turn = int(data["turn"])
        state._phase = Phase(data["phase"])
        state._direction = int(data["direction"])
        state._skip_next = bool(data["skip_next"])
        state._window_seat = None if data["window_seat"] is None else int(data["window_seat"])
        state._window_card = None if data["window_card"] is None else str(data["window_card"])
        state._drawn = [None if card is None else str(card) for card in data["drawn"]]
        state._drawn_pile = [None if pile is None else int(pile) for pile in data["drawn_pile"]]
        state._dealer = int(data["dealer"])
        if len(state._hands) != state.num_seats or len(state._sources) != state.num_seats:
            raise ValueError("a snapshot with hands for another number of seats")
        return state

    def known_cards(self, seat: int) -> tuple[str, ...]:
        """The cards everyone saw go into ``seat``'s hand (taken from the discard pile) and still there by
        the table's reckoning, in hand order: public information (ruling 25)."""
        return tuple(
            sorted(
                (
                    card
                    for (card, pile), count in self._sources[seat].items()
                    if pile is None
                    for _ in range(count)
                ),
                key=card_sort_key,
            )
        )

    def resample_hidden(self, viewer: int | None, rng: random.Random) -> Self:
        """A copy in which every card ``viewer`` has not seen is redrawn (``None``: the public view).

        Canonical (ruling 25): the result depends only on what ``viewer`` has seen and on ``rng``. The
        hidden cards are the other seats' cards that did not come from the discard pile in view of all,
        and the draw pile; their multiset is public (the deck minus every card in sight), and it is sorted,
        shuffled with ``rng`` and dealt again: first the draw pile (after a reshuffle, from the cards the
        discard pile gave it, still hidden), then each other seat's unknown cards in seat order. Hand sizes,
        the cards a seat took from the discard pile (they stay in its hand) and the draw pile's size stay.
        Each other seat's "You drew" card and quick throw-back are drawn again among its unknown cards; the
        copy's future shuffles get a fresh generator from ``rng``. This state is not changed.
        """
        other = self.copy()
        other._rng = random.Random(rng.random())
        if self._over:
            return other
        hidden = [seat for seat in range(self.num_seats) if seat != viewer]
        known = {seat: Counter(self.known_cards(seat)) for seat in hidden}
        unknown_count = {seat: len(self._hands[seat]) - sum(known[seat].values()) for seat in hidden}
        pool: Counter[str] = Counter(self._draw)
        for seat in hidden:
            pool.update(Counter(self._hands[seat]) - known[seat])
        draw_size = len(self._draw)
        if self._reshuffled is not None:
            eligible = sorted((Counter(self._reshuffled) & pool).elements(), key=card_sort_key)
            rng.shuffle(eligible)
            other._draw = eligible[:draw_size]
            pool.subtract(other._draw)
        else:
            other._draw = []
        rest = sorted(pool.elements(), key=card_sort_key)
        rng.shuffle(rest)
        if len(other._draw) < draw_size:
            missing = draw_size - len(other._draw)
            other._draw += rest[:missing]
            rest = rest[missing:]
        for seat in hidden:
            dealt, rest = rest[: unknown_count[seat]], rest[unknown_count[seat] :]
            drawn_pile = self._drawn_pile[seat]
            drawn = None
            if self._drawn[seat] is not None and drawn_pile is not None and dealt:
                drawn = rng.choice(sorted(dealt, key=card_sort_key))
                other._drawn[seat] = drawn
                if seat == self._window_seat:
                    fits = (
                        self.options.quick_throw_back and throw_back_fits(self._prev_throw, drawn) is not None
                    )
                    other._window_card = drawn if fits else None
            sources: Counter[tuple[str, int | None]] = Counter()
            for card, count in known[seat].items():
                sources[(card, None)] = count
            for card in dealt:
                sources[(card, self._pile)] += 1
            if drawn is not None and drawn_pile is not None and drawn_pile != self._pile:
                sources[(drawn, self._pile)] -= 1  # the drawn card came from an older shuffle
                if not sources[(drawn, self._pile)]:
                    del sources[(drawn, self._pile)]
                sources[(drawn, drawn_pile)] += 1
            other._sources[seat] = sources
            other._hands[seat] = sorted(list(known[seat].elements()) + dealt, key=card_sort_key)
        return other

    def resample_unseen(self, rng: random.Random) -> Self:
        """A copy in which only what no seat has seen is redrawn (see :meth:`GameState.resample_unseen`):
        the draw pile's order (its cards, dealt face down or reshuffled from the discard pile, are seen by
        nobody until drawn; their multiset is the deck minus every card in a hand or on the discard pile) is
        sorted and shuffled with ``rng``, and the copy's future deals and reshuffles get a fresh generator
        from ``rng``. Every hand, its cards' sources, each seat's "You drew" card, the discard pile and the
        live throws stay where they are, so every seat's view is unchanged. The benchmark's
        perfect-information ceiling; never an AI level's information. This state is not changed.
        """
        other = self.copy()
        other._rng = random.Random(rng.random())
        other._draw = sorted(self._draw, key=card_sort_key)
        rng.shuffle(other._draw)
        return other

    # -- rounds ---------------------------------------------------------------------------------------

    def _start_round(self, starter: int) -> None:
        self._round += 1
        deck = list(FULL_DECK)
        self._rng.shuffle(deck)
        self._pile += 1
        self._hands = [[] for _ in range(self.num_seats)]
        for _ in range(HAND_SIZE):  # "Every player starts with seven cards … dealt face down"
            for step in range(1, self.num_seats + 1):
                seat = (self._dealer + step) % self.num_seats
                if self.alive(seat):
                    self._hands[seat].append(deck.pop())
        for hand in self._hands:
            hand.sort(key=card_sort_key)
        self._sources = [Counter((card, self._pile) for card in hand) for hand in self._hands]
        self._draw = deck
        self._reshuffled = None
        self._discard = []
        self._prev_throw = []
        self._this_throw = []
        self._turn = starter
        self._phase = Phase.THROW
        self._direction = 1
        self._skip_next = False
        self._window_seat = None
        self._window_card = None
        self._drawn = [None] * self.num_seats
        self._drawn_pile = [None] * self.num_seats


def _round_result_data(result: RoundResult) -> dict[str, Any]:
    """A round's result as JSON-ready data (:meth:`DeclareTable.engine_snapshot`)."""
    return {
        "number": result.number,
        "caller": result.caller,
        "caller_q": result.caller_q,
        "succeeded": result.succeeded,
        "hands": [None if hand is None else list(hand) for hand in result.hands],
        "hand_q": list(result.hand_q),
        "scored_q": list(result.scored_q),
        "settlements": [settlement.value for settlement in result.settlements],
    }


def _round_result_of(data: dict[str, Any]) -> RoundResult:
    """The round's result :func:`_round_result_data` wrote."""
    return RoundResult(
        number=int(data["number"]),
        caller=int(data["caller"]),
        caller_q=int(data["caller_q"]),
        succeeded=bool(data["succeeded"]),
        hands=tuple(None if hand is None else tuple(str(card) for card in hand) for hand in data["hands"]),
        hand_q=tuple(None if q is None else int(q) for q in data["hand_q"]),
        scored_q=tuple(int(q) for q in data["scored_q"]),
        settlements=tuple(Settlement(value) for value in data["settlements"]),
    )
