"""Deluxe Memory (Jonathan A. Leistiko, Invisible City Productions Free Game #56), for 2 to 4 players.

Rules source: ``shared/seeds/004_661a3fd4e50c3a3d.txt``. Where the text is silent the numbered rulings of
``docs/rules/memory.md`` apply; comments cite them as "ruling N" and each is tested in
``tests/engine/test_memory.py``.

Shapes used throughout:

* A *card* is an ``int``: ``0..51`` is ``rank_index * 4 + suit`` (ranks A, 2..10, J, Q, K; suits ♠ ♥ ♦ ♣,
  ♥ and ♦ red) and ``52``, ``53`` are the two Jokers (Jokin' Around only).
* A *position* is an ``int`` ``row * 8 + column`` on the 7 by 8 layout (rows "A".."G", columns "1".."8"),
  named like ``"C5"``. The four corners are not part of the layout (two of them are, with the Jokers).
* Tokens are ``int`` counts; the tokens of all players plus the Bank are always ``30 * players``.
"""

from __future__ import annotations

import functools
import random
from collections import Counter
from dataclasses import dataclass, field
from typing import ClassVar

from pydantic import Field as OptionField

from engine.core import (
    Board,
    Cell,
    Event,
    Field,
    GameOptions,
    GameRules,
    GameState,
    LegalAction,
    SeatLine,
    SeatView,
    Standing,
    competition_ranks,
)

RANK_NAMES = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("♠", "♥", "♦", "♣")
RED_SUITS = frozenset({1, 2})
JOKERS = (52, 53)
ROWS = "ABCDEFG"
COLUMNS = 8
START_TOKENS = 20  # "Give 20 tokens to each player."
TOKENS_PER_PLAYER = 30  # "About 30 tokens for each player": the other 10 each start in the Bank.
REARRANGE_SECONDS = 60.0  # Jokin' Around: "you have one minute to rearrange the cards"
SEVEN_PRICE = 5  # Mixed 7: "You may lose 5 tokens at the end of that turn to take another turn."
QUEEN_GIFT = 6  # Mixed Queen: "Choose a player to give six tokens to another player."
THREE_LOSS = 3  # Mixed 3: "choose up to three players to lose three tokens"

# The Mixed Chart, shortened to fit a select option's description (at most 100 characters).
CHART: dict[int, str] = {
    1: "Choose a player to gain a token and one to lose a token, then reveal a card.",
    2: "Look at two cards and swap their positions.",
    3: "Reveal up to four cards; a 3 or three of a kind: up to three players lose 3 tokens.",
    4: "Select a 2 by 2 square: look at two of its cards, reveal the others.",
    5: "Reveal a 3 by 3 cross of cards, then take another turn.",
    6: "Reveal any number of cards; they stay face-up.",
    7: "Take another turn; at its end you may lose 5 tokens for one more.",
    8: "Skip the next player's turn.",
    9: "Keep the pair: it is discarded instead of your next loss of tokens.",
    10: "Keep the pair: you take the effect of the next match another player makes.",
    11: "Choose two players and even out their tokens (an odd token goes to the Bank).",
    12: "Choose a player to give six tokens to another player.",
    13: "Take the effect of any one other rank of this chart.",
}

# Verbs of the action codes ("look.C5", "target.2", ...).
LOOK = "look"
REVEAL = "reveal"
SQUARE = "square"
CROSS = "cross"
MOVE = "move"
MOVE_TO = "to"
HIDE = "hide"
SHOW = "show"
TARGET = "target"
COPY = "copy"
DONE = "done"
BUY = "buy"
END = "end"
BOTH = "both"


# -- cards and positions ------------------------------------------------------------------------------


def is_joker(card: int) -> bool:
    """True for the two Jokers (cards 52 and 53)."""
    return card >= 52


def rank_of(card: int) -> int:
    """The rank 1..13 (Ace 1, Jack 11, Queen 12, King 13: "Aces count as one..."), 0 for a Joker."""
    return 0 if is_joker(card) else card // 4 + 1


def is_red(card: int) -> bool:
    """True for ♥ and ♦ (a Joker is neither red nor black)."""
    return not is_joker(card) and card % 4 in RED_SUITS


def is_black(card: int) -> bool:
    """True for ♠ and ♣."""
    return not is_joker(card) and card % 4 not in RED_SUITS


