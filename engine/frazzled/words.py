"""The words the three Frazzled Wool games share: card and token names, counts, the draw piles, the rule
cards as shown, the fan exchange, the token choices, and the shared actions' labels, events and fields.

Pure functions over plain values (cards, counts, seat indexes, token indices): no game state. Cards and
tokens are written with names as well as symbols, so no one depends on telling colours apart. Text that
stands out is marked with :func:`engine.core.strong`, and a card a view or an event names with
:func:`engine.core.card_mark` (:func:`card_shown`; action labels name cards unmarked); a renderer shows
them its way and shortens what its screen cannot hold. Each game's own words are in ``words_minimize``,
``words_tokenize`` and ``words_eradicize``.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence

from engine.core import Field, card_mark, plain, plural, strong
from engine.frazzled.actions import COLOUR
from engine.frazzled.deck import COLOURS, FOURTEEN_ONE, SHAPE_SYMBOLS, SHAPES, Card, sorted_cards
from engine.frazzled.rule_cards import ActionsSide, BonusCard

# -- cards, tokens, seats and counts -------------------------------------------------------------------


def number_text(number: int) -> str:
    """A card's number as printed: ``"14/1"`` for the 14/1 card (number 14), else the number."""
    return "14/1" if number == FOURTEEN_ONE else str(number)


def card_label(card: Card) -> str:
    """Short text for buttons and lists, e.g. ``"7 Red ★"``."""
    return f"{number_text(card.number)} {COLOURS[card.colour]} {SHAPE_SYMBOLS[card.shape]}"


def card_long_label(card: Card) -> str:
    """Full text, e.g. ``"7 Red Star ★"``."""
    return (
        f"{number_text(card.number)} {COLOURS[card.colour]} {SHAPES[card.shape]} {SHAPE_SYMBOLS[card.shape]}"
    )


def card_shown(card: Card) -> str:
    """A card as views and events name it: :func:`card_label`, marked as the card
    (``"{card:fw:7|7 Red ★}"``)."""
    return card_mark("fw", card.id, card_label(card))


def cards_text(cards: Iterable[Card], *, empty: str = "none") -> str:
    """Cards as a comma-separated list of short labels in display order (by number, 14/1 first), each
    marked (:func:`card_shown`), or ``empty`` for none."""
    labels = [card_shown(card) for card in sorted_cards(cards)]
    return ", ".join(labels) if labels else empty


def cards_word(count: int) -> str:
    """``"1 card"``, ``"2 cards"``."""
    return plural(count, "card")


def colour_token_label(colour: int) -> str:
    """A colour token's text, e.g. ``"Red"`` (names, not colour swatches: 13 colours are too many to tell
    apart by sight, and names serve colour-blind players)."""
    return COLOURS[colour]


def shape_token_label(shape: int) -> str:
    """A shape token's text, e.g. ``"★ Star"``."""
    return f"{SHAPE_SYMBOLS[shape]} {SHAPES[shape]}"


def token_label(kind: str, index: int) -> str:
    """The text of the colour (``kind`` ``"c"``) or shape (``"s"``) token ``index``."""
    return colour_token_label(index) if kind == COLOUR else shape_token_label(index)


def player_name(seat: int) -> str:
    """How texts name a seat: ``"player 1"`` for seat 0 (the lobby numbers players from 1)."""
    return f"player {seat + 1}"


# -- rule cards ----------------------------------------------------------------------------------------


def bonus_display(card: BonusCard) -> str:
    """A bonus rule card's title and text: ``"Lucky Sixes: Each 6: bonus 5."``"""
    return f"{card.title}: {card.text}"


def actions_side_text(side: ActionsSide) -> str:
    """All lines of a side of the actions card, one per action number, e.g. ``"14/1 – Everyone takes …"``."""
    return "\n".join(f"{number_text(number)} – {text}" for number, _, text in side.actions)


# -- the draw piles --------------------------------------------------------------------------------------

PILE_MARKS = ("①", "②", "③")


def piles_text(piles: Sequence[Sequence[Card]]) -> str:
    """The draw piles for the public table (each a list whose last card is its top): each pile's face-up
    top card and its size."""
    parts = []
    for index, pile in enumerate(piles):
        if pile:
            parts.append(f"{PILE_MARKS[index]} {strong(card_shown(pile[-1]))} ({len(pile)})")
        else:
            parts.append(f"{PILE_MARKS[index]} empty")
    return "\n".join(parts)


