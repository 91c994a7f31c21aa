"""ERADICIZE rules (engine/frazzled/eradicize.py), each test citing the passage of
shared/seeds/000_d97c66fde1b75dcf.txt (or the ruling in docs/rules/eradicize.md) it checks; hypothesis
properties at the end. ``c(number, k)`` is the k-th card (0..5) of a number in deck order (see helpers).
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings

from engine import IllegalAction, replay
from engine.frazzled import PICK_UP, Eradicize, EradicizeState, Phase, card_label, split_into_piles
from engine.frazzled.deck import DECK, FOURTEEN_ONE, Card, card_by_name, find_card
from engine.frazzled.fan import FanExchange
from tests.engine.conftest import MAX_STEPS, games_in_play, seats_with_actions
from tests.engine.frazzled.helpers import c, check_view_limits, codes

RULES = Eradicize()


def piles(state: EradicizeState) -> list[list[Card]]:
    """The three draw piles, each bottom to top."""
    return [list(state.pile(index)) for index in range(3)]


def play(card: Card) -> str:
    return f"play.{card.id}"


RESERVED_FACE_UP = [c(number, 5) for number in range(6, 14)]
"""Unless a test says otherwise each seat has one face-up card (so playing its last hand card does not
end the game); the tests use none of these cards elsewhere."""


def scripted(hands, **kwargs) -> EradicizeState:
    kwargs.setdefault("face_up", [[RESERVED_FACE_UP[seat]] for seat in range(len(hands))])
    return EradicizeState.scripted(len(hands), hands, **kwargs)


# -- Setup ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", range(3, 9))
def test_deal_six_in_hand_three_face_up_and_three_face_up_piles(players: int) -> None:
    """ "deal six cards to each player ... Deal an additional three cards to each player face up ... Split
    the remaining cards into three equal decks" (as equal as the count allows)."""
    state = RULES.new_game(players, seed=players)
    assert all(len(state.hand(seat)) == 6 and len(state.face_up(seat)) == 3 for seat in range(players))
    sizes = [len(pile) for pile in piles(state)]
    assert sum(sizes) == 78 - 9 * players and max(sizes) - min(sizes) <= 1
    assert state.discard_pile == ()
    everything = [card for seat in range(players) for card in state.hand(seat) + state.face_up(seat)]
    everything += [card for pile in piles(state) for card in pile]
    assert sorted(everything) == list(DECK)


def test_split_into_piles_puts_extra_cards_on_the_first_piles() -> None:
    piles = split_into_piles(list(DECK[:8]))
    assert [len(pile) for pile in piles] == [3, 3, 2]
    assert [card for pile in piles for card in pile] == list(DECK[:8])


@pytest.mark.parametrize("players", [3, 8])
def test_tokens_one_colour_and_one_shape_each_the_rest_in_the_middle(players: int) -> None:
    """ "Give each player one of the coloured circular tokens and one of the shape tokens and put the
    remaining tokens in the middle" (ruling 12: dealt at random, no two players alike)."""
    state = RULES.new_game(players, seed=11)
    tokens = state.tokens()
    assert all(len(tokens.colours[seat]) == 1 and len(tokens.shapes[seat]) == 1 for seat in range(players))
    assert len({tokens.colours[seat][0] for seat in range(players)}) == players
    assert len({tokens.shapes[seat][0] for seat in range(players)}) == players
    assert len(tokens.middle_colours) == 13 - players and len(tokens.middle_shapes) == 13 - players
    assert tokens.total() == 26


def test_first_player_is_drawn_from_the_seed() -> None:
    """ "Decide who goes first" (ruling 1: the table's seed picks the first player)."""
    firsts = {RULES.new_game(5, seed=seed).seats_to_act() for seed in range(40)}
    assert firsts == {(seat,) for seat in range(5)}
    assert RULES.new_game(5, seed=3).seats_to_act() == RULES.new_game(5, seed=3).seats_to_act()


def test_player_count_outside_3_to_8_is_refused() -> None:
    for players in (2, 9):
        with pytest.raises(ValueError, match="3 to 8 players"):
            RULES.new_game(players, seed=1)


def test_no_options() -> None:
    with pytest.raises(ValueError):
        RULES.new_game(3, seed=1, options={"bonus": True})


# -- How to play ----------------------------------------------------------------------------------


def test_first_play_may_be_any_card_and_turns_pass_to_the_left() -> None:
    """ "This player plays any card from their hand on to the discard pile" (ruling 3: an empty discard
    pile takes any card); play passes to the left, the next seat (ruling 1)."""
    state = scripted([[c(3, 0), c(5, 0)], [c(4, 1)], [c(8, 1)]], first=1)
    assert state.seats_to_act() == (1,)
    assert codes(state, 1) == [play(c(4, 1))]
    state.apply(1, play(c(4, 1)))
    assert state.seats_to_act() == (2,)


