"""Frazzled Wool's MINIMIZE rules (engine/frazzled/minimize.py), each test citing the passage of
shared/seeds/000_d97c66fde1b75dcf.txt (or the ruling of docs/rules/minimize.md) it checks."""

from __future__ import annotations

import random
import re
from collections import Counter

import pytest
from hypothesis import given, settings

from engine import IllegalAction, replay
from engine.frazzled import (
    CHALLENGE,
    FLIP_ACTIONS,
    FLIP_DUPLICATES,
    FrazzledMinimize,
    FrazzledMinimizeState,
    Phase,
    card_label,
    score_hand,
)
from engine.frazzled.deck import COLOURS, DECK, FOURTEEN_ONE, Card
from engine.frazzled.rule_cards import BONUS_BY_ID, BONUS_CARDS, COLOUR_SIDE, SHAPE_SIDE
from tests.engine.conftest import MAX_STEPS, cards_as_text, games_in_play, seats_with_actions

MINIMIZE = FrazzledMinimize()
ACE = FOURTEEN_ONE
PLAIN = (3, 4, 5, 7, 8, 9, 11, 12)  # numbers without an action


class Dealer:
    """Hands out unused cards: hands with all colours and shapes distinct (so the Shape or Colour card
    adds nothing unless a test wants it), and pile cards."""

    def __init__(self) -> None:
        self.used: set[Card] = set()

    def hand(self, *numbers: int, start: tuple[Card, ...] = ()) -> list[Card]:
        """Cards of ``numbers`` (after the ``start`` cards), no two sharing a colour or a shape."""
        chosen = self.search(list(numbers), list(start))
        assert chosen is not None, f"no hand {numbers} with distinct colours and shapes"
        self.used.update(chosen)
        return chosen[len(start) :]

    def search(self, numbers: list[int], chosen: list[Card]) -> list[Card] | None:
        if not numbers:
            return chosen
        for card in DECK:
            if (
                card.number == numbers[0]
                and card not in self.used
                and card not in chosen
                and all(card.colour != c.colour and card.shape != c.shape for c in chosen)
            ):
                found = self.search(numbers[1:], [*chosen, card])
                if found is not None:
                    return found
        return None

    def pile(self, size: int) -> list[Card]:
        """``size`` unused cards without an action, from the numbers with the most left."""
        out = []
        for _ in range(size):
            left = Counter(c.number for c in DECK if c not in self.used and c.number in PLAIN)
            out += self.cards(max(left, key=lambda number: (left[number], number)))
        return out

    def cards(self, *numbers: int) -> list[Card]:
        out = []
        for number in numbers:
            card = next(c for c in DECK if c.number == number and c not in self.used)
            self.used.add(card)
            out.append(card)
        return out


def scripted(dealer: Dealer, hands, piles=None, **kwargs) -> FrazzledMinimizeState:
    """A state without bonus cards unless given (so scores are range − pro points)."""
    if piles is None:
        piles = [dealer.pile(3), dealer.pile(2), dealer.pile(1)]
    kwargs.setdefault("bonus", ())
    return FrazzledMinimizeState.scripted(hands, piles, **kwargs)


def codes(state: FrazzledMinimizeState, seat: int) -> list[str]:
    return [action.code for action in state.legal_actions(seat)]


def piles(state: FrazzledMinimizeState) -> list[list[Card]]:
    """The three draw piles, each bottom to top (the last card is the face-up top)."""
    return [list(state.pile(index)) for index in range(3)]


def tokens(state: FrazzledMinimizeState) -> list[int]:
    """Challenge tokens per seat."""
    return [state.tokens(seat) for seat in range(state.num_seats)]


def texts(events) -> list[str]:
    return [event.text for event in events]


# -- setup ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", range(3, 9))
def test_setup_deals_six_each_three_face_up_piles_two_bonus_cards_one_token(players: int) -> None:
    """ "Setup": six cards each, the rest split into three (nearly) equal draw piles, an empty discard
    pile, one challenge token each, two bonus cards face up and the rest face down."""
    state = MINIMIZE.new_game(players, seed=players)
    assert all(len(state.hand(seat)) == 6 for seat in range(players))
    sizes = [len(pile) for pile in piles(state)]
    assert sum(sizes) == 78 - 6 * players and max(sizes) - min(sizes) <= 1
    assert state.discard_pile == () and tokens(state) == [1] * players
    assert len(state.bonus_cards) == 2 and len(state.bonus_pile) == len(BONUS_CARDS) - 2
    everything = [c for seat in range(players) for c in state.hand(seat)]
    everything += [c for p in piles(state) for c in p]
    assert sorted(everything) == sorted(DECK)


@pytest.mark.parametrize("players", [2, 9])
def test_player_count_outside_3_to_8_is_refused(players: int) -> None:
    with pytest.raises(ValueError, match="3 to 8 players"):
        MINIMIZE.new_game(players, seed=1)


def test_options_fix_the_starting_sides_else_the_seed_does() -> None:
    """Ruling 14: the starting side of each double-sided card is a table option, random by default."""
    state = MINIMIZE.new_game(3, seed=1, options={"duplicates_side": "shape", "actions_side": "B"})
    assert state.duplicates_rule is SHAPE_SIDE and state.actions_side.id == "B"
    games = [MINIMIZE.new_game(3, seed=seed) for seed in range(30)]
    sides = {(game.duplicates_rule.id, game.actions_side.id) for game in games}
    assert len(sides) == 4
    with pytest.raises(ValueError):
        MINIMIZE.new_game(3, seed=1, options={"actions_side": "C"})


def test_same_seed_same_deal() -> None:
    first, again = MINIMIZE.new_game(5, seed=9), MINIMIZE.new_game(5, seed=9)
    assert first.view(None) == again.view(None) and first.hand(2) == again.hand(2)


# -- the turn (TOKENIZE "How to Play", ruling 2) -----------------------------------------------------------


