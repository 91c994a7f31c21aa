"""ERADICIZE's words: the game's name, the labels of its plays, its events, and the fields and lines of its
views; pure functions over cards, counts and seat indexes (the shared words are
:mod:`engine.frazzled.words`)."""

from __future__ import annotations

from collections.abc import Sequence

from engine.core import Field, strong
from engine.frazzled.deck import FOURTEEN_ONE, Card
from engine.frazzled.words import (
    card_label,
    card_shown,
    cards_word,
    colour_token_label,
    shape_token_label,
)

TITLE = "ERADICIZE"
SUMMARY = (
    "Play higher than the top card or match your colour or shape tokens, or pick up the pile. "
    "First to get rid of every card wins."
)
WINNING_RULE = "first out of cards wins; the rest by cards left"
CARD_VERB = "played"
"""How the card whose action follows came out (the "Now" line of a 13)."""
TEN_ACTION = "clears the discard pile"
"""What a 10 does, in a few words."""
NOBODY_FANS = "Nobody has a card in hand to fan out."

# -- actions ---------------------------------------------------------------------------------------------

PLAY_GROUP = "Play a card…"


def pick_up_label(count: int) -> str:
    """Picking up the discard pile of ``count`` cards."""
    return f"Pick up the discard pile ({cards_word(count)})"


def play_label(card: Card, from_hand: bool) -> str:
    """Playing ``card`` from the hand, or from the face-up cards: ``"Play 7 Red ★ (face up)"``."""
    return f"Play {card_label(card)}" + ("" if from_hand else " (face up)")


def play_description(
    card: Card, *, higher: bool, pile_started: bool, colour_token: bool, shape_token: bool, action: str
) -> str:
    """Why ``card`` may be played (``higher`` than the top of a ``pile_started``, or matching the
    player's colour or shape token), and its ``action`` in a few words (``""``: none)."""
    reasons = []
    if higher:
        reasons.append("higher" if pile_started else "any card starts the pile")
    if colour_token:
        reasons.append(f"{colour_token_label(card.colour)} token")
    if shape_token:
        reasons.append(f"{shape_token_label(card.shape)} token")
    text = ", ".join(reasons)
    if card.number == FOURTEEN_ONE:
        text += "; played as 14, counts as 1 next"
    return f"{text}; {action}" if action else text


# -- events ----------------------------------------------------------------------------------------------

STALEMATE = (
    "The same position has come round three times: play would go on for ever, "
    "so the game ends here and players rank by the cards they have left."
)
WINS = "has no cards left and wins!"


def picked_up_text(count: int) -> str:
    """The event of a player who could not play and picked up the discard pile of ``count`` cards."""
    return f"could not play and picked up the discard pile ({cards_word(count)})"


def played_text(card: Card, from_hand: bool) -> str:
    """The event of ``card`` played, from the hand or the face-up cards."""
    return f"played {strong(card_shown(card))}" + ("" if from_hand else " from the face-up cards")


def drew_text(card: Card, pile: int) -> str:
    """The event of ``card`` drawn from pile ``pile`` (0..2) after a play."""
    return f"drew {card_shown(card)} from pile {pile + 1}"


def cleared_text(count: int) -> str:
    """The event of a 10 clearing the ``count`` cards under it out of the game."""
    return f"10: the discard pile ({cards_word(count)} under the 10) leaves the game."


# -- views -----------------------------------------------------------------------------------------------

PILES_EMPTY = "all empty: no more drawing"
HAND_EMPTY = "empty: play your face-up cards"
OVER = "The game is over."
DRAW_NOW = "The player who just played draws from a pile."
PLAY_NOW = "Play a higher card or one matching your tokens, else pick up the pile."


def discard_field(discard: Sequence[Card]) -> Field:
    """The public field of the discard pile (bottom card first); a 14/1 on top counts as 1."""
    if not discard:
        return Field("Discard pile", "empty: any card may start it", for_decision=True)
    top = discard[-1]
    note = " (counts as 1)" if top.number == FOURTEEN_ONE else ""
    return Field(
        "Discard pile", f"{strong(card_shown(top))}{note} on top of {len(discard)}", for_decision=True
    )


def removed_field(count: int) -> Field:
    """The public field of the ``count`` cards 10s have cleared out of the game (shown once there are any)."""
    return Field("Out of the game", f"{cards_word(count)} cleared by 10s", cards_word(count))


def seat_summary(winner: bool, hand: int, face_up: Sequence[Card], tokens: str) -> str:
    """A seat's public line: a winner's, or its hand size, face-up cards and ``tokens`` (their text)."""
    if winner:
        return strong("out of cards: wins!")
    return f"{hand} in hand · up {' '.join(card_shown(card) for card in face_up)} · 🪙 {tokens}"


def seat_brief(winner: bool, hand: int, face_up: int, tokens: str) -> str:
    """A seat's line for a crowded table: a winner's, or its hand size, how many face-up cards it has left
    and ``tokens`` (their text)."""
    if winner:
        return strong("out of cards: wins!")
    return f"{hand} in hand + {face_up} up · 🪙 {tokens}"


def standing_detail(winner: bool, hand: int, face_up: int) -> str:
    """A seat's line in the final standings."""
    return "out of cards" if winner else f"{hand} in hand + {face_up} face up"