def test_a_play_must_be_higher_or_match_a_colour_or_shape_token() -> None:
    """ "A higher number than the previous card ... A colour matching the colour token of the player ... A
    shape matching the shape token of the player." An equal number is not higher."""
    top = c(8, 0)  # colour 7, shape 7
    low_colour = c(3, 5)  # colour 2+5=7: matches a colour-7 token
    low_shape = c(2, 3)  # shape 1+6=7: matches a shape-7 token
    equal = c(8, 1)
    higher = c(9, 0)
    plain = c(3, 0)  # colour 2, shape 2
    hand = [low_colour, low_shape, equal, higher, plain]
    no_match = scripted(
        [hand, [c(12, 0)], [c(12, 1)]], discard=[top], colours=[[0], [1], [3]], shapes=[[0], [1], [3]]
    )
    assert codes(no_match, 0) == [play(higher)]
    with_colour = scripted(
        [hand, [c(12, 0)], [c(12, 1)]], discard=[top], colours=[[7], [1], [3]], shapes=[[0], [1], [3]]
    )
    assert set(codes(with_colour, 0)) == {play(higher), play(low_colour)}
    with_shape = scripted(
        [hand, [c(12, 0)], [c(12, 1)]], discard=[top], colours=[[0], [1], [3]], shapes=[[7], [1], [3]]
    )
    assert set(codes(with_shape, 0)) == {play(higher), play(low_shape)}
    with pytest.raises(IllegalAction, match="does not beat"):
        no_match.apply(0, play(equal))


def test_plays_are_secret_one_group_and_name_their_reason() -> None:
    state = scripted([[c(5, 0), c(9, 0)], [c(3, 0)], [c(3, 1)]], discard=[c(4, 0)], colours=[[4], [1], [2]])
    actions = {action.code: action for action in state.legal_actions(0)}
    assert all(action.secret and action.group == "Play a card…" for action in actions.values())
    assert "higher" in actions[play(c(9, 0))].description
    assert state.public_actions() == ()


def test_the_14_1_beats_anything_and_counts_as_1_for_the_next_card() -> None:
    """ "14/1 card can be played as a 14 and becomes a 1 for the purposes of the next card, thus resetting
    the count" (ruling 2: always played as 14; there is no separate "as 1" play)."""
    ace = c(FOURTEEN_ONE, 0)
    state = scripted(
        [[ace, c(3, 1)], [c(2, 2), c(4, 2)], [c(5, 3)]],
        discard=[c(13, 0)],
        colours=[[12], [11], [10]],
        shapes=[[12], [1], [2]],
    )
    assert not state.can_play(0, c(3, 1))
    assert codes(state, 0) == [play(ace)]  # one code for the 14/1: no "as 1" choice
    assert "counts as 1 next" in state.legal_actions(0)[0].description
    state.apply(0, play(ace))
    assert state.top_value == 1
    assert "counts as 1" in state.view(None).table[0].value
    after = scripted([[c(2, 2), c(4, 2)], [c(5, 3)], [c(7, 3)]], discard=[c(13, 0), ace])
    assert set(codes(after, 0)) == {play(c(2, 2)), play(c(4, 2))}  # anything above 1
    after.apply(0, play(c(2, 2)))
    assert after.top_value == 2
    # a 14/1 on a 14/1: 14 beats 1
    again = scripted([[c(FOURTEEN_ONE, 1), c(3, 1)], [c(4, 2)], [c(5, 3)]], discard=[ace])
    assert play(c(FOURTEEN_ONE, 1)) in codes(again, 0)


def test_a_player_who_cannot_play_picks_up_the_whole_discard_pile() -> None:
    """ "If a player cannot play a card, they must pick up the entire discard pile into their hand" (ruling
    4: no draw after a pick-up; ruling 10: the pick-up is offered only privately)."""
    pile = [c(3, 0), c(9, 0), c(12, 0)]
    state = scripted(
        [[c(4, 1), c(5, 1)], [c(6, 0)], [c(7, 0)]],
        discard=pile,
        piles=[[c(8, 3)], [c(8, 4)], []],
        colours=[[12], [1], [2]],
        shapes=[[12], [1], [2]],
    )
    (pickup,) = state.legal_actions(0)
    assert pickup.code == PICK_UP and pickup.secret
    assert state.public_actions() == ()
    assert state.default_action(0) == PICK_UP
    state.apply(0, PICK_UP)
    assert sorted(state.hand(0)) == sorted([c(4, 1), c(5, 1), *pile])
    assert state.discard_pile == () and len(state.pile(0)) == 1
    assert state.seats_to_act() == (1,)
    assert codes(state, 1) == [play(c(6, 0))]  # empty pile: anything goes


