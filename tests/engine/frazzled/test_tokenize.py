"""TOKENIZE rules (engine/frazzled/tokenize.py), each test citing the passage of
shared/seeds/000_d97c66fde1b75dcf.txt (or the ruling in docs/rules/tokenize.md) it checks; hypothesis
properties at the end.

``c(number, k)`` is the k-th card (0..5) of a number in deck order (see tests/engine/frazzled/helpers.py).
Scripted seats hold colour token ``s`` and shape token ``s`` unless a test says otherwise.
"""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings

from engine import IllegalAction, replay
from engine.frazzled import (
    KEEP,
    Phase,
    Tokenize,
    TokenizeState,
    card_label,
    set_kind,
    set_points,
    split_into_piles,
)
from engine.frazzled.deck import DECK, FOURTEEN_ONE, Card
from engine.frazzled.rule_cards import BONUS_BY_ID, BONUS_CARDS
from tests.engine.conftest import games_in_play
from tests.engine.frazzled.helpers import c, check_view_limits, codes, fields

RULES = Tokenize()


def of_colour(colour: int) -> list[Card]:
    return [card for card in DECK if card.colour == colour]


def of_shape(shape: int) -> list[Card]:
    return [card for card in DECK if card.shape == shape]


def set_code(*cards: Card) -> str:
    return "set." + ".".join(str(card.id) for card in sorted(cards, key=lambda card: card.id))


def discard(card: Card) -> str:
    return f"discard.{card.id}"


def scripted(hands, **kwargs) -> TokenizeState:
    """A scripted game; unless given, the draw piles are the rest of the deck in deck order."""
    if "piles" not in kwargs:
        used = {card for hand in hands for card in hand} | set(kwargs.get("discard", ()))
        kwargs["piles"] = split_into_piles([card for card in DECK if card not in used])
    return TokenizeState.scripted(len(hands), hands, **kwargs)


def piles(state: TokenizeState) -> list[list[Card]]:
    """The three draw piles, each bottom to top."""
    return [list(state.pile(index)) for index in range(3)]


SEVENS = [c(7, 0), c(7, 1), c(7, 2)]


# -- Setup ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", range(3, 9))
def test_deal_six_cards_each_and_three_face_up_piles(players: int) -> None:
    """ "deal six cards to each player ... Split the remaining cards into three equal decks" (as equal as
    the count allows)."""
    state = RULES.new_game(players, seed=players)
    assert all(len(state.hand(seat)) == 6 for seat in range(players))
    sizes = [len(pile) for pile in piles(state)]
    assert sum(sizes) == 78 - 6 * players and max(sizes) - min(sizes) <= 1
    cards = [card for seat in range(players) for card in state.hand(seat)] + [
        card for pile in piles(state) for card in pile
    ]
    assert sorted(cards) == list(DECK)


def test_three_bonus_cards_in_play_the_rest_face_down() -> None:
    """ "Shuffle the bonus rule cards and place three in the centre ... Put the rest in a face down pile.
    ... Do not use the double-sided rule cards." """
    state = RULES.new_game(4, seed=2)
    assert len(state.bonus_cards) == 3
    assert sorted(card.id for card in [*state.bonus_cards, *state.bonus_pile]) == sorted(
        card.id for card in BONUS_CARDS
    )
    draws = {tuple(card.id for card in RULES.new_game(4, seed=seed).bonus_cards) for seed in range(10)}
    assert len(draws) > 5


def test_tokens_and_first_player() -> None:
    """ "Give each player one of the coloured circular tokens and one of the shape tokens and put the
    remaining tokens in the middle" (ruling 2); "Decide who goes first" (ruling 1)."""
    state = RULES.new_game(8, seed=4)
    assert [len(colours) for colours in state.tokens().colours] == [1] * 8
    assert len(state.tokens().middle_colours) == 5 and len(state.tokens().middle_shapes) == 5
    firsts = {RULES.new_game(4, seed=seed).seats_to_act() for seed in range(40)}
    assert firsts == {(seat,) for seat in range(4)}


def test_player_count_and_options() -> None:
    for players in (2, 9):
        with pytest.raises(ValueError, match="3 to 8 players"):
            RULES.new_game(players, seed=1)
    with pytest.raises(ValueError):
        RULES.new_game(3, seed=1, options={"rounds": 2})


