"""Minimize: Declare's words: card names, points as players read them, action labels, the events' text and
the fields of the views; pure functions over cards, points and seat indexes (no game state).

Cards are shown in plain Unicode with one symbol per colour (``"5♥"``, ``"12♦"``), so colour-blind players
can read them. Text that stands out is marked with :func:`engine.core.strong`, and a card a view or an event
names with :func:`engine.core.card_mark` (:func:`card_shown`); renderers decide how.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from engine.core import Field, LegalAction, card_mark, plural, strong
from engine.declare.cards import (
    DECLARE_LIMIT_Q,
    DECLARE_NOW,
    DISCOVER,
    HALF_VALUE,
    JOKER,
    NO_PICK,
    card_points,
    hand_quarters,
    is_number,
    rank_of,
)
from engine.declare.scoring import RoundResult, Settlement
from engine.declare.throws import IMPURE, PURE, SET, SINGLE, Throw, legal_throws, pickable_ends

SYMBOLS = {"r": "♥", "y": "★", "g": "♣", "b": "♦"}
POWER_NAMES = {
    HALF_VALUE: "My Half Value",
    DECLARE_NOW: "I Declare Now",
    NO_PICK: "I Don't Pick",
    DISCOVER: "I Discover Now",
}

# -- cards and points -------------------------------------------------------------------------------


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


def card_shown(card: str) -> str:
    """A card as views and events name it: :func:`card_text`, marked as the card
    (``"{card:iv:5r|5♥}"``)."""
    return card_mark("iv", card, card_text(card))


def cards_shown(cards: Sequence[str]) -> str:
    """:func:`cards_text` with each card marked (:func:`card_shown`)."""
    return " ".join(card_shown(card) for card in cards) if cards else "no cards"


def format_points(quarters: int) -> str:
    """Quarter points as players read them: ``"12"``, ``"3.5"``, ``"2.25"``."""
    if quarters % 4 == 0:
        return str(quarters // 4)
    return f"{quarters / 4:g}"


def points_text(quarters: int) -> str:
    """Quarter points with their unit: ``"1 point"``, ``"3.5 points"``."""
    return plural(quarters / 4, "point", shown=format_points(quarters))


def _direction_text(direction: int) -> str:
    """``"clockwise ↻"`` for +1 (seat order), ``"anticlockwise ↺"`` for -1."""
    return "clockwise ↻" if direction == 1 else "anticlockwise ↺"


# -- action labels ----------------------------------------------------------------------------------

THROW_GROUP = "Throw…"
DRAW_LABEL = "Draw from the pile"
NO_CARD_LABEL = "No card to pick: end turn"
NO_PICK_LABEL = "Play I Don't Pick (pick nothing)"
NO_PICK_DESCRIPTION = "Throw the power card instead of picking a card"
DISCOVER_GROUP = "Play I Discover Now: take any number card from the discard pile…"
DECLARE_DESCRIPTION = "End the round: lowest hand wins"
DECLARE_NOW_DESCRIPTION = "Throw I Declare Now and declare before your next turn"


def declare_label(quarters: int) -> str:
    """The Declare button, with the hand's total in quarter points: ``"Declare (5 points)"``."""
    return f"Declare ({points_text(quarters)})"


def declare_now_label(quarters: int) -> str:
    """The I Declare Now button, with the hand's total in quarter points."""
    return f"I Declare Now ({points_text(quarters)})"


def take_label(card: str) -> str:
    """Taking ``card`` from the last throw: ``"Take 5♥"``."""
    return f"Take {card_text(card)}"


def discover_label(card: str) -> str:
    """Taking ``card`` from the discard pile with I Discover Now: ``"Discover 9♣"``."""
    return f"Discover {card_text(card)}"


def discover_description(card: str) -> str:
    """What a card taken with I Discover Now is worth: ``"9 points"``."""
    return points_text(4 * card_points(card))


def throw_back_label(card: str) -> str:
    """The quick throw-back of the just-drawn ``card``."""
    return f"Throw back {card_text(card)} (quick, before the next player acts!)"


def throw_description(throw: Throw) -> str:
    """A throw's kind and the points it sheds, e.g. ``"pure sequence of 3 · sheds 12 points"``; a set of
    three or more also names its two ends, the cards the next player may take."""
    size = len(throw.cards)
    what = {
        SINGLE: "one card",
        SET: f"set of {size}",
        PURE: f"pure sequence of {size}",
        IMPURE: f"sequence of {size}, mixed colours",
    }[throw.kind]
    text = f"{what} · sheds {plural(throw.points, 'point')}"
    if throw.kind == SET and size >= 3:
        text += f" · ends {card_text(throw.cards[0])} and {card_text(throw.cards[-1])}"
    return text


