"""Pieces shared by TOKENIZE and ERADICIZE (``shared/seeds/000_d97c66fde1b75dcf.txt``).

Both games deal from the same 78-card Frazzled Wool deck (:mod:`engine.frazzled_deck`) into three face-up
draw piles, give each player a colour token and a shape token, and share four of the five action cards:

* 14/1 - "All players fan out their cards face down and let the player to their left select one."
* 2 - "... let the player to their left select two."
* 6 - "All players pass their entire hand to their left."
* 13 - "The current player receives a token from the middle if any are available (they can choose which
  token) ... If there are no tokens left in the middle, steal one from another player."

Seats and directions: seat ``s``'s left neighbour is ``s + 1`` and its right neighbour ``s - 1`` (modulo
the seat count); play passes to the left, so seat order is turn order. A player picks from the fan of the
player on their *right* (the fan's owner lets "the player to their left" pick).

Nothing here keeps state of its own except :class:`FanExchange`, the simultaneous pick in progress.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from engine.core import Field, LegalAction
from engine.frazzled_deck import (
    COLOURS,
    DECK,
    FOURTEEN_ONE,
    SHAPE_SYMBOLS,
    SHAPES,
    Card,
    colour_token_label,
    shape_token_label,
)

NUM_PILES = 3
HAND_SIZE = 6
MENU_SIZE = 25
"""Options per Discord select menu."""

ACTION_NUMBERS = frozenset({FOURTEEN_ONE, 2, 6, 10, 13})
"""The numbers that carry an action (the 14/1 card, 2, 6, 10 and 13)."""

PILE_MARKS = ("①", "②", "③")

COLOUR = "c"
SHAPE = "s"
Token = tuple[str, int]
"""A token: ``("c", colour index)`` or ``("s", shape index)``."""


# -- cards ------------------------------------------------------------------------------------------


def find_card(number: int, colour: int | None = None, shape: int | None = None) -> Card:
    """The card with ``number`` (14 for the 14/1 card) and the given colour or shape index.

    The deck has no two cards sharing a number and a colour (or a number and a shape), so a number and
    one of the two names a single card.

    Raises
    ------
    ValueError
        If no card matches, or the description names several.
    """
    found = [
        card
        for card in DECK
        if card.number == number
        and (colour is None or card.colour == colour)
        and (shape is None or card.shape == shape)
    ]
    if len(found) != 1:
        raise ValueError(f"{len(found)} cards match number={number} colour={colour} shape={shape}")
    return found[0]


def card_by_name(text: str) -> Card:
    """The card named like ``"7 Red"`` or ``"14/1 Blue"`` (number and colour name), for tests and docs.

    Raises
    ------
    ValueError
        If the text names no card.
    """
    number_text, colour_name = text.split()
    number = FOURTEEN_ONE if number_text in {"14/1", "14", "1"} else int(number_text)
    return find_card(number, colour=COLOURS.index(colour_name))


def cards_text(cards: Iterable[Card], *, empty: str = "none") -> str:
    """Cards as a comma-separated list of short labels, ascending by number (14/1 first)."""
    labels = [card.label for card in sorted(cards, key=_display_key)]
    return ", ".join(labels) if labels else empty


def card_fields(name: str, cards: Sequence[Card], *, empty: str = "none") -> list[Field]:
    """Cards as one field, or several (``name (2)``…) when the list would pass Discord's 1024 characters."""
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


def sorted_cards(cards: Iterable[Card]) -> list[Card]:
    """Cards in display order: by number (14/1 first), then colour."""
    return sorted(cards, key=_display_key)


def _display_key(card: Card) -> tuple[int, int, int]:
    return (1 if card.number == FOURTEEN_ONE else card.number, card.colour, card.shape)


def shuffled_deck(rng: random.Random) -> list[Card]:
    """All 78 cards in an order drawn from ``rng``."""
    deck = list(DECK)
    rng.shuffle(deck)
    return deck


# -- draw piles -------------------------------------------------------------------------------------


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


def draw_actions(piles: Sequence[Sequence[Card]]) -> tuple[LegalAction, ...]:
    """One public action ``draw.<i>`` per non-empty pile, labelled with the face-up card it takes."""
    return tuple(
        LegalAction(f"draw.{index}", f"Draw {piles[index][-1].label} (pile {index + 1})", "primary")
        for index in non_empty_piles(piles)
    )