def test_turn_draws_a_top_card_then_discards_a_different_card() -> None:
    dealer = Dealer()
    hands = [dealer.hand(3, 4, 5, 7, 8, 9), dealer.hand(3, 4, 5, 7, 8, 9), dealer.hand(3, 4, 5, 7, 8, 9)]
    top = dealer.cards(12)[0]
    state = scripted(dealer, hands, [[top, *dealer.cards(11)], dealer.cards(12), dealer.cards(11)])
    assert codes(state, 0) == ["draw.0", "draw.1", "draw.2", CHALLENGE]
    assert state.seats_to_act() == (0,)
    state.apply(0, "draw.0")
    discard = state.legal_actions(0)
    assert sorted(a.code for a in discard) == sorted(f"discard.{c.id}" for c in hands[0])
    assert f"discard.{top.id}" not in {a.code for a in discard}
    assert all(a.secret and a.group for a in discard)
    assert state.public_actions() == ()
    gone = hands[0][0]
    state.apply(0, f"discard.{gone.id}")
    assert top in state.hand(0) and gone not in state.hand(0) and len(state.hand(0)) == 6
    assert state.discard_pile[-1] == gone
    assert state.seats_to_act() == (1,)


def test_an_empty_pile_cannot_be_drawn_from() -> None:
    dealer = Dealer()
    hands = [dealer.hand(3, 4, 5, 7, 8, 9) for _ in range(3)]
    state = scripted(dealer, hands, [dealer.cards(11), [], dealer.cards(12)])
    assert codes(state, 0) == ["draw.0", "draw.2", CHALLENGE]


def test_public_view_shows_tops_sizes_discard_rules_tokens_and_turn() -> None:
    dealer = Dealer()
    hands = [dealer.hand(3, 4, 5, 7, 8, 9) for _ in range(3)]
    top = dealer.cards(12)
    state = scripted(dealer, hands, [top + dealer.cards(11), dealer.cards(11), []], bonus=("sixes", "primes"))
    public = state.view(None)
    fields = {field.name: cards_as_text(field.value) for field in public.table}
    rules = {field.name: field.value for field in public.rules}
    piles = fields["Draw piles"]
    assert f"{card_label(top[0])}}} (2)" in piles
    assert "C: empty" in fields["Draw piles"]
    fields.update(rules)
    assert fields["Bonus rule: Lucky Sixes"] == BONUS_BY_ID["sixes"].text
    assert fields["Shape or Colour (Colour side)"] == COLOUR_SIDE.text
    assert "14/1 – Everyone takes 1 card blind" in fields["Actions card (Side A: Blind swap)"]
    assert "round 1" in public.title
    assert [line.to_act for line in public.seats] == [True, False, False]
    assert all(line.summary == "6 cards · 🪙" for line in public.seats)
    assert set(rules).isdisjoint(field.name for field in public.table)  # the rules are not repeated
    assert public.private == () and public.legal_actions == ()
    assert all(card_label(hands[1][0]) not in field.value for field in public.table)


# -- scoring ("Aim and Scoring", "The 14/1 Cards") ----------------------------------------------------------


def _numbers_hand(*numbers: int) -> list[Card]:
    return Dealer().hand(*numbers)


@pytest.mark.parametrize(
    ("numbers", "total", "pro"),
    [
        ((2, 3, 4, 5, 7, 9), 7, 0),  # range only
        ((4, 4, 5, 8, 9, 10), 5, 1),  # a pair: −1
        ((5, 5, 5, 8, 9, 10), 2, 3),  # three of a number: −3
        ((5, 5, 5, 5, 9, 10), 0, 5),  # four: −5
        ((3, 3, 3, 6, 6, 9), 2, 4),  # three and a pair: −3 −1, each number on its own
        ((4, 4, 5, 5, 7, 7), 0, 3),  # the text's example: three pairs, range 3 − 3 = 0
    ],
)
def test_score_is_range_minus_pro_points(numbers, total: int, pro: int) -> None:
    score = score_hand(_numbers_hand(*numbers), ())
    assert (score.total, score.pro) == (total, pro)


def test_fourteen_one_cards_count_all_as_1_or_all_as_14_whichever_is_lower() -> None:
    low = score_hand(_numbers_hand(ACE, 2, 3, 4, 5, 6), ())
    assert (low.total, low.low_aces) == (5, True)
    high = score_hand(_numbers_hand(ACE, ACE, 10, 11, 12, 13), ())
    assert (high.total, high.low_aces) == (4 - 1, False)
    tie = score_hand(_numbers_hand(ACE, 7, 7, 7, 8, 8), ())  # as 14: 7 − 4 = 3; as 1: 7 − 4 = 3
    assert (tie.total, tie.low_aces) == (3, False)
    assert score_hand(_numbers_hand(2, 3, 4, 5, 7, 9), ()).low_aces is None


def test_fourteen_one_reading_counts_for_the_bonus_rules_too() -> None:
    """Ruling 7: one reading for range and bonuses together (all 14 or all 1)."""
    hand = _numbers_hand(ACE, 9, 10, 11, 12, 13)  # as 14: range 5, Top Heavy −4 → 9; as 1: 12 + 3 = 15
    score = score_hand(hand, (BONUS_BY_ID["high"],))
    assert (score.total, score.low_aces) == (5 + 4, False)


def _hand_with_benefit(bonus) -> list[Card]:
    rng = random.Random(bonus.id)
    while True:
        hand = rng.sample(DECK, 6)
        if bonus.points(hand) != 0:
            return hand


def _recount(hand: list[Card], bonus) -> int:
    """The score the slow way: each reading of the 14/1 cards, the lower total."""
    pro = {2: 1, 3: 3, 4: 5, 5: 5, 6: 5}
    counts = Counter(card.number for card in hand)
    pro_points = sum(pro.get(count, 0) for count in counts.values())
    totals = []
    for low in (False, True):
        values = [1 if low and c.number == ACE else c.number for c in hand]
        totals.append(max(values) - min(values) - pro_points - bonus.points(hand, low_aces=low))
    return min(totals)


@pytest.mark.parametrize("bonus", BONUS_CARDS, ids=lambda b: b.id)
def test_every_bonus_card_changes_a_minimize_score_by_its_benefit(bonus) -> None:
    """ "Finally, check if you need to add or subtract any points because of the bonus rule cards": a
    bonus takes its points off the score, a penalty adds them."""
    hand = _hand_with_benefit(bonus)
    assert score_hand(hand, (bonus,)).total == _recount(hand, bonus)
    if not any(c.number == ACE for c in hand):
        assert score_hand(hand, (bonus,)).total == score_hand(hand, ()).total - bonus.points(hand)