def piles_field(piles: Sequence[Sequence[Card]], empty: str) -> Field:
    """The public field of the draw piles (``empty`` once all three are)."""
    return Field("Draw piles", piles_text(piles) if any(piles) else empty)


def draw_label(card: Card, pile: int) -> str:
    """Drawing ``card``, the top of draw pile ``pile`` (0..2): ``"Draw 7 Red ★ (pile 1)"``."""
    return f"Draw {card_label(card)} (pile {pile + 1})"


def discard_text(discard: Sequence[Card]) -> str:
    """The discard pile (bottom card first) for the public table: its top card and size, or ``"empty"``."""
    if not discard:
        return "empty"
    return f"{strong(card_shown(discard[-1]))} on top of {len(discard)}"


def card_fields(name: str, cards: Sequence[Card], *, empty: str = "none") -> list[Field]:
    """Cards (each marked: :func:`card_shown`) as one field, or several (``name (2)``…) when the list
    would pass 1000 characters of text."""
    labels = [card_shown(card) for card in sorted_cards(cards)]
    if not labels:
        return [Field(name, empty)]
    chunks: list[list[str]] = [[]]
    for label in labels:
        if sum(len(plain(item)) + 2 for item in chunks[-1]) + len(plain(label)) > 1000:
            chunks.append([])
        chunks[-1].append(label)
    if len(chunks) > 1:
        return [
            Field(name if index == 0 else f"{name} ({index + 1})", ", ".join(chunk))
            for index, chunk in enumerate(chunks)
        ]
    return [Field(name, ", ".join(labels), grouped_cards_text(cards))]


def grouped_cards_text(cards: Sequence[Card]) -> str:
    """Cards by number, each number once, for a crowded message: ``"7 Red ★ Blue ● · 9 Lime ♠"``."""
    groups = itertools.groupby(sorted_cards(cards), key=lambda card: card.number)
    return " · ".join(
        f"{number_text(number)} "
        + " ".join(f"{COLOURS[card.colour]} {SHAPE_SYMBOLS[card.shape]}" for card in group)
        for number, group in groups
    )


def hand_fields(hand: Sequence[Card], empty: str) -> list[Field]:
    """A seat's hand as private fields (``empty`` for no card)."""
    return card_fields(f"Your hand ({len(hand)})", hand, empty=empty)


def drew_field(card: Card, text: str) -> Field:
    """The private note of the card just drawn, written by ``text`` (:func:`card_shown`'s result)."""
    return Field("You drew", f"{text} (joins your hand after your discard)")


# -- the fan exchange (14/1 and 2) -----------------------------------------------------------------------

FAN_PUBLIC_GROUP = "Pick from the fan to your right…"
"""The group of the fan positions offered on the public table."""


def fan_position_label(position: int) -> str:
    """A position (0-based) of the face-down fan on the picker's right."""
    return f"Card {position + 1} of the fan to your right"


def fan_group(count: int, picked: int) -> str:
    """The group of a picker's fan positions: ``count`` cards to take, ``picked`` taken so far."""
    which = "a card" if count == 1 else ("a first card" if not picked else "a second card")
    return f"Pick {which} from the fan to your right…"


def fan_field(size: int, need: int) -> Field:
    """A picker's private note during an exchange: its fan holds ``size`` cards and it picks ``need``."""
    return Field("The fan on your right", f"{cards_word(size)} face down; you pick {need}")


def exchange_text(received: Sequence[Card], given: Sequence[Card], *, passed: bool = False) -> str:
    """A seat's private note on the last exchange (what it got, what left its hand); ``passed``: a 6."""
    if passed:
        passed_on, got = cards_word(len(given)), cards_word(len(received))
        return f"You passed your hand ({passed_on}) left and got {got} from your right."
    took, lost = cards_text(received), cards_text(given)
    return f"You took {took} from the fan on your right and lost {lost} to your left."


def last_exchange_field(note: str) -> Field:
    """A seat's private note on the last exchange (see :func:`exchange_text`)."""
    return Field("Last exchange", note, "")  # a full DM may leave it out: the ephemeral view shows it


# -- tokens (TOKENIZE, ERADICIZE) -----------------------------------------------------------------------