def test_resampling_keeps_the_picked_up_pile_in_the_hand_that_took_it() -> None:
    """Everyone saw the discard pile go into the hand: a resample for another viewer keeps it there and
    redraws only the rest of that hand."""
    pile = [c(3, 0), c(9, 0), c(12, 0)]
    state = scripted(
        [[c(4, 1), c(5, 1)], [c(6, 0)], [c(7, 0)]],
        discard=pile,
        piles=[[c(8, 3)], [c(8, 4)], []],
        colours=[[12], [1], [2]],
        shapes=[[12], [1], [2]],
    )
    state.apply(0, PICK_UP)
    resamples = [state.resample_hidden(1, random.Random(seed)) for seed in range(10)]
    assert all(set(pile) <= set(other.hand(0)) and len(other.hand(0)) == 5 for other in resamples)
    assert any(other.hand(0) != state.hand(0) for other in resamples)


def test_pick_up_is_refused_while_a_play_exists() -> None:
    state = scripted([[c(9, 1)], [c(6, 0)], [c(7, 0)]], discard=[c(3, 0)])
    with pytest.raises(IllegalAction, match="You can play a card"):
        state.apply(0, PICK_UP)


def test_after_playing_draw_a_card_from_a_pile_of_your_choice() -> None:
    """ "After playing a card the player must draw a new card from one of the draw piles" (face up: the
    piles' tops are public, so the draw buttons are public)."""
    state = scripted(
        [[c(5, 0), c(7, 1)], [c(6, 0)], [c(7, 0)]],
        piles=[[c(3, 3), c(9, 2)], [c(11, 2)], [c(12, 2)]],
    )
    state.apply(0, play(c(5, 0)))
    assert state.seats_to_act() == (0,)
    assert codes(state, 0) == ["draw.0", "draw.1", "draw.2"]
    assert [action.label for action in state.public_actions()][0] == f"Draw {card_label(c(9, 2))} (pile 1)"
    state.apply(0, "draw.0")
    assert c(9, 2) in state.hand(0) and state.pile(0) == (c(3, 3),)
    assert state.seats_to_act() == (1,)


def test_the_draw_is_automatic_with_only_one_pile_left() -> None:
    state = scripted([[c(5, 0), c(7, 1)], [c(6, 0)], [c(7, 0)]], piles=[[], [c(11, 2)], []])
    events = state.apply(0, play(c(5, 0)))
    assert c(11, 2) in state.hand(0)
    assert any("drew" in event.text for event in events)
    assert state.seats_to_act() == (1,)


def test_no_drawing_once_the_draw_piles_are_empty() -> None:
    """ "Once all three draw piles are emptied, no players need to pick up a card and each player's hand
    size will start to reduce." """
    state = scripted([[c(5, 0), c(7, 1)], [c(6, 0)], [c(7, 0)]])
    state.apply(0, play(c(5, 0)))
    assert state.hand(0) == (c(7, 1),)
    assert state.seats_to_act() == (1,)


# -- The face-up cards ----------------------------------------------------------------------------


def test_face_up_cards_only_once_the_hand_is_empty() -> None:
    """ "may not play them until they have played all cards in their hand." """
    state = scripted(
        [[c(5, 0)], [c(7, 3), c(3, 2)], [c(8, 0), c(3, 3)]],
        face_up=[[c(9, 0), c(10, 1)], [RESERVED_FACE_UP[1]], [RESERVED_FACE_UP[2]]],
    )
    assert codes(state, 0) == [play(c(5, 0))]
    with pytest.raises(IllegalAction, match="hand before your face-up"):
        state.apply(0, play(c(9, 0)))
    state.apply(0, play(c(5, 0)))
    state.apply(1, play(c(7, 3)))
    state.apply(2, play(c(8, 0)))
    assert set(codes(state, 0)) == {play(c(9, 0)), play(c(10, 1))}
    assert "(face up)" in state.legal_actions(0)[0].label
    state.apply(0, play(c(9, 0)))
    assert state.face_up(0) == (c(10, 1),)