# -- How to play ----------------------------------------------------------------------------------


def test_a_turn_draws_from_any_pile_then_discards_a_different_card() -> None:
    """ "This player must pick up a card from any one of the three draw piles. But before they put it in
    their hand, they must discard a different card from their hand onto the discard pile, face up ... If
    the card discarded has no action ..., then play passes to the next player." """
    hand = [c(3, 0), c(4, 1), c(5, 2), c(8, 3), c(9, 4), c(11, 5)]
    piles = [[c(12, 0)], [c(12, 1), c(12, 2)], [c(12, 3)]]
    state = scripted([hand, [c(3, 1)], [c(3, 2)]], piles=piles)
    assert codes(state, 0) == ["draw.0", "draw.1", "draw.2"]
    assert [action.label for action in state.public_actions()][1] == f"Draw {card_label(c(12, 2))} (pile 2)"
    events = state.apply(0, "draw.1")
    assert card_label(c(12, 2)) in events[0].text  # the piles are face up: the draw is public
    assert c(12, 2) not in state.hand(0)  # not in the hand before the discard
    discards = state.legal_actions(0)
    assert [action.code for action in discards] == [discard(card) for card in hand]
    assert all(action.secret and action.group == "Discard a card…" for action in discards)
    assert state.public_actions() == ()
    state.apply(0, discard(c(8, 3)))
    assert state.discard_pile == (c(8, 3),)
    assert c(12, 2) in state.hand(0) and len(state.hand(0)) == 6
    assert state.seats_to_act() == (1,)


def test_the_draw_stays_a_button_with_one_pile_left() -> None:
    """Ruling 17: the draw opens the turn, so it is always the player's press, even from a single pile."""
    state = scripted([[c(3, 0), c(4, 0)], [c(3, 1)], [c(3, 2)]], piles=[[], [c(12, 0), c(12, 1)], []])
    assert codes(state, 0) == ["draw.1"]
    state.apply(0, "draw.1")
    assert state.drawn == c(12, 1)


def test_a_player_with_an_empty_hand_keeps_the_card_drawn() -> None:
    """Ruling 14: no "different card" to discard, so the drawn card goes into the hand."""
    state = scripted([[], [c(3, 1)], [c(3, 2)]])
    state.apply(0, "draw.0")
    assert codes(state, 0) == [KEEP] and state.default_action(0) == KEEP
    state.apply(0, KEEP)
    assert len(state.hand(0)) == 1 and state.seats_to_act() == (1,)


# -- Making a set ----------------------------------------------------------------------------------


def test_three_of_a_number_is_a_set() -> None:
    assert set_kind(SEVENS, [], []) == "number"
    assert set_kind([c(7, 0), c(7, 1), c(8, 1)], list(range(13)), list(range(13))) is None


def test_three_of_your_token_colour_or_shape_is_a_set() -> None:
    """ "Three cards of the same colour which match your colour token; Three cards of the same shape which
    match your shape token." """
    reds = of_colour(0)[:3]
    stars = of_shape(4)[:3]
    assert set_kind(reds, [0], []) == "colour" and set_kind(reds, [1], [0]) is None
    assert set_kind(stars, [], [4]) == "shape" and set_kind(stars, [4], []) is None


def test_with_several_tokens_any_one_of_them_matches_but_not_a_mix() -> None:
    """Ruling 4: after a 13, three cards of any one of your colours (or shapes) are a set; two reds and an
    orange are not."""
    reds, oranges = of_colour(0), of_colour(1)
    assert set_kind(oranges[:3], [0, 1], []) == "colour"
    mixed = [reds[1], reds[2], oranges[1]]
    assert len({card.number for card in mixed}) == 3
    assert set_kind(mixed, [0, 1], []) is None