TAKE_TOKEN_GROUP = "Take a token from the middle…"
STEAL_TOKEN_GROUP = "Steal a token from another player…"


def take_token_label(kind: str, index: int) -> str:
    """Taking a token from the middle: ``"Take the Red token"``."""
    return f"Take the {token_label(kind, index)} token"


def steal_token_label(owner: int, kind: str, index: int) -> str:
    """Stealing a token from seat ``owner``: ``"Steal ★ Star from player 2"``."""
    return f"Steal {token_label(kind, index)} from {player_name(owner)}"


def took_token_text(kind: str, index: int) -> str:
    """The event of a token taken from the middle."""
    return f"took the {token_label(kind, index)} token from the middle"


def stole_token_text(owner: int, kind: str, index: int) -> str:
    """The event of a token stolen from seat ``owner``."""
    return f"stole the {token_label(kind, index)} token from {player_name(owner)}"


def seat_tokens_text(colours: Sequence[int], shapes: Sequence[int]) -> str:
    """A seat's tokens, e.g. ``"Red Blue ★ ♥"``: colours by name, shapes by symbol, so the seat's line
    stays short."""
    parts = [colour_token_label(colour) for colour in colours]
    parts += [SHAPE_SYMBOLS[shape] for shape in shapes]
    return " ".join(parts) if parts else "no tokens"


def middle_tokens_text(colours: Sequence[int], shapes: Sequence[int]) -> str:
    """The tokens in the middle, for the public table."""
    if not colours and not shapes:
        return "none: a 13 steals a token from another player"
    if len(colours) > len(COLOURS) // 2:  # most are in the middle: name those that are not
        missing = [colour_token_label(colour) for colour in range(len(COLOURS)) if colour not in colours]
        colour_text = f"all colours but {', '.join(missing)}" if missing else "every colour"
    else:
        colour_text = ", ".join(colour_token_label(colour) for colour in colours) or "no colour"
    shape_text = " ".join(SHAPE_SYMBOLS[shape] for shape in shapes) or "no shape"
    return f"{colour_text} · {shape_text}"


def middle_tokens_field(colours: Sequence[int], shapes: Sequence[int]) -> Field:
    """The public field of the tokens in the middle."""
    text = middle_tokens_text(colours, shapes)
    return Field("Tokens in the middle", text, "none" if not colours and not shapes else None)


# -- the actions TOKENIZE and ERADICIZE share (14/1, 2, 6, 13) ------------------------------------------


def action_name(number: int) -> str:
    """What a card's action does in TOKENIZE and ERADICIZE, in a few words (``""`` without one; the 10
    is each game's own)."""
    return {
        FOURTEEN_ONE: "everyone picks 1 card from the fan on their right",
        2: "everyone picks 2 cards from the fan on their right",
        6: "everyone passes their hand left",
        13: "take a token",
    }.get(number, "")


def fan_starts_text(number: int, count: int) -> str:
    """The event of a 14/1 or 2 whose exchange begins (``count`` cards each)."""
    return (
        f"{number_text(number)}: everyone picks {cards_word(count)} from the face-down fan of the "
        "player on their right."
    )


NOBODY_FANS = "Nobody has a card to fan out."
HANDS_PASSED = "6: everyone passes their whole hand to the left."
NO_TOKEN_LEFT = "13: there is no token to take."
TOKEN_TO_TAKE = "13: a token to take."
EXCHANGE_DONE = "The exchange is done; each picked card is now in its picker's hand."


def table_title(game: str, over: bool, turn: int) -> str:
    """A TOKENIZE or ERADICIZE view's title: ``"TOKENIZE: turn 4"``, ``"TOKENIZE: game over"``."""
    return f"{game}: game over" if over else f"{game}: turn {turn}"


def fan_now_text(count: int) -> str:
    """The "Now" line during a 14/1 or 2 exchange of ``count`` cards each."""
    return f"Everyone picks {cards_word(count)} from the fan of the player on their right."


def token_now_text(card_verb: str) -> str:
    """The "Now" line while a 13's token is chosen (``card_verb``: how the 13 came out, "discarded")."""
    return f"The player who {card_verb} the 13 takes a token."


def now_field(text: str) -> Field:
    """The public field of what the game waits for (left out at a crowded table: its turn line names who
    must act, and their private views say what to do)."""
    return Field("Now", text, "", for_decision=True)
