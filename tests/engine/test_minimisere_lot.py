"""Minimisère's Lot step (ruling 13 of docs/rules/minimisere.md): "Bid the Lot…" is one choice, offered only
while the Lot may be bid ("you can bid 'The Lot' upon playing to the first trick"), that opens a step in
which the seat plays a card with the bid or cancels; old logs with the one-move bid replay the same game."""

from __future__ import annotations

import random

import pytest

from engine import IllegalAction, replay
from engine.ai.core import BeginnerPlayer, GreedyPlayer
from engine.minimisere import BID_LOT, CANCEL_LOT, LOT_GROUP, Minimisere, MinimisereState
from engine.minimisere import ai as minimisere_ai
from engine.minimisere.ai import MinimiserePlayer

RULES = Minimisere()

# Five hands (dealer 4, seat 0 leads): seat 0 holds the top five spades and wins every trick with them.
LOT_HANDS = [
    ["AS", "KS", "QS", "JS", "10S"],
    ["2S", "AH", "KH", "QH", "JH"],
    ["10H", "2H", "AC", "KC", "QC"],
    ["JC", "10C", "2C", "AD", "KD"],
    ["QD", "JD", "10D", "2D", "JK"],
]
# Seat 1 holds the Joker and four Aces (dealer 0, seat 1 leads): it wins all five when it leads them.
ACES = [
    ["KS", "QS", "JS", "10S", "2S"],
    ["JK", "AS", "AH", "AC", "AD"],
    ["KH", "QH", "JH", "10H", "2H"],
    ["KC", "QC", "JC", "10C", "2C"],
    ["KD", "QD", "JD", "10D", "2D"],
]


def codes(state: MinimisereState, seat: int) -> list[str]:
    return [action.code for action in state.legal_actions(seat)]


def to_act(state: MinimisereState) -> int:
    (seat,) = state.seats_to_act()
    return seat


def play_out(state: MinimisereState, deal: int = 1) -> None:
    """The deal played to its end with the timeout default (which never bids)."""
    while not state.is_terminal() and state.deal_number == deal:
        seat = to_act(state)
        state.apply(seat, state.default_action(seat))


def looks(state: MinimisereState) -> tuple:
    """Everything a seat or the table is shown, and what each seat may decide."""
    seats = range(state.num_seats)
    return (
        [state.view(seat) for seat in (None, *seats)],
        [state.decision_key(seat) for seat in seats],
        [state.decision_clock(seat) for seat in seats],
    )


def test_a_hand_shows_one_bid_the_lot_choice_not_one_per_card() -> None:
    state = MinimisereState.scripted(5, [LOT_HANDS], dealer=4)
    offered = state.legal_actions(0)
    assert [a.code for a in offered] == ["AS", "KS", "QS", "JS", "10S", BID_LOT]
    assert not any(a.code.endswith("+lot") for a in offered)


def test_the_step_is_offered_only_while_the_rules_allow_a_bid() -> None:
    """Each player's card to the first trick, four to six players (ruling 3), one bid a deal (ruling 6)."""
    state = MinimisereState.scripted(5, [LOT_HANDS], dealer=4)
    for _ in range(5):  # every player's first card, leader and followers alike
        seat = to_act(state)
        assert BID_LOT in codes(state, seat)
        state.apply(seat, state.default_action(seat))
    seat = to_act(state)  # the second trick: too late
    assert BID_LOT not in codes(state, seat)
    with pytest.raises(IllegalAction, match="first trick, once per deal"):
        state.apply(seat, BID_LOT)
    bid = MinimisereState.scripted(5, [LOT_HANDS], dealer=4)
    bid.apply(0, BID_LOT)
    bid.apply(0, "AS+lot")
    assert BID_LOT not in codes(bid, 1)  # one bid a deal
    three = RULES.new_game(3, seed=4)
    assert BID_LOT not in codes(three, to_act(three))  # no Lot with three players


