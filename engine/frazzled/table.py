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

Layers: :class:`FrazzledTable` (every game: hands, draw piles, discard pile, cards out of a scripted deal,
the turn, the phase, the fan exchange, hidden-information resampling, the moves every game has) and
:class:`TokenTable` (TOKENIZE and ERADICIZE: the six-card deal into three equal piles, the tokens, the 6
and 13 actions, the scripted deal).
"""

from __future__ import annotations

import copy
import enum
import random
from collections.abc import Sequence
from typing import ClassVar, Self

from engine.core import (
    Event,
    Field,
    GameOptions,
    GameRules,
    GameState,
    IllegalAction,
    LegalAction,
    OptionsT,
    SeatLine,
    SeatView,
    Standing,
    competition_ranks,
)
from engine.frazzled.actions import (
    NUM_PILES,
    Draw,
    Fan,
    FrazzledAction,
    StealToken,
    TakeToken,
)
from engine.frazzled.deck import (
    DECK,
    FOURTEEN_ONE,
    Card,
    cards_text,
    shuffled_deck,
    sorted_cards,
)
from engine.frazzled.fan import FanExchange, fan_fields
from engine.frazzled.state_copy import copy_state
from engine.frazzled.tokens import Tokens

HAND_SIZE = 6


def _card_id(card: Card) -> int:
    return card.id


ACTION_NUMBERS = frozenset({FOURTEEN_ONE, 2, 6, 10, 13})
"""The numbers that carry an action (the 14/1 card, 2, 6, 10 and 13)."""

PILE_MARKS = ("①", "②", "③")

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


SHARED_KINDS: tuple[type[FrazzledAction], ...] = (Draw, Fan, TakeToken, StealToken)
"""The moves TOKENIZE and ERADICIZE share: a draw, a fan pick, a token taken or stolen."""


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


def piles_text(piles: Sequence[Sequence[Card]]) -> str:
    """The draw piles for the public table: each pile's face-up top card and its size."""
    parts = []
    for index, pile in enumerate(piles):
        if pile:
            parts.append(f"{PILE_MARKS[index]} **{pile[-1].label}** ({len(pile)})")
        else:
            parts.append(f"{PILE_MARKS[index]} empty")
    return "\n".join(parts)


def card_fields(name: str, cards: Sequence[Card], *, empty: str = "none") -> list[Field]:
    """Cards as one field, or several (``name (2)``…) when the list would pass 1000 characters."""
    labels = [card.label for card in sorted_cards(cards)]
    if not labels:
        return [Field(name, empty)]
    chunks: list[list[str]] = [[]]
    for label in labels:
        if sum(len(item) + 2 for item in chunks[-1]) + len(label) > 1000:
            chunks.append([])
        chunks[-1].append(label)
    return [
        Field(name if index == 0 else f"{name} ({index + 1})", ", ".join(chunk))
        for index, chunk in enumerate(chunks)
    ]


def left_of(seat: int, num_seats: int) -> int:
    """The seat on ``seat``'s left: the next seat in turn order."""
    return (seat + 1) % num_seats


def right_of(seat: int, num_seats: int) -> int:
    """The seat on ``seat``'s right: the previous seat in turn order."""
    return (seat - 1) % num_seats


def pass_hands_left(hands: Sequence[list[Card]]) -> list[list[Card]]:
    """The 6 action: every hand moves to the seat on its owner's left ("pass their entire hand to their
    left"). An empty hand passes nothing; its owner still receives the hand from their right."""
    count = len(hands)
    return [list(hands[right_of(seat, count)]) for seat in range(count)]


def exchange_text(received: Sequence[Card], given: Sequence[Card], *, passed: bool = False) -> str:
    """A seat's private note on the last exchange (what it got, what left its hand)."""
    if passed:
        return (
            f"Passed to you from your right: {cards_text(received)}. "
            f"You passed {cards_word(len(given))} left."
        )
    return (
        f"You took {cards_text(received)} from the fan to your right; "
        f"the player on your left took {cards_text(given)}."
    )


