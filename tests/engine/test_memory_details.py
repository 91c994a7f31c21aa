"""Deluxe Memory details the rule text settles only in part (docs/rules/memory.md, rulings 3, 9 and 15):
how an Underdogs game ends, what a non-match may put back face-down and why not, and the 7's paid turn.
Each test quotes shared/seeds/004_661a3fd4e50c3a3d.txt."""

from __future__ import annotations

import pytest

from engine.memory import Phase
from tests.engine.test_memory import cell, codes, fields, play, table


def test_with_underdogs_the_only_player_with_tokens_may_end_the_game() -> None:
    """ "The game ends when only one player has tokens left, or when all possible matches have been made";
    Underdogs: "You're not out of the game when you run out of tokens." Ruling 3: an underdog plays on, and
    the only player with tokens left may end the game at the start of a turn, so a two-player game does not
    drag on; the table says how it ends."""
    state = table({"B2": "K♠", "B3": "K♣", "C2": "4♥", "C3": "5♦"}, tokens={1: 5}, underdogs=True)
    ending = fields(state.view(None))["How the game ends (Underdogs)"]
    assert "all possible matches are made" in ending and "only player with tokens left ends it" in ending
    assert "finish" not in codes(state)  # both players have tokens
    play(state, "look.B2", "look.B3", "target.1")  # a black pair of kings: seat 1 returns 13 (has 5)
    assert state.tokens(1) == 0 and not state.is_out(1) and not state.is_terminal()
    assert "finish" not in codes(state)  # the underdog plays on and cannot end it
    play(state, "look.C2", "look.C3")  # no match, no tokens to hide with
    assert state.seats_to_act() == (0,) and codes(state)[-1] == "finish"
    assert "or ends the game: only they have tokens left" in fields(state.view(None))["Now"]
    assert state.default_action(0) == "finish"  # an idle leader ends it too
    events = play(state, "finish")
    assert state.is_terminal() and "ends the game (Underdogs)" in events[-1].text
    assert [(s.points, s.rank) for s in state.standings()] == [(20, 1), (0, 2)]


def test_without_underdogs_nobody_ends_the_game_by_choice() -> None:
    """ "If you run out of tokens, you're out of the game": without Underdogs the game ends by itself."""
    state = table({"B2": "K♠", "B3": "K♣"}, tokens={1: 5})
    assert "How the game ends (Underdogs)" not in fields(state.view(None))
    play(state, "look.B2", "look.B3", "target.1")
    assert state.is_terminal()


def test_a_card_face_up_before_the_look_stays_face_up_and_the_table_says_why() -> None:
    """ "If the two cards do not match, put them back in their original spots, face-up. You can choose to
    put one or both of them back face-down." Ruling 9: a card that was face-up before the look stays
    face-up; the prompt and the log say so."""
    state = table({"B2": "7♥", "B3": "8♦", "C2": "9♣", "C3": "10♣", "C4": "6♣"})
    play(state, "look.B2", "look.B3", "show")
    play(state, "look.C2", "look.C3", "show")
    play(state, "look.B2", "look.C4")
    assert codes(state) == ["show", "hide.C4"]
    assert "B2 was face-up before the look, so it stays face-up" in fields(state.view(None))["Now"]
    play(state, "show")
    events = play(state, "look.B2", "look.C2")  # both were face-up: nothing to decide
    assert "B2 was face-up before the look, so it stays face-up" in events[-1].text
    assert "C2 was face-up before the look" in events[-1].text and "ruling 9" in events[-1].text


@pytest.mark.parametrize(("tokens", "words"), [(1, "hiding would take"), (2, "hiding both would take")])
def test_the_last_token_does_not_pay_for_hiding_and_the_table_says_why(tokens: int, words: str) -> None:
    """ "You must give one token to the bank for each card that you don't reveal"; "If you run out of
    tokens, you're out of the game." Ruling 9: paying with your last token is not offered, and the table
    says why."""
    state = table({"B2": "7♥", "B3": "8♦"}, tokens={0: tokens})
    events = play(state, "look.B2", "look.B3")
    text = fields(state.view(None))["Now"] if state.phase is Phase.HIDE else events[-1].text
    assert f"{words} the last token and put them out of the game" in text
    if tokens == 1:
        assert cell(state, None, "B2").face_up and state.seats_to_act() == (1,)


def test_the_sevens_paid_turn_at_exactly_five_tokens_is_refused_out_loud() -> None:
    """Mixed 7: "Take another turn. You may lose 5 tokens at the end of that turn to take another turn."
    Ruling 15: with exactly 5 tokens the loss would put you out, so no offer is made — and the log says so
    rather than the offer vanishing silently."""
    state = table({"B2": "7♠", "B3": "7♥", "C2": "8♣", "C3": "9♠"}, tokens={0: 5})
    events = play(state, "look.B2", "look.B3", "look.C2", "look.C3", "show")
    assert state.phase is not Phase.BUY_SEVEN and state.seats_to_act() == (1,)
    assert any(
        e.seat == 0
        and "cannot buy one more turn (Mixed 7): paying 5 tokens would take their last one" in e.text
        for e in events
    )
    state = table({"B2": "7♠", "B3": "7♥", "C2": "8♣", "C3": "9♠"}, tokens={0: 4})
    events = play(state, "look.B2", "look.B3", "look.C2", "look.C3", "show")
    assert any("it costs 5 tokens and they have 4 tokens" in e.text for e in events)