def test_the_rules_scoring_examples() -> None:
    """ "A set of three cards of the same colour may be worth +4 so you would score 14 points ... +5 for
    each card with a number 6 ... 15 points ... If both of those bonus rules are in play and you have a set
    of three of the same colour and one of them is a 6 you would score 19 points." """
    trio, sixes, quiet = BONUS_BY_ID["colour3"], BONUS_BY_ID["sixes"], BONUS_BY_ID["thirteen"]
    wild = BONUS_BY_ID["wild"]
    colour_set = [card for card in of_colour(7) if card.number in (4, 6, 8)]
    plain_colour = [card for card in of_colour(7) if card.number in (4, 5, 8)]
    assert len(colour_set) == 3 == len(plain_colour)
    assert set_kind(colour_set, [7], []) == "colour" == set_kind(plain_colour, [7], [])
    assert set_points(plain_colour, [trio, quiet, wild]) == (14, [("Colour Trio", 4)])
    assert set_points(colour_set, [sixes, quiet, wild]) == (15, [("Lucky Sixes", 5)])
    assert set_points(colour_set, [trio, sixes, quiet])[0] == 19
    assert set_points([c(6, 0), c(6, 1), c(6, 2)], [sixes, quiet, wild])[0] == 10 + 15


def test_a_14_1_counts_as_14_or_1_whichever_scores_more() -> None:
    """Ruling 5: every 14/1 of the set read the same way, the better total."""
    aces = [c(FOURTEEN_ONE, 0), c(FOURTEEN_ONE, 1), c(FOURTEEN_ONE, 2)]
    small, high, wild = BONUS_BY_ID["small"], BONUS_BY_ID["high"], BONUS_BY_ID["wild"]
    assert set_points(aces, [small, high, wild]) == (10 + 3 + 0 + 6, [("Small Change", 3), ("Wild Ones", 6)])
    assert set_points(aces, [high, wild, BONUS_BY_ID["thirteen"]])[0] == 10 + 0 + 6


def test_declaring_a_set_scores_removes_it_and_draws_one_from_each_pile() -> None:
    """ "score points based on the set. Those cards are then removed from the game (not added to the
    discard pile), and the player draws three new cards - one from each draw pile." """
    piles = [[c(11, 0), c(12, 0)], [c(11, 1), c(12, 1)], [c(11, 2), c(12, 2)]]
    state = scripted([[*SEVENS, c(3, 0)], [c(3, 1)], [c(3, 2)]], piles=piles)
    (action,) = [action for action in state.legal_actions(0) if action.code.startswith("set.")]
    assert action.secret and action.code == set_code(*SEVENS) and "(10 pts)" in action.label
    events = state.apply(0, set_code(*SEVENS))
    assert state.score(0) == 10 and state.sets(0) == (tuple(SEVENS),)
    assert sorted(state.hand(0)) == sorted([c(3, 0), c(12, 0), c(12, 1), c(12, 2)])
    assert all(card not in state.discard_pile for card in SEVENS)
    assert "declared a set" in events[0].text and card_label(c(7, 0)) in events[0].text
    assert state.seats_to_act() == (0,) and state.phase is Phase.DRAW  # still seat 0's turn to draw
    assert "Last set" not in fields(state.view(None))  # the log says it: "declared a set: ..."


def test_a_set_draws_from_the_same_pile_when_piles_are_empty() -> None:
    """ "(use the same draw pile if there are not enough draw piles)" (ruling 7: an empty pile's card
    comes from the first pile that has cards)."""
    piles = [[], [c(12, 0), c(12, 1), c(12, 2), c(12, 3)], []]
    state = scripted([[*SEVENS], [c(3, 1)], [c(3, 2)]], piles=piles)
    state.apply(0, set_code(*SEVENS))
    assert sorted(state.hand(0)) == sorted([c(12, 1), c(12, 2), c(12, 3)])
    assert state.pile(1) == (c(12, 0),)


def test_a_set_may_be_declared_during_someone_elses_turn() -> None:
    """ "someone has a set of three cards at any point during their or someone else's turn": an optional
    out-of-turn action the game does not wait for."""
    state = scripted([[c(3, 0)], [*SEVENS, c(3, 1)], [c(3, 2)]])
    assert state.seats_to_act() == (0,)
    assert codes(state, 1) == [set_code(*SEVENS)]
    assert codes(state, 2) == []
    state.apply(0, "draw.0")
    state.apply(1, set_code(*SEVENS))
    assert state.score(1) == 10 and state.seats_to_act() == (0,) and state.phase is Phase.DISCARD
    with pytest.raises(IllegalAction, match="not your turn"):
        state.apply(2, "draw.0")


