"""TOKENIZE's words: the game's name, the labels of its moves, its events, and the fields and lines of its
views; pure functions over cards, points, counts and bonus rule cards (the shared words are
:mod:`engine.frazzled.words`)."""

from __future__ import annotations

from collections.abc import Sequence

from engine.core import Field, plural, strong
from engine.frazzled.deck import Card
from engine.frazzled.rule_cards import BonusCard
from engine.frazzled.words import card_label, card_shown, cards_text, cards_word

TITLE = "TOKENIZE"
SUMMARY = (
    "Draw, discard, and declare sets of three (same number, or your token's colour or shape) at any "
    "moment for 10 points plus the bonus rules."
)
WINNING_RULE = "highest score wins"
CARD_VERB = "discarded"
"""How the card whose action follows came out (the "Now" line of a 13)."""
TEN_ACTION = "replace a bonus rule card"
"""What a 10 does, in a few words."""

Bonuses = Sequence[tuple[str, int]]
"""The bonus rule cards that changed a set's points: ``(title, benefit)`` each."""


def _bonus_text(parts: Bonuses) -> str:
    """``", Lucky Sixes +5, Unlucky 13 -3"`` (empty for none)."""
    return "".join(f", {title} {benefit:+d}" for title, benefit in parts)


# -- actions ---------------------------------------------------------------------------------------------

SET_GROUP = "Declare a set…"
DISCARD_GROUP = "Discard a card…"


def set_label(cards: Sequence[Card], points: int) -> str:
    """Declaring ``cards`` (in the given order) as a set worth ``points``."""
    return f"Set: {' + '.join(card_label(card) for card in cards)} ({plural(points, 'pt')})"


def set_description(kind: str, parts: Bonuses, points: int) -> str:
    """How a set of ``kind`` ("number", "colour", "shape") scores: ``"colour set: 10, Rainbow +2 = 12"``."""
    return f"{kind} set: 10{_bonus_text(parts)} = {points}"


def keep_label(card: Card) -> str:
    """Keeping the card drawn, for a player with no card to discard."""
    return f"Keep {card_label(card)} (no card to discard)"


def discard_label(card: Card) -> str:
    """Discarding ``card``."""
    return f"Discard {card_label(card)}"


def replace_bonus_label(card: BonusCard) -> str:
    """The 10's choice of the bonus rule card to replace (its text is the choice's description)."""
    return f"Replace {card.title}"


# -- events ----------------------------------------------------------------------------------------------

KEPT = "has no card to discard and keeps the card drawn"
TEN = "10: a bonus rule card to replace."
THIRD_TIME = "The draw piles ran out for the third time: the game is over."


def drew_text(card: Card, pile: int) -> str:
    """The event of ``card`` drawn from pile ``pile`` (0..2)."""
    return f"drew {strong(card_shown(card))} from pile {pile + 1}"


def discarded_text(card: Card) -> str:
    """The event of ``card`` discarded."""
    return f"discarded {strong(card_shown(card))}"


def replaced_text(old: BonusCard, new: BonusCard) -> str:
    """The event of a 10 that replaced bonus rule ``old`` by ``new``."""
    return f"replaced the bonus rule {strong(old.title)} with {strong(new.title)}: {new.text}"


def declared_text(cards: Sequence[Card], parts: Bonuses, points: int) -> str:
    """The event of a set declared: ``cards`` in the given order, the bonus ``parts``, its ``points``."""
    shown = ", ".join(card_shown(card) for card in cards)
    worth = plural(points, "point", shown=strong(points))
    return f"declared a set: {strong(shown)} for {worth} (10{_bonus_text(parts)})"


def drew_after_set_text(drawn: Sequence[tuple[Card, int]]) -> str:
    """The event of the cards drawn after a set: ``(card, pile)`` each, pile 0..2."""
    return "drew " + ", ".join(f"{card_shown(card)} (pile {pile + 1})" for card, pile in drawn)


def ending_text(discard: int | None) -> str:
    """Why the game ended: the draw piles ran out a third time (``discard`` None), or ran out with only
    ``discard`` cards on the discard pile."""
    if discard is None:
        return THIRD_TIME
    return f"The draw piles ran out and the discard pile has only {cards_word(discard)}: the game is over."


def reshuffled_text(count: int, reshuffle: int, allowed: int) -> str:
    """The event of the discard pile of ``count`` cards shuffled into new draw piles, the ``reshuffle``-th
    of ``allowed``."""
    return (
        f"The draw piles ran out: the discard pile ({cards_word(count)}) is shuffled into three "
        f"new draw piles (reshuffle {reshuffle} of {allowed})."
    )


# -- views -----------------------------------------------------------------------------------------------

PILES_EMPTY = "all empty"
HAND_EMPTY = "empty"
DRAW_NOW = "The player to act draws from a pile. Anyone may declare a set at any moment."
RULE_NOW = "The player who discarded the 10 replaces a bonus rule card."


def bonus_field(slot: int, card: BonusCard) -> Field:
    """The public field of the bonus rule card in ``slot`` (0..2)."""
    return Field(f"Bonus rule {slot + 1}: {card.title}", card.text)


def reshuffles_field(reshuffles: int, emptied: int, most: int) -> Field:
    """How often the piles were reshuffled (at most ``most - 1``) and ran out (the game ends at ``most``);
    shown once they have run out."""
    return Field(
        "Reshuffles",
        f"{reshuffles} of {most - 1} used · piles ran out {emptied} of {plural(most, 'time')}",
        f"{reshuffles}/{most - 1} used · ran out {emptied}/{most}",
    )


def discard_now_text(card: Card) -> str:
    """The "Now" line while the player to act, who drew ``card``, discards."""
    return f"Drew {card_shown(card)}: discard a different card."


def seat_summary(score: int, sets: int, hand: int, tokens: str) -> str:
    """A seat's public line: its score, sets, hand size and ``tokens`` (their text)."""
    points = plural(score, "pt", shown=strong(score))
    return f"{points} · {plural(sets, 'set')} · {plural(hand, 'card')} · 🪙 {tokens}"


def seat_brief(score: int, hand: int, tokens: str) -> str:
    """A seat's line for a crowded table: its score, hand size and ``tokens`` (its sets are in the log)."""
    return f"{plural(score, 'pt', shown=strong(score))} · {plural(hand, 'card')} · 🪙 {tokens}"


def sets_field(sets: Sequence[Sequence[Card]]) -> Field:
    """The private field of the sets a seat has declared, one line each."""
    return Field("Your sets", "\n".join(cards_text(trio) for trio in sets))


def standing_detail(sets: int) -> str:
    """A seat's line in the final standings."""
    return plural(sets, "set")