def action_name(card: Card) -> str:
    """What a card's action does in TOKENIZE and ERADICIZE, in a few words (``""`` without one)."""
    return {
        FOURTEEN_ONE: "everyone picks 1 card from the fan on their right",
        2: "everyone picks 2 cards from the fan on their right",
        6: "everyone passes their hand left",
        13: "take a token",
    }.get(card.number, "")


def cards_word(count: int) -> str:
    """``"1 card"``, ``"2 cards"``."""
    return "1 card" if count == 1 else f"{count} cards"


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
        for pile in other._piles:
            if pile:
                size = len(pile) - 1
                pile[:-1], hidden = hidden[:size], hidden[size:]
        other._box = sorted(hidden, key=_card_id)
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


class TokenTable(FrazzledTable[OptionsT]):
    """TOKENIZE and ERADICIZE: six cards each, the rest in three equal face-up piles, one colour and one
    shape token each, and the 14/1, 2, 6 and 13 actions.

    The games differ in what a turn is (:meth:`_arrange` for the extra cards a deal places, the phases
    of their own, the 10, the end); this class carries out the shared actions and hands over with
    :meth:`_after_exchange` and :meth:`_next_turn`.
    """

    title: ClassVar[str]
    """The game's name, for view titles."""
    card_verb: ClassVar[str]
    """What a player does with the card whose action follows ("discarded", "played")."""
    ten_action: ClassVar[str]
    """What the game's 10 does, in a few words."""

    def __init__(self, num_seats: int, seed: int, options: OptionsT) -> None:
        super().__init__(num_seats, seed, options)
        deck = shuffled_deck(self._rng)
        # "deal six cards to each player ... Split the remaining cards into three equal decks ... face up".
        self._hands = [deck[seat * HAND_SIZE : (seat + 1) * HAND_SIZE] for seat in range(num_seats)]
        rest = self._deal_more(deck[num_seats * HAND_SIZE :])
        self._piles = split_into_piles(rest)
        self._tokens = Tokens.deal(num_seats, self._rng)
        self._deal_rule_cards()
        # "Decide who goes first": drawn from the seed (ruling 1 of each game).
        self._turn = self._rng.randrange(num_seats)
        self._notes: dict[int, str] = {}  # private notes on the last exchange, per seat
        self._turns = 1

    def _resample_more(self, viewer: int | None, rng: random.Random) -> None:
        """The other seats' private notes on the last exchange name cards the viewer did not see: dropped."""
        self._notes = {seat: note for seat, note in self._notes.items() if seat == viewer}

    def _deal_more(self, rest: list[Card]) -> list[Card]:
        """Deal what the game adds from the shuffled deck after the hands; return the cards for the piles."""
        return rest

    def _deal_rule_cards(self) -> None:
        """Deal the game's rule cards (after the tokens, from the game's generator); default: none."""

    @classmethod
    def scripted(
        cls,
        num_seats: int,
        hands: Sequence[Sequence[Card]],
        *,
        piles: Sequence[Sequence[Card]] | None = None,
        discard: Sequence[Card] = (),
        colours: Sequence[Sequence[int]] | None = None,
        shapes: Sequence[Sequence[int]] | None = None,
        first: int = 0,
        seed: int = 0,
        **table: object,
    ) -> Self:
        """A game with a known deal, for rule scenarios, tests and puzzles.

        Parameters
        ----------
        num_seats:
            Players, 3..8.
        hands:
            Per seat, the cards in hand.
        piles:
            The three draw piles, each listed bottom to top (default: all empty).
        discard:
            The discard pile, bottom to top.
        colours, shapes:
            Per seat, colour and shape token indices (default: seat ``s`` holds colour ``s`` and shape
            ``s``); every other token is in the middle.
        first:
            The seat to play first.
        seed:
            Seeds the game's generator (fan orders, reshuffles).
        table:
            What the game itself lays out (ERADICIZE ``face_up``, TOKENIZE ``bonus``): see its
            ``_arrange``.

        Cards not placed anywhere are set aside, out of the game.

        Raises
        ------
        ValueError
            If a card is placed twice, a token held twice, or the lists do not match the seat count.
        """
        piles = piles if piles is not None else [[], [], []]
        if len(hands) != num_seats:
            raise ValueError("one hand per seat")
        state = cls(num_seats, seed, cls.options_class())
        placed = state._arrange(**table)
        state._stack(hands, piles, discard, placed)
        state._tokens = Tokens.from_lists(
            colours if colours is not None else [[seat] for seat in range(num_seats)],
            shapes if shapes is not None else [[seat] for seat in range(num_seats)],
        )
        state._turn = first
        return state

    def _arrange(self, **table: object) -> list[Card]:
        """Lay out the game's own part of a scripted deal; return the cards it placed."""
        if table:
            raise TypeError(f"unknown scripted deal arguments: {sorted(table)}")
        return []

    # -- queries -----------------------------------------------------------------------------------

    def tokens(self) -> Tokens:
        """A copy of who holds which token and what lies in the middle (public)."""
        return copy.deepcopy(self._tokens)

    @property
    def turns(self) -> int:
        """The number of the turn being played, 1 first."""
        return self._turns

    def public_actions(self) -> tuple[LegalAction, ...]:
        """During an exchange, the fan positions of every picker in one group (see
        :meth:`FanExchange.public_actions`); otherwise the non-secret actions of the seats to act."""
        if self._phase is Phase.FAN and self._fan is not None:
            return self._fan.public_actions()
        return super().public_actions()

    def _action_text(self, card: Card) -> str:
        """What ``card``'s action does in this game, in a few words (``""`` for none)."""
        return self.ten_action if card.number == 10 else action_name(card)

    def _shared_actions(self, seat: int) -> tuple[LegalAction, ...] | None:
        """The legal actions of a phase both games have (draw, exchange, token choice), or ``None``."""
        if self._phase is Phase.DRAW:
            return draw_actions(self._piles)
        if self._phase is Phase.FAN:
            assert self._fan is not None
            return self._fan.actions(seat)
        if self._phase is Phase.TOKEN:
            return self._tokens.choices(seat)
        return None

    def _check_shared(self, seat: int, action: FrazzledAction) -> str | None:
        """The check of the moves both games have: a draw, a fan pick, a token; NOT_NOW for anything
        else."""
        if isinstance(action, Draw) and self._phase is Phase.DRAW:
            return self._check_draw(action)
        if isinstance(action, Fan) and self._phase is Phase.FAN:
            assert self._fan is not None
            return self._fan.check(seat, action.position)
        if isinstance(action, TakeToken | StealToken) and self._phase is Phase.TOKEN:
            return self._tokens.check(seat, action)
        return NOT_NOW

    def _default(self, seat: int) -> str:
        if self._phase is Phase.TOKEN:
            return self._tokens.choices(seat)[0].code
        return self._default_turn(seat)

    def _default_turn(self, seat: int) -> str:
        raise NotImplementedError

    # -- the shared actions -------------------------------------------------------------------------

    def _apply_shared(self, seat: int, action: FrazzledAction) -> list[Event] | None:
        """Carry out a fan pick or a token choice (already checked), or return ``None``."""
        if isinstance(action, Fan):
            return self._pick(seat, action.position)
        if isinstance(action, TakeToken | StealToken):
            return [Event(seat, self._tokens.apply(seat, action))] + self._next_turn()
        return None

    def _shared_action(self, seat: int, card: Card) -> list[Event] | None:
        """The 14/1, 2, 6 or 13 of ``card`` (discarded or played by ``seat``), or ``None`` for another
        card."""
        number = card.number
        if number in (FOURTEEN_ONE, 2):
            count = 1 if number == FOURTEEN_ONE else 2
            fan = FanExchange.start(self._hands, count, self._rng)
            if fan.is_done():
                return [Event(None, self.nobody_fans)] + self._next_turn()
            self._fan = fan
            self._phase = Phase.FAN
            return [
                Event(
                    None,
                    f"{card.number_text}: everyone picks {cards_word(count)} from the face-down fan of the "
                    "player on their right.",
                )
            ]
        if number == 6:
            before = self._hands
            self._hands = pass_hands_left(self._hands)
            self._hands_moved(
                {other: left_of(other, self.num_seats) for other in range(self.num_seats)}, before
            )
            for other in range(self.num_seats):
                given = self._hands[left_of(other, self.num_seats)]
                self._notes[other] = exchange_text(self._hands[other], given, passed=True)
            return [Event(None, "6: everyone passes their whole hand to the left.")] + self._after_exchange()
        if number == 13:
            if not self._tokens.choices(seat):
                return [Event(None, "13: there is no token to take.")] + self._next_turn()
            self._phase = Phase.TOKEN
            return [Event(None, "13: a token to take.")]
        return None

    nobody_fans: ClassVar[str] = "Nobody has a card to fan out."

    def _pick(self, seat: int, position: int) -> list[Event]:
        fan = self._fan
        assert fan is not None
        fan.pick(seat, position)
        if not fan.is_done():
            return []
        for other, (received, given) in self._resolve_fan().items():
            if received or given:
                self._notes[other] = exchange_text(received, given)
        self._fan = None
        events = [Event(None, "The exchange is done; each picked card is now in its picker's hand.")]
        return events + self._after_exchange()

    def _after_exchange(self) -> list[Event]:
        """What follows a finished exchange or a 6 (default: the next turn)."""
        return self._next_turn()

    def _next_turn(self) -> list[Event]:
        self._turn = left_of(self._turn, self.num_seats)
        self._phase = self.turn_phase
        self._turns += 1
        return []

    def _end(self) -> None:
        self._phase = Phase.OVER
        self._fan = None

    # -- views -------------------------------------------------------------------------------------

    def _view(self, seat: int | None, table: list[Field]) -> SeatView:
        """The view of ``seat`` with the game's ``table`` fields."""
        to_act = self.seats_to_act()
        seats = tuple(
            SeatLine(other, self._seat_summary(other), other in to_act) for other in range(self.num_seats)
        )
        private: tuple[Field, ...] = ()
        if seat is not None:
            private = tuple(self._private_fields(seat))
        title = f"{self.title}: game over" if self.is_terminal() else f"{self.title}: turn {self._turns}"
        return SeatView(
            seat=seat,
            title=title,
            table=tuple(table),
            seats=seats,
            private=private,
            legal_actions=self.legal_actions(seat) if seat is not None else (),
        )

    def _now_text(self) -> str:
        """The "Now" line of the table: what the game waits for."""
        if self._phase is Phase.FAN:
            assert self._fan is not None
            return f"Everyone picks {cards_word(self._fan.count)} from the fan of the player on their right."
        if self._phase is Phase.TOKEN:
            return f"The player who {self.card_verb} the 13 takes a token."
        return self._now_turn()

    def _now_turn(self) -> str:
        raise NotImplementedError

    def _seat_summary(self, seat: int) -> str:
        raise NotImplementedError

    def _private_fields(self, seat: int) -> list[Field]:
        raise NotImplementedError

    def _piles_field(self, empty: str) -> Field:
        """The public field of the draw piles (``empty`` once all three are)."""
        return Field("Draw piles", piles_text(self._piles) if non_empty_piles(self._piles) else empty)

    def _hand_fields(self, seat: int, empty: str) -> list[Field]:
        """``seat``'s hand as private fields (``empty`` for no card)."""
        hand = self._hands[seat]
        return card_fields(f"Your hand ({len(hand)})", hand, empty=empty)

    def _exchange_fields(self, seat: int) -> list[Field]:
        """A seat's private notes on exchanges: the last one, and the fan it picks from now."""
        fields = [Field("Last exchange", self._notes[seat])] if seat in self._notes else []
        return fields + fan_fields(self._fan, seat)


def draw_actions(piles: Sequence[Sequence[Card]]) -> tuple[LegalAction, ...]:
    """One public action ``draw.<i>`` per non-empty pile, labelled with the face-up card it takes."""
    return tuple(
        LegalAction(Draw(index).format(), f"Draw {piles[index][-1].label} (pile {index + 1})", "main")
        for index in non_empty_piles(piles)
    )


class FrazzledRules(GameRules[OptionsT]):
    """The rules of a Frazzled Wool game: 3 to 8 players, and the options model of its ``state_class``."""

    min_seats: ClassVar[int] = 3
    max_seats: ClassVar[int] = 8

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        cls.options_model = cls.state_class.options_class  # type: ignore[attr-defined]