def parse_index(code: str, prefix: str) -> int:
    """The integer after ``prefix.`` in an action code (``"draw.2"`` → 2)."""
    return int(code[len(prefix) + 1 :])


# -- select menus -----------------------------------------------------------------------------------


def in_menus(
    actions: Sequence[LegalAction], placeholder: str, *, buttons_up_to: int = 5
) -> tuple[LegalAction, ...]:
    """Put ``actions`` into select menus named after ``placeholder`` when there are more than
    ``buttons_up_to`` of them; each menu holds at most 25 (a second menu is named "… (26-50)").
    """
    if len(actions) <= buttons_up_to:
        return tuple(actions)
    grouped = []
    for index, action in enumerate(actions):
        if len(actions) <= MENU_SIZE:
            group = placeholder
        else:
            start = index // MENU_SIZE * MENU_SIZE
            end = min(start + MENU_SIZE, len(actions))
            group = f"{placeholder} ({start + 1}-{end})"
        grouped.append(
            LegalAction(action.code, action.label, action.style, action.secret, group, action.description)
        )
    return tuple(grouped)


# -- seats ------------------------------------------------------------------------------------------


def left_of(seat: int, num_seats: int) -> int:
    """The seat on ``seat``'s left: the next seat in turn order."""
    return (seat + 1) % num_seats


def right_of(seat: int, num_seats: int) -> int:
    """The seat on ``seat``'s right: the previous seat in turn order."""
    return (seat - 1) % num_seats


def player_name(seat: int) -> str:
    """How texts name a seat: ``"player 1"`` for seat 0 (the lobby numbers players from 1)."""
    return f"player {seat + 1}"


def pass_hands_left(hands: Sequence[list[Card]]) -> list[list[Card]]:
    """The 6 action: every hand moves to the seat on its owner's left ("pass their entire hand to their
    left"). An empty hand passes nothing; its owner still receives the hand from their right."""
    count = len(hands)
    return [list(hands[right_of(seat, count)]) for seat in range(count)]


# -- the 14/1 and 2 actions: simultaneous picks from face-down fans --------------------------------


@dataclass
class FanExchange:
    """A 14/1 or 2 action in progress: every player picks from the face-down fan on their right at once.

    Attributes
    ----------
    count:
        Cards each picker takes: 1 (14/1) or 2 (2).
    fans:
        ``picker seat -> the fan it picks from``: its right neighbour's hand, in an order shuffled by the
        game's generator when the action was played (so a position says nothing about the card). Only
        pickers whose right neighbour holds a card appear.
    picked:
        ``picker seat -> positions picked so far`` (0-based, into its fan).
    """

    count: int
    fans: dict[int, list[Card]]
    picked: dict[int, list[int]] = field(default_factory=dict)

    @classmethod
    def start(cls, hands: Sequence[Sequence[Card]], count: int, rng: random.Random) -> FanExchange:
        """Fan out every non-empty hand face down for the player on its owner's left."""
        num_seats = len(hands)
        fans: dict[int, list[Card]] = {}
        for owner, hand in enumerate(hands):
            if hand:
                fan = list(hand)
                rng.shuffle(fan)
                fans[left_of(owner, num_seats)] = fan
        return cls(count, fans, {picker: [] for picker in fans})

    def need(self, picker: int) -> int:
        """Cards ``picker`` takes in all: ``count``, or the whole fan if it holds fewer (ERADICIZE ruling 5,
        TOKENIZE ruling 16)."""
        return min(self.count, len(self.fans.get(picker, ())))

    def waiting(self) -> tuple[int, ...]:
        """Pickers that still have to pick, in seat order."""
        return tuple(sorted(picker for picker in self.fans if len(self.picked[picker]) < self.need(picker)))

    def is_done(self) -> bool:
        return not self.waiting()

    def actions(self, picker: int) -> tuple[LegalAction, ...]:
        """``fan.<position>`` for every position ``picker`` has not picked yet (it reveals nothing)."""
        if picker not in self.waiting():
            return ()
        size = len(self.fans[picker])
        taken = self.picked[picker]
        which = "a card" if self.count == 1 else ("a first card" if not taken else "a second card")
        actions = [
            LegalAction(f"fan.{position}", f"Card {position + 1} of the fan to your right", "secondary")
            for position in range(size)
            if position not in taken
        ]
        return in_menus(actions, f"Pick {which} from the fan to your right…")

    def public_actions(self) -> tuple[LegalAction, ...]:
        """The positions offered on the public table: one per position of the largest fan still being
        picked from (fan sizes are public hand sizes), under one neutral menu name; a seat pressing a
        position it cannot take is refused privately."""
        waiting = self.waiting()
        if not waiting:
            return ()
        size = max(len(self.fans[picker]) for picker in waiting)
        actions = [
            LegalAction(f"fan.{position}", f"Card {position + 1} of the fan to your right", "secondary")
            for position in range(size)
        ]
        return in_menus(actions, "Pick from the fan to your right…")

    def refusal(self, picker: int, code: str) -> str | None:
        """Words for a refused ``fan.<n>`` press, or ``None`` if ``code`` is not a fan position."""
        if not code.startswith("fan."):
            return None
        if picker not in self.waiting():
            return "You have nothing (more) to pick in this exchange."
        return "Pick one of the other cards of the fan to your right."

    def default(self, picker: int) -> str:
        """On a timeout: the first position not yet picked."""
        return self.actions(picker)[0].code

    def pick(self, picker: int, position: int) -> None:
        self.picked[picker].append(position)

    def resolve(self, hands: list[list[Card]]) -> dict[int, tuple[list[Card], list[Card]]]:
        """Move every picked card from its owner's hand to its picker's; return per seat
        ``(cards received, cards taken from it)``."""
        num_seats = len(hands)
        moves = {seat: ([], []) for seat in range(num_seats)}  # type: dict[int, tuple[list[Card], list[Card]]]
        for picker, positions in self.picked.items():
            owner = right_of(picker, num_seats)
            for position in positions:
                card = self.fans[picker][position]
                hands[owner].remove(card)
                moves[owner][1].append(card)
                moves[picker][0].append(card)
        for picker, (received, _) in moves.items():
            hands[picker].extend(received)
        return moves


