"""Deluxe Memory's words: every sentence a player reads (events, refusals, prompts, action labels, the
views' fields and board), and the Mixed Chart in a sentence per rank.

Pure functions over plain values: cards and positions as ``int`` (see :mod:`engine.memory.cards`), seat
indexes, token counts, a pending decision's :class:`~engine.memory.decisions.Step`. The rules modules
(:mod:`~engine.memory.table`, :mod:`~engine.memory.effects`, :mod:`~engine.memory.state`) call them; this
module imports none of those. Players are named ``{seat:N}``; an event's text follows the acting seat's
name, which the renderer writes (``"looks at C5."``). A card events and views name is marked with
:func:`engine.core.card_mark` (:func:`card_shown`); the board's cells and action labels are unmarked.
"""

from __future__ import annotations

import functools
from collections.abc import Collection, Sequence

from engine.core import Board, Cell, Field, LegalAction, card_mark, plural
from engine.memory.actions import (
    Buy,
    ChooseCross,
    ChoosePlayer,
    ChooseSquare,
    CopyEffect,
    Done,
    Finish,
    Hide,
    Look,
    MemoryAction,
    MoveTo,
    Show,
)
from engine.memory.cards import (
    COLUMNS,
    RANK_NAMES,
    ROWS,
    card_text,
    is_joker,
    is_red,
    position_name,
    rank_title,
    square_name,
)
from engine.memory.decisions import REVEALING_SEVERAL, SEVEN_PRICE, Phase, Purpose, Step

# The Mixed Chart, a sentence per rank: said when a mixed pair resolves, and describing each effect a King
# may copy.
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

UNDERDOGS_END = (
    "Nobody is out at 0 tokens. The game ends when all possible matches are made, or when the only player "
    "with tokens left ends it at the start of one of their turns (ruling 3). Most tokens wins."
)

# What the seat to act is asked to do, for a refusal of an action that belongs to another decision.
ASK: dict[Phase, str] = {
    Phase.PICK_FIRST: "Choose a card to look at.",
    Phase.PICK_SECOND: "Choose a second card to look at.",
    Phase.HIDE: "Leave your two cards face-up, or pay to put them back face-down.",
    Phase.TARGET: "Choose a player.",
    Phase.REVEAL_ONE: "Choose a card to reveal.",
    Phase.LOOK_SWAP: "Choose a card to look at (the two will swap places).",
    Phase.REVEAL_UP_TO_FOUR: "Reveal a card, or stop revealing.",
    Phase.SQUARE: "Select a 2 by 2 square.",
    Phase.SQUARE_LOOK: "Look at a card of the square you selected.",
    Phase.CROSS: "Choose the centre of a 3 by 3 cross.",
    Phase.REVEAL_ANY: "Turn a card face-up, or stop revealing.",
    Phase.KING: "Choose a Mixed Chart effect to copy.",
    Phase.REARRANGE: "Pick a card to move, or be done rearranging.",
    Phase.REARRANGE_TO: "Choose where the card goes, or be done rearranging.",
    Phase.MEMORISE: "Press Done when you have memorised the cards.",
    Phase.BUY_SEVEN: "Lose 5 tokens for another turn, or end your turn.",
}

# The menu that offers positions in each decision that chooses one (a square's cards are buttons instead).
POSITION_MENU: dict[Phase, str] = {
    Phase.PICK_FIRST: "Look at a card",
    Phase.PICK_SECOND: "Look at a second card",
    Phase.LOOK_SWAP: "Look at a card to swap",
    Phase.REVEAL_ONE: "Reveal a card",
    Phase.REVEAL_UP_TO_FOUR: "Reveal a card",
    Phase.REVEAL_ANY: "Turn a card face-up",
    Phase.REARRANGE: "Pick a card to move",
}

# Choices that take tokens from the chosen player: offered with the tone "bad" (the others "good").
HARMFUL = frozenset(
    {Purpose.BLACK, Purpose.ACE_LOSE, Purpose.THREE_LOSE, Purpose.QUEEN_GIVER, Purpose.GIVE_GIVER}
)


# -- names and counts ----------------------------------------------------------------------------------