def test_face_up_cards_wait_again_after_picking_up_the_pile() -> None:
    """ "If they later pick up the discard pile or are passed any cards, they must again play all the cards
    in their hand before playing any of the face up cards." """
    state = scripted(
        [[], [c(7, 3)], [c(8, 0)]],
        face_up=[[c(3, 0)], [RESERVED_FACE_UP[1]], [RESERVED_FACE_UP[2]]],
        discard=[c(11, 0)],
        colours=[[12], [1], [2]],
        shapes=[[12], [1], [2]],
    )
    assert codes(state, 0) == [PICK_UP]
    state.apply(0, PICK_UP)
    assert state.hand(0) == (c(11, 0),)
    state.apply(1, play(c(7, 3)))
    state.apply(2, play(c(8, 0)))
    assert codes(state, 0) == [play(c(11, 0))]


# -- Actions: 14/1 and 2 ----------------------------------------------------------------------------


def three_for_an_exchange(action: Card) -> EradicizeState:
    return scripted(
        [[action, c(3, 0), c(4, 0)], [c(5, 0), c(7, 2)], [c(8, 0)]],
        face_up=[[c(12, 0)], [c(12, 1)], [c(12, 2)]],
    )


def test_14_1_everyone_picks_one_card_from_the_fan_on_their_right_at_once() -> None:
    """ "14/1 - All players fan out their cards face down and let the player to their left select one."
    Every picker acts at once; fan positions reveal nothing (ruling 5)."""
    state = three_for_an_exchange(c(FOURTEEN_ONE, 0))
    events = state.apply(0, play(c(FOURTEEN_ONE, 0)))
    assert "picks 1 card" in events[-1].text
    assert state.seats_to_act() == (0, 1, 2)
    assert codes(state, 0) == ["fan.0"]  # seat 2 holds one card
    assert codes(state, 1) == ["fan.0", "fan.1"]  # seat 0 holds two after playing
    assert codes(state, 2) == ["fan.0", "fan.1"]
    labels = [action.label for action in state.legal_actions(1)]
    assert labels == ["Card 1 of the fan to your right", "Card 2 of the fan to your right"]
    assert not any(action.secret for action in state.legal_actions(1))
    before = {seat: state.hand(seat) for seat in range(3)}
    state.apply(2, "fan.1")
    assert state.seats_to_act() == (0, 1)
    assert {seat: state.hand(seat) for seat in range(3)} == before  # nothing moves until all have picked
    state.apply(1, "fan.0")
    state.apply(0, "fan.0")
    assert state.seats_to_act() == (1,)  # seat 1's turn: play passed left after the action
    assert sum(len(state.hand(seat)) for seat in range(3)) == 5
    assert c(8, 0) in state.hand(0)  # seat 0 took seat 2's only card
    # every card a seat received is in its hand and its private note, never in the public log
    note = {field.name: field.value for field in state.view(0).private}["Last exchange"]
    assert card_label(c(8, 0)) in note
    assert all(field.name != "Last exchange" for field in state.view(None).private)


def test_2_everyone_picks_two_cards_one_after_the_other() -> None:
    """ "2 - ... let the player to their left select two." The two picks are two decisions; the second
    cannot take the position already picked."""
    state = three_for_an_exchange(c(2, 0))
    state.apply(0, play(c(2, 0)))
    assert codes(state, 2) == ["fan.0", "fan.1"]
    state.apply(2, "fan.1")
    assert codes(state, 2) == ["fan.0"]
    with pytest.raises(IllegalAction, match="other cards of the fan"):
        state.apply(2, "fan.1")
    state.apply(2, "fan.0")
    assert 2 not in state.seats_to_act()
    state.apply(1, state.default_action(1))
    state.apply(1, state.default_action(1))
    state.apply(0, state.default_action(0))  # seat 2 has one card only: seat 0 picks one (ruling 5)
    assert state.seats_to_act() == (1,)
    assert state.hand(2) == (c(5, 0), c(7, 2))  # seat 2 took both of seat 1's cards
    assert state.hand(1) == (c(3, 0), c(4, 0))
    assert state.hand(0) == (c(8, 0),)


def test_an_empty_hand_passes_nothing_but_its_owner_still_picks() -> None:
    """ "If an action card is played and a player has no cards in their hand, they pass nothing to their
    left but do receive cards from their right." """
    state = scripted(
        [[c(FOURTEEN_ONE, 0), c(3, 0)], [], [c(8, 0), c(9, 0)]],
        face_up=[[c(12, 0)], [c(12, 1)], [c(12, 2)]],
    )
    state.apply(0, play(c(FOURTEEN_ONE, 0)))
    assert state.seats_to_act() == (0, 1)  # seat 2's right neighbour (seat 1) has nothing to fan
    state.apply(0, "fan.0")
    state.apply(1, "fan.0")
    assert state.hand(1) == (c(3, 0),)  # the empty hand passed nothing and received
    assert len(state.hand(0)) == 1 and len(state.hand(2)) == 1


