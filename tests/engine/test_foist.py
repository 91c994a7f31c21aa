"""Foist rules, each test citing the passage of shared/seeds/002_393ce4ef34d5d30a.txt it checks."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import IllegalAction, get_rules, replay
from engine.foist import (
    HIGHEST_CARD,
    LOWEST_CARD,
    PAY,
    TAKE,
    FoistAction,
    FoistState,
    card_points,
    format_runs,
    runs,
    starting_tokens,
)
from tests.engine.conftest import games_in_play

FOIST = get_rules("foist")


# -- "Pay Tokens to Avoid Cards": the deal ----------------------------------------------------------


@pytest.mark.parametrize(("players", "tokens"), [(3, 11), (4, 11), (5, 11), (6, 9), (7, 7)])
def test_tokens_dealt_by_player_count(players: int, tokens: int) -> None:
    state = FOIST.new_game(players, seed=5)
    assert [state.tokens(seat) for seat in range(players)] == [tokens] * players
    assert starting_tokens(players) == tokens


@pytest.mark.parametrize("players", [2, 8])
def test_player_count_outside_3_to_7_is_refused(players: int) -> None:
    with pytest.raises(ValueError, match="3 to 7 players"):
        FOIST.new_game(players, seed=1)


def test_deck_is_3_to_35_with_9_removed_unseen() -> None:
    state = FOIST.new_game(3, seed=42)
    seen = [state.card_up, *state.draw_pile()]
    assert len(state.removed()) == 9
    assert len(seen) == 24
    assert sorted(seen + list(state.removed())) == list(range(3, 36))


def test_same_seed_same_deal_and_turn_order_other_seed_differs() -> None:
    first, again, other = (FOIST.new_game(5, seed=s) for s in (7, 7, 8))
    assert (first.draw_pile(), first.turn_order) == (again.draw_pile(), again.turn_order)
    assert (first.draw_pile(), first.turn_order) != (other.draw_pile(), other.turn_order)


def test_turn_order_is_shuffled_by_the_seed() -> None:
    """Seeds README: Foist starts the turn order shuffled."""
    orders = {FOIST.new_game(5, seed=seed).turn_order for seed in range(40)}
    assert len(orders) > 10
    assert all(sorted(order) == list(range(5)) for order in orders)


# -- "On your turn you'll choose to either take a card or place a token on it" ------------------------


def test_paying_moves_a_token_onto_the_card_and_passes_the_turn() -> None:
    state = FoistState.scripted(3, [20, 21, 22])
    state.apply(0, PAY)
    assert state.tokens(0) == 10
    assert state.tokens_on_card == 1
    assert state.seats_to_act() == (1,)


def test_taking_gives_card_and_its_tokens_and_the_turn_goes_on() -> None:
    """ "If you choose to take the card, you will also receive any tokens on it. The next card will be made
    visible" and "Your turn only ends when you place a token on a card."""
    state = FoistState.scripted(3, [20, 21, 22])
    state.apply(0, PAY)
    state.apply(1, PAY)
    state.apply(2, TAKE)
    assert state.cards(2) == (20,)
    assert state.tokens(2) == 11 + 2
    assert state.card_up == 21
    assert state.tokens_on_card == 0
    assert state.seats_to_act() == (2,)


def test_cannot_pay_without_tokens() -> None:
    """ "You cannot choose to place a token if you have no tokens remaining.\""""
    state = FoistState.scripted(3, [30, 31], tokens=[0, 11, 11])
    assert [action.code for action in state.legal_actions(0)] == [TAKE]
    with pytest.raises(IllegalAction, match="no tokens left, so you must take the card"):
        state.apply(0, PAY)
    assert state.default_action(0) == TAKE


def test_the_public_table_offers_no_thanks_even_to_a_player_without_tokens() -> None:
    """Token counts are secret (seeds README): the public buttons must not change when a player runs out."""
    with_tokens = FoistState.scripted(3, [30, 31])
    without = FoistState.scripted(3, [30, 31], tokens=[0, 11, 11])
    assert [action.code for action in without.public_actions()] == [TAKE, PAY]
    assert without.public_actions() == with_tokens.public_actions()


