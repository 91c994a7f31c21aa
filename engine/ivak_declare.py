"""Minimize: Declare, the IVAK MINIMIZE™ "Declare" game, for 2 to 10 players.

Rules source: ``shared/seeds/001_faa9b8d9abeda876.txt`` (the MINIMIZE™ instruction manual) and the IVAK
facts in ``shared/seeds/README.md`` (the 108-card deck; declare with 7 points or less). Rulings where the
text is silent are numbered in ``docs/rules/declare.md``; the code cites them as "ruling N".

Cards are short codes, which is also how they appear in action codes:

* number cards: a rank character from ``"123456789ABC"`` (A = 10, B = 11, C = 12) and a colour from
  ``"rygb"`` (red ♥, yellow ★, green ♣, blue ♦), e.g. ``"5r"`` is 5♥ and ``"Cb"`` is 12♦;
* ``"jk"``: a Joker; ``"hv"``, ``"dn"``, ``"np"``, ``"dv"``: the power cards My Half Value, I Declare Now,
  I Don't Pick and I Discover Now.

Points are kept internally in quarter points (``int``): My Half Value halves a hand total once or twice
("In case he/she has 2 of such cards then point total will be 2.5 points"), so every score is a multiple
of ¼ and quarter points keep all arithmetic exact.

Actions are the typed values of :class:`DeclareAction`; their codes (stored in action logs, unchanged
since the first version): ``declare``; ``t<cards>`` (throw, cards in thrown order, e.g. ``t5r6rjk8r``);
``draw``, ``take<card>``, ``nopick``, ``disc<card>``, ``nocard`` (the pick); ``tb<card>`` (quick
throw-back) and ``declarenow`` (I Declare Now), the optional out-of-turn actions of the player who just
finished a turn. Logs stored before every throw was offered in one list also hold ``f1`` .. ``f7`` and
``fback`` (a "family" step that only fitted the throws to Discord's menus);
:meth:`MinimizeDeclare.upgrade_log` drops them.
"""

from __future__ import annotations

import enum
import random
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import ClassVar, Self

from pydantic import Field as OptionField

from engine.core import (
    Event,
    Field,
    GameAction,
    GameOptions,
    GameRules,
    GameState,
    IllegalAction,
    LegalAction,
    SeatLine,
    SeatView,
    Standing,
)

RANKS = "123456789ABC"
COLOURS = "rygb"
SYMBOLS = {"r": "♥", "y": "★", "g": "♣", "b": "♦"}
COLOUR_NAMES = {"r": "red", "y": "yellow", "g": "green", "b": "blue"}
JOKER = "jk"
HALF_VALUE = "hv"
DECLARE_NOW = "dn"
NO_PICK = "np"
DISCOVER = "dv"
POWER_CARDS = (HALF_VALUE, DECLARE_NOW, NO_PICK, DISCOVER)
POWER_NAMES = {
    HALF_VALUE: "My Half Value",
    DECLARE_NOW: "I Declare Now",
    NO_PICK: "I Don't Pick",
    DISCOVER: "I Discover Now",
}
HAND_SIZE = 7
DECLARE_LIMIT_Q = 7 * 4  # seeds README: declare with 7 points or less (in quarter points)
PENALTY_Q = 25 * 4  # "the caller scores 25 penalty points"
ELIMINATION_Q = 100 * 4  # "more than 100 points is eliminated"; exactly 100 is reduced to 50

DECLARE = "declare"
DECLARE_NOW_CODE = "declarenow"
DRAW = "draw"
NO_PICK_CODE = "nopick"
NO_CARD = "nocard"
THROW_GROUP = "Throw…"
LEGACY_FAMILY_STEP = re.compile(r"f[0-9]+|fback")  # codes of the family step of older logs

FULL_DECK: tuple[str, ...] = tuple(
    [rank + colour for rank in RANKS for colour in COLOURS] * 2
    + [JOKER] * 4
    + [power for power in POWER_CARDS for _ in range(2)]
)


# -- cards ------------------------------------------------------------------------------------------


_RANK_OF = {char: index + 1 for index, char in enumerate(RANKS)}


def is_number(card: str) -> bool:
    """True for a number card (``"5r"``), False for a Joker or a power card."""
    return card[0] in RANKS


def rank_of(card: str) -> int:
    """The number of a number card, 1..12.

    Raises
    ------
    ValueError
        For a Joker or a power card, which have no number.
    """
    try:
        return _RANK_OF[card[0]]
    except KeyError:
        raise ValueError(f"{card!r} has no number") from None


def card_points(card: str) -> int:
    """Points of one card: its face value; "The Power Cards and the Jokers are worth zero points"."""
    return _RANK_OF.get(card[0], 0)


def card_text(card: str) -> str:
    """Plain Unicode for players: ``"5♥"``, ``"12♦"``, ``"Joker"``, ``"My Half Value"``."""
    if is_number(card):
        return f"{rank_of(card)}{SYMBOLS[card[1]]}"
    if card == JOKER:
        return "Joker"
    return POWER_NAMES[card]


def cards_text(cards: Sequence[str]) -> str:
    """Cards in the given order separated by spaces, or ``"no cards"``."""
    return " ".join(card_text(card) for card in cards) if cards else "no cards"


def card_sort_key(card: str) -> tuple[int, int, int]:
    """Hand order: number cards by rank then colour (♥ ★ ♣ ♦), then Jokers, then power cards."""
    if is_number(card):
        return (0, rank_of(card), COLOURS.index(card[1]))
    if card == JOKER:
        return (1, 0, 0)
    return (2, POWER_CARDS.index(card), 0)