def test_the_card_just_drawn_joins_the_hand_only_after_the_discard() -> None:
    """Ruling 6: "before they put it in their hand, they must discard", so it cannot complete a set
    until then."""
    piles = [[c(7, 2)], [c(12, 1)], [c(12, 2)]]
    state = scripted([[c(7, 0), c(7, 1), c(3, 0)], [c(3, 1)], [c(3, 2)]], piles=piles)
    state.apply(0, "draw.0")
    assert not any(code.startswith("set.") for code in codes(state, 0))
    assert discard(c(7, 2)) not in codes(state, 0)
    state.apply(0, discard(c(3, 0)))
    assert codes(state, 0) == [set_code(*SEVENS)]


def test_colour_and_shape_sets_follow_the_tokens() -> None:
    reds = of_colour(0)[:3]
    state = scripted([[*reds], [c(3, 1)], [c(3, 2)]], colours=[[1], [0], [2]])
    assert codes(state, 0) == ["draw.0", "draw.1", "draw.2"]  # Red is not seat 0's colour
    own = scripted([[*reds], [c(3, 1)], [c(3, 2)]])
    assert set_code(*reds) in codes(own, 0)
    assert "colour set" in own.legal_actions(0)[-1].description


def test_every_set_is_offered_however_many() -> None:
    """Ruling 12: every set a hand holds is offered, in one group, however many (here the six cards of the
    seat's colour, the six of its shape and the six 7s: 60 sets, more than the 50 once offered)."""
    hand = [c(7, k) for k in range(6)] + [card for card in of_colour(0) if card.number != 7]
    hand += [card for card in of_shape(0) if card not in hand and card.number != 7]
    state = scripted([hand, [c(3, 1)], [c(3, 2)]])
    sets = [action for action in state.legal_actions(1) if action.code.startswith("set.")]
    assert sets == []
    sets = [action for action in state.legal_actions(0) if action.code.startswith("set.")]
    reds = [card for card in hand if card.colour == 0]
    squares = [card for card in hand if card.shape == 0]
    sevens = [card for card in hand if card.number == 7]
    expected = {
        frozenset(trio) for cards in (reds, squares, sevens) for trio in itertools.combinations(cards, 3)
    }
    assert len(expected) == 60
    assert {frozenset(trio) for trio in state.sets_available(0)} == expected
    assert len(sets) == len(expected) and len({action.code for action in sets}) == len(sets)
    assert {action.group for action in sets} == {"Declare a set…"}


def test_invalid_set_codes_are_refused() -> None:
    state = scripted([[c(7, 0), c(7, 1), c(8, 1)], [c(3, 1)], [c(3, 2)]])
    with pytest.raises(IllegalAction, match="not a set"):
        state.apply(0, set_code(c(7, 0), c(7, 1), c(8, 1)))


# -- Actions --------------------------------------------------------------------------------------


def test_14_1_and_2_everyone_picks_from_the_fan_on_their_right_sets_wait() -> None:
    """ "14/1 - All players fan out their cards face down and let the player to their left select one";
    "2 - ... select two". No set may be declared while the hands are fanned out (ruling 8)."""
    piles = [[c(12, 0)], [c(12, 1)], [c(12, 2)]]
    state = scripted([[c(2, 0), c(3, 0), c(4, 0)], [*SEVENS, c(5, 1)], [c(8, 0)]], piles=piles)
    assert codes(state, 1) == [set_code(*SEVENS)]
    state.apply(0, "draw.0")
    state.apply(0, discard(c(2, 0)))
    assert state.seats_to_act() == (0, 1, 2)
    assert codes(state, 1) == ["fan.0", "fan.1", "fan.2"]  # seat 0's hand now includes the drawn card
    assert codes(state, 0) == ["fan.0"]  # seat 2 has one card: seat 0 takes it (ruling 16)
    with pytest.raises(IllegalAction, match="fanned out"):
        state.apply(1, set_code(*SEVENS))
    for seat in (0, 1, 1, 2, 2):
        state.apply(seat, state.default_action(seat))
    assert state.seats_to_act() == (1,)
    assert [len(state.hand(seat)) for seat in range(3)] == [3 - 2 + 1, 4 - 2 + 2, 1 - 1 + 2]
    assert "Last exchange" in fields(state.view(2))