def test_an_exchange_with_no_hands_at_all_does_nothing() -> None:
    state = scripted([[c(FOURTEEN_ONE, 0)], [], []], face_up=[[c(12, 0)], [c(12, 1)], [c(12, 2)]])
    state.apply(0, play(c(FOURTEEN_ONE, 0)))
    assert state.seats_to_act() == (1,)


def test_face_up_cards_are_never_passed() -> None:
    """ "Face up cards are not traded when a 1, 2 or 6 action card is played." """
    for action in (c(FOURTEEN_ONE, 0), c(2, 0), c(6, 0)):
        state = three_for_an_exchange(action)
        face_up = [state.face_up(seat) for seat in range(3)]
        state.apply(0, play(action))
        while 1 not in state.seats_to_act() or len(state.seats_to_act()) > 1:
            seat = state.seats_to_act()[0]
            state.apply(seat, state.default_action(seat))
        assert [state.face_up(seat) for seat in range(3)] == face_up


def test_fan_order_is_shuffled_by_the_seed() -> None:
    orders = set()
    for seed in range(12):
        state = EradicizeState.scripted(
            3, [[c(FOURTEEN_ONE, 0), c(3, 0), c(4, 0), c(5, 0)], [c(6, 0)], [c(7, 0)]], seed=seed
        )
        state.apply(0, play(c(FOURTEEN_ONE, 0)))
        assert state.phase is Phase.FAN
        orders.add(state.fan_cards(1))
    assert len(orders) > 1


def test_fan_exchange_need_is_capped_by_the_fan() -> None:
    """Ruling 5: a fan with fewer cards than the action asks for is taken whole; an empty one not at all."""
    fan = FanExchange.start([[c(3, 0)], [], [c(4, 0), c(5, 0), c(6, 0)]], 2, random.Random(1))
    assert fan.need(1) == 1 and fan.need(0) == 2 and fan.need(2) == 0
    assert fan.waiting() == (0, 1)


def test_a_large_fan_is_offered_whole_in_one_group() -> None:
    """The engine offers every position of the decision in one group; fitting it to Discord is the
    renderer's business."""
    big = list(DECK[:40])
    fan = FanExchange.start([big, [c(13, 0)], [c(13, 1)]], 2, random.Random(1))
    actions = fan.actions(1)
    assert len(actions) == 40
    assert {action.group for action in actions} == {"Pick a first card from the fan to your right…"}
    fan.pick(1, 3)
    assert len(fan.actions(1)) == 39 and "second" in fan.actions(1)[0].group
    assert len({action.group for action in fan.actions(1)}) == 1
    assert len(fan.public_actions()) == 40
    assert len({action.group for action in fan.public_actions()}) == 1


# -- Actions: 6, 10, 13 -----------------------------------------------------------------------------


def test_6_everyone_passes_their_whole_hand_to_the_left() -> None:
    """ "6 - All players pass their entire hand to their left"; an empty hand passes nothing."""
    state = scripted(
        [[c(6, 0), c(3, 0)], [], [c(8, 0), c(9, 0), c(10, 0)]],
        face_up=[[c(12, 0)], [c(12, 1)], [c(12, 2)]],
    )
    state.apply(0, play(c(6, 0)))
    assert state.hand(1) == (c(3, 0),)
    assert state.hand(2) == ()
    assert state.hand(0) == (c(8, 0), c(9, 0), c(10, 0))
    assert state.seats_to_act() == (1,)
    notes = {field.name: field.value for field in state.view(0).private}
    assert notes["Last exchange"] == "You passed your hand (1 card) left and got 3 cards from your right."


def test_10_removes_the_discard_pile_but_starts_a_new_one() -> None:
    """ "10 - The discard pile is removed from the game, but the 10 is left to start a new discard pile." """
    below = [c(3, 0), c(5, 0), c(7, 0)]
    state = scripted([[c(10, 0), c(3, 1)], [c(11, 0)], [c(12, 0)]], discard=below)
    state.apply(0, play(c(10, 0)))
    assert state.discard_pile == (c(10, 0),)
    assert state.removed == tuple(below)
    assert state.top_value == 10
    assert (
        "3 cards cleared" in {field.name: field.value for field in state.view(None).table}["Out of the game"]
    )