def is_card(card: str) -> bool:
    """True for any valid card code."""
    return card in POWER_CARDS or card == JOKER or (len(card) == 2 and is_number(card) and card[1] in COLOURS)


def hand_quarters(hand: Sequence[str]) -> int:
    """A hand's total in quarter points: face values summed, halved once per My Half Value held
    ("his point value will be taken as 5 points. In case he/she has 2 of such cards … 2.5 points")."""
    total = sum(card_points(card) for card in hand) * 4
    return total >> min(hand.count(HALF_VALUE), 2)


def format_points(quarters: int) -> str:
    """Quarter points as players read them: ``"12"``, ``"3.5"``, ``"2.25"``."""
    if quarters % 4 == 0:
        return str(quarters // 4)
    return f"{quarters / 4:g}"


def points_text(quarters: int) -> str:
    """Quarter points with their unit: ``"1 point"``, ``"3.5 points"``."""
    return "1 point" if quarters == 4 else f"{format_points(quarters)} points"


def points_value(quarters: int) -> int | float:
    """Quarter points as a number: an ``int`` when whole, else a ``float`` (exact: quarters are binary)."""
    return quarters // 4 if quarters % 4 == 0 else quarters / 4


# -- throws -----------------------------------------------------------------------------------------

SINGLE, SET, PURE, IMPURE = "single", "set", "pure", "impure"


@dataclass(frozen=True)
class Throw:
    """One legal throw: ``cards`` in thrown order (so ``cards[0]`` and ``cards[-1]`` are the ends the next
    player may pick), its ``kind`` (``"single"``, ``"set"``, ``"pure"`` or ``"impure"`` sequence) and the
    ``points`` it sheds."""

    cards: tuple[str, ...]
    kind: str
    points: int

    @property
    def code(self) -> str:
        return "t" + "".join(self.cards)

    def describe(self) -> str:
        """E.g. ``"pure sequence of 3 · sheds 12 points"``."""
        size = len(self.cards)
        what = {
            SINGLE: "one card",
            SET: f"set of {size}",
            PURE: f"pure sequence of {size}",
            IMPURE: f"sequence of {size}, mixed colours",
        }[self.kind]
        text = f"{what} · sheds {self.points} point{'s' if self.points != 1 else ''}"
        if self.kind == SET and size >= 3:
            text += f" · ends {card_text(self.cards[0])} and {card_text(self.cards[-1])}"
        return text


def sequence_start(cards: Sequence[str]) -> int:
    """The number the first card of a sequence stands for (a leading Joker stands for the card below).

    Raises
    ------
    ValueError
        If the cards hold no number card.
    """
    for index, card in enumerate(cards):
        if is_number(card):
            return rank_of(card) - index
    raise ValueError("a sequence needs a number card")


def classify(cards: Sequence[str]) -> str | None:
    """The kind of throw ``cards`` (in thrown order) make, or ``None`` if they are not a legal throw.

    "Any one card" (a number card or a Joker, not a power card: ruling 6); "a set of two or more cards of
    the same rank" (number cards only: ruling 7); "a sequence of three (minimum) or more consecutive cards
    of a single colour" (pure) or "four (minimum) or more … of different colours" (impure), ascending,
    Jokers standing in for any card (ruling 8: at least one number card; a sequence is pure when its number
    cards share a colour).
    """
    if not cards or any(card in POWER_CARDS or not is_card(card) for card in cards):
        return None
    if len(cards) == 1:
        return SINGLE
    numbers = [card for card in cards if is_number(card)]
    if not numbers:
        return None
    if len(numbers) == len(cards) and len({rank_of(card) for card in numbers}) == 1:
        return SET
    if len(cards) < 3:
        return None
    start = sequence_start(cards)
    if start < 1 or start + len(cards) - 1 > 12:
        return None
    for index, card in enumerate(cards):
        if is_number(card) and rank_of(card) != start + index:
            return None
    colours = {card[1] for card in numbers}
    if len(colours) == 1:
        return PURE
    return IMPURE if len(cards) >= 4 else None


@lru_cache(maxsize=8192)
def legal_throws(hand: tuple[str, ...]) -> tuple[Throw, ...]:
    """Every legal throw from ``hand`` (ruling 9: sets in colour order ♥ ★ ♣ ♦; sequences ascending, each
    distinct Joker position a distinct throw), most points shed first.

    >>> [t.code for t in legal_throws(("5r", "6r", "7r"))][:2]
    ['t5r6r7r', 't7r']
    """
    counts = Counter(hand)
    jokers = counts[JOKER]
    by_rank: dict[int, Counter[str]] = {}
    for card, count in counts.items():
        if is_number(card):
            by_rank.setdefault(rank_of(card), Counter())[card[1]] = count
    found: dict[tuple[str, ...], str] = {}
    for card in counts:
        if card not in POWER_CARDS:
            found[(card,)] = SINGLE
    for rank, colours in by_rank.items():
        if sum(colours.values()) < 2:
            continue
        _sets(RANKS[rank - 1], colours, 0, [], found)
    if by_rank and sum(len(colours) for colours in by_rank.values()) + jokers >= 3:
        for start in range(1, 11):
            _sequences(start, by_rank, jokers, [], None, False, found)
    throws = [Throw(cards, kind, sum(card_points(card) for card in cards)) for cards, kind in found.items()]
    kind_order = {SINGLE: 0, SET: 1, PURE: 2, IMPURE: 3}
    throws.sort(
        key=lambda t: (-t.points, kind_order[t.kind], len(t.cards), [card_sort_key(c) for c in t.cards])
    )
    return tuple(throws)


def _sets(rank: str, colours: Counter[str], index: int, chosen: list[str], found: dict) -> None:
    if index == len(COLOURS):
        if len(chosen) >= 2:
            found[tuple(chosen)] = SET
        if len(chosen) >= 3:
            for ordered in set_orders(chosen):
                found[ordered] = SET
        return
    colour = COLOURS[index]
    for count in range(colours.get(colour, 0) + 1):
        _sets(rank, colours, index + 1, chosen + [rank + colour] * count, found)


def set_orders(cards: Sequence[str]) -> list[tuple[str, ...]]:
    """Every way to lay a set of three or more (ruling 9): any card first, any other card last (the two the
    next player may pick), the rest between them in colour order ♥ ★ ♣ ♦. Equal cards give one order.

    >>> set_orders(("5r", "5y", "5g"))[:3]
    [('5r', '5y', '5g'), ('5r', '5g', '5y'), ('5y', '5g', '5r')]
    """
    orders: dict[tuple[str, ...], None] = {tuple(cards): None}
    for first in range(len(cards)):
        for last in range(len(cards)):
            if first != last:
                middle = [card for index, card in enumerate(cards) if index not in (first, last)]
                orders[(cards[first], *middle, cards[last])] = None
    return list(orders)


def _sequences(
    start: int,
    by_rank: dict[int, Counter[str]],
    jokers: int,
    chosen: list[str],
    colour: str | None,
    mixed: bool,
    found: dict,
) -> None:
    """Grow every sequence starting at ``start`` one card at a time, recording each legal length."""
    length = len(chosen)
    if length >= 3 and colour is not None and (not mixed or length >= 4):
        found[tuple(chosen)] = IMPURE if mixed else PURE
    rank = start + length
    if rank > 12:
        return
    if jokers:
        _sequences(start, by_rank, jokers - 1, chosen + [JOKER], colour, mixed, found)
    for card_colour in by_rank.get(rank, {}):
        _sequences(
            start,
            by_rank,
            jokers,
            chosen + [RANKS[rank - 1] + card_colour],
            card_colour if colour is None else colour,
            mixed or (colour is not None and card_colour != colour),
            found,
        )


def throw_back_fits(throw: Sequence[str], card: str) -> int | None:
    """Where a just-drawn ``card`` may be thrown back onto ``throw`` (the manual's Note: "a match to the
    single card discarded …, the set discarded or the sequence discarded"; additional rule 1).

    Returns ``1`` to add it at the end (same number as a single or set, or one above a sequence), ``0`` to
    add it at the start (one below a sequence), or ``None`` if it does not match (ruling 13: Jokers and
    power cards never match; a thrown Joker alone matches nothing).
    """
    if not throw or not is_number(card):
        return None
    kind = classify(throw)
    number = rank_of(card)
    if kind in (SINGLE, SET):
        if not is_number(throw[0]):
            return None
        return 1 if rank_of(throw[0]) == number else None
    if kind in (PURE, IMPURE):
        start = sequence_start(throw)
        if number == start - 1:
            return 0
        if number == start + len(throw):
            return 1
    return None


# -- actions --------------------------------------------------------------------------------------


class Phase(enum.Enum):
    """The part of a turn the player to act is in: throwing (or declaring), then picking one card."""

    THROW = "throw"
    PICK = "pick"


class DeclareAction(GameAction):
    """A Minimize: Declare action: one of the frozen dataclasses below, parsed from its stable code.

    ``DeclareAction.parse(code)`` gives whichever action ``code`` names; a subclass's ``parse`` accepts
    only codes of that subclass. Cards in codes are the two-character card codes (``"5r"``, ``"jk"``).
    """

    @classmethod
    def parse(cls, code: str) -> Self:
        """The action whose code is ``code``.

        Raises
        ------
        ValueError
            If ``code`` names no action of this game (or none of this subclass).
        """
        action = _parse_action(code)
        if not isinstance(action, cls):
            raise ValueError(f"{code!r} is not a {cls.__name__} code")
        return action


@dataclass(frozen=True)
class Declare(DeclareAction):
    """Call "Declare" at the start of your turn (7 points or less in hand)."""

    def format(self) -> str:
        return DECLARE


@dataclass(frozen=True)
class ThrowCards(DeclareAction):
    """Throw ``cards`` (one card, a set or a sequence) in thrown order: code ``t`` + the cards."""

    cards: tuple[str, ...]

    def format(self) -> str:
        return "t" + "".join(self.cards)


@dataclass(frozen=True)
class Draw(DeclareAction):
    """Pick the top card of the draw pile."""

    def format(self) -> str:
        return DRAW


@dataclass(frozen=True)
class Take(DeclareAction):
    """Pick ``card``, the first or last card of the previous player's throw: code ``take`` + the card."""

    card: str

    def format(self) -> str:
        return "take" + self.card


@dataclass(frozen=True)
class NoPick(DeclareAction):
    """Play I Don't Pick instead of picking a card."""

    def format(self) -> str:
        return NO_PICK_CODE


@dataclass(frozen=True)
class Discover(DeclareAction):
    """Play I Discover Now and pick number card ``card`` from the discard pile: code ``disc`` + the card."""

    card: str

    def format(self) -> str:
        return "disc" + self.card


@dataclass(frozen=True)
class NoCard(DeclareAction):
    """End the turn without a card when neither pile has one to pick (ruling 16)."""

    def format(self) -> str:
        return NO_CARD


@dataclass(frozen=True)
class ThrowBack(DeclareAction):
    """Quickly throw back ``card``, just drawn, onto your throw (out of turn): code ``tb`` + the card."""

    card: str

    def format(self) -> str:
        return "tb" + self.card


@dataclass(frozen=True)
class DeclareNow(DeclareAction):
    """Play I Declare Now right after your turn and declare at once (out of turn)."""

    def format(self) -> str:
        return DECLARE_NOW_CODE


_WORD_ACTIONS: dict[str, DeclareAction] = {
    DECLARE: Declare(),
    DECLARE_NOW_CODE: DeclareNow(),
    DRAW: Draw(),
    NO_PICK_CODE: NoPick(),
    NO_CARD: NoCard(),
}
_CARD_ACTIONS: tuple[tuple[str, type[Take | Discover | ThrowBack]], ...] = (
    ("take", Take),
    ("disc", Discover),
    ("tb", ThrowBack),
)


def _parse_action(code: str) -> DeclareAction:
    """The action of ``code`` (no card prefix is itself a card, so ``take``/``tb`` never read as throws)."""
    if code in _WORD_ACTIONS:
        return _WORD_ACTIONS[code]
    for prefix, kind in _CARD_ACTIONS:
        if code.startswith(prefix) and is_card(code[len(prefix) :]):
            return kind(code[len(prefix) :])
    if code.startswith("t") and len(code) % 2 == 1 and len(code) > 1:
        cards = _split_cards(code[1:])
        if all(is_card(card) for card in cards):
            return ThrowCards(cards)
    raise ValueError(f"{code!r} is not a Minimize: Declare action")


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


@dataclass(frozen=True)
class RoundResult:
    """How a round ended, for the public view: ``hands`` and ``hand_q`` (quarter points) per seat that
    played it (``None`` for seats already out), ``scored_q`` added per seat, and notes per seat."""

    number: int
    caller: int
    caller_q: int
    succeeded: bool
    hands: tuple[tuple[str, ...] | None, ...]
    hand_q: tuple[int | None, ...]
    scored_q: tuple[int, ...]
    notes: tuple[str, ...]


# -- the state --------------------------------------------------------------------------------------


class DeclareState(GameState[DeclareOptions]):
    """A game of Minimize: Declare in progress: rounds until one player is left at 100 points or less.

    Secret information: each seat's hand (secret to all but its owner until a declare reveals every hand)
    and the draw pile's order. Public: the discard pile, hand sizes, running totals, the direction of play,
    and the cards a seat took from the discard pile (everyone saw them go into that hand).
    """

    action_type = DeclareAction

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
    ) -> DeclareState:
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

    # -- legal actions --------------------------------------------------------------------------------

    def legal_actions(self, seat: int) -> tuple[LegalAction, ...]:
        if self._over or not 0 <= seat < self.num_seats:
            return ()
        actions: list[LegalAction] = []
        if seat == self._turn:
            if self._phase is Phase.THROW:
                actions.extend(self._throw_actions(seat))
            else:
                actions.extend(self._pick_actions(seat))
        actions.extend(self._window_actions(seat))
        return tuple(actions)

    def _throw_actions(self, seat: int) -> list[LegalAction]:
        hand = self._hands[seat]
        actions: list[LegalAction] = []
        if self.can_declare(seat):
            # "call 'Declare'" at the start of your turn; secret: it would tell the table you hold ≤ 7.
            actions.append(
                LegalAction(
                    DECLARE,
                    f"Declare ({points_text(hand_quarters(hand))})",
                    "bad",
                    secret=True,
                    description="End the round: lowest hand wins",
                )
            )
        # Ruling 5: with nothing to throw, declaring is the only move (the hand counts 0).
        actions.extend(throw_choices(tuple(hand)))
        return actions

    def _pick_actions(self, seat: int) -> list[LegalAction]:
        actions: list[LegalAction] = []
        if self._draw:
            actions.append(LegalAction(DRAW, "Draw from the pile", "main"))
        for card in _pickable(self._prev_throw):
            actions.append(LegalAction(Take(card).format(), f"Take {card_text(card)}", "good"))
        if not actions:
            # Ruling 16: neither pile can supply a card (it cannot happen with 108 cards, see the doc).
            actions.append(LegalAction(NO_CARD, "No card to pick: end turn"))
        hand = self._hands[seat]
        if NO_PICK in hand:
            actions.append(
                LegalAction(
                    NO_PICK_CODE,
                    "Play I Don't Pick (pick nothing)",
                    secret=True,
                    description="Throw the power card instead of picking a card",
                )
            )
        if DISCOVER in hand:
            for card in self._discoverable():
                actions.append(
                    LegalAction(
                        Discover(card).format(),
                        f"Discover {card_text(card)}",
                        secret=True,
                        group="Play I Discover Now: take any number card from the discard pile…",
                        description=points_text(4 * card_points(card)),
                    )
                )
        return actions

    def _discoverable(self) -> list[str]:
        """Number cards "anywhere in the Discard Pile" except the picker's own throw this turn (ruling 11);
        never a Joker or power card ("You cannot pick a Joker or any other Power Card")."""
        cards = {card for card in self._discard + self._prev_throw if is_number(card)}
        return sorted(cards, key=card_sort_key)

    def _window_open(self, seat: int) -> bool:
        """True for the player who just finished a turn, until the next player's first action."""
        return not self._over and seat == self._window_seat

    def _throw_back_card(self, seat: int) -> str | None:
        """The just-drawn card ``seat`` may throw back now, if any."""
        card = self._window_card
        if self._window_open(seat) and card is not None and card in self._hands[seat]:
            return card
        return None

    def _window_actions(self, seat: int) -> list[LegalAction]:
        """Optional out-of-turn actions of the player who just finished a turn, until the next player's
        first action (the Note: "before the next player has discarded his own cards")."""
        if not self._window_open(seat):
            return []
        actions: list[LegalAction] = []
        hand = self._hands[seat]
        card = self._throw_back_card(seat)
        if card is not None:
            actions.append(
                LegalAction(
                    ThrowBack(card).format(),
                    f"Throw back {card_text(card)} (quick, before the next player acts!)",
                    "good",
                    secret=True,
                )
            )
        if DECLARE_NOW in hand and self.can_declare(seat):
            actions.append(
                LegalAction(
                    DECLARE_NOW_CODE,
                    f"I Declare Now ({points_text(hand_quarters(hand))})",
                    "bad",
                    secret=True,
                    description="Throw I Declare Now and declare before your next turn",
                )
            )
        return actions

    def check(self, seat: int, action: GameAction) -> str | None:
        """``None`` if ``seat`` may take ``action`` now (exactly the actions of :meth:`legal_actions`),
        otherwise the words saying why not."""
        if self._over or not 0 <= seat < self.num_seats:
            return "That move is not allowed right now."
        hand = self._hands[seat]
        if isinstance(action, (ThrowBack, DeclareNow)):
            if not self._window_open(seat):
                return "That is played only right after your own turn, before the next player acts."
            if isinstance(action, ThrowBack):
                if action.card != self._throw_back_card(seat):
                    return "You may throw back only a matching card you just drew from the pile."
                return None
            if DECLARE_NOW not in hand:
                return "You hold no I Declare Now card."
            if not self.can_declare(seat):
                return "You may declare only with 7 points or less in hand."
            return None
        if seat != self._turn:
            return "It is not your turn."
        if isinstance(action, Declare):
            if not self.can_declare(seat):
                return "You may declare only with 7 points or less in hand."
            if self._phase is Phase.PICK:
                return "You declare at the start of your turn, before throwing: now pick a card."
            return None
        if isinstance(action, ThrowCards):
            if self._phase is Phase.PICK:
                return "You have thrown this turn: now pick a card."
            if Counter(action.cards) - Counter(hand):
                return "You do not hold those cards."
            if action.cards not in _throw_cards(tuple(hand)):
                return "That is not a throw: one card, a set of one number (♥ ★ ♣ ♦), or a sequence going up."
            return None
        if self._phase is Phase.THROW:
            return "Throw first, then pick: you always discard before you pick up."
        if isinstance(action, Draw):
            return None if self._draw else "The draw pile is empty."
        if isinstance(action, Take):
            if action.card not in _pickable(self._prev_throw):
                return "You may take only the first or last card of the last throw."
            return None
        if isinstance(action, NoCard):
            if self._draw or self._prev_throw:
                return "There is a card to pick: draw one or take one."
            return None
        if isinstance(action, NoPick):
            return None if NO_PICK in hand else "You hold no I Don't Pick card."
        if isinstance(action, Discover):
            if DISCOVER not in hand:
                return "You hold no I Discover Now card."
            if action.card not in self._discoverable():
                return "I Discover Now takes a number card of the discard pile, not one you threw this turn."
            return None
        return "That move is not allowed right now."

    def default_action(self, seat: int) -> str:
        """On a timeout (ruling 17): at the throw, the throw that sheds the most points (never a declare,
        unless it is the only move); at the pick, draw from the pile (else take the first pickable card).
        Power cards are never played for an idle seat, nor optional out-of-turn actions.

        Raises
        ------
        IllegalAction
            If it is not ``seat``'s turn.
        """
        if seat not in self.seats_to_act():
            raise IllegalAction("It is not your turn.")
        if self._phase is Phase.PICK:
            for legal in self._pick_actions(seat):
                if isinstance(DeclareAction.parse(legal.code), (Draw, Take, NoCard)):
                    return legal.code
        throws = legal_throws(tuple(self._hands[seat]))
        if throws:
            return throws[0].code  # legal_throws lists the most points shed first
        return DECLARE

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

    def copy(self) -> DeclareState:
        """An independent exact copy (hidden cards and the game's generator included), much faster than
        ``copy.deepcopy``: AI players search on copies."""
        other = object.__new__(type(self))
        other.__dict__.update(self.__dict__)
        other.history = list(self.history)
        other._rng = random.Random()
        other._rng.setstate(self._rng.getstate())
        other._totals_q = list(self._totals_q)
        other._out_round = list(self._out_round)
        other._hands = [list(hand) for hand in self._hands]
        other._sources = [Counter(sources) for sources in self._sources]
        other._draw = list(self._draw)
        other._discard = list(self._discard)
        other._prev_throw = list(self._prev_throw)
        other._this_throw = list(self._this_throw)
        other._drawn = list(self._drawn)
        other._drawn_pile = list(self._drawn_pile)
        if self._reshuffled is not None:
            other._reshuffled = list(self._reshuffled)
        return other

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

    def resample_hidden(self, viewer: int | None, rng: random.Random) -> DeclareState:
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

    # -- changes --------------------------------------------------------------------------------------

    def _apply(self, seat: int, action: DeclareAction) -> list[Event]:
        if isinstance(action, DeclareNow):
            self._give_up(seat, DECLARE_NOW)
            self._discard.append(DECLARE_NOW)
            events = [Event(seat, "throws **I Declare Now**!")]
            return events + self._declare(seat)
        if isinstance(action, ThrowBack):
            return self._throw_back(seat, action.card)
        # Any other action is the next player's first: the window of the previous turn closes.
        self._window_seat = None
        self._window_card = None
        if isinstance(action, Declare):
            return self._declare(seat)
        if isinstance(action, ThrowCards):
            return self._throw(seat, action.cards)
        return self._pick(seat, action)

    def _throw(self, seat: int, cards: tuple[str, ...]) -> list[Event]:
        for card in cards:
            self._give_up(seat, card)
        kind = classify(cards)
        self._this_throw = list(cards)
        self._drawn[seat] = None
        self._drawn_pile[seat] = None
        self._phase = Phase.PICK
        points = sum(card_points(card) for card in cards)
        events = [Event(seat, f"throws **{cards_text(cards)}** ({points} point{'s' if points != 1 else ''})")]
        if self.options.triplet_skips and kind == SET and len(cards) == 3:
            self._skip_next = True  # additional rule 2 (ruling 14: exactly three)
            events.append(Event(None, "A triplet: the next player misses their turn."))
        if self.options.pure_three_reverses and kind == PURE and len(cards) == 3:
            self._direction = -self._direction  # additional rule 3
            way = "clockwise ↻" if self._direction == 1 else "anticlockwise ↺"
            events.append(Event(None, f"A pure sequence of three: play now goes {way}."))
        if not self._draw and self._discard:
            # "all the cards of the Discard pile except for the last player's discard are shuffled and
            # stacked face down to make a new drawing deck" (ruling 15: the live throws stay).
            self._draw = self._discard
            self._discard = []
            self._reshuffled = sorted(self._draw, key=card_sort_key)
            self._rng.shuffle(self._draw)
            self._pile += 1
            events.append(
                Event(None, f"The discard pile is shuffled into a new draw pile ({len(self._draw)}).")
            )
        return events

    def _pick(self, seat: int, action: DeclareAction) -> list[Event]:
        window_card: str | None = None
        if isinstance(action, Draw):
            card = self._draw.pop()
            self._receive(seat, card, self._pile)
            self._drawn[seat] = card
            self._drawn_pile[seat] = self._pile
            events = [Event(seat, "draws from the pile")]
            if self.options.quick_throw_back and throw_back_fits(self._this_throw, card) is not None:
                window_card = card
        elif isinstance(action, Take):
            card = action.card
            if self._prev_throw[-1] == card:
                self._prev_throw.pop()
            else:
                self._prev_throw.pop(0)
            self._receive(seat, card, None)
            events = [Event(seat, f"takes **{card_text(card)}** from the last throw")]
        elif isinstance(action, NoPick):
            self._give_up(seat, NO_PICK)
            self._discard.append(NO_PICK)
            events = [Event(seat, "throws **I Don't Pick** and picks nothing")]
        elif isinstance(action, Discover):
            card = action.card
            self._give_up(seat, DISCOVER)
            if card in self._discard:
                self._discard.remove(card)
            else:
                self._prev_throw.remove(card)
            self._discard.append(DISCOVER)
            self._receive(seat, card, None)
            events = [
                Event(
                    seat, f"throws **I Discover Now** and takes **{card_text(card)}** from the discard pile"
                )
            ]
        else:  # NoCard
            events = [Event(seat, "finds no card to pick")]
        self._end_turn(seat)
        self._window_seat = seat
        self._window_card = window_card
        return events

    def _throw_back(self, seat: int, card: str) -> list[Event]:
        self._give_up(seat, card, (card, self._drawn_pile[seat]))
        self._drawn_pile[seat] = None  # everyone has now seen the drawn card
        self._window_card = None
        # The turn has passed: the thrower's throw is now the pickable one (ruling 12: the card joins it).
        if throw_back_fits(self._prev_throw, card) == 0:
            self._prev_throw.insert(0, card)
        else:
            self._prev_throw.append(card)
        return [Event(seat, f"quickly throws back **{card_text(card)}**, a match just drawn")]

    def _end_turn(self, seat: int) -> None:
        self._discard.extend(self._prev_throw)
        self._prev_throw = self._this_throw
        self._this_throw = []
        following = self._next_alive(seat, self._direction)
        if self._skip_next:
            following = self._next_alive(following, self._direction)
            self._skip_next = False
        self._turn = following
        self._phase = Phase.THROW

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

    def _declare(self, caller: int) -> list[Event]:
        """Reveal all hands and score the round ("Scoring"), then deal the next round or end the game."""
        self._window_seat = None
        self._window_card = None
        players = self._alive_seats()
        hand_q: list[int | None] = [None] * self.num_seats
        for seat in players:
            hand_q[seat] = hand_quarters(self._hands[seat])
        caller_q = hand_q[caller]
        assert caller_q is not None
        # "If any other player has the same number of points or fewer points than the caller, the caller
        # scores 25 penalty points".
        beaten = any(hand_q[seat] <= caller_q for seat in players if seat != caller)  # type: ignore[operator]
        scored = [0] * self.num_seats
        for seat in players:
            own = hand_q[seat]
            assert own is not None
            if seat == caller:
                scored[seat] = PENALTY_Q if beaten else 0
            elif not beaten or own > caller_q:
                scored[seat] = own
            # else: equal to or below a failed caller scores 0 (ruling 2)
        events = [
            Event(
                caller,
                f"declares with {points_text(caller_q)}"
                + (" and is beaten: 25 penalty points!" if beaten else ": lowest hand, scores 0!"),
            )
        ]
        notes = [""] * self.num_seats
        for seat in players:
            self._totals_q[seat] += scored[seat]
            note = ""
            if self._totals_q[seat] == ELIMINATION_Q:
                self._totals_q[seat] = ELIMINATION_Q // 2  # "If a player's score is exactly 100 … 50"
                note = "exactly 100: back to 50"
            elif self._totals_q[seat] > ELIMINATION_Q:
                self._out_round[seat] = self._round  # "more than 100 points is eliminated"
                note = "over 100: out"
            notes[seat] = note
            own = hand_q[seat]
            assert own is not None
            text = (
                f"shows {cards_text(self._hands[seat])} = {format_points(own)}: "
                f"+{format_points(scored[seat])}, total {format_points(self._totals_q[seat])}"
            )
            events.append(Event(seat, text + (f" ({note})" if note else "")))
        self._last = RoundResult(
            number=self._round,
            caller=caller,
            caller_q=caller_q,
            succeeded=not beaten,
            hands=tuple(
                tuple(self._hands[seat]) if hand_q[seat] is not None else None
                for seat in range(self.num_seats)
            ),
            hand_q=tuple(hand_q),
            scored_q=tuple(scored),
            notes=tuple(notes),
        )
        survivors = self._alive_seats()
        if len(survivors) <= 1:
            self._over = True
            if survivors:
                events.append(Event(survivors[0], "is the last player standing and wins!"))
            else:  # unreachable (ruling 18: a round always leaves someone at 0 added), kept for safety
                events.append(Event(None, "Everyone left went over 100: the game is over."))
            return events
        # "The player with the lowest card point total for that round starts the next round. If two or
        # more players had the equally low totals, the starter … will be the first of them, counting
        # clockwise starting to the left of the caller." (ruling 3: among players still in the game)
        order = [(caller + step) % self.num_seats for step in range(1, self.num_seats + 1)]
        candidates = [seat for seat in order if seat in survivors]
        low = min(hand_q[seat] for seat in candidates)  # type: ignore[type-var]
        starter = next(seat for seat in candidates if hand_q[seat] == low)
        self._dealer = self._next_alive(self._dealer, 1)  # ruling 4: the deal passes clockwise
        self._start_round(starter)
        events.append(Event(starter, f"has the lowest hand and starts round {self._round}"))
        return events

    # -- views ----------------------------------------------------------------------------------------

    def view(self, seat: int | None) -> SeatView:
        title = f"Minimize: Declare · round {self._round}"
        if self._over:
            title = f"Minimize: Declare · game over after {self._round} rounds"
        table: list[Field] = []
        if not self._over:
            table.extend(self._throw_fields())
            pile = f"{_count(len(self._draw), 'card')} · discard pile {_count(self._discard_size(), 'card')}"
            way = "clockwise ↻" if self._direction == 1 else "anticlockwise ↺"
            table.append(Field("Draw pile", pile))
            table.append(Field("Play goes", way))
        if self._last is not None:
            table.append(Field(f"Round {self._last.number} result", self._last_round_text()))
        closest = self._closest_to_100()
        if closest and not self._over:
            table.append(
                Field(
                    "Closest to 100", f"{format_points(self._totals_q[closest[0]])} points (marked ⚠ below)"
                )
            )
        table.append(
            Field(
                "Cards",
                "♥ red · ★ yellow · ♣ green · ♦ blue. Jokers and power cards count 0. "
                "Declare with 7 or less.",
            )
        )
        rules = [
            name
            for name, on in (
                ("quick throw-back", self.options.quick_throw_back),
                ("triplet skips", self.options.triplet_skips),
                ("pure three reverses", self.options.pure_three_reverses),
            )
            if on
        ]
        table.append(Field("Additional rules", ", ".join(rules) if rules else "none"))
        to_act = self.seats_to_act()
        seats = tuple(
            SeatLine(seat=other, summary=self._seat_summary(other, other in closest), to_act=other in to_act)
            for other in range(self.num_seats)
        )
        private: tuple[Field, ...] = ()
        legal: tuple[LegalAction, ...] = ()
        if seat is not None:
            private = self._private_fields(seat)
            legal = self.legal_actions(seat)
        return SeatView(
            seat=seat, title=title, table=tuple(table), seats=seats, private=private, legal_actions=legal
        )

    def _discard_size(self) -> int:
        return len(self._discard) + len(self._prev_throw) + len(self._this_throw)

    def _throw_fields(self) -> list[Field]:
        prev = self._prev_throw
        ends = _pickable(prev)
        if prev:
            prev_text = f"{_marked(prev)} — may take {' or '.join(card_text(card) for card in ends)}"
        else:
            prev_text = "nothing yet: draw from the pile"
        if self._phase is Phase.PICK:
            return [
                Field("Take from (last throw)", prev_text),
                Field("Just thrown", cards_text(self._this_throw)),
            ]
        return [Field("Last throw (take from it after you throw)", prev_text)]

    def _closest_to_100(self) -> list[int]:
        alive = self._alive_seats()
        if not alive:
            return []
        high = max(self._totals_q[seat] for seat in alive)
        if high == 0:
            return []
        return [seat for seat in alive if self._totals_q[seat] == high]

    def _last_round_text(self) -> str:
        last = self._last
        assert last is not None
        outcome = "won it: scores 0" if last.succeeded else "was beaten: 25 penalty"
        return (
            f"📣 caller declared {points_text(last.caller_q)} and {outcome}. "
            "Each player's hand total and points scored are on their line below; the hands are in the log."
        )

    def _seat_summary(self, seat: int, closest: bool) -> str:
        total = format_points(self._totals_q[seat])
        if not self.alive(seat):
            parts = [f"out in round {self._out_round[seat]} · {total} pts"]
        elif self._over:
            parts = [f"**{total}** pts · last one standing"]
        else:
            parts = [f"{len(self._hands[seat])} cards · **{total}** pts"]
            if seat == self._dealer:
                parts.append("dealer")
        last = self._last
        if last is not None and last.hand_q[seat] is not None:
            hand_q = last.hand_q[seat]
            assert hand_q is not None
            mark = "📣 " if seat == last.caller else ""
            parts.append(
                f"{mark}R{last.number}: held {format_points(hand_q)} → +{format_points(last.scored_q[seat])}"
                + (f" ({last.notes[seat]})" if last.notes[seat] else "")
            )
        if closest and not self._over:
            parts.append("⚠ closest to 100")
        return " · ".join(parts)

    def _private_fields(self, seat: int) -> tuple[Field, ...]:
        if self._over or not self.alive(seat):
            return ()
        hand = self._hands[seat]
        quarters = hand_quarters(hand)
        raw = sum(card_points(card) for card in hand)
        halves = min(hand.count(HALF_VALUE), 2)
        if halves:
            worth = (
                f"{raw} halved {'once' if halves == 1 else 'twice'} = **{format_points(quarters)}** points"
            )
        else:
            worth = f"**{raw}** points"
        worth += " — you may declare" if quarters <= DECLARE_LIMIT_Q else " — declare at 7 or less"
        fields = [Field("Your hand", cards_text(hand)), Field("Your hand counts", worth)]
        drawn = self._drawn[seat]
        if drawn is not None:
            fields.append(Field("You drew", card_text(drawn)))
        return tuple(fields)

    # -- end ------------------------------------------------------------------------------------------

    def standings(self) -> tuple[Standing, ...]:
        """Last player standing first; the others by how late they went out, then by lower total, ties
        sharing a rank (ruling 18). Points are the final totals (fractional when halving made them so).

        Raises
        ------
        RuntimeError
            If the game is not over.
        """
        if not self._over:
            raise RuntimeError("The game is not over.")
        last_round = self._round + 1

        def key(seat: int) -> tuple[int, int]:
            out = self._out_round[seat]
            return (-(last_round if out is None else out), self._totals_q[seat])

        keys = [key(seat) for seat in range(self.num_seats)]
        return tuple(
            Standing(
                seat=seat,
                points=points_value(self._totals_q[seat]),
                rank=1 + sum(1 for other in keys if other < keys[seat]),
                detail="last one standing" if self.alive(seat) else f"out in round {self._out_round[seat]}",
            )
            for seat in range(self.num_seats)
        )


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