def test_6_everyone_passes_their_hand_left() -> None:
    """ "6 - All players pass their entire hand to their left." """
    state = scripted(
        [[c(6, 0), c(3, 0)], [c(4, 1)], [c(5, 2), c(8, 2)]], piles=[[c(12, 1), c(12, 0)], [], []]
    )
    state.apply(0, "draw.0")
    state.apply(0, discard(c(6, 0)))
    assert state.hand(1) == (c(3, 0), c(12, 0))
    assert state.hand(2) == (c(4, 1),)
    assert state.hand(0) == (c(5, 2), c(8, 2))
    assert state.seats_to_act() == (1,)


def test_resampling_keeps_what_a_seat_passed_and_what_everyone_saw_drawn() -> None:
    """After a 6, the passer knows the hand it passed, and everyone saw the card drawn join it: a resample
    keeps what its viewer knows and redraws the rest."""
    state = scripted(
        [[c(6, 0), c(3, 0)], [c(4, 1)], [c(5, 2), c(8, 2)]], piles=[[c(12, 1), c(12, 0)], [], []]
    )
    state.apply(0, "draw.0")
    state.apply(0, discard(c(6, 0)))
    assert state.hand(1) == (c(3, 0), c(12, 0))
    for seed in range(10):
        assert state.resample_hidden(0, random.Random(seed)).hand(1) == state.hand(1)
        assert c(12, 0) in state.resample_hidden(2, random.Random(seed)).hand(1)
    assert any(state.resample_hidden(2, random.Random(seed)).hand(1) != state.hand(1) for seed in range(10))


def test_10_replaces_a_bonus_card_of_the_players_choice_from_the_top_of_the_pile() -> None:
    """ "10 - The current player discards a bonus rule card of their choice and draws a new one from the
    top of the bonus rule card deck" (ruling 9: the old card goes to the bottom)."""
    state = scripted([[c(10, 0), c(3, 0)], [*SEVENS], [c(3, 2)]])
    top = state.bonus_pile[0]
    state.apply(0, "draw.0")
    state.apply(0, discard(c(10, 0)))
    actions = state.legal_actions(0)
    assert [action.code for action in actions] == ["bonus.0", "bonus.1", "bonus.2"]
    assert not any(action.secret for action in actions)
    assert codes(state, 1) == [set_code(*SEVENS)]  # sets stay open during the choice
    state.apply(0, "bonus.1")
    assert [card.id for card in state.bonus_cards] == ["thirteen", top.id, "high"]
    assert state.bonus_pile[-1].id == "wild" and len(state.bonus_pile) == len(BONUS_CARDS) - 3
    assert state.seats_to_act() == (1,)
    assert fields(state.view(None))[f"Bonus rule 2: {top.title}"] == top.text


def test_13_takes_a_token_from_the_middle_or_steals() -> None:
    """ "13 - The current player receives a token from the middle if any are available (they can choose
    which token) and they now have more options for making card sets. If there are no tokens left in the
    middle, steal one from another player" (ruling 15: the taker chooses whose token and which)."""
    reds = of_colour(0)[:3]
    state = scripted([[c(13, 0), *reds], [c(3, 1)], [c(3, 2)]], colours=[[1], [2], [3]])
    state.apply(0, "draw.0")
    state.apply(0, discard(c(13, 0)))
    assert len(state.legal_actions(0)) == 20
    state.apply(0, "token.c0")
    assert state.tokens().colours[0] == [0, 1]
    assert set_code(*reds) in codes(state, 0)  # a new option for sets
    full = [list(range(13)), [], []]
    steal = scripted(
        [[c(13, 0), c(3, 0)], [c(3, 1)], [c(3, 2)]], colours=[[], list(range(13)), []], shapes=full
    )
    steal.apply(0, "draw.0")
    steal.apply(0, discard(c(13, 0)))
    assert all(code.startswith("steal.1.c") for code in codes(steal, 0)) and len(codes(steal, 0)) == 13
    steal.apply(0, "steal.1.c4")
    assert steal.tokens().colours[0] == [4]


# -- The end --------------------------------------------------------------------------------------


def empty_piles_state(discard_size: int, emptied: int = 0, scores=None) -> TokenizeState:
    hands = [[c(3, 0), c(4, 0)], [c(3, 1)], [c(3, 2)]]
    used = {card for hand in hands for card in hand} | {c(12, 0)}
    rest = [card for card in DECK if card not in used]
    return scripted(
        hands, piles=[[c(12, 0)], [], []], discard=rest[:discard_size], emptied=emptied, scores=scores
    )