def test_lucky_sixes_in_a_hand() -> None:
    assert score_hand(_numbers_hand(2, 3, 4, 5, 6, 7), (BONUS_BY_ID["sixes"],)).total == 5 - 5


@pytest.mark.parametrize(("side", "penalty"), [(0, 1), (1, 0)])
def test_shape_or_colour_side_in_play_adds_its_penalty(side: int, penalty: int) -> None:
    dealer = Dealer()
    teal = [c for c in DECK if COLOURS[c.colour] == "Teal" and c.number in (3, 5)]
    dealer.used.update(teal)
    rest = dealer.hand(8, 9, 11, 12, start=tuple(teal))
    hands = [teal + rest, dealer.hand(3, 4, 5, 7, 8, 9), dealer.hand(3, 4, 7, 9, 11, 12)]
    state = scripted(dealer, hands, duplicates_side=side)
    assert state.score(0).total == 12 - 3 + penalty


# -- challenging ("Challenging") ---------------------------------------------------------------------------


def declarations(events) -> list:
    """The events of a challenge in which a player reveals a score or declares "not lower"."""
    return [e for e in events if "reveals a score" in e.text or "declares: not lower" in e.text]


def four_players(dealer: Dealer, *scores_hands, **kwargs) -> FrazzledMinimizeState:
    return scripted(dealer, [dealer.hand(*numbers) for numbers in scores_hands], **kwargs)


# Hands by the numbers they hold (the Dealer gives them distinct colours and shapes), named by score.
SCORE_1 = (4, 4, 5, 5, 6, 7)  # range 7 − 4 = 3, two pairs −2: 1
SCORE_2 = (3, 3, 3, 5, 7, 8)  # 8 − 3 = 5, three 3s −3: 2
SCORE_4 = (3, 4, 5, 7, 8, 8)  # 8 − 3 = 5, a pair −1: 4
SCORE_7 = (2, 3, 4, 5, 7, 9)  # 9 − 2 = 7
SCORE_9 = (3, 5, 7, 9, 11, 12)  # 12 − 3 = 9
PERFECT = (7, 7, 8, 8, 10, 10)  # 10 − 7 = 3, three pairs −3: 0, a Perfect Zero
MINUS_3 = (9, 9, 9, 9, 10, 11)  # 11 − 9 = 2, four 9s −5: −3


def test_scripted_scores_are_what_the_tests_assume() -> None:
    hands = (SCORE_1, SCORE_2, SCORE_4, SCORE_7, SCORE_9)
    assert [score_hand(_numbers_hand(*h), ()).total for h in hands] == [1, 2, 4, 7, 9]
    perfect = score_hand(_numbers_hand(*PERFECT), ())
    assert perfect.total == 0 and perfect.perfect_zero
    assert score_hand(_numbers_hand(*MINUS_3), ()).total == -3


def test_challenger_with_the_lowest_score_goes_through() -> None:
    """The lowest "shows their cards to confirm their score, places these on the discard pile and goes
    through ... If they have any challenge tokens, these are placed in the middle of the table."""
    dealer = Dealer()
    state = four_players(dealer, SCORE_1, SCORE_4, SCORE_7, SCORE_9)
    hand = state.hand(0)
    events = state.apply(0, CHALLENGE)
    assert state.playing() == (1, 2, 3)
    assert sorted(state.discard_pile) == sorted(hand)
    assert state.tokens(0) == 0 and state.tokens_in_middle == 1
    scores = declarations(events)
    assert [e.seat for e in scores] == [0, 1, 2, 3]  # in turn order from the challenger
    assert "reveals a score of {b:1}" in scores[0].text and "the score to beat" in scores[0].text
    assert "not lower than {b:1}" in scores[1].text
    assert any(e.seat == 0 and "goes through" in e.text and card_label(hand[0]) in e.text for e in events)
    assert state.seats_to_act() == (1,)
    fields = {f.name: f.value for f in state.view(None).table}
    assert "lowest {b:1}" in fields["Last challenge"]
    assert state.view(None).seats[1].summary.endswith(" · not lower than 1")


def test_a_lower_score_goes_through_and_the_challenger_plays_on() -> None:
    """ "If they do have a lower score, they reveal it. This lower score then becomes the score to beat";
    ruling 3: the challenger, still playing, goes on with the turn."""
    dealer = Dealer()
    state = four_players(dealer, SCORE_4, SCORE_2, SCORE_1, SCORE_9)
    events = state.apply(0, CHALLENGE)
    assert "lower: the new score to beat" in events[2].text and "reveals a score of {b:2}" in events[2].text
    assert "lower: the new score to beat" in events[3].text and "reveals a score of {b:1}" in events[3].text
    assert state.playing() == (0, 1, 3)
    assert state.seats_to_act() == (0,)
    assert codes(state, 0) == ["draw.0", "draw.1", "draw.2"]  # no second challenge: the token is spent
    with pytest.raises(IllegalAction, match="no challenge token"):
        state.apply(0, CHALLENGE)
    # the challenger's spent token and the token of the one who went through
    assert state.tokens_in_middle == 2


def test_a_tie_involving_the_challenger_sends_the_challenger_through() -> None:
    dealer = Dealer()
    state = four_players(dealer, SCORE_1, SCORE_4, SCORE_1, SCORE_9)
    state.apply(0, CHALLENGE)
    assert state.playing() == (1, 2, 3)


def test_a_tie_not_involving_the_challenger_sends_no_one_through() -> None:
    dealer = Dealer()
    state = four_players(dealer, SCORE_4, SCORE_1, SCORE_1, SCORE_9)
    events = state.apply(0, CHALLENGE)
    assert state.playing() == (0, 1, 2, 3)
    assert any("no one goes through" in text for text in texts(events))
    assert state.seats_to_act() == (0,)


def test_challenge_only_at_the_start_of_ones_own_turn() -> None:
    dealer = Dealer()
    state = four_players(dealer, SCORE_4, SCORE_1, SCORE_2, SCORE_9)
    assert CHALLENGE not in codes(state, 1)
    with pytest.raises(IllegalAction):
        state.apply(1, CHALLENGE)
    state.apply(0, "draw.0")
    assert CHALLENGE not in codes(state, 0)
    with pytest.raises(IllegalAction, match="start of your turn"):
        state.apply(0, CHALLENGE)