def _split_cards(text: str) -> tuple[str, ...]:
    return tuple(text[index : index + 2] for index in range(0, len(text), 2))


def _pickable(throw: Sequence[str]) -> list[str]:
    """The first and last card of a throw ("only the first or last card of the set or sequence can be
    picked up"), once each if they are the same card."""
    if not throw:
        return []
    ends = [throw[0]]
    if len(throw) > 1 and throw[-1] != throw[0]:
        ends.append(throw[-1])
    return ends


def _marked(throw: Sequence[str]) -> str:
    """A throw with its pickable ends in bold: ``"**5♥** 6♥ Joker **8♥**"``."""
    texts = [card_text(card) for card in throw]
    texts[0] = f"**{texts[0]}**"
    if len(texts) > 1:
        texts[-1] = f"**{texts[-1]}**"
    return " ".join(texts)


@lru_cache(maxsize=8192)
def throw_choices(hand: tuple[str, ...]) -> tuple[LegalAction, ...]:
    """The throw decision for ``hand``: every legal throw, most points shed first, as one group of private
    choices labelled with the cards in thrown order (``"5♥ 6♥ Joker 8♥"``) and described with the kind and
    the points shed (``"pure sequence of 4 · sheds 19 points"``). A 7-card hand can have over a hundred
    (117 for 6♦ 7♦ 8♦ 9♦ and three Jokers); the Discord renderer pages long lists."""
    return tuple(
        LegalAction(
            throw.code, cards_text(throw.cards), secret=True, group=THROW_GROUP, description=throw.describe()
        )
        for throw in legal_throws(hand)
    )


