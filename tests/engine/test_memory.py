"""Deluxe Memory rules and rulings, each test citing the passage of shared/seeds/004_661a3fd4e50c3a3d.txt
(or the ruling of docs/rules/memory.md) it checks; then random-play properties for every variant."""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Cell, IllegalAction, replay
from engine.memory import (
    REARRANGE_SECONDS,
    ChoosePlayer,
    CopyEffect,
    DeluxeMemory,
    Done,
    Hide,
    Look,
    MemoryAction,
    MemoryOptions,
    MemoryState,
    Phase,
    Reveal,
    card_text,
    layout,
    parse_card,
    parse_position,
    position_name,
)
from tests.engine.conftest import cards_as_text, games_in_play

MEMORY = DeluxeMemory()
CODE = re.compile(r"[A-Za-z0-9_.,+\-]{1,40}")

# Two spare pairs far from the action, so that the game goes on after the pair under test.
SPARE = {"G2": "Q♠", "G3": "Q♣", "G5": "J♠", "G6": "J♣"}


def table(
    placed: dict[str, str],
    players: int = 2,
    *,
    first: int = 0,
    spare: bool = True,
    tokens: dict[int, int] | None = None,
    kept: list[tuple[int, int, str, str]] | None = None,
    **options: bool,
) -> MemoryState:
    """A scripted game with only ``placed`` (and the spare pairs) on the table; ``tokens`` and ``kept`` as
    for :meth:`MemoryState.scripted`."""
    cards = {**SPARE, **placed} if spare else dict(placed)
    return MemoryState.scripted(
        players,
        cards,
        options=MemoryOptions(**options),
        first=first,
        fill=False,
        tokens=tokens,
        kept=kept or (),
    )


def play(state: MemoryState, *codes: str) -> list:
    """Apply each code as the seat to act; return the events."""
    events = []
    for code in codes:
        (seat,) = state.seats_to_act()
        events += state.apply(seat, code)
    return events


def codes(state: MemoryState) -> list[str]:
    (seat,) = state.seats_to_act()
    return [action.code for action in state.legal_actions(seat)]


