"""Foist's words: action labels, refusals, event text and the views' text, as pure functions of plain
values (card numbers, counts). Numbers to stand out are marked with :func:`engine.core.strong`, and a card
named in a view or an event with :func:`engine.core.card_mark` (:func:`card_shown`)."""

from __future__ import annotations

import functools

from engine.core import Field, card_mark, plural, strong
from engine.foist.cards import REMOVED_UNSEEN, runs

PAY_LABEL = "No thanks! (pay a token)"
NOT_YOUR_TURN = "It is not your turn."
NO_TOKENS = "You have no tokens left, so you must take the card."
LAST_CARD_TAKEN = "The last card is taken: the game is over."


def tokens_text(count: int) -> str:
    """``"1 token"``, ``"3 tokens"``."""
    return plural(count, "token")


def card_shown(card: int) -> str:
    """A card as views and events name it: its number, marked as the card (``"{card:fo:27|27}"``)."""
    return card_mark("fo", card, str(card))


def cards_text(count: int) -> str:
    """``"1 card"``, ``"2 cards"``."""
    return plural(count, "card")


def format_runs(cards: list[int] | tuple[int, ...]) -> str:
    """Cards as series, e.g. ``"11-12 · 15-17 · 20"``; ``"no cards"`` for none."""
    return series_text(runs(cards))


def series_text(all_series: list[list[int]]) -> str:
    """:func:`format_runs` of cards already split by :func:`engine.foist.cards.runs`."""
    if not all_series:
        return "no cards"
    return " · ".join(
        [f"{series[0]}-{series[-1]}" if len(series) > 1 else str(series[0]) for series in all_series]
    )


def take_label(card: int, on_card: int) -> str:
    """The take button: ``"Take 17 (+3 tokens)"`` (``on_card``: tokens on the card up)."""
    return f"Take {card} (+{tokens_text(on_card)})"


def paid(card: int, on_card: int) -> str:
    """The event of a payment; ``on_card`` counts the tokens on ``card`` once paid."""
    return f"said no thanks to {strong(card_shown(card))} ({tokens_text(on_card)} on it)"


def took(card: int, on_card: int) -> str:
    """The event of taking ``card`` with the ``on_card`` tokens on it."""
    return f"took {strong(card_shown(card))} with {tokens_text(on_card)}"


def next_card(card: int) -> str:
    """The event of the next card turned up."""
    return f"The next card is {strong(card_shown(card))}."


def title(cards_left: int | None) -> str:
    """The view's headline: the face-down cards after the card up, or ``None`` once the game is over."""
    if cards_left is None:
        return "Foist: game over"
    return f"Foist: {cards_text(cards_left)} left after this one"


def table_during_play(card_up: int, on_card: int, cards_left: int) -> tuple[Field, ...]:
    """The public fields while a card is up (``cards_left``: face down after it)."""
    return (
        Field("Card up", f"{strong(card_shown(card_up))} with {tokens_text(on_card)} on it"),
        Field("Draw pile", f"{cards_text(cards_left)} ({REMOVED_UNSEEN} were removed unseen)"),
    )


def table_at_the_end(removed: list[int]) -> tuple[Field, ...]:
    """The public field once the game is over: the cards removed unseen, now shown."""
    return (Field("Removed unseen", " ".join(card_shown(card) for card in removed)),)


def seat_summary(cards: list[int], tokens: int | None = None, score: int | None = None) -> str:
    """A seat's line: its series and their points, and once the game is over its ``tokens`` and ``score``
    (both given then)."""
    all_series = runs(cards)  # split once for the text and the points
    summary = f"{series_text(all_series)} (cards count {sum([series[0] for series in all_series])})"
    if tokens is not None:
        summary += f", {tokens_text(tokens)}: {plural(score, 'point', shown=strong(score))}"
    return summary


@functools.lru_cache(maxsize=4096)
def cards_summary(cards: tuple[int, ...]) -> str:
    """A seat's line while the game is played (:func:`seat_summary` of ``cards`` alone), worked out once
    per hand: a seat's cards change only when it takes one."""
    return seat_summary(cards)


def private_fields(
    tokens: int, card_points: int, score: int, card_up: int | None, cost: int, on_card: int
) -> tuple[Field, ...]:
    """A seat's own fields: its ``tokens``, its ``score`` (``card_points`` minus tokens) and, while a card
    is up, what taking it now does (``cost``: card points it adds; ``on_card``: tokens it brings)."""
    fields = [
        Field("Your tokens", str(tokens)),
        Field("Your score now", f"cards {card_points} − tokens {tokens} = {strong(score)}"),
    ]
    if card_up is not None:
        fields.append(
            Field(
                f"Taking {card_up} now",
                f"{plural(cost, 'card point', shown=f'{cost:+d}')}, +{tokens_text(on_card)}: "
                f"net {strong(f'{cost - on_card:+d}')}",
            )
        )
    return tuple(fields)


def standing_detail(card_points: int, tokens: int) -> str:
    """The scoreboard's detail of a seat's points."""
    return f"cards {card_points} − tokens {tokens}"