def card_text(card: int) -> str:
    """A card in plain Unicode: ``"7♥"``, ``"10♠"``, ``"Q♣"``, ``"Joker"``."""
    if is_joker(card):
        return "Joker"
    return RANK_NAMES[card // 4] + SUITS[card % 4]


def parse_card(text: str, jokers_taken: int = 0) -> int:
    """The card named ``text`` (``"7♥"``, ``"10♠"``, ``"Joker"``); the ``jokers_taken``-th Joker for "Joker".

    Raises
    ------
    ValueError
        If ``text`` names no card.
    """
    if text == "Joker":
        if jokers_taken > 1:
            raise ValueError("There are only two Jokers.")
        return JOKERS[jokers_taken]
    rank, suit = text[:-1], text[-1:]
    if rank not in RANK_NAMES or suit not in SUITS:
        raise ValueError(f"No such card: {text!r}")
    return RANK_NAMES.index(rank) * 4 + SUITS.index(suit)


def position_name(position: int) -> str:
    """``17`` -> ``"C2"`` (row letter, then the 1-based column)."""
    return f"{ROWS[position // COLUMNS]}{position % COLUMNS + 1}"


def parse_position(name: str) -> int:
    """``"C2"`` -> ``17``.

    Raises
    ------
    ValueError
        If ``name`` is not a row A..G followed by a column 1..8.
    """
    if len(name) != 2 or name[0] not in ROWS or name[1] not in "12345678":
        raise ValueError(f"No such position: {name!r}")
    return ROWS.index(name[0]) * COLUMNS + int(name[1]) - 1


def layout(jokers: bool) -> tuple[int, ...]:
    """The positions cards are dealt to, row by row.

    "a 7 by 8 grid with the corner cards omitted" holds the 52 cards. With the two Jokers (54 cards) only the
    corners A8 and G1 stay empty, so A1 and G8 hold cards too (ruling 1).
    """
    omitted = {position_name(0), position_name(7), position_name(48), position_name(55)}
    if jokers:
        omitted -= {"A1", "G8"}
    return tuple(p for p in range(len(ROWS) * COLUMNS) if position_name(p) not in omitted)


def _row_group(position: int) -> str:
    row = position // COLUMNS
    return "rows A–C" if row < 3 else "rows D–E" if row < 5 else "rows F–G"


def _rank_title(rank: int) -> str:
    """``1`` -> ``"Ace"``, ``7`` -> ``"7"``, ``13`` -> ``"King"``."""
    return {1: "Ace", 11: "Jack", 12: "Queen", 13: "King"}.get(rank, str(rank))


def _player(seat: int) -> str:
    """A player in engine text: ``{seat:N}``, which the Discord layer replaces with the display name."""
    return f"{{seat:{seat}}}"


def _tokens_text(count: int) -> str:
    return "1 token" if count == 1 else f"{count} tokens"


def _cards_text(cards: tuple[int, ...] | list[int]) -> str:
    return " ".join(card_text(card) for card in cards)


# -- options ------------------------------------------------------------------------------------------


class MemoryOptions(GameOptions):
    """The three variants of the rules page ("Variants"), each off by default."""

    simplicity: bool = OptionField(
        default=False,
        description="Mixed pairs: a chosen player gives that many tokens to another (no Mixed Chart).",
    )
    jokin_around: bool = OptionField(
        default=False,
        description="Jokers stay in (54 cards): matching them gives a minute to rearrange the cards.",
    )
    underdogs: bool = OptionField(
        default=False,
        description="Players with no tokens stay in the game and lose nothing more.",
    )


# -- the state ----------------------------------------------------------------------------------------


@dataclass
class _Step:
    """One pending decision.

    ``kind`` names the decision ("pick1", "pick2", "hide", "target", "reveal1", "look_swap",
    "reveal_upto", "square", "square_look", "cross", "reveal_any", "king", "rearrange", "rearrange_to",
    "memorise", "buy7"); ``seat`` decides it. ``purpose`` says what a "target" choice does ("black",
    "red", "ace_gain", "ace_lose", "three_lose", "jack", "queen_giver", "queen_receiver", "give_giver",
    "give_receiver"); ``amount`` is a token count; ``positions`` and ``chosen`` collect positions and
    players chosen so far (a Mixed 3 keeps the cards it revealed in ``chosen``); ``pair`` is the matched
    pair a King copies with; ``area`` a square's positions holding cards.
    """

    kind: str
    seat: int
    purpose: str = ""
    amount: int = 0
    positions: list[int] = field(default_factory=list)
    chosen: list[int] = field(default_factory=list)
    pair: tuple[int, ...] = ()
    area: list[int] = field(default_factory=list)


@dataclass
class _Kept:
    """A pair kept in front of ``seat`` by a Mixed 9 or 10 (``as_rank``: 9 or 10, a King pair copies one)."""

    seat: int
    as_rank: int
    cards: tuple[int, int]


class MemoryState(GameState[MemoryOptions]):
    """A game of Deluxe Memory in progress.

    Secret information: the faces of face-down cards. A card a player looks at is shown to that player
    only, and only until their turn ends; a revealed card is shown to everyone until the next turn's
    first look; face-up cards are public. Token counts, kept pairs and positions chosen are public.
    """

    def __init__(self, num_seats: int, seed: int, options: MemoryOptions) -> None:
        super().__init__(num_seats, seed, options)
        rng = random.Random(seed)
        self._layout = layout(options.jokin_around)
        deck = list(range(54 if options.jokin_around else 52))
        rng.shuffle(deck)
        self._grid: list[int | None] = [None] * (len(ROWS) * COLUMNS)
        for position, card in zip(self._layout, deck, strict=True):
            self._grid[position] = card
        self._face_up: set[int] = set()
        self._tokens = [START_TOKENS] * num_seats
        self._bank = (TOKENS_PER_PLAYER - START_TOKENS) * num_seats
        self._out = [False] * num_seats
        self._kept: list[_Kept] = []
        self._discard: list[int] = []
        self._skips = [0] * num_seats
        self._extra: list[tuple[int, bool]] = []  # (seat, may buy one more with a 7) in the order owed
        self._offer_buy = False  # this turn came from a 7: at its end its player may buy one more
        self._extra_turn = False
        # "Choose a player to go first": drawn from the seed; play then passes to the left (ruling 2).
        first = rng.randrange(num_seats)
        self._base = first  # the seat whose regular turn it is (extra turns do not move it)
        self._turn_seat = first
        self._steps: list[_Step] = [_Step("pick1", first)]
        self._picks: list[int] = []
        self._picked_face_down: list[bool] = []
        self._looks: dict[int, list[int]] = {}  # seat -> positions it looked at this turn (private)
        self._flash: list[int] = []  # positions revealed to all since the last turn's first look
        self._shown: list[str] = []  # matched pairs shown to all since then, e.g. "C5 7♥ + D2 7♦"
        self._over = False
        self._end_reason = ""
        self._events: list[Event] = []

    @classmethod
    def scripted(
        cls,
        num_seats: int,
        placed: dict[str, str],
        *,
        options: MemoryOptions | None = None,
        first: int = 0,
        fill: bool = True,
    ) -> "MemoryState":
        """A game with a known layout, for rule scenarios (tests only).

        Parameters
        ----------
        num_seats:
            Players, 2..4.
        placed:
            Position name -> card text, e.g. ``{"B2": "7♥", "B3": "7♠"}``; ``"Joker"`` may appear twice.
        options:
            The variants (default: none).
        first:
            The seat that plays first.
        fill:
            ``True``: the other cards fill the other positions row by row in card order (A♠ A♥ A♦ A♣ 2♠ ...).
            ``False``: only the placed cards lie on the table; the rest start in the discard pile.

        Raises
        ------
        ValueError
            If a position is not in the layout, a card is named twice, or a Joker is placed without
            Jokin' Around.
        """
        options = options or MemoryOptions()
        state = cls(num_seats, 0, options)
        deck = set(range(54 if options.jokin_around else 52))
        grid: list[int | None] = [None] * (len(ROWS) * COLUMNS)
        jokers = 0
        for name, text in placed.items():
            position = parse_position(name)
            card = parse_card(text, jokers)
            jokers += is_joker(card)
            if position not in state._layout:
                raise ValueError(f"{name} is not part of the layout")
            if card not in deck:
                raise ValueError(f"{text} is not in this deck or is placed twice")
            deck.remove(card)
            grid[position] = card
        rest = sorted(deck)
        if fill:
            free = [p for p in state._layout if grid[p] is None]
            for position, card in zip(free, rest, strict=True):
                grid[position] = card
            rest = []
        state._grid = grid
        state._discard = rest
        state._base = state._turn_seat = first
        state._steps = [_Step("pick1", first)]
        return state

    # -- public queries ----------------------------------------------------------------------------

    def tokens(self, seat: int) -> int:
        """Tokens ``seat`` holds (public: tokens lie in front of their owner)."""
        return self._tokens[seat]

    @property
    def bank(self) -> int:
        """Tokens in the Bank."""
        return self._bank

    def is_out(self, seat: int) -> bool:
        """True once ``seat`` ran out of tokens and left the game ("If you run out of tokens...")."""
        return self._out[seat]

    def card_at(self, name: str) -> int | None:
        """The card at position ``name`` (tests and scoring only, never for a view), ``None`` if empty."""
        return self._grid[parse_position(name)]

    def kept_pairs(self, seat: int) -> list[tuple[int, tuple[int, int]]]:
        """``seat``'s kept pairs as ``(acts_as_rank, cards)``, oldest first."""
        return [(kept.as_rank, kept.cards) for kept in self._kept if kept.seat == seat]

    def all_cards(self) -> list[int]:
        """Every card: on the table, kept in front of players, in the discard pile, and a Mixed King's pair
        waiting for the effect it copies (for conservation)."""
        on_table = [card for card in self._grid if card is not None]
        kept = [card for pair in self._kept for card in pair.cards]
        waiting = [card for step in self._steps for card in step.pair]
        return on_table + kept + waiting + list(self._discard)

    @property
    def turn_seat(self) -> int:
        """The seat whose turn it is."""
        return self._turn_seat

    @property
    def step_kind(self) -> str:
        """The kind of the decision being waited for (``""`` once the game is over)."""
        return self._steps[0].kind if self._steps and not self._over else ""

    def seats_to_act(self) -> tuple[int, ...]:
        if self._over or not self._steps:
            return ()
        return (self._steps[0].seat,)

    def is_terminal(self) -> bool:
        return self._over

    def decision_seconds(self, seat: int) -> float | None:
        """One minute for a Jokin' Around rearrangement, else the table's clock."""
        if seat in self.seats_to_act() and self._steps[0].kind in ("rearrange", "rearrange_to"):
            return REARRANGE_SECONDS
        return None

    def decision_clock(self, seat: int) -> str | None:
        """Jokin' Around: one clock for the whole rearrangement ("you have one minute"), not one per move.
        Only one pair of Jokers exists, so one name serves."""
        if seat in self.seats_to_act() and self._steps[0].kind in ("rearrange", "rearrange_to"):
            return "jokin-around"
        return None

    # -- legal actions -----------------------------------------------------------------------------

    def legal_actions(self, seat: int) -> tuple[LegalAction, ...]:
        if seat not in self.seats_to_act():
            return ()
        return self._step_actions(self._steps[0])

    def _cards_on_table(self) -> list[int]:
        return [p for p in self._layout if self._grid[p] is not None]

    def _face_down(self) -> list[int]:
        return [p for p in self._layout if self._grid[p] is not None and p not in self._face_up]

    def _in_game(self) -> list[int]:
        return [seat for seat in range(self.num_seats) if not self._out[seat]]

    def _describe(self, position: int) -> str:
        card = self._grid[position]
        if card is not None and position in self._face_up:
            return f"{card_text(card)}, face-up"
        return ""

    def _positions(self, verb: str, positions: list[int], placeholder: str) -> list[LegalAction]:
        face_up, grid = self._face_up, self._grid
        return [_position_action(verb, p, placeholder, grid[p] if p in face_up else None) for p in positions]

    def _players(self, seats: list[int], style: str) -> list[LegalAction]:
        return [
            LegalAction(f"{TARGET}.{seat}", f"{_player(seat)} ({_tokens_text(self._tokens[seat])})", style)
            for seat in seats
        ]

    def _targets(self, step: _Step) -> list[int]:
        """Players ``step`` (a "target" decision) may choose (rulings 5 and 6)."""
        in_game = self._in_game()
        others = [seat for seat in in_game if seat != step.seat]
        if step.purpose in ("black", "ace_lose"):
            return others
        if step.purpose == "three_lose":
            return [seat for seat in others if seat not in step.chosen]
        if step.purpose in ("jack", "queen_receiver", "give_receiver"):
            return [seat for seat in in_game if seat not in step.chosen]
        return in_game  # red, ace_gain, queen_giver, give_giver

    def _hideable(self) -> list[int]:
        """The two picked cards that were face-down when picked (ruling 9)."""
        return [p for p, down in zip(self._picks, self._picked_face_down, strict=True) if down]

    def _can_pay(self, seat: int, amount: int) -> bool:
        """True if ``seat`` may pay ``amount`` by choice and stay in the game (rulings 9 and 15)."""
        tokens = self._tokens[seat]
        return tokens >= amount and (self.options.underdogs or tokens > amount)

    def _can_buy_turn(self, seat: int) -> bool:
        """A 7's extra turn may be bought with 5 tokens held; a kept 9 pair may stand in (ruling 15)."""
        if self._tokens[seat] < SEVEN_PRICE:
            return False
        return self._can_pay(seat, SEVEN_PRICE) or any(k.seat == seat and k.as_rank == 9 for k in self._kept)

    def _square_corners(self) -> list[int]:
        """Top-left corners of the 2 by 2 squares holding at least one card (ruling 11)."""
        corners = []
        for row in range(len(ROWS) - 1):
            for column in range(COLUMNS - 1):
                corner = row * COLUMNS + column
                if any(self._grid[p] is not None for p in _square(corner)):
                    corners.append(corner)
        return corners

    def _cross_centres(self) -> list[int]:
        """Centres of the 3 by 3 crosses inside the layout holding a face-down card (ruling 12)."""
        centres = []
        for row in range(1, len(ROWS) - 1):
            for column in range(1, COLUMNS - 1):
                centre = row * COLUMNS + column
                if any(self._grid[p] is not None and p not in self._face_up for p in _cross(centre)):
                    centres.append(centre)
        return centres

    def _step_actions(self, step: _Step) -> tuple[LegalAction, ...]:
        kind = step.kind
        actions: list[LegalAction] = []
        if kind == "pick1":
            actions = self._positions(LOOK, self._cards_on_table(), "Look at a card")
        elif kind == "pick2":
            rest = [p for p in self._cards_on_table() if p not in self._picks]
            actions = self._positions(LOOK, rest, "Look at a second card")
        elif kind == "hide":
            hideable = self._hideable()
            names = " and ".join(position_name(p) for p in self._picks)
            actions.append(LegalAction(SHOW, f"Leave {names} face-up (free)", "primary"))
            if self._can_pay(step.seat, 1):
                for p in hideable:
                    actions.append(
                        LegalAction(f"{HIDE}.{position_name(p)}", f"Hide {position_name(p)} (1 token)")
                    )
            if len(hideable) == 2 and self._can_pay(step.seat, 2):
                actions.append(LegalAction(f"{HIDE}.{BOTH}", "Hide both (2 tokens)"))
            if len(actions) == 1:
                actions = []  # nothing to decide: both are shown (settled automatically)
        elif kind == "target":
            seats = self._targets(step)
            harmful = step.purpose in ("black", "ace_lose", "three_lose", "queen_giver", "give_giver")
            actions = self._players(seats, "danger" if harmful else "success")
            if actions and step.purpose == "three_lose":
                actions.append(LegalAction(DONE, "Nobody more", "secondary"))
        elif kind == "reveal1":
            actions = self._positions(REVEAL, self._face_down(), "Reveal a card")
        elif kind == "look_swap":
            rest = [p for p in self._cards_on_table() if p not in step.positions]
            if len(rest) + len(step.positions) >= 2:
                actions = self._positions(LOOK, rest, "Look at a card to swap")
        elif kind in ("reveal_upto", "reveal_any"):
            rest = [p for p in self._face_down() if p not in step.positions]
            placeholder = "Reveal a card" if kind == "reveal_upto" else "Turn a card face-up"
            actions = self._positions(REVEAL, rest, placeholder)
            if actions:
                actions.append(LegalAction(DONE, "Stop revealing", "secondary"))
        elif kind == "square":
            actions = [
                LegalAction(
                    f"{SQUARE}.{position_name(corner)}",
                    f"{position_name(corner)}–{position_name(corner + COLUMNS + 1)}",
                    group=f"Select a 2 by 2 square: {_row_group(corner)}",
                    description=", ".join(
                        position_name(p) for p in _square(corner) if self._grid[p] is not None
                    ),
                )
                for corner in self._square_corners()
            ]
        elif kind == "square_look":
            actions = [
                LegalAction(f"{LOOK}.{position_name(p)}", f"Look at {position_name(p)}", "primary")
                for p in step.area
                if p not in step.positions
            ]
        elif kind == "cross":
            actions = [
                LegalAction(
                    f"{CROSS}.{position_name(centre)}",
                    f"Cross around {position_name(centre)}",
                    group=f"Reveal a 3 by 3 cross (its centre): {_row_group(centre)}",
                    description=", ".join(position_name(p) for p in _cross(centre)),
                )
                for centre in self._cross_centres()
            ]
        elif kind == "king":
            actions = [
                LegalAction(
                    f"{COPY}.{RANK_NAMES[rank - 1]}",
                    f"Copy the {RANK_NAMES[rank - 1]}",
                    group="Copy a Mixed Chart effect…",
                    description=CHART[rank],
                )
                for rank in range(1, 13)
            ]
        elif kind == "rearrange":
            actions = self._positions(MOVE, self._cards_on_table(), "Pick a card to move")
            actions.append(LegalAction(DONE, "Done rearranging", "primary"))
        elif kind == "rearrange_to":
            (source,) = step.positions
            targets = [p for p in self._layout if p != source]
            actions = [
                LegalAction(
                    code=f"{MOVE_TO}.{position_name(p)}",
                    label=position_name(p),
                    group=f"Move {position_name(source)} to (swap with): {_row_group(p)}",
                    description=self._describe(p) if self._grid[p] is not None else "empty",
                )
                for p in targets
            ]
            actions.append(LegalAction(DONE, "Done rearranging", "primary"))
        elif kind == "memorise":
            actions = [LegalAction(DONE, "Done looking (end the turn)", "primary")]
        elif kind == "buy7":
            actions = [
                LegalAction(BUY, f"Lose {SEVEN_PRICE} tokens: another turn", "success"),
                LegalAction(END, "End my turn", "secondary"),
            ]
        return tuple(actions)

    def default_action(self, seat: int) -> str:
        """The harmless move played on a timeout (ruling 17): the first face-down card for a forced look or
        reveal (a second look takes a face-up card of the first card's rank if there is one), the first
        eligible player or area for a forced choice, and otherwise stop, stay face-up, copy the 9 (King),
        end the turn (7) or end a rearrangement.

        Raises
        ------
        ValueError
            If ``seat`` has no decision now.
        """
        legal = self.legal_actions(seat)
        if seat not in self.seats_to_act() or not legal:
            raise ValueError(f"{_player(seat)} has no decision now.")
        codes = [action.code for action in legal]
        kind = self._steps[0].kind
        for harmless in (SHOW, DONE, END, f"{COPY}.9"):
            if harmless in codes:
                return harmless
        if kind == "pick2":  # a face-up card matching the first look, so that idle tables still end
            rank = rank_of(self._grid[self._picks[0]])  # type: ignore[arg-type]
            for p in self._cards_on_table():
                card = self._grid[p]
                if p in self._face_up and p != self._picks[0] and card is not None and rank_of(card) == rank:
                    return f"{LOOK}.{position_name(p)}"
        if kind in ("pick1", "pick2", "look_swap", "reveal1"):
            for action in legal:
                if not action.description:  # face-down
                    return action.code
        return codes[0]

    # -- changes -----------------------------------------------------------------------------------

    def _apply(self, seat: int, code: str) -> list[Event]:
        self._events = []
        step = self._steps[0]
        verb, _, argument = code.partition(".")
        getattr(self, f"_do_{step.kind}")(step, verb, argument)
        self._settle()
        return self._events

    def _say(self, seat: int | None, text: str) -> None:
        self._events.append(Event(seat, text))

    def _settle(self) -> None:
        """Skip decisions with nothing to choose, end turns, start the next one, and end the game."""
        while not self._over:
            if not self.options.underdogs and len(self._in_game()) <= 1:
                # "The game ends when only one player has tokens left" (ruling 3).
                (last,) = self._in_game() or (None,)
                self._finish(f"Only {_player(last)} has tokens left." if last is not None else "")
                return
            if not self._steps:
                self._end_turn()
                continue
            step = self._steps[0]
            if self._out[step.seat] or not self._step_actions(step):
                self._steps.pop(0)
                self._settle_skipped(step)
                continue
            return

    def _settle_skipped(self, step: _Step) -> None:
        """A decision with nothing left to choose: finish what it stood for."""
        if step.kind == "hide" and not self._out[step.seat]:
            self._show_picks(step.seat, hidden=[])
        elif step.kind == "reveal_upto":
            self._after_three(step)

    def _matches_possible(self) -> bool:
        counts = Counter(rank_of(card) for card in self._grid if card is not None)
        return any(count >= 2 for count in counts.values())

    def _finish(self, reason: str) -> None:
        self._over = True
        self._steps = []
        self._looks = {}
        self._end_reason = reason
        # Ruling 4: once the game is over every card left on the table is turned face-up.
        self._face_up.update(self._cards_on_table())
        self._say(None, f"{reason} The game is over.".strip())

    def _end_turn(self) -> None:
        """The turn is over: private looks are forgotten, a 7's purchase is offered, the next turn starts."""
        self._looks = {}
        self._picks = []
        self._picked_face_down = []
        if not self._matches_possible():
            self._finish("All possible matches have been made.")
            return
        if self._offer_buy:
            self._offer_buy = False
            if not self._out[self._turn_seat] and self._can_buy_turn(self._turn_seat):
                self._steps = [_Step("buy7", self._turn_seat)]
                return
        while self._extra:
            seat, offer = self._extra.pop(0)
            if not self._out[seat]:
                self._begin_turn(seat, extra=True, offer=offer)
                return
        seat = self._base
        while True:  # "Play passes to the left", past players who are out and skipped turns (8).
            seat = self._next_in_game(seat)
            if self._skips[seat]:
                self._skips[seat] -= 1
                self._say(seat, "misses this turn (a Mixed 8).")
                continue
            break
        self._base = seat
        self._begin_turn(seat, extra=False, offer=False)

    def _next_in_game(self, seat: int) -> int:
        for step in range(1, self.num_seats + 1):
            other = (seat + step) % self.num_seats
            if not self._out[other]:
                return other
        raise AssertionError("nobody is left in the game")  # _settle ends the game before

    def _begin_turn(self, seat: int, *, extra: bool, offer: bool) -> None:
        self._turn_seat = seat
        self._extra_turn = extra
        self._offer_buy = offer
        self._steps = [_Step("pick1", seat)]

    # tokens

    def _gain(self, seat: int, amount: int) -> int:
        """``seat`` gains up to ``amount`` from the Bank (what is left if it runs short: ruling 7)."""
        gained = min(amount, self._bank)
        self._bank -= gained
        self._tokens[seat] += gained
        return gained

    def _lose(self, seat: int, amount: int, *, to_bank: bool = True) -> int:
        """``seat`` loses up to ``amount`` tokens (to the Bank, or to the caller to hand on); return how many.

        A kept 9 pair is discarded instead (Mixed 9, ruling 13); with Underdogs a player without tokens
        loses nothing; a player left with no tokens is out of the game (ruling 8).
        """
        if amount <= 0 or self._out[seat] or self._tokens[seat] == 0:
            return 0
        shield = next((k for k in self._kept if k.seat == seat and k.as_rank == 9), None)
        if shield is not None:
            self._kept.remove(shield)
            self._discard.extend(shield.cards)
            self._say(seat, f"discards their kept pair {_cards_text(shield.cards)} instead of losing tokens.")
            return 0
        lost = min(amount, self._tokens[seat])
        self._tokens[seat] -= lost
        if to_bank:
            self._bank += lost
        if self._tokens[seat] == 0 and not self.options.underdogs:
            self._knock_out(seat)
        return lost

    def _knock_out(self, seat: int) -> None:
        """ "If you run out of tokens, you're out of the game": kept pairs are discarded (ruling 8)."""
        self._out[seat] = True
        self._say(seat, "has no tokens left and is out of the game.")
        for kept in [k for k in self._kept if k.seat == seat]:
            self._kept.remove(kept)
            self._discard.extend(kept.cards)
        self._skips[seat] = 0
        self._extra = [(other, offer) for other, offer in self._extra if other != seat]

    # moving cards

    def _swap(self, first: int, second: int) -> None:
        """Exchange what lies at two positions (a card or nothing); face-up cards stay face-up, and the
        positions of private looks and of revealed cards follow their cards."""
        grid = self._grid
        grid[first], grid[second] = grid[second], grid[first]
        up_first, up_second = first in self._face_up, second in self._face_up
        self._face_up -= {first, second}
        if up_first:
            self._face_up.add(second)
        if up_second:
            self._face_up.add(first)

        def follow(p: int) -> int:
            return second if p == first else first if p == second else p

        self._flash = [follow(p) for p in self._flash]
        self._looks = {seat: [follow(p) for p in seen] for seat, seen in self._looks.items()}

    def _remove(self, positions: list[int]) -> None:
        for p in positions:
            self._grid[p] = None
            self._face_up.discard(p)
        self._flash = [p for p in self._flash if p not in positions]
        self._looks = {seat: [p for p in seen if p not in positions] for seat, seen in self._looks.items()}

    def _look(self, seat: int, position: int) -> None:
        seen = self._looks.setdefault(seat, [])
        if position not in seen:
            seen.append(position)

    def _reveal(self, position: int) -> str:
        """Flip a card face-up for everyone to see, then face-down again (shown until the next turn's first
        look: ruling 10); return its text for the log."""
        if position not in self._flash:
            self._flash.append(position)
        card = self._grid[position]
        assert card is not None
        return f"{position_name(position)} {card_text(card)}"

    # turn steps

    def _do_pick1(self, step: _Step, verb: str, argument: str) -> None:
        position = parse_position(argument)
        self._flash = []
        self._shown = []
        self._picks = [position]
        self._picked_face_down = [position not in self._face_up]
        self._look(step.seat, position)
        self._say(step.seat, f"looks at {position_name(position)}.")
        self._steps[0] = _Step("pick2", step.seat)

    def _do_pick2(self, step: _Step, verb: str, argument: str) -> None:
        position = parse_position(argument)
        first = self._picks[0]
        self._picks.append(position)
        self._picked_face_down.append(position not in self._face_up)
        self._look(step.seat, position)
        one, two = self._grid[first], self._grid[position]
        assert one is not None and two is not None
        self._steps.pop(0)
        if rank_of(one) != rank_of(two):
            self._say(step.seat, f"looks at {position_name(position)}: no match.")
            self._steps.insert(0, _Step("hide", step.seat))
            return
        shown = f"{position_name(first)} {card_text(one)} + {position_name(position)} {card_text(two)}"
        self._shown.append(shown)
        self._say(step.seat, f"looks at {position_name(position)} and shows a match: {shown}!")
        self._remove([first, position])
        self._picks = []
        self._picked_face_down = []
        self._resolve_match(step.seat, (one, two))

    def _show_picks(self, seat: int, hidden: list[int]) -> None:
        """A non-match goes back face-up, except the cards paid for ("put them back ... face-up")."""
        shown = [p for p in self._picks if p not in hidden]
        for p in shown:
            self._face_up.add(p)
            self._reveal(p)
        parts = []
        if hidden:
            names = " and ".join(position_name(p) for p in hidden)
            parts.append(f"pays {_tokens_text(len(hidden))} to the Bank to put {names} back face-down")
        if shown:
            cards = ", ".join(f"{position_name(p)} {card_text(self._grid[p])}" for p in shown)  # type: ignore[arg-type]
            parts.append(f"leaves {cards} face-up")
        self._say(seat, "; ".join(parts) + ".")

    def _do_hide(self, step: _Step, verb: str, argument: str) -> None:
        self._steps.pop(0)
        if verb == SHOW:
            hidden: list[int] = []
        elif argument == BOTH:
            hidden = list(self._picks)
        else:
            hidden = [parse_position(argument)]
        # "You must give one token to the bank for each card that you don't reveal" (a payment, ruling 9).
        self._tokens[step.seat] -= len(hidden)
        self._bank += len(hidden)
        self._show_picks(step.seat, hidden)

    def _resolve_match(self, matcher: int, pair: tuple[int, int]) -> None:
        """Black, red, mixed (Mixed Chart or Simplicity) or Jokers; a kept 10 of another player takes the
        effect (ruling 14)."""
        resolver = matcher
        ten = next((k for k in self._kept if k.as_rank == 10 and k.seat != matcher), None)
        if ten is not None:
            self._kept.remove(ten)
            self._discard.extend(ten.cards)
            resolver = ten.seat
            self._say(
                resolver, f"discards their kept pair {_cards_text(ten.cards)} and takes this match's effect."
            )
        one, two = pair
        value = rank_of(one)
        if is_joker(one):
            self._discard.extend(pair)
            self._say(resolver, "has one minute to rearrange the cards (Jokin' Around).")
            self._steps.insert(0, _Step("rearrange", resolver))
        elif is_black(one) and is_black(two):
            self._discard.extend(pair)
            self._steps.insert(0, _Step("target", resolver, purpose="black", amount=value))
        elif is_red(one) and is_red(two):
            self._discard.extend(pair)
            self._steps.insert(0, _Step("target", resolver, purpose="red", amount=value))
        elif self.options.simplicity:
            self._discard.extend(pair)
            self._steps.insert(0, _Step("target", resolver, purpose="give_giver", amount=value))
        else:
            self._chart(resolver, value, pair)

    def _chart(self, seat: int, rank: int, pair: tuple[int, ...]) -> None:
        """Queue the Mixed Chart effect of ``rank`` for ``seat`` (the pair is kept by a 9 or a 10)."""
        self._say(seat, f"resolves the Mixed {_rank_title(rank)}: {CHART[rank]}")
        if rank in (9, 10):
            assert len(pair) == 2
            self._kept.append(_Kept(seat, rank, (pair[0], pair[1])))
            return
        if rank == 13:  # the King's pair waits for the copied effect: a copied 9 or 10 keeps it
            self._steps.insert(0, _Step("king", seat, pair=tuple(pair)))
            return
        self._discard.extend(pair)
        steps: list[_Step] = []
        if rank == 1:
            steps = [
                _Step("target", seat, purpose="ace_gain", amount=1),
                _Step("target", seat, purpose="ace_lose", amount=1),
                _Step("reveal1", seat),
            ]
        elif rank == 2:
            steps = [_Step("look_swap", seat)]
        elif rank == 3:
            steps = [_Step("reveal_upto", seat)]
        elif rank == 4:
            steps = [_Step("square", seat)]
        elif rank == 5:
            steps = [_Step("cross", seat)]
            self._extra.append((seat, False))
        elif rank == 6:
            steps = [_Step("reveal_any", seat)]
        elif rank == 7:
            self._extra.append((seat, True))
        elif rank == 8:
            victim = self._next_in_game(seat)  # "the next player": the one to the left (ruling 16)
            self._skips[victim] += 1
            self._say(seat, f"skips {_player(victim)}'s next turn.")
        elif rank == 11:
            steps = [_Step("target", seat, purpose="jack")]
        elif rank == 12:
            steps = [_Step("target", seat, purpose="queen_giver", amount=QUEEN_GIFT)]
        self._steps[0:0] = steps

    def _do_king(self, step: _Step, verb: str, argument: str) -> None:
        self._steps.pop(0)
        rank = RANK_NAMES.index(argument) + 1
        self._say(step.seat, f"copies the {argument} with the Mixed King.")
        self._chart(step.seat, rank, step.pair)

    def _do_target(self, step: _Step, verb: str, argument: str) -> None:
        seat = step.seat
        if verb == DONE:
            self._steps.pop(0)
            return
        target = int(argument)
        purpose = step.purpose
        if purpose == "black":
            self._steps.pop(0)
            lost = self._lose(target, step.amount)
            self._say(seat, f"has {_player(target)} return {_tokens_text(lost)} to the Bank (black pair).")
        elif purpose == "red":
            self._steps.pop(0)
            gained = self._gain(target, step.amount)
            self._say(seat, f"gives {_tokens_text(gained)} from the Bank to {_player(target)} (red pair).")
        elif purpose == "ace_gain":
            self._steps.pop(0)
            gained = self._gain(target, 1)
            self._say(seat, f"gives {_tokens_text(gained)} from the Bank to {_player(target)} (Ace).")
        elif purpose == "ace_lose":
            self._steps.pop(0)
            lost = self._lose(target, 1)
            self._say(seat, f"has {_player(target)} lose {_tokens_text(lost)} to the Bank (Ace).")
        elif purpose == "three_lose":
            step.chosen.append(target)
            lost = self._lose(target, THREE_LOSS)
            self._say(seat, f"has {_player(target)} lose {_tokens_text(lost)} to the Bank (3).")
            if len(step.chosen) == 3:
                self._steps.pop(0)
        elif purpose == "jack":
            step.chosen.append(target)
            if len(step.chosen) == 2:
                self._steps.pop(0)
                self._even_out(seat, step.chosen[0], step.chosen[1])
        elif purpose in ("queen_giver", "give_giver"):
            step.chosen.append(target)
            step.purpose = "queen_receiver" if purpose == "queen_giver" else "give_receiver"
        else:  # queen_receiver, give_receiver
            self._steps.pop(0)
            giver = step.chosen[0]
            given = self._lose(giver, step.amount, to_bank=False)
            self._tokens[target] += given
            self._say(seat, f"has {_player(giver)} give {_tokens_text(given)} to {_player(target)}.")

    def _even_out(self, seat: int, first: int, second: int) -> None:
        """Mixed Jack: both end with half their total; an odd token goes to the Bank (rulings 13 and 24)."""
        richer, poorer = (first, second) if self._tokens[first] >= self._tokens[second] else (second, first)
        total = self._tokens[richer] + self._tokens[poorer]
        each, odd = divmod(total, 2)
        moved = each - self._tokens[poorer]
        loss = self._tokens[richer] - each
        lost = self._lose(richer, loss, to_bank=False)
        if lost:
            self._tokens[poorer] += moved
            self._bank += odd
        self._say(
            seat,
            f"evens out {_player(first)} and {_player(second)}: {_player(first)} has "
            f"{_tokens_text(self._tokens[first])}, "
            f"{_player(second)} has {_tokens_text(self._tokens[second])}.",
        )

    def _do_reveal1(self, step: _Step, verb: str, argument: str) -> None:
        self._steps.pop(0)
        self._say(step.seat, f"reveals {self._reveal(parse_position(argument))}.")

    def _do_look_swap(self, step: _Step, verb: str, argument: str) -> None:
        position = parse_position(argument)
        step.positions.append(position)
        self._look(step.seat, position)
        self._say(step.seat, f"looks at {position_name(position)}.")
        if len(step.positions) == 2:
            self._steps[0] = _Step("memorise", step.seat)
            self._swap(*step.positions)
            first, second = (position_name(p) for p in step.positions)
            self._say(step.seat, f"swaps {first} and {second}.")

    def _do_reveal_upto(self, step: _Step, verb: str, argument: str) -> None:
        if verb == DONE:
            self._steps.pop(0)
            self._after_three(step)
            return
        position = parse_position(argument)
        step.positions.append(position)
        step.chosen.append(self._grid[position])  # type: ignore[arg-type]
        self._say(step.seat, f"reveals {self._reveal(position)}.")
        if len(step.positions) == 4:
            self._steps.pop(0)
            self._after_three(step)

    def _after_three(self, step: _Step) -> None:
        """Mixed 3: "If you reveal a 3, or three of a kind, choose up to three players to lose three
        tokens"."""
        ranks = Counter(rank_of(card) for card in step.chosen)
        if ranks[3] or any(count >= 3 for rank, count in ranks.items() if rank):
            self._steps.insert(0, _Step("target", step.seat, purpose="three_lose", amount=THREE_LOSS))

    def _do_reveal_any(self, step: _Step, verb: str, argument: str) -> None:
        if verb == DONE:
            self._steps.pop(0)
            return
        position = parse_position(argument)
        step.positions.append(position)
        self._face_up.add(position)  # "Do not turn them face-down again."
        self._say(step.seat, f"turns {self._reveal(position)} face-up.")

    def _do_square(self, step: _Step, verb: str, argument: str) -> None:
        corner = parse_position(argument)
        area = [p for p in _square(corner) if self._grid[p] is not None]
        self._say(
            step.seat, f"selects the square {position_name(corner)}–{position_name(corner + COLUMNS + 1)}."
        )
        self._steps.pop(0)
        if len(area) <= 2:  # ruling 11: look at every card there is, nothing is left to reveal
            for p in area:
                self._look(step.seat, p)
            self._say(step.seat, f"looks at {' and '.join(position_name(p) for p in area)}.")
            self._steps.insert(0, _Step("memorise", step.seat))
            return
        self._steps.insert(0, _Step("square_look", step.seat, area=area))

    def _do_square_look(self, step: _Step, verb: str, argument: str) -> None:
        position = parse_position(argument)
        step.positions.append(position)
        self._look(step.seat, position)
        self._say(step.seat, f"looks at {position_name(position)}.")
        if len(step.positions) == 2:
            self._steps[0] = _Step("memorise", step.seat)
            rest = [p for p in step.area if p not in step.positions]
            revealed = ", ".join(self._reveal(p) for p in rest)
            self._say(step.seat, f"reveals {revealed}.")

    def _do_cross(self, step: _Step, verb: str, argument: str) -> None:
        self._steps.pop(0)
        centre = parse_position(argument)
        down = [p for p in _cross(centre) if self._grid[p] is not None and p not in self._face_up]
        revealed = ", ".join(self._reveal(p) for p in down)
        self._say(step.seat, f"reveals the cross around {position_name(centre)}: {revealed}.")

    def _do_rearrange(self, step: _Step, verb: str, argument: str) -> None:
        if verb == DONE:
            self._steps.pop(0)
            self._say(step.seat, "is done rearranging.")
            return
        self._steps[0] = _Step("rearrange_to", step.seat, positions=[parse_position(argument)])

    def _do_rearrange_to(self, step: _Step, verb: str, argument: str) -> None:
        if verb == DONE:
            self._steps.pop(0)
            self._say(step.seat, "is done rearranging.")
            return
        (source,) = step.positions
        target = parse_position(argument)
        empty = self._grid[target] is None
        self._swap(source, target)
        if empty:
            self._say(step.seat, f"moves {position_name(source)} to {position_name(target)}.")
        else:
            self._say(step.seat, f"swaps {position_name(source)} and {position_name(target)}.")
        self._steps[0] = _Step("rearrange", step.seat)

    def _do_memorise(self, step: _Step, verb: str, argument: str) -> None:
        """Ruling 10: a look that ends an effect stays in the looker's view until they are done looking."""
        self._steps.pop(0)

    def _do_buy7(self, step: _Step, verb: str, argument: str) -> None:
        self._steps.pop(0)
        if verb == END:
            self._say(step.seat, "ends their turn.")
            return
        lost = self._lose(step.seat, SEVEN_PRICE)
        self._say(step.seat, f"loses {_tokens_text(lost)} to take another turn (Mixed 7).")
        self._extra.insert(0, (step.seat, False))

    # -- views -------------------------------------------------------------------------------------

    def view(self, seat: int | None) -> SeatView:
        cards_left = len(self._cards_on_table())
        title = (
            "Deluxe Memory: game over" if self._over else f"Deluxe Memory: {cards_left} cards on the table"
        )
        to_act = self.seats_to_act()
        seats = tuple(
            SeatLine(seat=other, summary=self._seat_summary(other), to_act=other in to_act)
            for other in range(self.num_seats)
        )
        private: tuple[Field, ...] = ()
        if seat is not None:
            private = self._private_fields(seat)
        return SeatView(
            seat=seat,
            title=title,
            table=self._table_fields(),
            seats=seats,
            private=private,
            legal_actions=self.legal_actions(seat) if seat is not None else (),
            board=self._board(seat),
        )

    def _seat_summary(self, seat: int) -> str:
        if self._out[seat]:
            return "out of the game (no tokens)"
        parts = [_tokens_text(self._tokens[seat])]
        for kept in self._kept:
            if kept.seat == seat:
                parts.append(f"kept {_cards_text(kept.cards)} (as a {kept.as_rank})")
        if self._skips[seat]:
            parts.append("misses their next turn")
        if seat == self._turn_seat and self._extra_turn and not self._over:
            parts.append("extra turn")
        return " · ".join(parts)

    def _table_fields(self) -> tuple[Field, ...]:
        fields: list[Field] = []
        if self._over:
            fields.append(Field("Result", self._result_text()))
        elif self._steps:
            fields.append(Field("Now", self._prompt(self._steps[0])))
        shown = list(self._shown)
        for p in self._flash:
            card = self._grid[p]
            if card is not None:
                shown.append(f"{position_name(p)} {card_text(card)}")
        if shown and not self._over:
            fields.append(Field("Just shown", " · ".join(shown)))
        up = [p for p in self._layout if p in self._face_up and self._grid[p] is not None]
        if up and not self._over:
            text = " · ".join(f"{position_name(p)} {card_text(self._grid[p])}" for p in up)  # type: ignore[arg-type]
            fields.append(Field("Face-up cards", text))
        fields.append(
            Field(
                "Bank",
                f"{_tokens_text(self._bank)} · {len(self._cards_on_table())} cards on the table · "
                f"{len(self._discard)} in the discard pile",
            )
        )
        return tuple(fields)

    def _result_text(self) -> str:
        best = max(self._tokens)
        winners = [seat for seat in range(self.num_seats) if self._tokens[seat] == best]
        names = " and ".join(_player(seat) for seat in winners)
        return f"{self._end_reason} {names} {'wins' if len(winners) == 1 else 'share the win'} with {best}."

    def _prompt(self, step: _Step) -> str:
        who = _player(step.seat)
        kind = step.kind
        if kind == "pick1":
            extra = " (an extra turn)" if self._extra_turn else ""
            return f"{who} chooses a first card to look at{extra}."
        if kind == "pick2":
            return f"{who} looked at {position_name(self._picks[0])} and chooses a second card."
        if kind == "hide":
            return (
                f"No match: {who} may pay a token per card to put it back face-down; the rest stay face-up."
            )
        if kind == "target":
            amount = _tokens_text(step.amount)
            chosen = ", ".join(_player(seat) for seat in step.chosen)
            return {
                "black": f"Black pair: {who} chooses a player to return {amount} to the Bank.",
                "red": f"Red pair: {who} chooses a player (themself too) to gain {amount} from the Bank.",
                "ace_gain": f"Mixed Ace: {who} chooses a player to gain a token.",
                "ace_lose": f"Mixed Ace: {who} chooses a player to lose a token.",
                "three_lose": f"Mixed 3: {who} chooses up to three players to lose 3 tokens"
                + (f" (so far {chosen})." if chosen else "."),
                "jack": f"Mixed Jack: {who} chooses two players to even out"
                + (f" ({chosen} and…)." if chosen else "."),
                "queen_giver": f"Mixed Queen: {who} chooses a player to give 6 tokens.",
                "queen_receiver": f"Mixed Queen: {who} chooses who receives 6 tokens from {chosen}.",
                "give_giver": f"Mixed pair: {who} chooses a player to give {amount}.",
                "give_receiver": f"Mixed pair: {who} chooses who receives {amount} from {chosen}.",
            }[step.purpose]
        return {
            "reveal1": f"Mixed Ace: {who} chooses a card to reveal.",
            "look_swap": f"Mixed 2: {who} looks at two cards to swap ({len(step.positions)} of 2 chosen).",
            "reveal_upto": f"Mixed 3: {who} reveals up to four cards ({len(step.positions)} so far).",
            "square": f"Mixed 4: {who} selects a 2 by 2 square.",
            "square_look": f"Mixed 4: {who} looks at two cards of the square; the others will be revealed.",
            "cross": f"Mixed 5: {who} chooses the centre of a 3 by 3 cross to reveal.",
            "reveal_any": f"Mixed 6: {who} turns any number of cards face-up.",
            "king": f"Mixed King: {who} chooses an effect of the Mixed Chart.",
            "rearrange": f"Jokers! {who} has one minute to rearrange the cards.",
            "rearrange_to": f"Jokers! {who} moves {position_name(step.positions[0])}."
            if step.positions
            else "",
            "memorise": f"{who} memorises the cards they looked at.",
            "buy7": f"Mixed 7: {who} may lose {SEVEN_PRICE} tokens to take another turn.",
        }[kind]

    def _private_fields(self, seat: int) -> tuple[Field, ...]:
        fields: list[Field] = []
        seen = self._looks.get(seat, [])
        if seen:
            text = " · ".join(f"{position_name(p)} {card_text(self._grid[p])}" for p in seen)  # type: ignore[arg-type]
            fields.append(Field("You looked at (until your turn ends)", text))
        if not self.options.simplicity:
            chart = "\n".join(f"**{RANK_NAMES[rank - 1]}** {CHART[rank]}" for rank in range(1, 14))
            fields.append(Field("Mixed Chart", chart))
        return tuple(fields)

    def _board(self, viewer: int | None) -> Board:
        seen = set(self._looks.get(viewer, [])) if viewer is not None else set()
        looked_at = {p for positions in self._looks.values() for p in positions}
        if self._steps and self._steps[0].kind == "rearrange_to":
            looked_at.update(self._steps[0].positions)
        flash = set(self._flash)
        in_layout = set(self._layout)
        rows = []
        for row in range(len(ROWS)):
            cells: list[Cell | None] = []
            for column in range(COLUMNS):
                p = row * COLUMNS + column
                card = self._grid[p]
                if p not in in_layout or card is None:
                    cells.append(None)
                elif p in self._face_up or p in flash or p in seen:
                    highlight = p in flash or p in seen
                    cells.append(Cell(card_text(card), face_up=True, red=is_red(card), highlight=highlight))
                else:
                    cells.append(Cell(highlight=p in looked_at))
            rows.append(tuple(cells))
        return Board(tuple(ROWS), tuple(str(c + 1) for c in range(COLUMNS)), tuple(rows))

    # -- end ---------------------------------------------------------------------------------------

    def standings(self) -> tuple[Standing, ...]:
        """Tokens per seat, most wins ("If you have the most tokens at the end of the game, you win");
        ties share a rank (ruling 18).

        Raises
        ------
        RuntimeError
            If the game is not over.
        """
        if not self._over:
            raise RuntimeError("The game is not over.")
        ranks = competition_ranks(self._tokens, lower_is_better=False)
        return tuple(
            Standing(
                seat=seat,
                points=self._tokens[seat],
                rank=ranks[seat],
                detail="out of the game" if self._out[seat] else _tokens_text(self._tokens[seat]),
            )
            for seat in range(self.num_seats)
        )


@functools.cache
def _position_action(verb: str, position: int, placeholder: str, face_up_card: int | None) -> LegalAction:
    """A position choice in a select menu grouped by rows; a face-up card is named in its description.
    (Cached: legal actions are asked for often and the objects are immutable.)"""
    name = position_name(position)
    return LegalAction(
        code=f"{verb}.{name}",
        label=name,
        group=f"{placeholder}: {_row_group(position)}",
        description="" if face_up_card is None else f"{card_text(face_up_card)}, face-up",
    )


def _square(corner: int) -> list[int]:
    """The four positions of the 2 by 2 square whose top-left is ``corner``."""
    return [corner, corner + 1, corner + COLUMNS, corner + COLUMNS + 1]


def _cross(centre: int) -> list[int]:
    """The five positions of the 3 by 3 cross around ``centre``: it and its four neighbours."""
    return [centre - COLUMNS, centre - 1, centre, centre + 1, centre + COLUMNS]


class DeluxeMemory(GameRules[MemoryOptions]):
    """Deluxe Memory: match ranks in a face-down Poker deck; pairs move tokens; most tokens wins."""

    key: ClassVar[str] = "memory"
    display_name: ClassVar[str] = "Deluxe Memory"
    summary: ClassVar[str] = (
        "Look at two face-down cards a turn: black pairs cost a player tokens, red pairs pay, mixed pairs "
        "trigger the Mixed Chart. Remember where everything is."
    )
    winning_rule: ClassVar[str] = "most tokens wins"
    min_seats: ClassVar[int] = 2
    max_seats: ClassVar[int] = 4
    options_model: ClassVar[type[GameOptions]] = MemoryOptions

    def _deal(self, num_seats: int, seed: int, options: GameOptions) -> MemoryState:
        assert isinstance(options, MemoryOptions)
        return MemoryState(num_seats, seed, options)