def test_a_bid_needs_its_step_and_the_step_offers_only_bids_and_cancel() -> None:
    state = MinimisereState.scripted(5, [LOT_HANDS], dealer=4)
    with pytest.raises(IllegalAction, match="Bid the Lot… first"):
        state.apply(0, "AS+lot")
    with pytest.raises(IllegalAction, match="no Lot bid to cancel"):
        state.apply(0, CANCEL_LOT)
    assert state.apply(0, BID_LOT) == []  # the step says nothing to the table
    assert state.choosing_lot_card
    step = state.legal_actions(0)
    assert [a.code for a in step] == [CANCEL_LOT, "AS+lot", "KS+lot", "QS+lot", "JS+lot", "10S+lot"]
    assert all(a.group == LOT_GROUP and a.tone == "bad" and "+10" in a.description for a in step[1:])
    assert state.legal_actions(1) == () and state.public_actions() == ()
    with pytest.raises(IllegalAction, match="Choose the card to bid the Lot with"):
        state.apply(0, "AS")
    with pytest.raises(IllegalAction, match="already choosing"):
        state.apply(0, BID_LOT)
    assert state.default_action(0) == CANCEL_LOT  # ruling 8: a timeout never bids


def test_cancel_changes_nothing_but_the_step() -> None:
    state = MinimisereState.scripted(5, [LOT_HANDS], dealer=4)
    before = looks(state)
    state.apply(0, BID_LOT)
    assert looks(state) != before
    assert state.apply(0, CANCEL_LOT) == []
    assert looks(state) == before and not state.choosing_lot_card
    assert state.history == [(0, BID_LOT), (0, CANCEL_LOT)]
    state.apply(0, "AS")  # and the play goes on as if the step had never been opened
    assert state.lot_bidder is None and BID_LOT in codes(state, 1)


def test_the_step_keeps_the_turn_clock_running() -> None:
    """Opening and cancelling the step is one timed decision: it does not win more time."""
    state = MinimisereState.scripted(5, [LOT_HANDS], dealer=4)
    clock = state.decision_clock(0)
    assert clock is not None
    state.apply(0, BID_LOT)
    assert state.decision_clock(0) == clock
    state.apply(0, CANCEL_LOT)
    assert state.decision_clock(0) == clock
    state.apply(0, "AS")
    assert state.decision_clock(1) == clock  # seat 1's own first card, its own clock
    later = MinimisereState.scripted(5, [LOT_HANDS], dealer=4)
    later.apply(0, BID_LOT)
    later.apply(0, "AS+lot")
    assert later.decision_clock(1) is None  # no Lot left to bid: the ordinary clock


@pytest.mark.parametrize("seats", [4, 5, 6])
def test_the_lot_bid_scores_as_before(seats: int) -> None:
    """Made: 10 (five players) or 12, everyone else 0; failed: 0, everyone else 5 or 6."""
    made_points, failed_points = {5: (10, 5), 4: (12, 6), 6: (12, 6)}[seats]
    for seed in range(40):
        state = RULES.new_game(seats, seed)
        seat = to_act(state)
        state.apply(seat, BID_LOT)
        card = state.default_action(seat)  # cancel: then the card the timeout plays, bid with
        state.apply(seat, card)
        low = state.default_action(seat)
        state.apply(seat, BID_LOT)
        state.apply(seat, f"{low}+lot")
        assert state.lot_bidder == seat
        play_out(state)
        result = state.last_deal
        assert result is not None and result.lot_bidder == seat
        if result.tricks[seat] == state.hand_size:
            expected = [made_points if other == seat else 0 for other in range(seats)]
        else:
            expected = [0 if other == seat else failed_points for other in range(seats)]
        assert list(result.points) == expected