def test_the_game_ends_when_the_piles_run_out_and_the_discard_pile_has_fewer_than_ten() -> None:
    """ "Once all three draw piles are emptied, check how many cards are in the discard pile. If there are
    less than ten cards the game ends immediately" (ruling 10: even before the drawer's discard)."""
    state = empty_piles_state(9)
    events = state.apply(0, "draw.0")
    assert state.is_terminal() and "only 9 cards" in events[-1].text
    assert state.seats_to_act() == () and state.legal_actions(1) == ()


def test_ten_or_more_are_shuffled_into_three_new_piles() -> None:
    """ "If there are ten or more cards, the discard pile is shuffled and three new draw piles are
    formed." """
    state = empty_piles_state(10)
    events = state.apply(0, "draw.0")
    assert not state.is_terminal()
    assert [len(pile) for pile in piles(state)] == [4, 3, 3] and state.discard_pile == ()
    assert "reshuffle 1 of 2" in events[-1].text
    assert fields(state.view(None))["Reshuffles"].startswith("1 of 2 used")
    state.apply(0, discard(c(3, 0)))
    assert state.discard_pile == (c(3, 0),)


def test_after_the_third_time_the_game_always_ends() -> None:
    """ "Make this check for a second time once the draw piles are emptied again, but after the third time
    the game always ends." """
    second = empty_piles_state(30, emptied=1)
    second.apply(0, "draw.0")
    assert not second.is_terminal()
    third = empty_piles_state(30, emptied=2)
    events = third.apply(0, "draw.0")
    assert third.is_terminal() and "third time" in events[-1].text


def test_the_piles_running_out_during_a_sets_draw_ends_or_refills_at_once() -> None:
    ending = scripted([[*SEVENS], [c(3, 1)], [c(3, 2)]], piles=[[c(12, 0)], [], []])
    ending.apply(0, set_code(*SEVENS))
    assert ending.is_terminal() and ending.hand(0) == (c(12, 0),)
    rest = [card for card in DECK if card not in {*SEVENS, c(3, 1), c(3, 2), c(12, 0)}][:20]
    refill = scripted([[*SEVENS], [c(3, 1)], [c(3, 2)]], piles=[[c(12, 0)], [], []], discard=rest)
    refill.apply(0, set_code(*SEVENS))
    assert not refill.is_terminal() and len(refill.hand(0)) == 3
    assert sum(len(pile) for pile in piles(refill)) == 18


def test_highest_score_wins_and_ties_share() -> None:
    """ "The player with the most points at the end of the game wins" (ruling 13: ties share a rank)."""
    state = empty_piles_state(0, scores=[20, 35, 20])
    with pytest.raises(RuntimeError):
        state.standings()
    state.apply(0, "draw.0")
    assert [standing.rank for standing in state.standings()] == [2, 1, 2]
    assert [standing.points for standing in state.standings()] == [20, 35, 20]


# -- Timeouts, views, determinism -------------------------------------------------------------------


def test_timeout_defaults_never_declare_a_set() -> None:
    """Ruling 11: the first pile, the lowest card without an action, the first fan position, the first
    bonus card, the first token."""
    state = scripted([[*SEVENS, c(2, 0), c(5, 0)], [c(3, 1)], [c(3, 2)]])
    assert state.default_action(0) == "draw.0"
    state.apply(0, "draw.0")
    assert state.default_action(0) == discard(c(5, 0))
    with pytest.raises(IllegalAction):
        state.default_action(1)
    actions_only = scripted([[c(10, 0), c(2, 1)], [c(3, 1)], [c(3, 2)]])
    actions_only.apply(0, "draw.0")
    assert actions_only.default_action(0) == discard(c(2, 1))
    actions_only.apply(0, discard(c(10, 0)))
    assert actions_only.default_action(0) == "bonus.0"