@lru_cache(maxsize=8192)
def throw_choices(hand: tuple[str, ...]) -> tuple[LegalAction, ...]:
    """The throw decision for ``hand``: every legal throw, most points shed first, as one group of private
    choices labelled with the cards in thrown order (``"5♥ 6♥ Joker 8♥"``) and described with the kind and
    the points shed (``"pure sequence of 4 · sheds 19 points"``). A 7-card hand can have over a hundred
    (117 for 6♦ 7♦ 8♦ 9♦ and three Jokers); the Discord renderer pages long lists."""
    return tuple(
        LegalAction(
            throw.code,
            cards_text(throw.cards),
            secret=True,
            group=THROW_GROUP,
            description=throw_description(throw),
        )
        for throw in legal_throws(hand)
    )


# -- events -----------------------------------------------------------------------------------------

DRAW_TEXT = "draws from the pile"
NO_CARD_TEXT = "finds no card to pick"
TRIPLET_TEXT = "A triplet: the next player misses their turn."
WINNER_TEXT = "is the last player standing and wins!"
NOBODY_LEFT_TEXT = "Everyone left went over 100: the game is over."
DECLARE_NOW_TEXT = f"throws {strong(card_shown(DECLARE_NOW))}!"
NO_PICK_TEXT = f"throws {strong(card_shown(NO_PICK))} and picks nothing"


def throw_text(cards: Sequence[str]) -> str:
    """A throw and the points it sheds: ``"throws {b:5♥ 6♥ 7♥} (18 points)"``."""
    points = sum(card_points(card) for card in cards)
    return f"throws {strong(cards_shown(cards))} ({plural(points, 'point')})"


def reversal_text(direction: int) -> str:
    """A pure sequence of three turned play to ``direction`` (additional rule 3)."""
    return f"A pure sequence of three: play now goes {_direction_text(direction)}."


def reshuffle_text(draw_size: int) -> str:
    """The discard pile became a new draw pile of ``draw_size`` cards."""
    return f"The discard pile is shuffled into a new draw pile ({draw_size})."


def take_text(card: str) -> str:
    """``card`` taken from the last throw (everyone sees it)."""
    return f"takes {strong(card_shown(card))} from the last throw"


def discover_text(card: str) -> str:
    """I Discover Now played to take ``card`` from the discard pile."""
    return f"throws {strong(card_shown(DISCOVER))} and takes {strong(card_shown(card))} from the discard pile"


def throw_back_text(card: str) -> str:
    """The just-drawn ``card`` thrown back onto the throw."""
    return f"quickly throws back {strong(card_shown(card))}, a match just drawn"


def declare_text(caller_q: int, beaten: bool) -> str:
    """The caller's declare with ``caller_q`` quarter points, and whether another hand beat it."""
    outcome = " and is beaten: 25 penalty points!" if beaten else ": lowest hand, scores 0!"
    return f"declares with {points_text(caller_q)}{outcome}"


def _settlement_note(settlement: Settlement) -> str:
    return {
        Settlement.KEPT: "",
        Settlement.BACK_TO_50: "exactly 100: back to 50",
        Settlement.OUT: "over 100: out",
    }[settlement]


def shown_hand_text(
    hand: Sequence[str], hand_q: int, scored_q: int, total_q: int, settlement: Settlement
) -> str:
    """A hand shown after a declare: its cards, its total, the points scored and the new game total (all in
    quarter points), and what that total did (back to 50, out)."""
    note = _settlement_note(settlement)
    text = (
        f"shows {cards_shown(hand)} = {format_points(hand_q)}: "
        f"+{format_points(scored_q)}, total {format_points(total_q)}"
    )
    return text + (f" ({note})" if note else "")


def starts_round_text(number: int) -> str:
    """The lowest hand starts round ``number``."""
    return f"has the lowest hand and starts round {number}"


# -- views ------------------------------------------------------------------------------------------


def view_title(round_number: int, over: bool) -> str:
    """The title of every view: the round in play, or how many rounds the game lasted."""
    if over:
        return f"Minimize: Declare · game over after {plural(round_number, 'round')}"
    return f"Minimize: Declare · round {round_number}"


def _marked(throw: Sequence[str]) -> str:
    """A throw with its pickable ends marked: ``"{b:5♥} 6♥ Joker {b:8♥}"``."""
    texts = [card_shown(card) for card in throw]
    texts[0] = strong(texts[0])
    if len(texts) > 1:
        texts[-1] = strong(texts[-1])
    return " ".join(texts)