def test_game_ends_when_the_last_card_is_taken() -> None:
    """ "The game finishes when the last card is taken.\""""
    state = FoistState.scripted(3, [10, 25])
    state.apply(0, TAKE)
    assert not state.is_terminal()
    state.apply(0, PAY)
    state.apply(1, TAKE)
    assert state.is_terminal()
    assert state.seats_to_act() == ()
    assert state.legal_actions(1) == ()


def test_turn_follows_the_turn_order_not_the_seat_order() -> None:
    state = FoistState.scripted(4, [20, 21], turn_order=(2, 0, 3, 1))
    assert state.seats_to_act() == (2,)
    state.apply(2, PAY)
    assert state.seats_to_act() == (0,)
    state.apply(0, PAY)
    state.apply(3, PAY)
    state.apply(1, PAY)
    assert state.seats_to_act() == (2,)


# -- illegal actions change nothing -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("seat", "code", "message"),
    [
        (1, PAY, "not your turn"),
        (0, "steal", "not allowed"),
        (9, TAKE, "not seated"),
        (-1, TAKE, "not seated"),
    ],
)
def test_illegal_actions_raise_and_change_nothing(seat: int, code: str, message: str) -> None:
    state = FoistState.scripted(3, [20, 21, 22])
    before = (state.view(0), state.view(1), state.view(None), state.version)
    with pytest.raises(IllegalAction, match=message):
        state.apply(seat, code)
    assert (state.view(0), state.view(1), state.view(None), state.version) == before


def test_actions_after_the_end_are_refused() -> None:
    state = FoistState.scripted(3, [20])
    state.apply(0, TAKE)
    with pytest.raises(IllegalAction, match="over"):
        state.apply(1, TAKE)


# -- "Only the Lowest Card in a Series Counts" and the scoreboard ------------------------------------


def test_the_pages_own_example() -> None:
    """ "if you had the cards 11, 12, 15, 16, 17, and 20, only the 11, 15, and 20 would count\""""
    hand = [11, 12, 15, 16, 17, 20]
    assert runs(hand) == [[11, 12], [15, 16, 17], [20]]
    assert card_points(hand) == 11 + 15 + 20
    assert format_runs(hand) == "11-12 · 15-17 · 20"


@pytest.mark.parametrize(
    ("cards", "points"),
    [([], 0), ([35], 35), ([3, 4, 5, 6], 3), ([5, 3, 4], 3), ([3, 5, 7], 15), ([34, 35, 3], 37)],
)
def test_card_points(cards: list[int], points: int) -> None:
    assert card_points(cards) == points


def test_tokens_subtract_and_lowest_total_wins_with_shared_ranks() -> None:
    """ "Tokens take points off your score" and "The player with the lowest score wins!"; ties share."""
    state = FoistState.scripted(3, [20, 21, 30, 10])
    state.apply(0, TAKE)  # seat 0: 20
    state.apply(0, TAKE)  # seat 0: 20-21 -> counts 20
    state.apply(0, PAY)
    state.apply(1, TAKE)  # seat 1: 30 + 1 token
    state.apply(1, PAY)
    state.apply(2, PAY)
    state.apply(0, TAKE)  # seat 0: 10 + 2 tokens
    standings = {standing.seat: standing for standing in state.standings()}
    assert standings[0].points == (10 + 20) - (11 - 1 + 2)
    assert standings[1].points == 30 - (11 + 1 - 1)
    assert standings[2].points == 0 - (11 - 1)
    assert standings[0].points == 18 and standings[1].points == 19 and standings[2].points == -10
    assert [standings[seat].rank for seat in range(3)] == [2, 3, 1]


def test_tied_scores_share_a_rank() -> None:
    state = FoistState.scripted(3, [12])
    state.apply(0, PAY)
    state.apply(1, TAKE)  # seat 1: 12 - 12 tokens = 0 ; seat 0: -10 ; seat 2: -11
    state_points = [standing.points for standing in state.standings()]
    assert state_points == [-10, 0, -11]
    tied = FoistState.scripted(3, [12])
    tied.apply(0, TAKE)  # seat 0: 12 - 11 = 1; seats 1 and 2 tie at -11
    assert [standing.rank for standing in tied.standings()] == [3, 1, 1]


def test_standings_before_the_end_raise() -> None:
    with pytest.raises(RuntimeError):
        FOIST.new_game(3, seed=1).standings()