def test_the_last_player_playing_is_out_and_a_new_round_is_dealt() -> None:
    """ "That remaining player is out, and a new round begins with only the players who went through.
    Re-shuffle the main deck, deal six new cards and one challenge token to each player ... deal two new
    [bonus] cards"; ruling 11: the player on the left of the one who is out starts."""
    dealer = Dealer()
    state = scripted(dealer, [dealer.hand(*SCORE_1), dealer.hand(*SCORE_2), dealer.hand(*SCORE_7)], first=1)
    events = state.apply(1, CHALLENGE)  # seat 0 is lower: goes through; seat 1 plays on
    assert state.playing() == (1, 2)
    state.apply(1, "draw.0")
    state.apply(1, f"discard.{state.hand(1)[-1].id}")
    events = state.apply(2, CHALLENGE)  # seat 1 still lower: through; seat 2 is out
    assert any(e.seat == 2 and "is out in round 1" in e.text for e in events)
    assert state.round == 2 and state.is_final
    assert state.eliminated == (2,)
    assert [len(state.hand(seat)) for seat in range(3)] == [6, 6, 0]
    assert tokens(state) == [1, 1, 0] and state.tokens_in_middle == 0
    assert len(state.bonus_cards) == 2 and state.discard_pile == ()
    assert sum(len(p) for p in piles(state)) == 78 - 12
    assert state.seats_to_act() == (0,)
    assert "❌ out in round 1" in state.view(None).seats[2].summary
    assert "Last challenge" in {f.name for f in state.view(None).table}


# -- Perfect Zero ("Sneaking Through to the Next Round with a Perfect Zero MINIMIZE Score") -----------------


def test_a_perfect_zero_sneaks_through_with_the_lowest() -> None:
    dealer = Dealer()
    state = four_players(dealer, MINUS_3, SCORE_4, PERFECT, SCORE_9)
    events = state.apply(0, CHALLENGE)
    assert state.playing() == (1, 3)
    assert any(e.seat == 2 and "sneaks through with a Perfect Zero" in e.text for e in events)


def test_a_perfect_zero_still_goes_through_on_a_tie_that_sends_no_one_else() -> None:
    """ "in the unlikely event that there is a tie for the lowest score and none of the tied players go
    through ... any player with a Perfect Zero score does still go through."
    """
    dealer = Dealer()
    state = four_players(dealer, SCORE_4, MINUS_3, PERFECT, (2, 2, 2, 2, 3, 4))
    assert state.score(1).total == state.score(3).total == -3
    state.apply(0, CHALLENGE)
    assert state.playing() == (0, 1, 3)


def test_when_every_player_has_a_perfect_zero_no_one_goes_through() -> None:
    dealer = Dealer()
    state = four_players(dealer, (2, 2, 3, 3, 5, 5), (7, 7, 8, 8, 10, 10), (9, 9, 10, 10, 12, 12))
    assert all(state.score(seat).perfect_zero for seat in range(3))
    events = state.apply(0, CHALLENGE)
    assert state.playing() == (0, 1, 2)
    assert any("Every player has a Perfect Zero" in text for text in texts(events))


def test_a_perfect_zero_does_not_count_with_only_two_players() -> None:
    """ "A Perfect Zero does not count when there are only two players" (ruling 10: two still playing)."""
    dealer = Dealer()
    state = four_players(dealer, MINUS_3, (2, 2, 3, 3, 4, 4), SCORE_9)
    state.apply(0, CHALLENGE)  # seat 0 through; seats 1 and 2 remain
    assert state.playing() == (1, 2)
    # The same moment, scripted: seat 0 through, seat 1 to act, seat 2 holding a Perfect Zero.
    dealer = Dealer()
    state = scripted(
        dealer, [[], dealer.hand(2, 2, 3, 3, 4, 4), dealer.hand(*PERFECT)], through=(0,), first=1
    )
    assert state.playing() == (1, 2)
    assert state.score(1).total == -1 and state.score(2).perfect_zero
    state.apply(1, CHALLENGE)
    assert state.eliminated == (2,)  # seat 1 (lowest) through; the Perfect Zero does not sneak


def test_if_everyone_would_go_through_no_one_does() -> None:
    """Ruling 8: the challenger ties the lowest (0, not a Perfect Zero) and both others hold Perfect
    Zeros: all three would go through, leaving no one to be out, so no one goes through."""
    dealer = Dealer()
    state = four_players(dealer, (5, 5, 5, 5, 9, 10), PERFECT, (2, 2, 3, 3, 5, 5))
    assert state.score(0).total == 0 and not state.score(0).perfect_zero
    events = state.apply(0, CHALLENGE)
    assert state.playing() == (0, 1, 2)
    assert any("Everyone would go through" in text for text in texts(events))


def test_the_challengers_own_perfect_zero_does_not_sneak_through() -> None:
    """ "If, when someone else says 'challenge', any player has ... a Perfect Zero"."""
    dealer = Dealer()
    state = four_players(dealer, PERFECT, MINUS_3, SCORE_4, SCORE_9)
    state.apply(0, CHALLENGE)
    assert state.playing() == (0, 2, 3)


def test_bonus_rules_count_toward_a_perfect_zero() -> None:
    """ "Do not forget to check for any bonus rules which may affect your score": with Rainbow in play
    (all colours differ: bonus 2), pairs of 7, 9, 12 (5 − 3 = 2) make a Perfect Zero while the text's
    kind of hand (3 − 3 = 0) drops to −2 and is no Perfect Zero."""
    dealer = Dealer()
    state = four_players(
        dealer, MINUS_3, (7, 7, 9, 9, 12, 12), PERFECT, (3, 4, 5, 8, 11, 13), bonus=("rainbow",)
    )
    assert state.score(1).total == 0 and state.score(1).perfect_zero
    assert state.score(2).total == -2 and not state.score(2).perfect_zero
    assert state.score(0).total == -5
    state.apply(0, CHALLENGE)
    assert state.playing() == (2, 3)


# -- automatic challenge ("What if No One Wants to Challenge?") ---------------------------------------