def play_fields(
    previous_throw: Sequence[str],
    this_throw: Sequence[str],
    picking: bool,
    draw_size: int,
    discard_size: int,
    direction: int,
) -> list[Field]:
    """The fields of a round in play: the previous player's throw and its pickable ends (and the throw
    just made, while ``picking``), the sizes of the draw and discard piles, and the direction of play."""
    if previous_throw:
        ends = " or ".join(card_shown(card) for card in pickable_ends(previous_throw))
        previous = f"{_marked(previous_throw)} — may take {ends}"
    else:
        previous = "nothing yet: draw from the pile"
    if picking:
        fields = [
            Field("Take from (last throw)", previous, for_decision=True),
            Field("Just thrown", cards_shown(this_throw)),
        ]
    else:
        fields = [Field("Last throw (take after yours)", previous, for_decision=True)]
    fields.append(
        Field("Draw pile", f"{plural(draw_size, 'card')} · discard pile {plural(discard_size, 'card')}")
    )
    fields.append(Field("Play goes", _direction_text(direction)))
    return fields


def last_round_field(last: RoundResult) -> Field:
    """The result of the last round played: the caller's declare and whether it won."""
    outcome = "won: scores 0" if last.succeeded else "was beaten: 25 penalty"
    return Field(
        f"Round {last.number} result",
        f"📣 declared {points_text(last.caller_q)} and {outcome} (hands in the log).",
        "",  # a crowded table leaves it out: the log has it
    )


def closest_field(total_q: int) -> Field:
    """The highest game total of the seats still in (quarter points), whose lines are marked ⚠."""
    return Field("Closest to 100", f"{points_text(total_q)} (⚠)", "")  # a crowded table: the ⚠ lines say it


def rules_fields(quick_throw_back: bool, triplet_skips: bool, pure_three_reverses: bool) -> list[Field]:
    """The reminder of what cards count, and the additional rules this table plays."""
    rules = [
        name
        for name, on in (
            ("quick throw-back", quick_throw_back),
            ("triplet skips", triplet_skips),
            ("pure three reverses", pure_three_reverses),
        )
        if on
    ]
    return [
        Field(
            "Cards",
            "♥ red · ★ yellow · ♣ green · ♦ blue. Jokers and power cards count 0. Declare with 7 or less.",
        ),
        Field("Additional rules", ", ".join(rules) if rules else "none"),
    ]


def seat_summary(
    seat: int,
    *,
    hand_size: int,
    total_q: int,
    out_round: int | None,
    over: bool,
    dealer: bool,
    closest: bool,
    last: RoundResult | None,
    brief: bool = False,
) -> str:
    """One seat's line: cards in hand and game total (or ❌ and the round it went out), "dealer", its score
    in the last round (📣 for the caller; "held" with the hand's total where the score differs), and ⚠
    when it is closest to 100. ``brief`` (a crowded table): no last round, and no round for a seat out."""
    total = format_points(total_q)
    if out_round is not None:
        when = "" if brief else f" in round {out_round}"
        parts = [f"❌ out{when} · {plural(total_q / 4, 'pt', shown=total)}"]
    elif over:
        parts = [f"{plural(total_q / 4, 'pt', shown=strong(total))} · last one standing"]
    else:
        parts = [f"{plural(hand_size, 'card')} · {plural(total_q / 4, 'pt', shown=strong(total))}"]
        if dealer:
            parts.append("dealer")
    if last is not None and not brief:
        hand_q = last.hand_q[seat]
        if hand_q is not None:
            mark = "📣 " if seat == last.caller else ""
            scored = format_points(last.scored_q[seat])
            held = "" if hand_q == last.scored_q[seat] else f" held {format_points(hand_q)} →"
            note = "" if out_round is not None else _settlement_note(last.settlements[seat])
            parts.append(f"{mark}R{last.number}:{held} +{scored}" + (f" ({note})" if note else ""))
    if closest and not over:
        parts.append("⚠")
    return " · ".join(parts)


def private_fields(hand: Sequence[str], drawn: str | None) -> tuple[Field, ...]:
    """A seat's own view: its hand, what it counts (halvings shown) and whether it may declare, and the
    card it last drew from the pile (``drawn``), which no one else saw."""
    quarters = hand_quarters(hand)
    raw = sum(card_points(card) for card in hand)
    halves = min(hand.count(HALF_VALUE), 2)
    if halves:
        counted = plural(quarters / 4, "point", shown=strong(format_points(quarters)))
        worth = f"{raw} halved {'once' if halves == 1 else 'twice'} = {counted}"
    else:
        worth = plural(raw, "point", shown=strong(raw))
    worth += " — you may declare" if quarters <= DECLARE_LIMIT_Q else " — declare at 7 or less"
    fields = [Field("Your hand", cards_shown(hand)), Field("Your hand counts", worth)]
    if drawn is not None:
        fields.append(Field("You drew", card_shown(drawn)))
    return tuple(fields)


def standing_detail(out_round: int | None) -> str:
    """A seat's line in the final standings: the round it went out in, or that it outlasted everyone."""
    return "last one standing" if out_round is None else f"out in round {out_round}"