# -- views: "token counts of other players are secret" ----------------------------------------------


def test_views_show_own_tokens_only_and_public_view_none() -> None:
    state = FoistState.scripted(3, [20, 21, 22])
    state.apply(0, PAY)
    own = {field.name: field.value for field in state.view(0).private}
    assert own["Your tokens"] == "10"
    assert state.view(None).private == ()
    assert state.view(None).legal_actions == ()
    assert all("token" not in line.summary for line in state.view(1).seats)
    assert state.view(1).legal_actions and not state.view(0).legal_actions


def test_public_action_labels_do_not_reveal_token_counts() -> None:
    state = FoistState.scripted(3, [20, 21])
    labels = [action.label for action in state.legal_actions(0) if not action.secret]
    assert labels == ["Take 20 (+0 tokens)", "No thanks! (pay a token)"]


def test_final_view_reveals_everything() -> None:
    state = FoistState.scripted(3, [20])
    state.apply(0, TAKE)
    public = state.view(None)
    assert "game over" in public.title
    assert "11 tokens" in public.seats[1].summary


def test_private_view_prices_the_card_up_for_the_seat() -> None:
    state = FoistState.scripted(3, [20, 21, 19])
    state.apply(0, TAKE)
    fields = {field.name: field.value for field in state.view(0).private}
    assert fields["Taking 21 now"] == "+0 card points, +0 tokens: net {b:+0}"
    state.apply(0, TAKE)
    fields = {field.name: field.value for field in state.view(0).private}
    assert fields["Taking 19 now"] == "-1 card point, +0 tokens: net {b:-1}"


# -- determinism -----------------------------------------------------------------------------------


def test_replay_rebuilds_the_same_game() -> None:
    state = FOIST.new_game(4, seed=99)
    while not state.is_terminal():
        seat = state.seats_to_act()[0]
        state.apply(seat, state.default_action(seat))
    again = replay(FOIST, 4, 99, None, state.history)
    assert again.standings() == state.standings()
    assert again.view(None) == state.view(None)


def test_replay_of_a_corrupt_log_raises() -> None:
    (first,) = FOIST.new_game(3, seed=1).seats_to_act()
    not_first = (first + 1) % 3
    with pytest.raises(IllegalAction):
        replay(FOIST, 3, 1, None, [(not_first, TAKE)])


def test_scripted_deal_validation() -> None:
    with pytest.raises(ValueError):
        FoistState.scripted(3, [2, 3])
    with pytest.raises(ValueError):
        FoistState.scripted(3, [5, 5])
    with pytest.raises(ValueError):
        FoistState.scripted(3, [5], turn_order=(0, 0, 1))
    with pytest.raises(ValueError):
        FoistState.scripted(3, [5], tokens=[11, 11])
    with pytest.raises(ValueError):
        FoistState.scripted(3, [5], tokens=[11, -1, 11])


def test_unknown_options_are_refused() -> None:
    with pytest.raises(ValueError):
        FOIST.new_game(3, seed=1, options={"jokers": True})


# -- actions: typed, with the same stable codes ---------------------------------------------------------


def test_action_codes_parse_and_format_unchanged() -> None:
    """The codes stored by earlier versions ("take", "pay") still mean the same actions."""
    assert FoistAction.parse(TAKE) == FoistAction(pays=False)
    assert FoistAction.parse(PAY) == FoistAction(pays=True)
    assert [FoistAction.parse(code).format() for code in (TAKE, PAY)] == [TAKE, PAY]
    for junk in ("", "Take", "pay ", "steal"):
        with pytest.raises(ValueError):
            FoistAction.parse(junk)


@settings(max_examples=80, deadline=None)
@given(games_in_play(FOIST))
def test_check_agrees_with_the_legal_actions(game) -> None:
    """Every listed action passes ``check`` and every other action of the game is refused, with words."""
    _, state = game
    if state.is_terminal():
        return
    for seat in range(state.num_seats):
        listed = {action.code for action in state.legal_actions(seat)}
        for code in (TAKE, PAY):
            words = state.check(seat, FoistAction.parse(code))
            assert (words is None) == (code in listed), (seat, code, words)
            assert words is None or words.endswith(".")