def test_emptying_the_draw_piles_triggers_an_automatic_challenge_after_the_turn() -> None:
    """ "there must always be an automatic challenge as soon as all three draw piles are emptied. In this
    case no player is the challenger, and no one loses their challenge token, but the player who emptied
    the deck announces their MINIMIZE score ... shuffle the discard pile and split it into three equal
    draw piles"; ruling 9: settled once that player's turn is over."""
    dealer = Dealer()
    hands = [dealer.hand(*SCORE_4), dealer.hand(*SCORE_1), dealer.hand(*SCORE_9), dealer.hand(*SCORE_7)]
    state = scripted(dealer, hands, [dealer.cards(12), [], []])
    events = state.apply(0, "draw.0")
    assert "automatic challenge follows" in events[-1].text
    assert state.seats_to_act() == (0,) and state.playing() == (0, 1, 2, 3)
    through_hand = state.hand(1)
    discarded = next(c for c in state.hand(0) if c.number == 3)
    events = state.apply(0, f"discard.{discarded.id}")
    scores = declarations(events)
    assert [e.seat for e in scores] == [0, 1, 2, 3]
    assert "(automatic)" in scores[0].text
    assert state.playing() == (0, 2, 3)
    assert tokens(state) == [1, 0, 1, 1] and state.tokens_in_middle == 1  # only seat 1's, as it went through
    assert state.discard_pile == ()
    assert sorted(c for p in piles(state) for c in p) == sorted([discarded, *through_hand])
    sizes = [len(p) for p in piles(state)]
    assert sizes == [3, 2, 2]
    assert any("shuffled into three new draw piles" in t for t in texts(events))
    assert state.seats_to_act() == (2,)


def test_an_automatic_challenge_tie_sends_no_one_through_even_the_player_who_emptied_the_piles() -> None:
    dealer = Dealer()
    seven_cards = dealer.hand(*SCORE_1, 3)
    hands = [seven_cards[:6], dealer.hand(*SCORE_4), dealer.hand(*SCORE_1)]
    state = scripted(dealer, hands, [seven_cards[6:], [], []])
    state.apply(0, "draw.0")
    state.apply(0, f"discard.{next(c for c in state.hand(0) if c.number == 7).id}")
    assert state.score(0).total == 1 == state.score(2).total
    assert state.playing() == (0, 1, 2)
    assert tokens(state) == [1, 1, 1]
    assert sum(len(p) for p in piles(state)) == 1 and state.seats_to_act() == (1,)


def test_perfect_zero_applies_to_everyone_in_an_automatic_challenge() -> None:
    """Ruling 9: no one said 'challenge', so the player who emptied the piles may sneak through too."""
    dealer = Dealer()
    seven_cards = dealer.hand(*PERFECT, 7)
    hands = [seven_cards[:6], dealer.hand(*MINUS_3), dealer.hand(*SCORE_4), dealer.hand(*SCORE_9)]
    state = scripted(dealer, hands, [seven_cards[6:], [], []])
    state.apply(0, "draw.0")
    seven = next(c for c in state.hand(0) if c.number == 7)
    events = state.apply(0, f"discard.{seven.id}")  # the drawn 7 replaces it: still a Perfect Zero
    assert any(e.seat == 0 and "Perfect Zero" in e.text and "sneaks" in e.text for e in events)
    assert state.playing() == (2, 3)


def test_the_action_of_the_last_discard_comes_before_the_automatic_challenge() -> None:
    dealer = Dealer()
    hands = [dealer.hand(3, 4, 5, 7, 8, 13), dealer.hand(*SCORE_1), dealer.hand(*SCORE_9)]
    state = scripted(dealer, hands, [dealer.cards(3), [], []])
    state.apply(0, "draw.0")
    thirteen = next(c for c in state.hand(0) if c.number == 13)
    events = state.apply(0, f"discard.{thirteen.id}")  # side A 13: another turn
    assert state.playing() == (0, 2)  # seat 1 went through in the automatic challenge
    assert state.seats_to_act() == (0,) and any("takes another turn" in t for t in texts(events))


# -- the final ("Final Round") ----------------------------------------------------------------------------


def final(dealer: Dealer, hand0, hand1, piles=None, **kwargs) -> FrazzledMinimizeState:
    if piles is None:
        piles = [dealer.cards(*[n for n in (3, 4, 5, 7, 8, 9, 11, 12) for _ in range(2)]), [], []]
    return scripted(dealer, [dealer.hand(*hand0), dealer.hand(*hand1), None], piles, **kwargs)


def take_turn_keeping_score(state: FrazzledMinimizeState, seat: int) -> None:
    """Draw from pile A and discard the drawn card's number twin if held, else the highest plain card."""
    state.apply(seat, "draw.0")
    drawn = state.drawn
    twin = [c for c in state.hand(seat) if c.number == drawn.number]
    plain = [c for c in state.hand(seat) if state.actions_side.kind(c.number) is None]
    state.apply(seat, f"discard.{(twin or plain)[0].id}")


def test_in_the_final_challenge_only_once_each_player_has_taken_three_turns() -> None:
    """ "'Challenge' may only be called once each player has taken three turns." """
    dealer = Dealer()
    state = final(dealer, SCORE_1, SCORE_4)
    assert state.is_final and "the final" in state.view(None).title
    for _ in range(2):
        assert CHALLENGE not in codes(state, 0)
        take_turn_keeping_score(state, 0)
        assert CHALLENGE not in codes(state, 1)
        take_turn_keeping_score(state, 1)
    take_turn_keeping_score(state, 0)
    with pytest.raises(IllegalAction, match="three turns"):
        state.apply(1, CHALLENGE)
    take_turn_keeping_score(state, 1)
    assert CHALLENGE in codes(state, 0)
    state.apply(0, CHALLENGE)
    assert state.is_terminal() and state.seats_to_act() == ()
    ranks = [s.rank for s in state.standings()]
    assert sorted(ranks[:2]) == [1, 2] and ranks[2] == 3
    assert state.standings()[2].detail == "out in round 1"
    assert state.view(None).title == "MINIMIZE: game over"