def test_13_takes_a_token_of_your_choice_from_the_middle() -> None:
    """ "13 - The current player receives a token from the middle if any are available (they can choose
    which token) and they now have more options when playing cards." """
    state = scripted([[c(13, 0), c(3, 1)], [c(11, 0)], [c(12, 1)]])
    state.apply(0, play(c(13, 0)))
    actions = state.legal_actions(0)
    assert len(actions) == 20  # 10 colours and 10 shapes in the middle
    assert all(action.group for action in actions) and not any(action.secret for action in actions)
    assert state.public_actions() == actions
    state.apply(0, "token.c5")
    assert state.tokens().colours[0] == [0, 5] and 5 not in state.tokens().middle_colours
    assert state.seats_to_act() == (1,)


def test_13_steals_when_the_middle_is_empty() -> None:
    """ "If there are no tokens left in the middle, steal one from another player" (ruling 8: the taker
    chooses whose token and which)."""
    colours = [[0, 1, 2, 3], [4, 5, 6, 7, 8], [9, 10, 11, 12]]
    shapes = [[0, 1, 2, 3], [4, 5, 6, 7, 8], [9, 10, 11, 12]]
    state = scripted([[c(13, 0), c(3, 1)], [c(11, 0)], [c(12, 1)]], colours=colours, shapes=shapes)
    state.apply(0, play(c(13, 0)))
    codes_now = codes(state, 0)
    assert len(codes_now) == 18 and all(code.startswith("steal.") for code in codes_now)
    events = state.apply(0, "steal.2.s10")
    assert state.tokens().shapes[0] == [0, 1, 2, 3, 10] and 10 not in state.tokens().shapes[2]
    assert "player 3" in events[0].text


def test_13_with_no_token_anywhere_to_take_does_nothing() -> None:
    everything = [list(range(13)), [], []]
    state = scripted([[c(13, 0), c(3, 1)], [c(11, 0)], [c(12, 1)]], colours=everything, shapes=everything)
    events = state.apply(0, play(c(13, 0)))
    assert "no token" in events[-1].text
    assert state.seats_to_act() == (1,)


def test_a_new_token_makes_more_cards_playable() -> None:
    state = scripted(
        [[c(13, 0), c(3, 0)], [c(11, 0)], [c(12, 1)]], colours=[[5], [1], [4]], shapes=[[5], [1], [4]]
    )
    """ "they now have more options when playing cards": a 3 goes on a 12 once its colour is yours."""
    state.apply(0, play(c(13, 0)))
    state.apply(0, f"token.c{c(3, 0).colour}")
    assert codes(state, 1) == [PICK_UP]  # 11 does not beat 13
    state.apply(1, PICK_UP)
    state.apply(2, play(c(12, 1)))
    assert not c(3, 0).number > state.top_value and codes(state, 0) == [play(c(3, 0))]


def test_the_action_comes_after_the_draw() -> None:
    """Ruling 4: the drawn card is in the hand before the action, so a 6 passes it on."""
    state = scripted([[c(6, 0), c(3, 0)], [c(7, 0)], [c(8, 0)]], piles=[[c(9, 1)], [c(10, 1)], []])
    state.apply(0, play(c(6, 0)))
    assert state.seats_to_act() == (0,)
    state.apply(0, "draw.1")
    assert state.hand(1) == (c(3, 0), c(10, 1))


# -- Winning ----------------------------------------------------------------------------------------


def test_first_player_out_of_cards_wins_and_the_rest_rank_by_cards_left() -> None:
    """ "The first player to do this wins the game" (ruling 6: at once, before any draw or action); the
    others rank by cards left, fewer first, ties sharing (ruling 7)."""
    state = scripted(
        [[], [c(3, 0), c(4, 0)], [c(5, 0), c(6, 0)]],
        face_up=[[c(13, 2)], [c(3, 1)], []],
        piles=[[c(9, 0)], [c(9, 1)], []],
    )
    events = state.apply(0, play(c(13, 2)))
    assert state.is_terminal() and state.seats_to_act() == ()
    assert "wins" in events[-1].text
    assert len(state.pile(0)) == 1  # no draw for the winner
    standings = state.standings()
    assert [standing.points for standing in standings] == [0, 3, 2]
    assert [standing.rank for standing in standings] == [1, 3, 2]
    assert state.legal_actions(1) == ()
    with pytest.raises(IllegalAction, match="over"):
        state.apply(1, play(c(3, 0)))