def cell(state: MemoryState, viewer: int | None, name: str) -> Cell | None:
    p = parse_position(name)
    board = state.view(viewer).board
    assert board is not None
    return board.cells[p // 8][p % 8]


def fields(view) -> dict[str, str]:
    return {field.name: cards_as_text(field.value) for field in (*view.table, *view.rules, *view.private)}


def conserved(state: MemoryState) -> None:
    assert sum(state.tokens(seat) for seat in range(state.num_seats)) + state.bank == 30 * state.num_seats
    deck = 54 if state.options.jokin_around else 52
    assert sorted(state.all_cards()) == list(range(deck))


# -- Setting up ------------------------------------------------------------------------------------


def test_52_cards_on_a_7_by_8_grid_without_corners() -> None:
    """ "Lay out all of the cards face-down ... a 7 by 8 grid with the corner cards omitted" (no Jokers)."""
    state = MEMORY.new_game(2, seed=3)
    board = state.view(None).board
    assert board is not None
    assert board.row_labels == tuple("ABCDEFG") and board.column_labels == tuple("12345678")
    for corner in ("A1", "A8", "G1", "G8"):
        assert cell(state, None, corner) is None
    cells = [c for row in board.cells for c in row if c is not None]
    assert len(cells) == 52 and all(c == Cell() for c in cells)
    assert sorted(state.all_cards()) == list(range(52))


def test_jokers_only_with_jokin_around_filling_a1_and_g8() -> None:
    """Ruling 1: "Do not remove the Jokers from the deck" (Jokin' Around) makes 54 cards; A1 and G8 hold
    cards too."""
    state = MEMORY.new_game(3, seed=4, options={"jokin_around": True})
    assert len(layout(True)) == 54 and sorted(state.all_cards()) == list(range(54))
    assert cell(state, None, "A1") == Cell() and cell(state, None, "G8") == Cell()
    assert cell(state, None, "A8") is None and cell(state, None, "G1") is None
    assert max(MEMORY.new_game(3, seed=4).all_cards()) == 51


def test_twenty_tokens_each_and_the_rest_in_the_bank() -> None:
    """ "Give 20 tokens to each player. Set the extra tokens aside in the Bank" (30 a player: ruling 27)."""
    for players in (2, 3, 4):
        state = MEMORY.new_game(players, seed=1)
        assert [state.tokens(seat) for seat in range(players)] == [20] * players
        assert state.bank == 10 * players


@pytest.mark.parametrize("players", [1, 5])
def test_two_to_four_players(players: int) -> None:
    with pytest.raises(ValueError, match="2 to 4 players"):
        MEMORY.new_game(players, seed=1)


def test_first_player_drawn_from_the_seed_and_play_passes_left() -> None:
    """Ruling 2: "Choose a player to go first" by the seed; "Play passes to the left" (next seat)."""
    firsts = {MEMORY.new_game(4, seed=seed).seats_to_act() for seed in range(40)}
    assert firsts == {(0,), (1,), (2,), (3,)}
    state = table({"B2": "7♥", "B3": "8♦"}, players=3, first=2)
    play(state, "look.B2", "look.B3", "show")
    assert state.seats_to_act() == (0,)


def test_same_seed_same_layout() -> None:
    one, two, other = (MEMORY.new_game(3, seed=s) for s in (9, 9, 10))

    def cards(state: MemoryState) -> list[int | None]:
        return [state.card_at(position_name(p)) for p in layout(False)]

    assert cards(one) == cards(two) and cards(one) != cards(other)


def test_options_are_three_bools_off_by_default() -> None:
    options = MemoryOptions()
    assert (options.simplicity, options.jokin_around, options.underdogs) == (False, False, False)
    for name, info in MemoryOptions.model_fields.items():
        assert info.annotation is bool and info.description, name
    with pytest.raises(ValueError):
        MEMORY.new_game(2, seed=1, options={"jokers": True})


# -- Play: looking at two cards ----------------------------------------------------------------------


def test_a_look_is_private_to_the_looker_until_the_turn_ends() -> None:
    """ "select two cards and look at them. Remember where they were" (rulings 10 and 19)."""
    state = table({"B2": "7♥", "B3": "8♦"})
    play(state, "look.B2")
    assert cell(state, 0, "B2") == Cell("7♥", face_up=True, red=True, highlight=True)
    assert fields(state.view(0))["You looked at (until your turn ends)"] == "B2 7♥"
    for other in (1, None):  # the others see which card is looked at, not its face
        assert cell(state, other, "B2") == Cell(highlight=True)
        assert "7♥" not in str(state.view(other))
    play(state, "look.B3", "hide.both")
    assert cell(state, 0, "B2") == Cell() and cell(state, 0, "B3") == Cell()
    assert "You looked at (until your turn ends)" not in fields(state.view(0))


def test_the_two_cards_are_looked_at_one_after_the_other() -> None:
    """Ruling 19: the first card is seen before the second is chosen; the same card cannot be taken twice."""
    state = table({"B2": "7♥", "B3": "8♦"})
    play(state, "look.B2")
    assert state.phase is Phase.PICK_SECOND and "look.B2" not in codes(state)
    with pytest.raises(IllegalAction):
        state.apply(0, "look.B2")


def test_non_matching_cards_go_back_face_up() -> None:
    """ "If the two cards do not match, put them back in their original spots, face-up." """
    state = table({"B2": "7♥", "B3": "8♦"})
    play(state, "look.B2", "look.B3")
    assert state.phase is Phase.HIDE
    assert codes(state) == ["show", "hide.B2", "hide.B3", "hide.both"]
    events = play(state, "show")
    assert "leaves B2 7♥, B3 8♦ face-up" in cards_as_text(events[-1].text)
    assert state.seats_to_act() == (1,)
    for viewer in (0, 1, None):
        assert cell(state, viewer, "B2") == Cell("7♥", face_up=True, red=True, highlight=True)
    play(state, "look.G2")  # the next turn's first look: still face-up, no longer highlighted
    assert cell(state, None, "B2") == Cell("7♥", face_up=True, red=True)
    assert "Face-up cards" not in fields(state.view(None))  # the board's picture shows them


def test_hiding_costs_one_token_per_card_to_the_bank() -> None:
    """ "You must give one token to the bank for each card that you don't reveal." """
    state = table({"B2": "7♥", "B3": "8♦"})
    play(state, "look.B2", "look.B3", "hide.both")
    assert state.tokens(0) == 18 and state.bank == 22
    assert cell(state, None, "B2") == Cell() and cell(state, 1, "B3") == Cell()
    state = table({"B2": "7♥", "B3": "8♦"})
    play(state, "look.B2", "look.B3", "hide.B3")
    assert state.tokens(0) == 19 and state.bank == 21
    assert cell(state, 1, "B2").face_up and not cell(state, 1, "B3").face_up


def test_a_card_already_face_up_cannot_be_hidden() -> None:
    """Ruling 9: only a card that was face-down when picked can be put back face-down."""
    state = table({"B2": "7♥", "B3": "8♦", "C2": "9♣"})
    play(state, "look.B2", "look.B3", "show")
    play(state, "look.B2", "look.C2")
    assert codes(state) == ["show", "hide.C2"]


def test_hiding_may_not_spend_the_last_token_except_with_underdogs() -> None:
    """Ruling 9: paying your last token would put you out, so it is not offered (Underdogs: it is)."""
    state = table({"B2": "7♥", "B3": "8♦"}, tokens={0: 2})
    play(state, "look.B2", "look.B3")
    assert codes(state) == ["show", "hide.B2", "hide.B3"]
    state = table({"B2": "7♥", "B3": "8♦"}, tokens={0: 1})
    play(state, "look.B2", "look.B3")  # nothing to decide: both stay face-up, the turn ends
    assert state.seats_to_act() == (1,) and cell(state, None, "B2").face_up
    state = table({"B2": "7♥", "B3": "8♦"}, tokens={0: 1}, underdogs=True)
    play(state, "look.B2", "look.B3", "hide.B2")
    assert state.tokens(0) == 0 and not state.is_out(0)


def test_paying_to_hide_is_not_a_loss_a_kept_nine_covers() -> None:
    """Rulings 9 and 13: giving a token to hide a card is a price, not a loss of tokens."""
    state = table({"B2": "7♥", "B3": "8♦"}, kept=[(0, 9, "9♥", "9♠")])
    play(state, "look.B2", "look.B3", "hide.B2")
    assert state.tokens(0) == 19 and state.kept_pairs(0)


# -- Black and red pairs -----------------------------------------------------------------------------


def test_black_pair_a_chosen_other_player_returns_that_many_tokens() -> None:
    """ "both Black, show the cards ... choose a player to return that many tokens to the Bank"; ruling 5:
    another player."""
    state = table({"B2": "7♠", "B3": "7♣"}, players=3)
    events = play(state, "look.B2", "look.B3")
    assert any("B2 7♠ + B3 7♣" in cards_as_text(e.text) for e in events)
    assert state.phase is Phase.TARGET and codes(state) == ["target.1", "target.2"]
    play(state, "target.1")
    assert state.tokens(1) == 13 and state.bank == 37
    assert state.card_at("B2") is None and state.card_at("B3") is None
    assert state.seats_to_act() == (1,)  # "Set the cards aside in the discard pile and end your turn."
    conserved(state)


def test_aces_count_one_and_kings_thirteen() -> None:
    """ "Aces count as one, Jacks count as 11, Queens as 12, and Kings count as 13." """
    state = table({"B2": "A♠", "B3": "A♣", "C2": "K♠", "C3": "K♣"})
    play(state, "look.B2", "look.B3", "target.1")
    assert state.tokens(1) == 19
    play(state, "look.C2", "look.C3", "target.0")
    assert state.tokens(0) == 7


def test_red_pair_a_chosen_player_including_yourself_gains_from_the_bank() -> None:
    """ "both Red ... choose a player (including yourself) to gain that many tokens from the Bank." """
    state = table({"B2": "7♥", "B3": "7♦"}, players=3)
    play(state, "look.B2", "look.B3")
    assert codes(state) == ["target.0", "target.1", "target.2"]
    assert [action.label for action in state.legal_actions(0)][0] == "{seat:0} (20 tokens)"
    play(state, "target.0")
    assert state.tokens(0) == 27 and state.bank == 23
    conserved(state)


def test_the_bank_pays_what_it_has_left() -> None:
    """Ruling 7: a gain larger than the Bank takes what is left."""
    state = table({"B2": "7♥", "B3": "7♦"}, tokens={1: 37})
    assert state.bank == 3
    play(state, "look.B2", "look.B3", "target.0")
    assert state.tokens(0) == 23 and state.bank == 0
    conserved(state)


# -- Running out, and the ends of the game ----------------------------------------------------------


def test_a_player_out_of_tokens_is_out_and_two_players_end_the_game() -> None:
    """ "If you run out of tokens, you're out of the game." / "The game ends when only one player has tokens
    left" (ruling 8: you lose what you have)."""
    state = table({"B2": "K♠", "B3": "K♣"}, tokens={1: 5})
    assert state.bank == 35
    events = play(state, "look.B2", "look.B3", "target.1")
    assert state.tokens(1) == 0 and state.is_out(1)
    assert state.is_terminal() and state.seats_to_act() == ()
    assert any("Only {seat:0} has tokens left" in event.text for event in events)
    assert [(s.points, s.rank) for s in state.standings()] == [(20, 1), (0, 2)]
    assert "out of the game" in state.view(None).seats[1].summary
    conserved(state)


def test_a_player_out_is_skipped_and_cannot_be_chosen() -> None:
    """Ruling 8: an out player's kept pairs are discarded, its turns skipped, and nobody may choose it."""
    placed = {"B2": "Q♥", "B3": "Q♠", "C2": "7♥", "C3": "7♦", "G5": "8♠", "G6": "8♣"}
    state = table(placed, players=3, first=1, spare=False, tokens={1: 5}, kept=[(1, 10, "10♥", "10♠")])
    assert state.bank == 45 and state.kept_pairs(1)
    play(state, "look.B2", "look.B3", "target.1", "target.0")  # its own Queen: it gives its last 5 tokens
    assert state.is_out(1) and not state.is_terminal() and state.tokens(0) == 25
    assert state.kept_pairs(1) == []
    assert state.seats_to_act() == (2,)
    play(state, "look.C2", "look.C3")
    assert codes(state) == ["target.0", "target.2"]
    conserved(state)


def test_underdogs_stay_in_at_zero_and_lose_nothing_more() -> None:
    """Underdogs: "You're not out of the game when you run out of tokens. If you have to lose tokens and you
    still have no tokens, then you don't lose anything." Ruling 3: that game ends only with the matches."""
    state = table({"B2": "K♠", "B3": "K♣", "C2": "7♠", "C3": "7♣"}, tokens={1: 5}, underdogs=True)
    assert state.bank == 35
    play(state, "look.B2", "look.B3", "target.1")
    assert state.tokens(1) == 0 and not state.is_out(1) and not state.is_terminal()
    assert state.seats_to_act() == (1,)
    play(state, "look.G2", "look.G5")  # no token to hide with: both stay face-up
    play(state, "look.C2", "look.C3", "target.1")
    assert state.tokens(1) == 0 and state.bank == 40
    conserved(state)


def test_the_game_ends_when_all_possible_matches_are_made() -> None:
    """ "or when all possible matches have been made"; ruling 3: once the effect is resolved."""
    state = table({"B2": "7♥", "B3": "7♦", "C4": "9♠"}, spare=False)
    play(state, "look.B2", "look.B3")
    assert not state.is_terminal()  # the red pair's effect comes first
    events = play(state, "target.1")
    assert state.is_terminal()
    assert "All possible matches have been made" in events[-1].text
    assert [(s.points, s.rank) for s in state.standings()] == [(20, 2), (27, 1)]
    # Ruling 4: at the end the cards left are turned face-up.
    assert cell(state, None, "C4") == Cell("9♠", face_up=True)


def test_most_tokens_wins_and_ties_share_a_rank() -> None:
    """ "If you have the most tokens at the end of the game, you win"; ruling 18: ties share."""
    state = table({"B2": "7♥", "B3": "7♦"}, players=3, spare=False)
    play(state, "look.B2", "look.B3", "target.2")
    assert [s.rank for s in state.standings()] == [2, 2, 1]
    state = table({"B2": "7♥", "B3": "7♦"}, players=3, spare=False, tokens={0: 13})
    assert state.bank == 37
    play(state, "look.B2", "look.B3", "target.0")
    assert [s.rank for s in state.standings()] == [1, 1, 1]
    with pytest.raises(RuntimeError):
        MEMORY.new_game(2, seed=1).standings()


# -- The Mixed Chart ----------------------------------------------------------------------------------


def test_mixed_ace_gain_lose_and_reveal() -> None:
    """Ace: "Choose a player to gain a token. Choose a player to lose a token. Reveal a card." """
    state = table({"B2": "A♠", "B3": "A♥", "C2": "5♣"}, players=3)
    play(state, "look.B2", "look.B3")
    assert codes(state) == ["target.0", "target.1", "target.2"]  # gaining: yourself too
    play(state, "target.0")
    assert state.tokens(0) == 21 and codes(state) == ["target.1", "target.2"]  # losing: another player
    play(state, "target.2")
    assert state.tokens(2) == 19 and state.phase is Phase.REVEAL_ONE
    events = play(state, "reveal.C2")
    assert "reveals C2 5♣" in cards_as_text(events[0].text)
    # "flip a card face-up, let everyone see it, then flip it face-down again" (ruling 10).
    assert cell(state, None, "C2") == Cell("5♣", face_up=True, highlight=True)
    assert "C2 5♣" in fields(state.view(None))["Just shown"]
    assert state.seats_to_act() == (1,)
    play(state, "look.G2")
    assert cell(state, None, "C2") == Cell() and "Just shown" not in fields(state.view(None))
    conserved(state)


def test_mixed_two_look_at_two_cards_and_swap_them() -> None:
    """2: "Look at two cards. Swap their positions." """
    state = table({"B2": "2♠", "B3": "2♥", "C2": "9♣", "C3": "J♦"})
    play(state, "look.B2", "look.B3")
    assert "look.B2" not in codes(state)  # ruling 20: the matched pair has left the table already
    play(state, "look.C2", "look.C3")
    assert state.card_at("C2") == parse_card("J♦") and state.card_at("C3") == parse_card("9♣")
    assert state.phase is Phase.MEMORISE  # ruling 10: the second look is seen before the turn ends
    assert fields(state.view(0))["You looked at (until your turn ends)"] == "C3 9♣ · C2 J♦"
    assert cell(state, 1, "C2") == Cell(highlight=True)
    play(state, "done")
    assert state.seats_to_act() == (1,) and cell(state, 0, "C2") == Cell()


def test_mixed_two_moves_a_face_up_card_face_up() -> None:
    state = table({"B2": "2♠", "B3": "2♥", "C2": "9♣", "C3": "J♦", "C4": "8♥"})
    play(state, "look.C2", "look.C4", "show", "look.G2", "look.G5", "hide.both")
    play(state, "look.B2", "look.B3", "look.C2", "look.C3", "done")
    assert cell(state, None, "C3") == Cell("9♣", face_up=True) and cell(state, None, "C2") == Cell()


def test_mixed_three_a_revealed_three_makes_up_to_three_players_lose_three() -> None:
    """3: "Reveal up to four cards. If you reveal a 3, or three of a kind, choose up to three players to
    lose three tokens." Ruling 6: distinct other players, one at a time."""
    state = table({"B2": "3♠", "B3": "3♥", "C2": "3♦", "C3": "7♣"}, players=4)
    play(state, "look.B2", "look.B3", "reveal.C2", "done")
    assert codes(state) == ["target.1", "target.2", "target.3", "done"]
    play(state, "target.1", "target.3")
    assert codes(state) == ["target.2", "done"]
    play(state, "target.2")
    assert [state.tokens(seat) for seat in range(4)] == [20, 17, 17, 17]
    assert state.seats_to_act() == (1,)
    conserved(state)


def test_mixed_three_three_of_a_kind_and_stopping_early() -> None:
    state = table({"B2": "3♠", "B3": "3♥", "C2": "7♦", "C3": "7♣", "C4": "7♠", "C5": "8♠"}, players=3)
    play(state, "look.B2", "look.B3", "reveal.C2", "reveal.C3", "reveal.C4", "done")
    assert state.phase is Phase.TARGET
    play(state, "target.2", "done")
    assert state.tokens(2) == 17 and state.tokens(1) == 20 and state.seats_to_act() == (1,)


def test_mixed_three_no_three_no_loss_and_four_reveals_at_most() -> None:
    state = table({"B2": "3♠", "B3": "3♥", "C2": "7♦", "C3": "8♣", "C4": "9♠", "C5": "10♠", "C6": "4♠"})
    play(state, "look.B2", "look.B3", "reveal.C2", "reveal.C3", "reveal.C4", "reveal.C5")
    assert state.seats_to_act() == (1,)  # four reveals end it; no 3, no three of a kind: nobody loses
    assert [state.tokens(seat) for seat in range(2)] == [20, 20]


def test_mixed_three_only_face_down_cards_count() -> None:
    """Ruling 21: a face-up card cannot be revealed (a face-up 3 does not trigger the loss)."""
    state = table({"B2": "3♠", "B3": "3♥", "C2": "3♦", "C3": "8♣", "C4": "9♠"})
    play(state, "look.C2", "look.C3", "show", "look.G2", "look.G5", "hide.both")
    play(state, "look.B2", "look.B3")
    assert "reveal.C2" not in codes(state) and "reveal.C4" in codes(state)


def test_mixed_four_square_look_at_two_reveal_two() -> None:
    """4: "Select a 2 by 2 square of cards. Look at two of these cards; reveal the remaining two cards." """
    state = table({"B2": "4♠", "B3": "4♥", "D2": "8♣", "D3": "9♠", "E2": "10♦", "E3": "J♥"})
    play(state, "look.B2", "look.B3")
    assert state.phase is Phase.SQUARE and "square.D2" in codes(state)
    play(state, "square.D2")
    assert codes(state) == ["look.D2", "look.D3", "look.E2", "look.E3"]
    play(state, "look.D2", "look.E3")
    assert state.phase is Phase.MEMORISE
    assert fields(state.view(0))["You looked at (until your turn ends)"] == "D2 8♣ · E3 J♥"
    assert cell(state, 1, "D2") == Cell(highlight=True)
    assert cell(state, 1, "D3") == Cell("9♠", face_up=True, highlight=True)
    assert cell(state, None, "E2") == Cell("10♦", face_up=True, red=True, highlight=True)
    play(state, "done")
    assert state.seats_to_act() == (1,)


def test_mixed_four_a_square_with_two_cards_is_looked_at_whole() -> None:
    """Ruling 11: any 2 by 2 square holding a card; with one or two cards you look at all of them."""
    state = table({"B2": "4♠", "B3": "4♥", "F6": "8♣", "G7": "9♠"}, spare=False)
    play(state, "look.B2", "look.B3", "square.F6")
    assert state.phase is Phase.MEMORISE
    assert fields(state.view(0))["You looked at (until your turn ends)"] == "F6 8♣ · G7 9♠"
    assert "Just shown" in fields(state.view(None))  # only the matched pair
    assert "8♣" not in str(state.view(1)) and "9♠" not in str(state.view(None))


def test_mixed_five_reveal_a_cross_and_take_another_turn() -> None:
    """5: "Reveal a 3 by 3 cross of cards. Take another turn." Ruling 12: its centre keeps it on the grid."""
    placed = {"A2": "5♠", "A3": "5♥", "B3": "6♠", "C2": "7♠", "C3": "8♠", "C4": "9♠", "D3": "10♠"}
    state = table(placed)
    play(state, "look.A2", "look.A3")
    centres = {code.split(".")[1] for code in codes(state)}
    assert "C3" in centres and "A3" not in centres and "C1" not in centres and "G5" not in centres
    events = play(state, "cross.C3")
    assert "B3 6♠, C2 7♠, C3 8♠, C4 9♠, D3 10♠" in cards_as_text(events[-1].text)
    for name in ("B3", "C2", "C3", "C4", "D3"):
        assert cell(state, 1, name).face_up and cell(state, 1, name).highlight
    assert state.seats_to_act() == (0,) and state.phase is Phase.PICK_FIRST
    assert "extra turn" in fields(state.view(None))["Now"]
    play(state, "look.B3", "look.C2", "show")
    assert state.seats_to_act() == (1,)


def test_mixed_six_revealed_cards_stay_face_up() -> None:
    """6: "Reveal any number of cards. Do not turn them face-down again." """
    state = table({"B2": "6♠", "B3": "6♥", "C2": "8♣", "C3": "9♠", "C4": "10♦"})
    play(state, "look.B2", "look.B3", "reveal.C2", "reveal.C4")
    assert "reveal.C2" not in codes(state) and "done" in codes(state)
    play(state, "done")
    play(state, "look.G2")
    assert cell(state, None, "C2") == Cell("8♣", face_up=True)
    assert cell(state, None, "C4") == Cell("10♦", face_up=True, red=True)
    assert cell(state, None, "C3") == Cell()


def test_mixed_seven_another_turn_and_five_tokens_for_one_more() -> None:
    """7: "Take another turn. You may lose 5 tokens at the end of that turn to take another turn."
    Ruling 15: once per 7."""
    state = table({"B2": "7♠", "B3": "7♥", "C2": "8♣", "C3": "9♠"})
    play(state, "look.B2", "look.B3")
    assert state.seats_to_act() == (0,) and state.phase is Phase.PICK_FIRST
    play(state, "look.C2", "look.C3", "hide.both")
    assert state.phase is Phase.BUY_SEVEN and codes(state) == ["buy", "end"]
    play(state, "buy")
    assert state.tokens(0) == 20 - 2 - 5 and state.bank == 27 and state.seats_to_act() == (0,)
    play(state, "look.C2", "look.C3", "show")
    assert state.seats_to_act() == (1,)  # no second offer
    conserved(state)


def test_mixed_seven_the_extra_turn_can_be_declined() -> None:
    state = table({"B2": "7♠", "B3": "7♥", "C2": "8♣", "C3": "9♠"})
    play(state, "look.B2", "look.B3", "look.C2", "look.C3", "show", "end")
    assert state.seats_to_act() == (1,) and state.tokens(0) == 20


@pytest.mark.parametrize(
    ("tokens", "underdogs", "nine", "offered"),
    [(6, False, False, True), (5, False, False, False), (5, True, False, True), (5, False, True, True)],
)
def test_mixed_seven_buying_may_not_put_you_out(
    tokens: int, underdogs: bool, nine: bool, offered: bool
) -> None:
    """Ruling 15: 5 tokens are needed, and losing them must not leave you out (unless Underdogs or a kept 9
    pair takes the loss)."""
    kept = [(0, 9, "9♥", "9♣")] if nine else []  # (9♠ lies on the table)
    state = table(
        {"B2": "7♠", "B3": "7♥", "C2": "8♣", "C3": "9♠"}, tokens={0: tokens}, kept=kept, underdogs=underdogs
    )
    play(state, "look.B2", "look.B3", "look.C2", "look.C3", "show")
    assert (state.phase is Phase.BUY_SEVEN) is offered
    if offered and nine:
        play(state, "buy")
        assert state.tokens(0) == 5 and state.kept_pairs(0) == []


def test_mixed_eight_skips_the_next_player() -> None:
    """8: "Skip the next player's turn." Ruling 16: the next player in the game to the left."""
    state = table({"B2": "8♠", "B3": "8♥", "C2": "5♣", "C3": "9♠"}, players=3)
    events = play(state, "look.B2", "look.B3")
    assert any(e.seat == 1 and "misses this turn" in e.text for e in events)
    assert state.seats_to_act() == (2,)
    state = table({"B2": "8♠", "B3": "8♥", "C2": "5♣", "C3": "9♠"}, players=2)
    events = play(state, "look.B2", "look.B3")
    assert state.seats_to_act() == (0,) and any("misses this turn" in e.text for e in events)


def test_mixed_nine_is_kept_and_discarded_instead_of_the_next_loss() -> None:
    """9: "Do not discard this pair; keep it in front of you. The next time you should lose tokens, discard
    this pair instead." """
    state = table({"B2": "9♠", "B3": "9♥", "C2": "K♠", "C3": "K♣"})
    play(state, "look.B2", "look.B3")
    assert state.kept_pairs(0) == [(9, (parse_card("9♠"), parse_card("9♥")))]
    assert "kept 9♠ 9♥" in cards_as_text(state.view(None).seats[0].summary)
    conserved(state)
    play(state, "look.C2", "look.C3", "target.0")
    assert state.tokens(0) == 20 and state.kept_pairs(0) == []
    conserved(state)


def test_mixed_nine_stops_a_queen_gift_and_a_jack() -> None:
    """Ruling 13: the kept 9 takes the loss; the other half of the move does not happen."""
    state = table({"B2": "Q♥", "B3": "Q♠", "G2": "Q♦"}, players=3, kept=[(1, 9, "9♥", "9♠")])  # mixed
    play(state, "look.B2", "look.B3", "target.1", "target.2")
    assert [state.tokens(seat) for seat in range(3)] == [20, 20, 20] and state.kept_pairs(1) == []
    state = table(
        {"B2": "J♥", "B3": "J♠", "G5": "J♦"}, players=3, tokens={1: 30, 2: 10}, kept=[(1, 9, "9♥", "9♠")]
    )
    play(state, "look.B2", "look.B3", "target.1", "target.2")
    assert [state.tokens(seat) for seat in range(3)] == [20, 30, 10] and state.kept_pairs(1) == []


def test_mixed_ten_takes_the_effect_of_another_players_next_match() -> None:
    """10: "The next time a player makes a match, discard this pair. You get to take the effect of the other
    player's match for yourself." Ruling 14."""
    state = table({"B2": "10♠", "B3": "10♥", "C2": "7♥", "C3": "7♦"}, players=3)
    play(state, "look.B2", "look.B3")
    assert state.kept_pairs(0) and state.seats_to_act() == (1,)
    play(state, "look.C2", "look.C3")
    assert state.seats_to_act() == (0,)  # the keeper of the 10s chooses who gains
    assert codes(state) == ["target.0", "target.1", "target.2"]
    play(state, "target.0")
    assert state.tokens(0) == 27 and state.kept_pairs(0) == []
    assert state.seats_to_act() == (2,)  # the matcher's turn is over; play passes to its left
    conserved(state)


def test_mixed_ten_ignores_its_keepers_own_matches() -> None:
    state = table({"B2": "10♠", "B3": "10♥", "C2": "8♣", "C3": "9♣", "D2": "7♥", "D3": "7♦"})
    play(state, "look.B2", "look.B3", "look.C2", "look.G2", "show")  # seat 1: no match
    play(state, "look.D2", "look.D3")
    assert state.seats_to_act() == (0,) and state.kept_pairs(0)  # own red pair, 10s still kept


def test_mixed_ten_keeper_takes_the_extra_turn_after_the_matchers_turn() -> None:
    """Rulings 14 and 22: an extra turn won through a 10 comes right after the matcher's turn."""
    state = table({"B2": "10♠", "B3": "10♥", "C2": "5♥", "C3": "5♠", "D2": "8♣", "D3": "9♣"}, players=3)
    play(state, "look.B2", "look.B3")
    play(state, "look.C2", "look.C3")  # seat 1 matches the 5s: seat 0 reveals a cross
    assert state.seats_to_act() == (0,) and state.phase is Phase.CROSS
    play(state, "cross.D3")
    assert state.seats_to_act() == (0,) and state.phase is Phase.PICK_FIRST
    play(state, "look.D2", "look.D3", "show")
    assert state.seats_to_act() == (2,)


def test_mixed_jack_evens_out_two_players_odd_token_to_the_bank() -> None:
    """Jack: "Choose two players. Redistribute their tokens so they have the same number of tokens. If there
    is an extra token, give it to the Bank." """
    state = table({"B2": "J♥", "B3": "J♠", "G5": "J♦"}, players=3, tokens={1: 27, 2: 6})
    assert state.bank == 37
    play(state, "look.B2", "look.B3")
    assert codes(state) == ["target.0", "target.1", "target.2"]
    play(state, "target.1")
    assert codes(state) == ["target.0", "target.2"]
    play(state, "target.2")
    assert [state.tokens(seat) for seat in range(3)] == [20, 16, 16] and state.bank == 38
    conserved(state)


def test_mixed_jack_on_two_even_players_changes_nothing() -> None:
    """Ruling 24: two players with the same count keep it; the same player cannot be chosen twice."""
    state = table({"B2": "J♥", "B3": "J♠", "G5": "J♦"}, players=3)
    play(state, "look.B2", "look.B3", "target.0", "target.2")
    assert [state.tokens(seat) for seat in range(3)] == [20, 20, 20] and state.bank == 30


def test_mixed_queen_a_player_gives_six_to_another() -> None:
    """Queen: "Choose a player to give six tokens to another player." """
    state = table({"B2": "Q♥", "B3": "Q♠", "G2": "Q♦"}, players=3)
    play(state, "look.B2", "look.B3", "target.1")
    assert codes(state) == ["target.0", "target.2"]
    play(state, "target.0")
    assert [state.tokens(seat) for seat in range(3)] == [26, 14, 20]
    conserved(state)


def test_mixed_queen_a_giver_with_fewer_gives_all_and_is_out() -> None:
    state = table({"B2": "Q♥", "B3": "Q♠", "G2": "Q♦"}, players=3, tokens={2: 4})
    assert state.bank == 46
    play(state, "look.B2", "look.B3", "target.2", "target.0")
    assert state.tokens(0) == 24 and state.is_out(2)
    conserved(state)


def test_mixed_king_copies_any_other_effect() -> None:
    """King: "Take the effect of any one other effect in this table." """
    state = table({"B2": "K♥", "B3": "K♠", "C2": "8♣", "C3": "9♣"}, players=3)
    play(state, "look.B2", "look.B3")
    assert codes(state) == [
        f"copy.{rank}" for rank in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q")
    ]
    assert all(action.group for action in state.legal_actions(0))
    play(state, "copy.8")
    assert state.seats_to_act() == (2,)
    conserved(state)


def test_mixed_king_copying_a_nine_or_ten_keeps_the_king_pair() -> None:
    """Ruling 23: a King copying 9 or 10 is kept and works as that card."""
    for rank in (9, 10):
        state = table({"B2": "K♥", "B3": "K♠"})
        play(state, "look.B2", "look.B3", f"copy.{rank}")
        assert state.kept_pairs(0) == [(rank, (parse_card("K♥"), parse_card("K♠")))]
        assert f"(as a {rank})" in state.view(None).seats[0].summary
        conserved(state)


# -- Variants -----------------------------------------------------------------------------------------


def test_simplicity_a_chosen_player_gives_the_rank_to_another() -> None:
    """Simplicity: "choose a player to give that many tokens to another player of your choice. You are a
    valid choice for giver or receiver, but not both." """
    state = table({"B2": "7♠", "B3": "7♥"}, players=3, simplicity=True)
    play(state, "look.B2", "look.B3")
    assert codes(state) == ["target.0", "target.1", "target.2"]
    play(state, "target.2")
    assert codes(state) == ["target.0", "target.1"]
    play(state, "target.0")
    assert [state.tokens(seat) for seat in range(3)] == [27, 20, 13]
    assert "Mixed Chart" not in fields(state.view(0))
    conserved(state)


def test_jokin_around_matched_jokers_give_a_minute_to_rearrange() -> None:
    """Jokin' Around: "If you match Jokers, you have one minute to rearrange the cards as much as you want
    to." Ruling 25: move a card onto another (swapping) or into an empty place, then Done."""
    state = table({"B2": "Joker", "B3": "Joker", "C2": "8♣", "C3": "9♣"}, jokin_around=True)
    assert card_text(state.card_at("B2")) == "Joker"
    play(state, "look.B2", "look.B3")
    assert state.phase is Phase.REARRANGE and state.decision_seconds(0) == REARRANGE_SECONDS
    assert "done" in codes(state) and "move.C2" in codes(state)
    play(state, "move.C2")
    assert state.decision_seconds(0) == REARRANGE_SECONDS
    assert "to.B2" in codes(state) and "to.A1" in codes(state) and "to.A8" not in codes(state)
    play(state, "to.C3", "move.C2", "to.B2")
    assert state.card_at("C3") == parse_card("8♣") and state.card_at("B2") == parse_card("9♣")
    assert state.card_at("C2") is None
    play(state, "done")
    assert state.seats_to_act() == (1,) and state.decision_seconds(1) is None
    conserved(state)


def test_a_joker_and_another_card_do_not_match() -> None:
    state = table({"B2": "Joker", "B3": "8♣", "C2": "Joker"}, jokin_around=True)
    play(state, "look.B2", "look.B3")
    assert state.phase is Phase.HIDE


# -- Timeouts, refusals and views ---------------------------------------------------------------------


def test_default_actions_are_the_harmless_moves() -> None:
    """Ruling 17: first face-down card, show, first eligible player, stop, copy the 9, end the turn, done."""
    state = table({"B2": "7♥", "B3": "8♦", "C2": "3♠", "C3": "3♥", "D2": "K♥", "D3": "K♠"})
    assert state.default_action(0) == "look.B2"
    play(state, "look.B2", "look.B3", "show")
    assert state.default_action(1) == "look.C2"  # B2 and B3 are face-up now
    play(state, "look.C2", "look.C3")
    assert state.default_action(1) == "done"
    play(state, "reveal.G2", "reveal.G3", "done")  # two Queens: no 3, nobody loses
    play(state, "look.D2", "look.D3")
    assert state.default_action(0) == "copy.9"
    with pytest.raises(ValueError):
        state.default_action(1)
    black = table({"B2": "7♠", "B3": "7♣"}, players=3)
    play(black, "look.B2", "look.B3")
    assert black.default_action(0) == "target.1"
    # A second look takes a face-up card of the first card's rank: idle tables still make matches.
    pairs = table({"B2": "7♠", "B3": "8♣", "C2": "7♣", "C3": "9♣"}, players=2)
    play(pairs, "look.B2", "look.B3", "show", "look.C2", "look.C3", "show", "look.C2")
    assert pairs.default_action(0) == "look.B2"


def test_refusals_say_why() -> None:
    """The check that refuses an action gives the player its words (rulings 9 and 19)."""
    state = table({"B2": "7♥", "B3": "8♦"}, tokens={0: 1})
    with pytest.raises(IllegalAction, match="not your turn"):
        state.apply(1, "look.B2")
    with pytest.raises(IllegalAction, match="no card at A1"):
        state.apply(0, "look.A1")
    with pytest.raises(IllegalAction, match="not a choice now. Choose a card to look at"):
        state.apply(0, "target.1")
    play(state, "look.B2")
    with pytest.raises(IllegalAction, match="already looking at B2"):
        state.apply(0, "look.B2")
    state = table({"B2": "7♥", "B3": "8♦", "C2": "9♣"}, tokens={0: 2})
    play(state, "look.B2", "look.B3")
    assert state.check(0, Hide(None)) == "Paying 2 tokens would leave you without tokens, out of the game."
    assert state.check(0, Hide(parse_position("D4"))) == "D4 is not one of the cards you looked at."
    play(state, "show", "look.G2", "look.G5", "show", "look.B2", "look.C2")
    assert (
        state.check(0, Hide(parse_position("B2"))) == "B2 was face-up when you picked it: it stays face-up."
    )


def test_illegal_actions_change_nothing() -> None:
    state = table({"B2": "7♥", "B3": "8♦"})
    before = (state.view(0), state.view(1), state.view(None), state.version)
    for seat, code in [(1, "look.B2"), (0, "look.A1"), (0, "look.Z9"), (0, "steal"), (5, "look.B2")]:
        with pytest.raises(IllegalAction):
            state.apply(seat, code)
    assert (state.view(0), state.view(1), state.view(None), state.version) == before


def test_positions_are_offered_in_one_menu_per_decision() -> None:
    """The engine offers every position of a decision in one group, whatever their number; fitting them to
    Discord's menus is the renderer's business."""
    state = MEMORY.new_game(2, seed=1, options={"jokin_around": True})
    (seat,) = state.seats_to_act()
    actions = state.legal_actions(seat)
    assert len(actions) == 54
    groups: dict[str, int] = {}
    for action in actions:
        groups[action.group] = groups.get(action.group, 0) + 1
        assert action.label == action.code.split(".")[1] and position_name(parse_position(action.label))
    assert groups == {"Look at a card": 54}


def test_the_public_view_shows_tokens_and_bank_and_no_view_reprints_the_chart() -> None:
    """A private view shows what its owner needs, not the 13-line Mixed Chart (that is rules:
    ``/rules game:memory`` shows it)."""
    state = table({"B2": "7♥", "B3": "8♦"}, players=3)
    public = state.view(None)
    assert public.private == () and public.legal_actions == ()
    assert [line.summary for line in public.seats] == ["20 tokens"] * 3
    assert fields(public)["Bank"].startswith("30 tokens")
    play(state, "look.B2")
    assert "Mixed Chart" not in fields(state.view(2)) and "Mixed Chart" not in fields(public)
    assert any("B2" in field.value for field in state.view(state.seats_to_act()[0]).private)


@pytest.mark.parametrize("options", [{}, {"jokin_around": True}, {"simplicity": True, "underdogs": True}])
def test_an_idle_table_ends_and_replays(options: dict) -> None:
    """Ruling 17: timeouts alone finish a game (face-up pairs get matched), and replay rebuilds it."""
    state = MEMORY.new_game(3, seed=77, options=options)
    while not state.is_terminal():
        (seat,) = state.seats_to_act()
        state.apply(seat, state.default_action(seat))
        assert state.version < 5000
    again = replay(MEMORY, 3, 77, state.options, state.history)
    assert again.standings() == state.standings() and again.view(None) == state.view(None)


# -- Properties: random play with every variant -------------------------------------------------------


class _Variant(DeluxeMemory):
    """Deluxe Memory whose new games use fixed options (``games_in_play`` deals without options)."""

    def __init__(self, **options: bool) -> None:
        self.fixed = MemoryOptions(**options)

    def new_game(self, num_seats, seed, options=None):
        return super().new_game(num_seats, seed, options if options is not None else self.fixed)


VARIANTS = [
    _Variant(),
    _Variant(simplicity=True),
    _Variant(jokin_around=True),
    _Variant(underdogs=True),
    _Variant(simplicity=True, jokin_around=True, underdogs=True),
]


def memory_games(finish: bool = False):
    return st.sampled_from(VARIANTS).flatmap(lambda rules: games_in_play(rules, finish=finish))


def _check_offers(state: MemoryState) -> None:
    """What the engine promises of its decisions (Discord's limits are the renderer's, checked for every
    game in ``tests/engine/test_properties.py``): distinct parseable codes, the timeout default among them,
    short labels, nothing secret on a turn everyone sees, and one decision offered as one group."""
    for seat in state.seats_to_act():
        actions = state.legal_actions(seat)
        assert actions
        assert len({action.code for action in actions}) == len(actions)
        assert state.default_action(seat) in {action.code for action in actions}
        groups: dict[str, int] = {}
        for action in actions:
            assert CODE.fullmatch(action.code) and len(action.label) <= 80
            assert not action.secret
            groups[action.group] = groups.get(action.group, 0) + 1
        assert len([group for group in groups if group]) <= 1  # one decision, one menu


@settings(max_examples=25, deadline=None)
@given(memory_games(finish=True))
def test_memory_games_end_and_replay_exactly(game) -> None:
    rules, state = game
    assert state.is_terminal() and state.seats_to_act() == ()
    conserved(state)
    standings = state.standings()
    assert [s.points for s in standings] == [state.tokens(seat) for seat in range(state.num_seats)]
    again = replay(rules, state.num_seats, state.seed, state.options, state.history)
    assert again.standings() == standings and again.view(None) == state.view(None)


@settings(max_examples=60, deadline=None)
@given(memory_games())
def test_memory_conserves_cards_and_tokens_and_offers_one_decision_at_a_time(game) -> None:
    _, state = game
    conserved(state)
    assert all(state.tokens(seat) >= 0 for seat in range(state.num_seats))
    assert all(state.is_out(seat) == (state.tokens(seat) == 0) for seat in range(state.num_seats)) or (
        state.options.underdogs
    )
    _check_offers(state)


# Every code of the game: the verbs on every grid place, every seat and every rank.
ALL_CODES = sorted(
    {
        f"{verb}.{position_name(p)}"
        for verb in ("look", "reveal", "square", "cross", "move", "to", "hide")
        for p in range(56)
    }
    | {f"target.{seat}" for seat in range(5)}
    | {f"copy.{rank}" for rank in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")}
    | {"hide.both", "show", "done", "buy", "end"}
)


def test_every_code_parses_to_its_typed_action_and_back() -> None:
    """The codes stored since the first version still parse (old games replay); junk and other spellings do
    not."""
    for code in ALL_CODES:
        assert MemoryAction.parse(code).format() == code
    assert MemoryAction.parse("look.C5") == Look(parse_position("C5")) != Reveal(parse_position("C5"))
    assert MemoryAction.parse("hide.both") == Hide(None) and MemoryAction.parse("done") == Done()
    assert MemoryAction.parse("target.2") == ChoosePlayer(2) and MemoryAction.parse("copy.9") == CopyEffect(9)
    assert Look.parse("look.C5") == Look(parse_position("C5"))
    junk = "look look. look.H1 look.A9 look.c5 target.02 target.x target.-1 copy.1 done. done.1".split()
    junk += ["", "show.B2", "hide", "hide.all", "steal", "Look.C5", "look.C5.C6"]
    for code in junk:
        with pytest.raises(ValueError):
            MemoryAction.parse(code)
    with pytest.raises(ValueError):
        Look.parse("reveal.C5")


@settings(max_examples=40, deadline=None)
@given(memory_games())
def test_check_allows_exactly_the_legal_actions(game) -> None:
    """Every listed action passes :meth:`check`, every other code of the game is refused with words."""
    _, state = game
    for seat in range(state.num_seats):
        legal = {action.code for action in state.legal_actions(seat)}
        for code in ALL_CODES:
            words = state.check(seat, MemoryAction.parse(code))
            assert (words is None) == (code in legal), (seat, code, words)
            assert words is None or words.strip()


def test_resampling_keeps_what_the_viewer_has_seen_and_shuffles_the_rest() -> None:
    """Face-up cards and cards a seat has seen stay for that seat; the face-down cards it has not seen, among
    them a card another seat is looking at now, are redrawn among their positions."""
    state = MemoryState.scripted(2, {"B2": "7♥", "B3": "8♦", "C2": "3♠", "C3": "9♣", "D2": "5♦"})
    play(state, "look.B2", "look.B3", "show")  # face-up for all
    play(state, "look.C2", "look.C3", "hide.both")  # seen by seat 1 only
    play(state, "look.D2")  # seat 0 is looking at D2 now
    names = [position_name(p) for p in layout(False)]
    moved: dict[int | None, set[str]] = {None: set(), 0: set(), 1: set()}
    for seed in range(20):
        for viewer in (None, 0, 1):
            other = state.resample_hidden(viewer, random.Random(seed))
            assert other.view(viewer) == state.view(viewer) and other.history == state.history
            assert sorted(other.all_cards()) == sorted(state.all_cards())
            moved[viewer] |= {name for name in names if other.card_at(name) != state.card_at(name)}
    assert moved[0] & {"C2", "C3"} and not moved[0] & {"B2", "B3", "D2"}
    assert "D2" in moved[1] and not moved[1] & {"B2", "B3", "C2", "C3"}
    assert {"C2", "C3", "D2"} <= moved[None] and not moved[None] & {"B2", "B3"}
    assert state.card_at("D2") == parse_card("5♦")  # the state itself is unchanged


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(VARIANTS[1:]).flatmap(games_in_play), st.randoms(use_true_random=False))
def test_resampling_in_every_variant_leaves_each_view_as_it_was(game, rng: random.Random) -> None:
    """The variants' own decisions (Jokin' Around's rearrangement, Simplicity's gifts) reveal no unseen card
    either (the game with no variant is covered by tests/engine/test_properties.py)."""
    _, state = game
    for viewer in [None, *range(state.num_seats)]:
        other = state.resample_hidden(viewer, rng)
        assert other.view(viewer) == state.view(viewer)
        assert other.public_actions() == state.public_actions()


def test_a_lone_choice_is_played_at_once_but_a_look_to_remember_waits() -> None:
    """Ruling 30: a seat's lone legal action is its forced action, except the look that ends an effect
    (ruling 10), which waits for its press; a seat with a choice, or none to make, has no forced action."""
    lone_seen = memorise_seen = 0
    for seed in range(12):
        rng = random.Random(seed)
        state = MEMORY.new_game(2 + seed % 3, seed)
        while not state.is_terminal():
            for seat in range(state.num_seats):
                if seat not in state.seats_to_act():
                    assert state.forced_action(seat) is None
            seat = state.seats_to_act()[0]
            actions = state.legal_actions(seat)
            forced = state.forced_action(seat)
            if state.phase is Phase.MEMORISE:
                memorise_seen += 1
                assert forced is None
            elif len(actions) == 1:
                lone_seen += 1
                assert forced == actions[0].code
            else:
                assert forced is None
            state.apply(seat, rng.choice(actions).code)
    assert lone_seen and memorise_seen  # both cases were met