def test_in_the_final_the_challenger_wins_a_tie() -> None:
    """ "If both players have the same score, then the player who said 'challenge' wins the game." """
    dealer = Dealer()
    state = final(dealer, SCORE_4, SCORE_4, turns_taken=[3, 3, 0])
    assert state.score(0).total == state.score(1).total
    state.apply(0, CHALLENGE)
    assert state.winner == 0 and [s.rank for s in state.standings()] == [1, 2, 3]


def test_in_the_final_the_lowest_wins_against_the_challenger() -> None:
    dealer = Dealer()
    state = final(dealer, SCORE_4, SCORE_1, turns_taken=[3, 3, 0])
    state.apply(0, CHALLENGE)
    assert state.winner == 1
    assert [s.rank for s in state.standings()] == [2, 1, 3]


def test_an_automatic_challenge_in_the_final_plays_on_after_a_tie_and_decides_otherwise() -> None:
    """Ruling 15: an automatic challenge in the final: a tie sends no one through, so play goes on."""
    dealer = Dealer()
    seven_cards = dealer.hand(*SCORE_1, 7)
    state = scripted(dealer, [seven_cards[:6], dealer.hand(*SCORE_1), None], [seven_cards[6:], [], []])
    state.apply(0, "draw.0")
    state.apply(0, f"discard.{next(c for c in state.hand(0) if c.number == 7).id}")
    assert not state.is_terminal() and state.seats_to_act() == (1,)
    dealer = Dealer()
    seven_cards = dealer.hand(*SCORE_1, 7)
    state = scripted(dealer, [seven_cards[:6], dealer.hand(*SCORE_4), None], [seven_cards[6:], [], []])
    state.apply(0, "draw.0")
    state.apply(0, f"discard.{next(c for c in state.hand(0) if c.number == 7).id}")
    assert state.is_terminal() and state.winner == 0


def test_standings_rank_winner_runner_up_then_reverse_elimination_order() -> None:
    dealer = Dealer()
    state = scripted(
        dealer,
        [dealer.hand(*SCORE_1), None, dealer.hand(*SCORE_4), None, None],
        eliminated=(3, 1, 4),
        turns_taken=[3, 0, 3, 0, 0],
    )
    assert state.round == 4 and state.is_final
    state.apply(0, CHALLENGE)
    assert [s.rank for s in state.standings()] == [1, 4, 2, 5, 3]
    assert [s.points for s in state.standings()] == [4, 1, 3, 0, 2]
    with pytest.raises(IllegalAction, match="over"):
        state.apply(2, "draw.0")


def test_standings_before_the_end_raise() -> None:
    with pytest.raises(RuntimeError):
        MINIMIZE.new_game(3, seed=1).standings()


# -- actions ("Actions"; docs/rules/frazzled-rule-cards.md) ----------------------------------------------


def discard_number(state: FrazzledMinimizeState, seat: int, number: int, pile: int = 0) -> list:
    """Draw from ``pile`` and discard a card of ``number`` from the hand."""
    state.apply(seat, f"draw.{pile}")
    card = next(c for c in state.hand(seat) if c.number == number)
    return state.apply(seat, f"discard.{card.id}")


def three_with(dealer: Dealer, first_hand, **kwargs) -> FrazzledMinimizeState:
    hands = [dealer.hand(*first_hand), dealer.hand(3, 4, 5, 7, 8, 9), dealer.hand(3, 4, 5, 7, 8, 11)]
    return scripted(dealer, hands, **kwargs)


def test_side_a_fourteen_one_everyone_takes_one_card_blind_from_the_fan_on_their_right() -> None:
    """Side A 14/1; ruling 5: all pick at once from face-down fans; the cards are known only after."""
    dealer = Dealer()
    state = three_with(dealer, (ACE, 3, 4, 5, 7, 8))
    events = discard_number(state, 0, ACE)
    assert state.seats_to_act() == (0, 1, 2)
    fans = {seat: list(state.fan_cards((seat + 1) % 3)) for seat in range(3)}  # by the fan's owner
    for seat in range(3):
        actions = state.legal_actions(seat)
        assert [a.code for a in actions] == [f"fan.{i}" for i in range(6)]
        assert actions[2].label == "Card 3 of the fan on your right"
        assert not any(a.secret for a in actions) and all(a.group for a in actions)
    assert [a.code for a in state.public_actions()] == [f"fan.{i}" for i in range(6)]
    events += state.apply(0, "fan.2") + state.apply(1, "fan.0")
    assert state.seats_to_act() == (2,)
    assert "Last exchange" not in {f.name for f in state.view(0).private}
    assert {f.name: f.value for f in state.view(0).private}["You picked"] == "card 3 of the fan on your right"
    events += state.apply(2, "fan.5")
    assert fans[2][2] in state.hand(0) and fans[0][0] not in state.hand(0)
    assert fans[0][0] in state.hand(1) and fans[1][5] not in state.hand(1)
    assert fans[1][5] in state.hand(2) and fans[2][2] not in state.hand(2)
    assert all(len(state.hand(seat)) == 6 for seat in range(3))
    exchange = {f.name: f.value for f in state.view(0).private}["Last exchange"]
    assert card_label(fans[2][2]) in exchange and card_label(fans[0][0]) in exchange
    every_hand_card = {card_label(c) for seat in range(3) for c in fans[seat]}
    assert not any(label in e.text for e in events[2:] for label in every_hand_card)
    assert state.seats_to_act() == (1,)


def test_side_a_two_everyone_takes_two_cards_blind() -> None:
    dealer = Dealer()
    state = three_with(dealer, (2, 3, 4, 5, 7, 8))
    discard_number(state, 0, 2)
    fans = {seat: list(state.fan_cards((seat + 1) % 3)) for seat in range(3)}  # by the fan's owner
    state.apply(1, "fan.3")
    assert "fan.3" not in codes(state, 1) and len(codes(state, 1)) == 5
    assert state.seats_to_act() == (0, 1, 2)
    for seat in (0, 2, 0, 2):
        state.apply(seat, state.default_action(seat))
    assert state.default_action(1) == "fan.0"
    state.apply(1, "fan.0")
    assert {fans[0][3], fans[0][0]} <= set(state.hand(1))
    assert {fans[2][0], fans[2][1]} <= set(state.hand(0))
    assert all(len(state.hand(seat)) == 6 for seat in range(3))
    assert state.seats_to_act() == (1,)