def test_an_exchange_that_empties_a_player_makes_them_win_and_ties_share() -> None:
    """Ruling 6: after a 6, every player left with no cards at all has got rid of them; several share."""
    state = scripted(
        [[c(6, 0), c(3, 0)], [], [c(8, 0)], []],
        face_up=[[c(12, 0)], [c(12, 1)], [], [c(12, 2)]],
    )
    state.apply(0, play(c(6, 0)))
    # seat 2 passes its card to seat 3 and receives seat 1's empty hand: out of cards
    assert state.is_terminal()
    assert [standing.points for standing in state.standings()] == [1, 2, 0, 2]
    assert [standing.rank for standing in state.standings()] == [2, 3, 1, 3]
    tied = scripted(
        [[c(6, 0), c(3, 0)], [], [c(8, 0)], [], [c(9, 0)]],
        face_up=[[c(12, 0)], [c(12, 1)], [], [c(12, 2)], []],
    )
    tied.apply(0, play(c(6, 0)))
    # seats 2 and 4 pass their card on and receive an empty hand: both are out at once
    assert tied.is_terminal()
    assert [standing.rank for standing in tied.standings()] == [3, 3, 1, 3, 1]


def test_standings_before_the_end_raise() -> None:
    with pytest.raises(RuntimeError):
        RULES.new_game(3, seed=1).standings()


# -- Timeouts -------------------------------------------------------------------------------------


def test_timeout_defaults_are_the_quiet_lowest_card_first_pile_first_position_first_token() -> None:
    """Ruling 9: the lowest playable card without an action, else the lowest playable card, else the
    pick-up; the first pile; the first fan position not yet picked; the first token offered."""
    state = scripted(
        [[c(2, 0), c(5, 0), c(9, 0)], [c(3, 1), c(4, 1)], [c(7, 1)]],
        piles=[[c(11, 3)], [c(11, 4)], []],
    )
    assert state.default_action(0) == play(c(5, 0))  # the 2 has an action
    state.apply(0, play(c(5, 0)))
    assert state.default_action(0) == "draw.0"
    with pytest.raises(IllegalAction):
        state.default_action(1)
    only_actions = scripted([[c(2, 0), c(6, 1)], [c(3, 1)], [c(7, 1)]])
    assert only_actions.default_action(0) == play(c(2, 0))
    stuck = scripted([[c(3, 0)], [c(4, 1)], [c(7, 1)]], discard=[c(13, 3)], colours=[[12], [1], [2]])
    assert not stuck.playable(0) and stuck.default_action(0) == PICK_UP
    exchange = three_for_an_exchange(c(2, 0))
    exchange.apply(0, play(c(2, 0)))
    exchange.apply(1, "fan.0")
    assert exchange.default_action(1) == "fan.1"
    token = scripted([[c(13, 0), c(3, 1)], [c(11, 0)], [c(12, 1)]])
    token.apply(0, play(c(13, 0)))
    assert token.default_action(0) == "token.c3"


@pytest.mark.parametrize("players", [3, 8])
def test_a_game_of_timeouts_ends(players: int) -> None:
    state = RULES.new_game(players, seed=5)
    steps = 0
    while not state.is_terminal():
        seat = state.seats_to_act()[0]
        state.apply(seat, state.default_action(seat))
        steps += 1
        assert steps < 5000
    assert min(standing.rank for standing in state.standings()) == 1


# -- Views ------------------------------------------------------------------------------------------


def test_public_view_shows_the_table_and_no_hand() -> None:
    state = scripted(
        [[c(5, 0), c(7, 1)], [c(6, 0)], [c(7, 0)]],
        face_up=[[c(12, 0)], [], [c(13, 1)]],
        piles=[[c(3, 3), c(9, 2)], [c(11, 2)], []],
        discard=[c(4, 4)],
    )
    public = state.view(None)
    table = {field.name: field.value for field in public.table}
    assert card_label(c(9, 2)) in table["Draw piles"] and card_label(c(3, 3)) not in table["Draw piles"]
    assert "(2)" in table["Draw piles"] and "empty" in table["Draw piles"]
    assert card_label(c(4, 4)) in table["Discard pile"] and table["Discard pile"].endswith("on top of 1")
    assert table["Tokens in the middle"].startswith("all colours but ")
    assert public.private == () and public.legal_actions == ()
    assert "2 in hand" in public.seats[0].summary and card_label(c(12, 0)) in public.seats[0].summary
    assert card_label(c(5, 0)) not in str(public)
    own = {field.name: field.value for field in state.view(0).private}
    assert card_label(c(5, 0)) in own["Your hand (2)"]
    assert card_label(c(6, 0)) not in str(state.view(0))


def test_replay_rebuilds_the_same_game() -> None:
    state = RULES.new_game(5, seed=99)
    picker = random.Random(3)
    while not state.is_terminal():
        seat = picker.choice(state.seats_to_act())
        state.apply(seat, picker.choice(state.legal_actions(seat)).code)
    again = replay(RULES, 5, 99, None, state.history)
    assert again.standings() == state.standings()
    assert again.view(None) == state.view(None)
    assert all(again.view(seat) == state.view(seat) for seat in range(5))