def test_public_view_shows_scores_bonus_rules_piles_and_no_hand() -> None:
    bonus = ("rainbow", "thirteen", "wild")
    state = scripted([[*SEVENS, c(3, 0)], [c(3, 1)], [c(3, 2)]], discard=[c(9, 5)], bonus=bonus)
    state.apply(0, set_code(*SEVENS))
    public = state.view(None)
    table = fields(public)
    assert table["Bonus rule 1: Rainbow"] == BONUS_BY_ID["rainbow"].text
    assert card_label(c(9, 5)) in table["Discard pile"]
    assert "Reshuffles" not in table  # until the piles first run out
    assert table["Tokens in the middle"].startswith("all colours but ")
    assert public.seats[0].summary.startswith("{b:12} pts · 1 set")  # rainbow +2: three colours
    assert "4 cards" in public.seats[0].summary
    assert public.private == () and public.legal_actions == ()
    assert card_label(c(3, 0)) not in str(public.seats) + str(public.table)
    own = fields(state.view(0))
    assert card_label(c(3, 0)) in own["Your hand (4)"] and "Your sets" in own
    state.apply(0, "draw.0")
    assert "You drew" in fields(state.view(0)) and "You drew" not in fields(state.view(1))


def test_replay_rebuilds_the_same_game() -> None:
    state = RULES.new_game(6, seed=17)
    picker = random.Random(5)
    while not state.is_terminal():
        seat = picker.choice([seat for seat in range(6) if state.legal_actions(seat)])
        state.apply(seat, picker.choice(state.legal_actions(seat)).code)
    again = replay(RULES, 6, 17, None, state.history)
    assert again.standings() == state.standings()
    assert all(again.view(seat) == state.view(seat) for seat in [None, *range(6)])


def test_illegal_actions_change_nothing() -> None:
    state = scripted([[*SEVENS, c(3, 0)], [c(3, 1)], [c(3, 2)]])
    before = [state.view(seat) for seat in (None, 0, 1, 2)], state.version
    for seat, code in [
        (1, "draw.0"),
        (0, discard(c(3, 0))),
        (0, "bonus.0"),
        (1, set_code(*SEVENS)),
        (7, "x"),
    ]:
        with pytest.raises(IllegalAction):
            state.apply(seat, code)
    assert ([state.view(seat) for seat in (None, 0, 1, 2)], state.version) == before


def test_scripted_deal_validation() -> None:
    with pytest.raises(ValueError):
        scripted([[c(3, 0)], [c(3, 0)], []])
    with pytest.raises(ValueError):
        scripted([[c(3, 0)], [], []], bonus=("nope", "odds", "evens"))


# -- Properties -----------------------------------------------------------------------------------


def all_cards(state: TokenizeState) -> list[Card]:
    """Every card, wherever it is (public queries; hands are read as their owners would)."""
    cards = [card for seat in range(state.num_seats) for card in state.hand(seat)]
    cards += [card for pile in piles(state) for card in pile]
    cards += [card for seat in range(state.num_seats) for trio in state.sets(seat) for card in trio]
    cards += [*state.discard_pile, *state.set_aside] + ([state.drawn] if state.drawn else [])
    return cards


def check_invariants(state: TokenizeState) -> None:
    assert sorted(all_cards(state)) == list(DECK)
    assert state.tokens().total() == 26
    assert sorted(card.id for card in [*state.bonus_cards, *state.bonus_pile]) == sorted(
        card.id for card in BONUS_CARDS
    )
    assert len(state.bonus_cards) == 3
    assert state.reshuffles <= 2 and state.piles_emptied <= 3
    for seat in range(state.num_seats):
        for trio in state.sets(seat):
            assert set_kind(trio, list(range(13)), list(range(13))) is not None
    check_view_limits(state)


@settings(max_examples=20, deadline=None)
@given(games_in_play(RULES, finish=True))
def test_tokenize_games_end_conserve_cards_and_replay_exactly(game) -> None:
    rules, state = game
    assert state.is_terminal() and state.seats_to_act() == ()
    check_invariants(state)
    standings = state.standings()
    assert [standing.points for standing in standings] == [
        state.score(seat) for seat in range(state.num_seats)
    ]
    again = replay(rules, state.num_seats, state.seed, state.options, state.history)
    assert again.standings() == standings
    assert all(again.view(seat) == state.view(seat) for seat in [None, *range(state.num_seats)])


@settings(max_examples=40, deadline=None)
@given(games_in_play(RULES))
def test_tokenize_mid_game_invariants(game) -> None:
    _, state = game
    check_invariants(state)
    tokens = state.tokens()
    for seat in range(state.num_seats):
        for trio in state.sets_available(seat):
            assert set_kind(trio, tokens.colours[seat], tokens.shapes[seat])