def player(seat: int) -> str:
    """A player in engine text: ``{seat:N}``, which the Discord layer replaces with the display name."""
    return f"{{seat:{seat}}}"


def tokens_text(count: int) -> str:
    """``"1 token"``, ``"7 tokens"``."""
    return plural(count, "token")


FACE_SUITS = "SHDC"
"""The French-suited faces' suit letter of each suit index (♠ ♥ ♦ ♣; see :mod:`engine.memory.cards`)."""


def card_shown(card: int) -> str:
    """A card as views and events name it: :func:`~engine.memory.cards.card_text`, marked as the card
    of the French-suited faces (``"{card:fr:7H|7♥}"``, ``"{card:fr:JK|Joker}"``)."""
    code = "JK" if is_joker(card) else RANK_NAMES[card // 4] + FACE_SUITS[card % 4]
    return card_mark("fr", code, card_text(card))


def cards_shown(cards: Sequence[int]) -> str:
    """Cards separated by spaces, each marked (:func:`card_shown`): ``"9♠ 9♥"`` once the marks are
    dropped."""
    return " ".join(card_shown(card) for card in cards)


def placed(position: int, card: int) -> str:
    """A card where it lies: ``"C5 7♥"`` (the card marked: :func:`card_shown`)."""
    return f"{position_name(position)} {card_shown(card)}"


def placed_cards(cards: Sequence[tuple[int, int]]) -> str:
    """Cards where they lie, as ``(position, card)``: ``"C5 7♥, D2 Q♠"``."""
    return ", ".join(placed(position, card) for position, card in cards)


def match_shown(first: int, one: int, second: int, two: int) -> str:
    """A matched pair shown to all, card ``one`` at position ``first`` and ``two`` at ``second``:
    ``"C5 7♥ + D2 7♦"``."""
    return f"{placed(first, one)} + {placed(second, two)}"


# -- events: what a seat did (the renderer writes the seat's name first) ---------------------------------

DONE_REARRANGING = "is done rearranging."
ENDS_TURN = "ends their turn."
OUT_OF_THE_GAME = "has no tokens left and is out of the game."
MISSES_TURN = "misses this turn (a Mixed 8)."
REARRANGES = "has one minute to rearrange the cards (Jokin' Around)."
ALL_MATCHED = "All possible matches have been made."


def looks_at(positions: Sequence[int]) -> str:
    """``"looks at C5."``, ``"looks at D2 and D3."``."""
    return f"looks at {' and '.join(position_name(p) for p in positions)}."


def no_match(position: int) -> str:
    """The second look of a turn, ``position``, does not match the first."""
    return f"looks at {position_name(position)}: no match."


def shows_match(position: int, shown: str) -> str:
    """The second look, ``position``, matches; ``shown`` is the pair (:func:`match_shown`)."""
    return f"looks at {position_name(position)} and shows a match: {shown}!"


def reveals(cards: Sequence[tuple[int, int]]) -> str:
    """Cards shown to everyone, as ``(position, card)``."""
    return f"reveals {placed_cards(cards)}."


def turns_face_up(position: int, card: int) -> str:
    """Mixed 6: a card turned face-up for good."""
    return f"turns {placed(position, card)} face-up."


def reveals_cross(centre: int, cards: Sequence[tuple[int, int]]) -> str:
    """Mixed 5: the face-down cards of the cross around ``centre``, as ``(position, card)``."""
    return f"reveals the cross around {position_name(centre)}: {placed_cards(cards)}."


def selects_square(corner: int) -> str:
    """Mixed 4: the square whose top-left is ``corner``."""
    return f"selects the square {square_name(corner)}."


def swaps(first: int, second: int) -> str:
    """Two positions exchange their cards (Mixed 2, Jokin' Around)."""
    return f"swaps {position_name(first)} and {position_name(second)}."


def moves(source: int, target: int) -> str:
    """Jokin' Around: a card moved into a gap."""
    return f"moves {position_name(source)} to {position_name(target)}."


def pays_to_hide(hidden: Sequence[int], shown: Sequence[tuple[int, int]], why: Sequence[str] = ()) -> str:
    """A non-match settled: the positions ``hidden`` were paid for (a token each), the cards ``shown``
    (``(position, card)``) stay face-up, and ``why`` says what kept a card from being hidden (ruling 9)."""
    parts = []
    if hidden:
        names = " and ".join(position_name(p) for p in hidden)
        parts.append(f"pays {tokens_text(len(hidden))} to the Bank to put {names} back face-down")
    if shown:
        parts.append(f"leaves {placed_cards(shown)} face-up")
    text = "; ".join(parts)
    if why:
        text += f" ({'; '.join(why)}: ruling 9)"
    return text + "."


def hide_limits(stayed_up: Sequence[int], tokens: int, hideable: int, underdogs: bool) -> list[str]:
    """Why a card of a non-match may not be put back face-down (ruling 9): the positions ``stayed_up``
    were face-up before the look; with ``tokens`` held and ``hideable`` cards that could be hidden, paying
    may be impossible or put the player out (not with Underdogs)."""
    notes = [f"{position_name(p)} was face-up before the look, so it stays face-up" for p in stayed_up]
    if hideable and tokens == 0:
        notes.append("no tokens to pay with")
    elif hideable and not underdogs and tokens <= hideable:
        what = "hiding" if tokens == 1 else "hiding both"
        notes.append(f"{what} would take the last token and put them out of the game")
    return notes


def discards_shield(cards: Sequence[int]) -> str:
    """Mixed 9: a kept pair discarded instead of a loss of tokens."""
    return f"discards their kept pair {cards_shown(cards)} instead of losing tokens."


def discards_ten(cards: Sequence[int]) -> str:
    """Mixed 10: a kept pair discarded to take another player's match's effect (ruling 14)."""
    return f"discards their kept pair {cards_shown(cards)} and takes this match's effect."


def resolves_chart(rank: int) -> str:
    """A mixed pair of ``rank`` (1..13) resolves on the Mixed Chart."""
    return f"resolves the Mixed {rank_title(rank)}: {CHART[rank]}"


def copies(rank: int) -> str:
    """Mixed King: the effect of ``rank`` copied."""
    return f"copies the {RANK_NAMES[rank - 1]} with the Mixed King."


def skips(victim: int) -> str:
    """Mixed 8: ``victim`` misses their next turn."""
    return f"skips {player(victim)}'s next turn."


def buys_turn(lost: int) -> str:
    """Mixed 7: ``lost`` tokens paid for another turn."""
    return f"loses {tokens_text(lost)} to take another turn (Mixed 7)."


def no_purchase(tokens: int) -> str:
    """Why the Mixed 7's offer of one more turn is not made to a player holding ``tokens`` (ruling 15): it
    is never dropped silently."""
    if tokens < SEVEN_PRICE:
        return (
            f"cannot buy one more turn (Mixed 7): it costs {tokens_text(SEVEN_PRICE)} and they have "
            f"{tokens_text(tokens)}."
        )
    return (
        f"cannot buy one more turn (Mixed 7): paying {tokens_text(SEVEN_PRICE)} would take their last one "
        "and put them out of the game."
    )


def tokens_moved(purpose: Purpose, target: int, count: int, giver: int | None = None) -> str:
    """A player choice for ``purpose`` done: ``count`` tokens moved to or from ``target`` (from ``giver``
    for a gift: Mixed Queen, Simplicity)."""
    who, tokens = player(target), tokens_text(count)
    match purpose:
        case Purpose.BLACK:
            return f"has {who} return {tokens} to the Bank (black pair)."
        case Purpose.RED:
            return f"gives {tokens} from the Bank to {who} (red pair)."
        case Purpose.ACE_GAIN:
            return f"gives {tokens} from the Bank to {who} (Ace)."
        case Purpose.ACE_LOSE:
            return f"has {who} lose {tokens} to the Bank (Ace)."
        case Purpose.THREE_LOSE:
            return f"has {who} lose {tokens} to the Bank (3)."
    assert giver is not None
    return f"has {player(giver)} give {tokens} to {who}."


def evens_out(first: int, second: int, first_tokens: int, second_tokens: int) -> str:
    """Mixed Jack: two players evened out, holding ``first_tokens`` and ``second_tokens`` after."""
    return (
        f"evens out {player(first)} and {player(second)}: {player(first)} has {tokens_text(first_tokens)}, "
        f"{player(second)} has {tokens_text(second_tokens)}."
    )


def only_one_left(seat: int | None) -> str:
    """Why the game ends when ``seat`` is the only player with tokens (``None``: nobody has any)."""
    return f"Only {player(seat)} has tokens left." if seat is not None else ""


def ends_the_game(seat: int) -> str:
    """Underdogs: why the game ends when ``seat``, the only player with tokens, ends it (ruling 3)."""
    return f"Only {player(seat)} has tokens left, and ends the game (Underdogs)."


def game_over(reason: str) -> str:
    """The game's last event, after the ``reason`` it ends."""
    return f"{reason} The game is over.".strip()


# -- refusals: why an action is not allowed now (positions and seats as ``int``) -------------------------

NOT_YOUR_TURN = "It is not your turn."
NOTHING_TO_REVEAL = "There is no card left to reveal."
NOBODY_LEFT = "There is nobody left to choose."
CANNOT_HIDE = "Your cards stay face-up: you cannot pay to hide them."
HIDE_FACE_DOWN_ONLY = "Only a card that was face-down when you picked it can be put back face-down."
KING_COPIES_ANOTHER = "The King copies another rank, not itself."
ONLY_THE_LAST_ENDS = "Only the one player with tokens left may end the game, and only with Underdogs."
NOTHING_TO_SWAP = "There are not two cards left to swap."
NO_SUCH_PLAYER = "There is no such player."
TAKES_FROM_ANOTHER = "This effect takes tokens: choose another player."


def not_a_choice_now(phase: Phase) -> str:
    """An action that answers another decision than ``phase``."""
    return f"That is not a choice now. {ASK[phase]}"


def no_card_at(position: int) -> str:
    return f"There is no card at {position_name(position)}."


def looking_already(position: int) -> str:
    """Ruling 19: two different cards."""
    return f"You are already looking at {position_name(position)}: choose another card."


def face_up_already(position: int) -> str:
    """Ruling 21: reveals take face-down cards."""
    return f"{position_name(position)} is face-up already: choose a face-down card."


def revealed_already(position: int) -> str:
    return f"{position_name(position)} is revealed already: choose another card."


def not_in_square(position: int) -> str:
    return f"{position_name(position)} is not a card of the square you selected."


def not_in_layout(position: int) -> str:
    return f"{position_name(position)} is not a place of the layout."


def there_already(position: int) -> str:
    """Jokin' Around: the card to move is at ``position``."""
    return f"That card is at {position_name(position)} already."


def square_off_the_grid(corner: int) -> str:
    return f"No 2 by 2 square of the grid has its top-left at {position_name(corner)}."


def empty_square(corner: int) -> str:
    return f"The square {square_name(corner)} holds no card."


def cross_off_the_grid(centre: int) -> str:
    return f"A cross around {position_name(centre)} does not fit the grid."


def cross_face_up(centre: int) -> str:
    return f"The cross around {position_name(centre)} holds no face-down card."


def not_looked_at(position: int) -> str:
    return f"{position_name(position)} is not one of the cards you looked at."


def stays_face_up(position: int) -> str:
    return f"{position_name(position)} was face-up when you picked it: it stays face-up."


def hiding_costs(cost: int, tokens: int) -> str:
    return f"Hiding costs {tokens_text(cost)}; you have {tokens_text(tokens)}."


def paying_puts_out(cost: int) -> str:
    return f"Paying {tokens_text(cost)} would leave you without tokens, out of the game."


def player_out(seat: int) -> str:
    return f"{player(seat)} is out of the game."


def chosen_already(seat: int) -> str:
    """Ruling 5: a second, different player."""
    return f"{player(seat)} is chosen already: choose a different player."


# -- what may be done: the legal actions as offered ------------------------------------------------------


@functools.cache
def position_in_menu(verb: str, position: int, menu: str, face_up_card: int | None) -> LegalAction:
    """A position choice (its action's ``verb``), offered with every other choice of its decision in the
    menu ``menu`` (:data:`POSITION_MENU`); a face-up card there (``face_up_card``) is named in its
    description. (Cached: legal actions are asked for often and they are immutable.)"""
    return LegalAction(
        code=f"{verb}.{position_name(position)}",
        label=position_name(position),
        group=menu,
        description="" if face_up_card is None else f"{card_text(face_up_card)}, face-up",
    )


def look_button(action: Look) -> LegalAction:
    """Mixed 4: a card of the square (at most four) as a button."""
    return LegalAction(action.format(), f"Look at {position_name(action.position)}", "main")


def move_to_choice(action: MoveTo, source: int, empty: bool, face_up_card: int | None) -> LegalAction:
    """Jokin' Around: ``action``'s position as where the card at ``source`` goes; ``empty``: no card lies
    there, else a face-up card there (``face_up_card``) is named."""
    if empty:
        description = "empty"
    else:
        description = "" if face_up_card is None else f"{card_text(face_up_card)}, face-up"
    return LegalAction(
        code=action.format(),
        label=position_name(action.position),
        group=f"Move {position_name(source)} to (swap with)",
        description=description,
    )


def square_choice(action: ChooseSquare, holding: Sequence[int]) -> LegalAction:
    """Mixed 4: the square chosen by ``action`` (by its top-left); ``holding``: its positions holding a
    card."""
    return LegalAction(
        action.format(),
        square_name(action.position),
        group="Select a 2 by 2 square",
        description=", ".join(position_name(p) for p in holding),
    )


def cross_choice(action: ChooseCross, positions: Sequence[int]) -> LegalAction:
    """Mixed 5: the cross of ``positions`` around ``action``'s centre."""
    return LegalAction(
        action.format(),
        f"Cross around {position_name(action.position)}",
        group="Reveal a 3 by 3 cross (its centre)",
        description=", ".join(position_name(p) for p in positions),
    )


def player_choice(action: ChoosePlayer, purpose: Purpose | None, tokens: int) -> LegalAction:
    """``action``'s player, holding ``tokens``, as the player chosen for ``purpose``."""
    tone = "bad" if purpose in HARMFUL else "good"
    return LegalAction(action.format(), f"{player(action.seat)} ({tokens_text(tokens)})", tone)


def show_choice(action: Show, picks: Sequence[int]) -> LegalAction:
    """After a non-match: leave the two cards looked at (``picks``) face-up."""
    names = " and ".join(position_name(p) for p in picks)
    return LegalAction(action.format(), f"Leave {names} face-up (free)", "main")


def choice(phase: Phase, action: MemoryAction) -> LegalAction:
    """How an action of the decision ``phase`` whose words name nothing on the table is offered: Hide,
    CopyEffect, Done, Buy, Finish, EndTurn."""
    code = action.format()
    match action:
        case CopyEffect(rank):
            name = RANK_NAMES[rank - 1]
            return LegalAction(
                code, f"Copy the {name}", group="Copy a Mixed Chart effect…", description=CHART[rank]
            )
        case Hide(None):
            return LegalAction(code, "Hide both (2 tokens)")
        case Hide(p):
            return LegalAction(code, f"Hide {position_name(p)} (1 token)")
        case Done() if phase is Phase.TARGET:
            return LegalAction(code, "Nobody more", "")
        case Done() if phase in REVEALING_SEVERAL:
            return LegalAction(code, "Stop revealing", "")
        case Done() if phase is Phase.MEMORISE:
            return LegalAction(code, "Done looking (end the turn)", "main")
        case Done():
            return LegalAction(code, "Done rearranging", "main")
        case Buy():
            return LegalAction(code, f"Lose {tokens_text(SEVEN_PRICE)}: another turn", "good")
        case Finish():
            return LegalAction(code, "End the game (only you have tokens left)", "bad")
    return LegalAction(code, "End my turn", "")  # EndTurn


# -- the views ---------------------------------------------------------------------------------------


def title(over: bool, cards_left: int) -> str:
    """The view's headline."""
    return "Deluxe Memory: game over" if over else f"Deluxe Memory: {plural(cards_left, 'card')} on the table"


def seat_summary(
    tokens: int, out: bool, kept: Sequence[tuple[int, tuple[int, int]]], skips: int, extra_turn: bool
) -> str:
    """A seat's public line: its ``tokens``, whether it is ``out``, its kept pairs as ``(as_rank, cards)``,
    whether it misses its next turn (``skips``) and plays an ``extra_turn`` now."""
    if out:
        return "out of the game (no tokens)"
    parts = [tokens_text(tokens)]
    for as_rank, cards in kept:
        parts.append(f"kept {cards_shown(cards)} (as a {as_rank})")
    if skips:
        parts.append("misses their next turn")
    if extra_turn:
        parts.append("extra turn")
    return " · ".join(parts)


def result(reason: str, winners: Sequence[int], best: int) -> str:
    """The end of the game: the ``reason`` it ended, and its ``winners`` with ``best`` tokens."""
    names = " and ".join(player(seat) for seat in winners)
    return f"{reason} {names} {'wins' if len(winners) == 1 else 'share the win'} with {best}."


def prompt(
    step: Step, *, first_pick: int | None, extra_turn: bool, may_finish: bool, hide_limits: Sequence[str]
) -> str:
    """What the table waits for: the decision ``step``; at a turn's second look, the ``first_pick``
    position; at its first look, whether it is an ``extra_turn`` and whether the seat ``may_finish`` the
    game (Underdogs); after a non-match, its ``hide_limits``."""
    who = player(step.seat)
    phase = step.phase
    if phase is Phase.PICK_FIRST:
        extra = " (an extra turn)" if extra_turn else ""
        if may_finish:
            return (
                f"{who} chooses a first card to look at{extra}, or ends the game: only they have "
                "tokens left (Underdogs)."
            )
        return f"{who} chooses a first card to look at{extra}."
    if phase is Phase.PICK_SECOND:
        assert first_pick is not None
        return f"{who} looked at {position_name(first_pick)} and chooses a second card."
    if phase is Phase.HIDE:
        return (
            f"No match: {who} may pay a token per card to put it back face-down; the rest stay face-up."
            + (f" ({'; '.join(hide_limits)}.)" if hide_limits else "")
        )
    if phase is Phase.TARGET:
        assert step.purpose is not None
        amount = tokens_text(step.amount)
        chosen = ", ".join(player(seat) for seat in step.chosen)
        return {
            Purpose.BLACK: f"Black pair: {who} chooses a player to return {amount} to the Bank.",
            Purpose.RED: f"Red pair: {who} chooses a player (themself too) to gain {amount} from the Bank.",
            Purpose.ACE_GAIN: f"Mixed Ace: {who} chooses a player to gain a token.",
            Purpose.ACE_LOSE: f"Mixed Ace: {who} chooses a player to lose a token.",
            Purpose.THREE_LOSE: f"Mixed 3: {who} chooses up to three players to lose 3 tokens"
            + (f" (so far {chosen})." if chosen else "."),
            Purpose.JACK: f"Mixed Jack: {who} chooses two players to even out"
            + (f" ({chosen} and…)." if chosen else "."),
            Purpose.QUEEN_GIVER: f"Mixed Queen: {who} chooses a player to give 6 tokens.",
            Purpose.QUEEN_RECEIVER: f"Mixed Queen: {who} chooses who receives 6 tokens from {chosen}.",
            Purpose.GIVE_GIVER: f"Mixed pair: {who} chooses a player to give {amount}.",
            Purpose.GIVE_RECEIVER: f"Mixed pair: {who} chooses who receives {amount} from {chosen}.",
        }[step.purpose]
    if phase is Phase.REARRANGE_TO:
        return f"Jokers! {who} moves {position_name(step.positions[0])}."
    chosen_count = len(step.positions)
    return {
        Phase.REVEAL_ONE: f"Mixed Ace: {who} chooses a card to reveal.",
        Phase.LOOK_SWAP: f"Mixed 2: {who} looks at two cards to swap ({chosen_count} of 2 chosen).",
        Phase.REVEAL_UP_TO_FOUR: f"Mixed 3: {who} reveals up to four cards ({chosen_count} so far).",
        Phase.SQUARE: f"Mixed 4: {who} selects a 2 by 2 square.",
        Phase.SQUARE_LOOK: f"Mixed 4: {who} looks at two cards of the square; the others will be revealed.",
        Phase.CROSS: f"Mixed 5: {who} chooses the centre of a 3 by 3 cross to reveal.",
        Phase.REVEAL_ANY: f"Mixed 6: {who} turns any number of cards face-up.",
        Phase.KING: f"Mixed King: {who} chooses an effect of the Mixed Chart.",
        Phase.REARRANGE: f"Jokers! {who} has one minute to rearrange the cards.",
        Phase.MEMORISE: f"{who} memorises the cards they looked at.",
        Phase.BUY_SEVEN: f"Mixed 7: {who} may lose {tokens_text(SEVEN_PRICE)} to take another turn.",
    }[phase]


def rules_fields(underdogs: bool) -> tuple[Field, ...]:
    """The rules in play: how the game ends when the Underdogs variant is on (none otherwise)."""
    return (Field("How the game ends (Underdogs)", UNDERDOGS_END),) if underdogs else ()


def table_fields(
    *,
    result_text: str | None,
    prompt_text: str | None,
    shown: Sequence[str],
    flashed: Sequence[tuple[int, int]],
    bank: int,
    cards_left: int,
    discarded: int,
) -> tuple[Field, ...]:
    """The public fields of the table (the face-up cards are on the board's picture, :func:`board`).

    Parameters
    ----------
    result_text:
        The game's :func:`result` once it is over, else ``None``.
    prompt_text:
        What the table waits for (:func:`prompt`), ``None`` when it waits for nothing.
    shown, flashed:
        Matched pairs shown since the turn's first look (:func:`match_shown`), and the cards revealed to
        all since then as ``(position, card)``.
    bank, cards_left, discarded:
        Tokens in the Bank, cards on the table and in the discard pile.
    """
    over = result_text is not None
    fields: list[Field] = []
    if result_text is not None:
        fields.append(Field("Result", result_text))
    elif prompt_text is not None:
        fields.append(Field("Now", prompt_text, for_decision=True))
    just_shown = [*shown, *(placed(p, card) for p, card in flashed)]
    if just_shown and not over:
        fields.append(Field("Just shown", " · ".join(just_shown)))
    fields.append(
        Field(
            "Bank",
            f"{tokens_text(bank)} · {plural(cards_left, 'card')} on the table · "
            f"{discarded} in the discard pile",
        )
    )
    return tuple(fields)


def private_fields(looked_at: Sequence[tuple[int, int]]) -> tuple[Field, ...]:
    """A seat's own fields: the cards it looked at this turn, as ``(position, card)``.

    The Mixed Chart is rules, not state: a view does not reprint it (the rules pages show it, and the
    King's menu describes each effect it may copy).
    """
    if not looked_at:
        return ()
    text = " · ".join(placed(p, card) for p, card in looked_at)
    return (Field("You looked at (until your turn ends)", text),)


def board(
    grid: Sequence[int | None],
    layout: Collection[int],
    shown: Collection[int],
    highlighted: Collection[int],
    looked_at: Collection[int],
) -> Board:
    """The grid as a viewer sees it.

    Parameters
    ----------
    grid:
        The card at each position (``None``: no card).
    layout:
        The positions of the layout (others are drawn empty).
    shown:
        The positions whose card the viewer sees face-up.
    highlighted:
        Among those, the cards to notice (just revealed, or looked at by the viewer).
    looked_at:
        Face-down positions being looked at by someone (or picked to move), marked.
    """
    rows = []
    for row in range(len(ROWS)):
        cells: list[Cell | None] = []
        for column in range(COLUMNS):
            p = row * COLUMNS + column
            card = grid[p]
            if p not in layout or card is None:
                cells.append(None)
            elif p in shown:
                highlight = p in highlighted
                cells.append(Cell(card_text(card), face_up=True, red=is_red(card), highlight=highlight))
            else:
                cells.append(Cell(highlight=p in looked_at))
        rows.append(tuple(cells))
    return Board(tuple(ROWS), tuple(str(c + 1) for c in range(COLUMNS)), tuple(rows))


def standing_detail(out: bool, tokens: int) -> str:
    """A seat's line on the scoreboard."""
    return "out of the game" if out else tokens_text(tokens)