def exchange_text(received: Sequence[Card], given: Sequence[Card], *, passed: bool = False) -> str:
    """A seat's private note on the last exchange (what it got, what left its hand)."""
    if passed:
        return f"Passed to you from your right: {cards_text(received)}. You passed {len(given)} cards left."
    return (
        f"You took {cards_text(received)} from the fan to your right; "
        f"the player on your left took {cards_text(given)}."
    )


# -- tokens -----------------------------------------------------------------------------------------


@dataclass
class Tokens:
    """Who holds which colour and shape token, and what is left in the middle (all public).

    ``colours[seat]`` and ``shapes[seat]`` are sorted lists of indices; ``middle_colours`` and
    ``middle_shapes`` sorted lists of what nobody holds.
    """

    colours: list[list[int]]
    shapes: list[list[int]]
    middle_colours: list[int]
    middle_shapes: list[int]

    @classmethod
    def deal(cls, num_seats: int, rng: random.Random) -> Tokens:
        """One colour token and one shape token to each player, drawn at random without repeats
        (ERADICIZE ruling 12, TOKENIZE ruling 2);
        the rest go to the middle ("put the remaining tokens in the middle of the table")."""
        colours = rng.sample(range(len(COLOURS)), num_seats)
        shapes = rng.sample(range(len(SHAPES)), num_seats)
        return cls.from_lists([[colour] for colour in colours], [[shape] for shape in shapes])

    @classmethod
    def from_lists(cls, colours: Sequence[Sequence[int]], shapes: Sequence[Sequence[int]]) -> Tokens:
        """Tokens held as given; every other token lies in the middle.

        Raises
        ------
        ValueError
            If a token is held twice.
        """
        held_colours = [colour for seat in colours for colour in seat]
        held_shapes = [shape for seat in shapes for shape in seat]
        if len(set(held_colours)) != len(held_colours) or len(set(held_shapes)) != len(held_shapes):
            raise ValueError("each token exists once")
        return cls(
            [sorted(seat) for seat in colours],
            [sorted(seat) for seat in shapes],
            sorted(set(range(len(COLOURS))) - set(held_colours)),
            sorted(set(range(len(SHAPES))) - set(held_shapes)),
        )

    def middle_is_empty(self) -> bool:
        return not self.middle_colours and not self.middle_shapes

    def seat_text(self, seat: int) -> str:
        """A seat's tokens, e.g. ``"Red · ★ Star"``; with more than four, shapes by symbol only
        (``"Red · Blue · Grey · ★ ♥"``) so the seat's line stays short."""
        few = len(self.colours[seat]) + len(self.shapes[seat]) <= 4
        parts = [colour_token_label(colour) for colour in self.colours[seat]]
        shapes = [shape_token_label(shape) if few else SHAPE_SYMBOLS[shape] for shape in self.shapes[seat]]
        if shapes:
            parts.append(" · ".join(shapes) if few else " ".join(shapes))
        return " · ".join(parts) if parts else "no tokens"

    def middle_text(self) -> str:
        if self.middle_is_empty():
            return "none: a 13 steals a token from another player"
        colours = ", ".join(colour_token_label(colour) for colour in self.middle_colours) or "none"
        shapes = ", ".join(shape_token_label(shape) for shape in self.middle_shapes) or "none"
        return f"Colours: {colours}\nShapes: {shapes}"

    def total(self) -> int:
        """All tokens counted (always 26)."""
        held = sum(len(seat) for seat in self.colours) + sum(len(seat) for seat in self.shapes)
        return held + len(self.middle_colours) + len(self.middle_shapes)

    def choices(self, seat: int) -> tuple[LegalAction, ...]:
        """The 13 action's choices for ``seat``: any token from the middle; if the middle is empty, any
        token of another player (ERADICIZE ruling 8, TOKENIZE ruling 15: the taker chooses whose and
        which). Empty if there is none."""
        actions: list[LegalAction] = []
        if not self.middle_is_empty():
            for colour in self.middle_colours:
                actions.append(
                    LegalAction(f"token.c{colour}", f"Take the {colour_token_label(colour)} token")
                )
            for shape in self.middle_shapes:
                actions.append(LegalAction(f"token.s{shape}", f"Take the {shape_token_label(shape)} token"))
            return in_menus(actions, "Take a token from the middle…")
        num_seats = len(self.colours)
        for offset in range(1, num_seats):
            other = (seat + offset) % num_seats
            for colour in self.colours[other]:
                actions.append(
                    LegalAction(
                        f"steal.{other}.c{colour}",
                        f"Steal {colour_token_label(colour)} from {player_name(other)}",
                        "danger",
                    )
                )
            for shape in self.shapes[other]:
                actions.append(
                    LegalAction(
                        f"steal.{other}.s{shape}",
                        f"Steal {shape_token_label(shape)} from {player_name(other)}",
                        "danger",
                    )
                )
        return in_menus(actions, "Steal a token from another player…")

    def apply(self, seat: int, code: str) -> str:
        """Carry out a choice from :meth:`choices`; return the event text."""
        if code.startswith("token."):
            kind, index = code[6], int(code[7:])
            if kind == COLOUR:
                self.middle_colours.remove(index)
                self.colours[seat] = sorted([*self.colours[seat], index])
                return f"took the {colour_token_label(index)} token from the middle"
            self.middle_shapes.remove(index)
            self.shapes[seat] = sorted([*self.shapes[seat], index])
            return f"took the {shape_token_label(index)} token from the middle"
        _, other_text, token_text = code.split(".")
        other, kind, index = int(other_text), token_text[0], int(token_text[1:])
        if kind == COLOUR:
            self.colours[other].remove(index)
            self.colours[seat] = sorted([*self.colours[seat], index])
            label = colour_token_label(index)
        else:
            self.shapes[other].remove(index)
            self.shapes[seat] = sorted([*self.shapes[seat], index])
            label = shape_token_label(index)
        return f"stole the {label} token from {player_name(other)}"

    def matches(self, seat: int, card: Card) -> bool:
        """True if ``card``'s colour or shape is one of ``seat``'s tokens."""
        return card.colour in self.colours[seat] or card.shape in self.shapes[seat]


def action_name(card: Card) -> str:
    """What a card's action does, in a few words (``""`` for a card without one)."""
    return {
        FOURTEEN_ONE: "everyone picks 1 card from the fan on their right",
        2: "everyone picks 2 cards from the fan on their right",
        6: "everyone passes their hand left",
        13: "take a token",
    }.get(card.number, "")