def test_side_a_six_everyone_passes_their_whole_hand_left() -> None:
    dealer = Dealer()
    state = three_with(dealer, (6, 3, 4, 5, 7, 8))
    before = [set(state.hand(1)), set(state.hand(2))]
    state.apply(0, "draw.0")
    six = next(c for c in state.hand(0) if c.number == 6)
    kept = (set(state.hand(0)) - {six}) | {state.drawn}
    events = state.apply(0, f"discard.{six.id}")
    assert set(state.hand(1)) == kept and set(state.hand(2)) == before[0] and set(state.hand(0)) == before[1]
    assert "passed your hand left" in {f.name: f.value for f in state.view(1).private}["Last exchange"]
    assert any("Everyone passed their whole hand to the left" in t for t in texts(events))
    assert state.seats_to_act() == (1,)


@pytest.mark.parametrize("side", [0, 1])
def test_ten_changes_a_rule_flip_either_double_sided_card(side: int) -> None:
    """ "When changing a rule, you can flip one of the double sided cards" (both sides of the actions
    card carry the 10)."""
    for code, check in (
        (FLIP_DUPLICATES, lambda s: s.duplicates_rule is SHAPE_SIDE and s.actions_side.id == "AB"[side]),
        (FLIP_ACTIONS, lambda s: s.duplicates_rule is COLOUR_SIDE and s.actions_side.id == "BA"[side]),
    ):
        dealer = Dealer()
        state = three_with(dealer, (10, 3, 4, 5, 7, 8), actions_side=side, bonus=("sixes", "primes"))
        discard_number(state, 0, 10)
        assert state.seats_to_act() == (0,)
        assert codes(state, 0) == [FLIP_DUPLICATES, FLIP_ACTIONS, "swap.0", "swap.1"]
        assert state.default_action(0) == FLIP_ACTIONS
        state.apply(0, code)
        assert check(state) and state.seats_to_act() == (1,)


def test_ten_replaces_a_bonus_card_with_the_top_of_the_bonus_pile_old_one_to_the_bottom() -> None:
    """ "replace one of the single sided cards with one from the draw pile. If a single sided card has
    been replaced, this is placed at the bottom of the draw pile" (ruling 6: the bonus pile)."""
    dealer = Dealer()
    pile = ["wild", "odds", "evens"]
    state = three_with(dealer, (10, 3, 4, 5, 7, 8), bonus=("sixes", "primes"), bonus_pile=pile)
    discard_number(state, 0, 10)
    events = state.apply(0, "swap.1")
    assert [c.id for c in state.bonus_cards] == ["sixes", "wild"]
    assert [c.id for c in state.bonus_pile] == ["odds", "evens", "primes"]
    assert "Wild Ones" in events[-1].text or any("Wild Ones" in t for t in texts(events))
    assert "Bonus rule: Wild Ones" in {f.name for f in state.view(None).rules}


def test_side_a_thirteen_takes_another_turn() -> None:
    dealer = Dealer()
    state = three_with(dealer, (13, 3, 4, 5, 7, 8))
    discard_number(state, 0, 13)
    assert state.seats_to_act() == (0,) and state.phase is Phase.DRAW


def test_side_b_fourteen_one_everyone_passes_a_chosen_card_left() -> None:
    dealer = Dealer()
    state = three_with(dealer, (ACE, 3, 4, 5, 7, 8), actions_side=1)
    discard_number(state, 0, ACE)
    assert state.seats_to_act() == (0, 1, 2)
    give = state.legal_actions(1)
    assert all(a.secret and a.code.startswith("give.") for a in give) and len(give) == 6
    assert state.public_actions() == ()
    chosen = {seat: state.hand(seat)[0] for seat in range(3)}
    for seat in range(3):
        state.apply(seat, f"give.{chosen[seat].id}")
    assert chosen[0] in state.hand(1) and chosen[1] in state.hand(2) and chosen[2] in state.hand(0)
    assert chosen[0] not in state.hand(0)
    assert card_label(chosen[2]) in {f.name: f.value for f in state.view(0).private}["Last exchange"]
    assert state.seats_to_act() == (1,)


def test_side_b_two_everyone_passes_two_chosen_cards_left() -> None:
    dealer = Dealer()
    state = three_with(
        dealer, (2, 3, 4, 5, 7, 13), actions_side=1, piles=[dealer.cards(4), dealer.pile(2), []]
    )
    discard_number(state, 0, 2)
    assert state.default_action(0) == f"give.{next(c for c in state.hand(0) if c.number == 13).id}"
    given = []
    for seat in (0, 1, 2, 0, 1, 2):
        code = state.default_action(seat)
        given.append((seat, DECK[int(code.split(".")[1])]))
        state.apply(seat, code)
    for seat, card in given:
        assert card in state.hand((seat + 1) % 3)
    assert all(len(state.hand(seat)) == 6 for seat in range(3))


def test_side_b_six_everyone_passes_their_whole_hand_right() -> None:
    dealer = Dealer()
    state = three_with(dealer, (6, 3, 4, 5, 7, 8), actions_side=1)
    before = [set(state.hand(1)), set(state.hand(2))]
    discard_number(state, 0, 6)
    assert set(state.hand(0)) == before[0] and set(state.hand(1)) == before[1]


def test_side_b_thirteen_the_next_player_misses_their_turn() -> None:
    dealer = Dealer()
    state = three_with(dealer, (13, 3, 4, 5, 7, 8), actions_side=1)
    events = discard_number(state, 0, 13)
    assert state.seats_to_act() == (2,)
    assert any(e.seat == 1 and "misses a turn" in e.text for e in events)


def test_only_players_still_playing_take_part_in_an_action() -> None:
    dealer = Dealer()
    hands = [
        dealer.hand(ACE, 3, 4, 5, 7, 9),
        dealer.hand(*SCORE_1),
        dealer.hand(*SCORE_9),
        dealer.hand(*SCORE_7),
    ]
    state = scripted(dealer, hands)
    state.apply(0, CHALLENGE)  # seat 1 is lower: through
    assert state.playing() == (0, 2, 3)
    discard_number(state, 0, ACE)
    assert state.seats_to_act() == (0, 2, 3)
    assert state.right_of(0) == 3 and state.right_of(2) == 0 and state.left_of(0) == 2