# -- properties over random legal play --------------------------------------------------------------


@settings(max_examples=80, deadline=None)
@given(games_in_play(FOIST))
def test_foist_cards_and_tokens_are_conserved(game) -> None:
    _, state = game
    assert isinstance(state, FoistState)
    in_hands = [card for seat in range(state.num_seats) for card in state.cards(seat)]
    up = [] if state.card_up is None else [state.card_up]
    everything = in_hands + up + list(state.draw_pile()) + list(state.removed())
    assert sorted(everything) == list(range(LOWEST_CARD, HIGHEST_CARD + 1))
    assert len(state.removed()) == 9
    tokens = sum(state.tokens(seat) for seat in range(state.num_seats)) + state.tokens_on_card
    assert tokens == starting_tokens(state.num_seats) * state.num_seats
    assert all(state.tokens(seat) >= 0 for seat in range(state.num_seats))


def _recount(cards: tuple[int, ...]) -> int:
    """Points recounted the slow way: a card counts unless the card one lower is also held."""
    held = set(cards)
    return sum(card for card in held if card - 1 not in held)


@settings(max_examples=60, deadline=None)
@given(games_in_play(FOIST, finish=True))
def test_foist_scores_match_an_independent_recount(game) -> None:
    _, state = game
    points = {}
    for seat in range(state.num_seats):
        points[seat] = _recount(state.cards(seat)) - state.tokens(seat)
        assert card_points(state.cards(seat)) == _recount(state.cards(seat))
    for standing in state.standings():
        assert standing.points == points[standing.seat]
        assert standing.rank == 1 + sum(1 for other in points.values() if other < standing.points)


# -- resampling what a viewer may not see (the generic no-leak test in test_properties.py uses it) ----


@settings(max_examples=60, deadline=None)
@given(games_in_play(FOIST), st.randoms(use_true_random=False))
def test_resample_redraws_only_the_secrets_and_keeps_the_counts(game, rng: random.Random) -> None:
    """Other seats' tokens, the removed cards and the draw pile's order are redrawn (the page and the seeds
    README); the viewer's tokens, every public fact and the totals stay."""
    _, state = game
    if state.is_terminal():
        return
    for viewer in [None, *range(state.num_seats)]:
        other = state.resample_hidden(viewer, rng)
        assert isinstance(other, FoistState)
        assert other.card_up == state.card_up and other.tokens_on_card == state.tokens_on_card
        assert len(other.draw_pile()) == len(state.draw_pile())
        assert sorted(other.draw_pile() + other.removed()) == sorted(state.draw_pile() + state.removed())
        assert [other.cards(seat) for seat in range(state.num_seats)] == [
            state.cards(seat) for seat in range(state.num_seats)
        ]
        seats = range(state.num_seats)
        assert sum(other.tokens(seat) for seat in seats) == sum(state.tokens(seat) for seat in seats)
        assert all(other.tokens(seat) >= 0 for seat in seats)
        if viewer is not None:
            assert other.tokens(viewer) == state.tokens(viewer)


def test_the_public_resample_redraws_every_seats_tokens() -> None:
    """The public buttons are seen by everyone, so no seat's tokens may change them: the resample for the
    public view redraws every seat's tokens (so the generic no-leak test checks exactly that), down to a
    seat with none left."""
    state = FoistState.scripted(3, [20, 21, 22])
    rng = random.Random(1)
    changed: set[int] = set()
    emptied: set[int] = set()
    for _ in range(200):
        other = state.resample_hidden(None, rng)
        assert other.public_actions() == state.public_actions()
        changed |= {seat for seat in range(3) if other.tokens(seat) != state.tokens(seat)}
        emptied |= {seat for seat in range(3) if other.tokens(seat) == 0}
    assert changed == {0, 1, 2}
    assert 0 in emptied


def test_the_resample_after_the_end_changes_nothing() -> None:
    """At the end the scoreboard shows every token and the removed cards: nothing is left to redraw."""
    state = FoistState.scripted(3, [20])
    state.apply(0, TAKE)
    other = state.resample_hidden(None, random.Random(3))
    assert other.view(None) == state.view(None)
    assert other.removed() == state.removed()
    assert [other.tokens(seat) for seat in range(3)] == [state.tokens(seat) for seat in range(3)]