@lru_cache(maxsize=8192)
def _throw_cards(hand: tuple[str, ...]) -> frozenset[tuple[str, ...]]:
    """The cards of every legal throw from ``hand``, for checking a throw."""
    return frozenset(throw.cards for throw in legal_throws(hand))


class MinimizeDeclare(GameRules[DeclareOptions]):
    """Minimize: Declare (IVAK MINIMIZE™): throw high cards, pick one, declare at 7 or less."""

    key: ClassVar[str] = "declare"
    display_name: ClassVar[str] = "Minimize: Declare"
    summary: ClassVar[str] = (
        "Throw a card, set or sequence, pick one card; declare with 7 or less. Over 100 points: you're out."
    )
    winning_rule: ClassVar[str] = "last player at 100 points or less wins"
    min_seats: ClassVar[int] = 2
    max_seats: ClassVar[int] = 10
    options_model: ClassVar[type[GameOptions]] = DeclareOptions
    state_class: ClassVar[type[GameState]] = DeclareState

    def upgrade_log(self, actions: Sequence[tuple[int, str]]) -> list[tuple[int, str]]:
        """``actions`` without the family steps of older logs (``f1`` .. ``f7``, ``fback``).

        Until every throw was offered in one list, a hand with more than 96 throws chose a "family" first
        (one card or a set, or a sequence of N cards), then the throw. The step changed nothing but the
        list shown to that player (the previous player's throw-back window stayed open), so dropping it
        replays the same game. A current log has no such codes and is returned as it is.
        """
        return [(seat, code) for seat, code in actions if not LEGACY_FAMILY_STEP.fullmatch(code)]