# -- defaults (ruling 12) ---------------------------------------------------------------------------------


def test_default_draws_from_the_first_pile_and_never_challenges() -> None:
    dealer = Dealer()
    state = three_with(dealer, SCORE_1, piles=[[], dealer.pile(2), dealer.pile(1)])
    assert CHALLENGE in codes(state, 0)
    assert state.default_action(0) == "draw.1"
    with pytest.raises(IllegalAction):
        state.default_action(1)


def test_default_discard_prefers_a_card_without_an_action_then_the_best_score() -> None:
    dealer = Dealer()
    state = three_with(dealer, (ACE, 2, 6, 10, 13, 9))
    state.apply(0, "draw.0")
    nine = next(c for c in state.hand(0) if c.number == 9)
    assert state.default_action(0) == f"discard.{nine.id}"
    dealer = Dealer()
    state = three_with(dealer, (3, 4, 5, 7, 8, 12), piles=[dealer.cards(4), [], []])
    state.apply(0, "draw.0")
    twelve = next(c for c in state.hand(0) if c.number == 12)
    assert state.default_action(0) == f"discard.{twelve.id}"


# -- views and illegal moves -------------------------------------------------------------------------------


def test_private_view_shows_own_hand_score_and_drawn_card() -> None:
    dealer = Dealer()
    state = three_with(dealer, SCORE_1)
    private = {f.name: cards_as_text(f.value) for f in state.view(0).private}
    assert private["Your hand"] == ", ".join(card_label(c) for c in state.hand(0))
    assert private["Your score now"].endswith("→ 1")
    state.apply(0, "draw.0")
    assert "You drew" in {f.name for f in state.view(0).private}
    assert "You drew" not in {f.name for f in state.view(1).private}
    assert all(card_label(c) not in str(state.view(1)) for c in state.hand(0))  # nor in seat 1's view


def test_resampling_keeps_the_drawn_card_in_the_drawers_hand() -> None:
    """The drawn card came off a face-up pile in sight of everyone: a resample keeps it in that hand."""
    dealer = Dealer()
    state = three_with(dealer, SCORE_1)
    state.apply(0, "draw.0")
    drawn = state.drawn
    state.apply(0, f"discard.{state.hand(0)[0].id}")
    resamples = [state.resample_hidden(1, random.Random(seed)) for seed in range(10)]
    assert all(drawn in other.hand(0) and len(other.hand(0)) == 6 for other in resamples)
    assert any(other.hand(0) != state.hand(0) for other in resamples)


@pytest.mark.parametrize(
    ("seat", "code"), [(1, "draw.0"), (0, "discard.3"), (0, "fan.0"), (9, "draw.0"), (0, "x")]
)
def test_illegal_actions_raise_and_change_nothing(seat: int, code: str) -> None:
    dealer = Dealer()
    state = three_with(dealer, SCORE_1)
    before = [state.view(s) for s in (None, 0, 1, 2)], state.version
    with pytest.raises(IllegalAction):
        state.apply(seat, code)
    assert ([state.view(s) for s in (None, 0, 1, 2)], state.version) == before


def test_scripted_deal_validation() -> None:
    dealer = Dealer()
    hand = dealer.hand(*SCORE_1)
    with pytest.raises(ValueError):
        FrazzledMinimizeState.scripted([hand, hand, dealer.hand(*SCORE_4)], [[], [], []])
    with pytest.raises(ValueError):
        FrazzledMinimizeState.scripted([hand[:5], dealer.hand(*SCORE_4), dealer.hand(*SCORE_7)], [[], [], []])


# -- properties (random legal play, 3 to 8 players) ----------------------------------------------------


def _all_cards(state: FrazzledMinimizeState) -> list[Card]:
    cards = [c for seat in range(state.num_seats) for c in state.hand(seat)]
    cards += [c for pile in piles(state) for c in pile] + [*state.discard_pile, *state.set_aside]
    return cards + ([state.drawn] if state.drawn else [])


@settings(max_examples=25, deadline=None)
@given(games_in_play(MINIMIZE, finish=True))
def test_minimize_games_end_replay_exactly_and_rank_everyone(game) -> None:
    rules, state = game
    assert state.is_terminal() and state.seats_to_act() == ()
    standings = state.standings()
    assert sorted(s.rank for s in standings) == list(range(1, state.num_seats + 1))
    again = replay(rules, state.num_seats, state.seed, state.options, state.history)
    assert again.standings() == standings and again.view(None) == state.view(None)
    assert len(state.eliminated) == state.num_seats - 2


@settings(max_examples=40, deadline=None)
@given(games_in_play(MINIMIZE))
def test_minimize_cards_and_tokens_are_conserved_and_views_fit_discord(game) -> None:
    _, state = game
    assert sorted(_all_cards(state)) == sorted(DECK)
    if state.is_terminal():
        return
    players = len(state.in_game())
    assert sum(tokens(state)) + state.tokens_in_middle == players
    for seat in state.playing():
        assert len(state.hand(seat)) == 6
    for seat in state.seats_to_act():
        legal = state.legal_actions(seat)
        assert 1 <= len(legal) <= 100
        assert state.default_action(seat) in {a.code for a in legal}
        for action in legal:
            assert len(action.label) <= 80 and len(action.description) <= 100 and len(action.group) <= 150
            assert re.fullmatch(r"[A-Za-z0-9_.,+\-]{1,40}", action.code)
    for viewer in [None, *range(state.num_seats)]:
        view = state.view(viewer)
        assert len(view.table) + len(view.private) <= 25 and len(view.title) <= 256
        for field in view.table + view.private:
            assert len(field.name) <= 256 and 0 < len(field.value) <= 1024


def test_a_full_random_game_of_eight_ends() -> None:
    """Eight players of random legal moves reach the end (how fast: ``bench/ai_strength.py``, not a test)."""
    rng = random.Random(3)
    state = MINIMIZE.new_game(8, seed=3)
    steps = 0
    while not state.is_terminal():
        seat = rng.choice(seats_with_actions(state))
        legal = state.legal_actions(seat)
        state.apply(seat, rng.choice(legal).code)
        steps += 1
        assert steps < MAX_STEPS
    assert state.standings()