def test_illegal_actions_change_nothing() -> None:
    state = three_for_an_exchange(c(FOURTEEN_ONE, 0))
    before = [state.view(seat) for seat in (None, 0, 1, 2)], state.version
    for seat, code in [(1, play(c(5, 0))), (0, "fan.0"), (0, play(c(9, 9 % 6))), (5, PICK_UP), (0, PICK_UP)]:
        with pytest.raises(IllegalAction):
            state.apply(seat, code)
    assert ([state.view(seat) for seat in (None, 0, 1, 2)], state.version) == before


def test_scripted_deal_validation() -> None:
    with pytest.raises(ValueError):
        scripted([[c(3, 0)], [c(3, 0)], []])
    with pytest.raises(ValueError):
        EradicizeState.scripted(3, [[], []])


def test_card_helpers() -> None:
    assert card_by_name("7 Sky") == find_card(7, colour=6) == c(7, 0)
    assert card_by_name("14/1 Red") == c(FOURTEEN_ONE, 0)
    with pytest.raises(ValueError):
        find_card(7)


# -- Properties -----------------------------------------------------------------------------------


def all_cards(state: EradicizeState) -> list[Card]:
    """Every card, wherever it is (public queries; hands are read as their owners would)."""
    cards = [card for seat in range(state.num_seats) for card in state.hand(seat) + state.face_up(seat)]
    cards += [card for pile in piles(state) for card in pile]
    return cards + [*state.discard_pile, *state.removed, *state.set_aside]


def test_a_forced_cycle_ends_at_the_third_repetition_and_ranks_by_cards_left() -> None:
    """Ruling 16. Three players, seed 10, random play: after the piles run out, seat 0 holds an 11, seat 2 a
    10 and no face-up card beats either, so the same plays and pick-ups would repeat for ever with no choice
    left. The third time the same position comes round, the game ends with no winner, ranked by cards left
    (fewer first, ties sharing a rank)."""
    state = RULES.new_game(3, seed=10)
    picker = random.Random(10)
    for _ in range(MAX_STEPS):
        if state.is_terminal():
            break
        assert not state.ended_in_stalemate
        seat = picker.choice(seats_with_actions(state))
        legal = state.legal_actions(seat)
        events = state.apply(seat, legal[picker.randrange(len(legal))].code)
    assert state.is_terminal() and state.ended_in_stalemate
    assert any("three times" in event.text for event in events)
    assert not any(state.is_winner(seat) for seat in range(3))
    assert all(state.pile(index) == () for index in range(3))
    left = [state.cards_left(seat) for seat in range(3)]
    assert [standing.points for standing in state.standings()] == left
    assert [standing.rank for standing in state.standings()] == [
        1 + sum(other < mine for other in left) for mine in left
    ]


@settings(max_examples=25, deadline=None)
@given(games_in_play(RULES, finish=True))
def test_eradicize_games_end_conserve_cards_and_replay_exactly(game) -> None:
    rules, state = game
    assert state.is_terminal() and state.seats_to_act() == ()
    assert sorted(all_cards(state)) == list(DECK)
    assert state.tokens().total() == 26
    standings = state.standings()
    if state.ended_in_stalemate:  # nobody went out: ranked by the cards each has left, and nobody "wins"
        left = [state.cards_left(seat) for seat in range(state.num_seats)]
        assert not any(state.is_winner(seat) for seat in range(state.num_seats))
        assert [standing.rank for standing in standings] == [
            1 + sum(other < mine for other in left) for mine in left
        ]
    else:
        winners = [standing.seat for standing in standings if standing.rank == 1]
        assert winners == [seat for seat in range(state.num_seats) if state.is_winner(seat)]
        assert all(state.cards_left(seat) == 0 for seat in winners)
    again = replay(rules, state.num_seats, state.seed, state.options, state.history)
    assert again.standings() == standings
    assert all(again.view(seat) == state.view(seat) for seat in [None, *range(state.num_seats)])
    check_view_limits(state)


@settings(max_examples=40, deadline=None)
@given(games_in_play(RULES))
def test_eradicize_mid_game_invariants(game) -> None:
    _, state = game
    assert sorted(all_cards(state)) == list(DECK)
    assert state.tokens().total() == 26
    check_view_limits(state)
    if state.phase is Phase.FAN:
        for picker in range(state.num_seats):
            if state.fan_cards(picker):
                assert sorted(state.fan_cards(picker)) == sorted(state.hand((picker - 1) % state.num_seats))