def old_style(log: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """A log as the engine wrote it before the Lot step: the bid one move, no step, no cancel."""
    return [(seat, code) for seat, code in log if code not in (BID_LOT, CANCEL_LOT)]


def test_an_old_log_with_the_one_move_bid_replays_to_the_same_scores() -> None:
    """A stored game whose log holds ``"<card>+lot"`` as one move (no ``"lot"`` before it) replays through
    ``upgrade_log`` to the same deals and scores; a current log is left as it is."""
    games = 0
    for seed in range(60):
        state = RULES.new_game(5, seed)
        picker = random.Random(seed)
        while not state.is_terminal():
            seat = to_act(state)
            legal = codes(state, seat)
            if BID_LOT in legal and picker.random() < 0.15:
                state.apply(seat, BID_LOT)
                legal = [code for code in codes(state, seat) if code != CANCEL_LOT]
            state.apply(seat, picker.choice([code for code in legal if code != BID_LOT]))
        if not any(code.endswith("+lot") for _, code in state.history):
            continue
        games += 1
        old = old_style(state.history)
        assert RULES.upgrade_log(old) == state.history
        assert RULES.upgrade_log(state.history) == state.history  # a current log stays as it is
        again = replay(RULES, 5, seed, state.options, old)
        assert again.standings() == state.standings() and again.scores() == state.scores()
        assert again.view(None) == state.view(None)
    assert games >= 5


def test_an_old_log_replays_action_by_action_too() -> None:
    """The table runtime upgrades an old log one action at a time (to keep each action's timeout mark)."""
    state = MinimisereState.scripted(5, [LOT_HANDS], dealer=4)
    old = [(0, "AS+lot"), (1, "2S"), (2, "10H")]
    by_action = [entry for action in old for entry in RULES.upgrade_log([action])]
    assert by_action == RULES.upgrade_log(old) == [(0, BID_LOT), (0, "AS+lot"), (1, "2S"), (2, "10H")]
    for seat, code in by_action:
        state.apply(seat, code)
    assert state.lot_bidder == 0


def test_the_ai_bids_the_lot_through_the_step_with_a_hand_that_wins_every_trick() -> None:
    """Joker and four Aces win all five tricks, worth 10 with the Lot and 0 without: the AI opens the step,
    then bids with a card, and makes the Lot."""
    state = MinimisereState.scripted(5, [ACES], dealer=0)
    player = MinimiserePlayer()
    assert player.choose(state, 1, random.Random(1)) == BID_LOT
    state.apply(1, BID_LOT)
    code = player.choose(state, 1, random.Random(1))
    assert code.endswith("+lot")
    state.apply(1, code)
    while state.deal_number == 1:
        seat = to_act(state)
        state.apply(seat, player.choose(state, seat, random.Random(seat)))
    assert state.last_deal is not None and state.last_deal.points == (0, 10, 0, 0, 0)


def test_the_ai_cancels_a_step_it_would_not_bid_in() -> None:
    """An AI taking over a seat whose player opened the step with an ordinary hand cancels it."""
    state = MinimisereState.scripted(5, [LOT_HANDS], dealer=3)  # seat 4 leads: Joker, no sure winners
    state.apply(4, BID_LOT)
    assert MinimiserePlayer().choose(state, 4, random.Random(3)) == CANCEL_LOT


@pytest.mark.parametrize("seed", range(6))
def test_the_one_move_lookahead_never_opens_the_step(seed: int) -> None:
    """The greedy player (the easy level without its slips) rates the step below every play, so it never
    opens it; in it (an easy player's slip), it bids or cancels, and never loops."""
    state = RULES.new_game(5, seed)
    greedy = GreedyPlayer(minimisere_ai.evaluate)
    seat = to_act(state)
    assert greedy.choose(state, seat, random.Random(seed)) != BID_LOT
    state.apply(seat, BID_LOT)
    assert greedy.choose(state, seat, random.Random(seed)) in codes(state, seat)
    easy = BeginnerPlayer(minimisere_ai.evaluate)
    game = RULES.new_game(4, seed)
    moves = 0
    while not game.is_terminal():
        seat = to_act(game)
        game.apply(seat, easy.choose(game, seat, random.Random(moves)))
        moves += 1
        assert moves < RULES.max_moves
