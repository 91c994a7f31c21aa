"""MINIMIZE's challenge declarations and the 14/1 reading (engine/frazzled/minimize.py, rulings 4 and 7 of
docs/rules/minimize.md), each test quoting the passage of shared/seeds/000_d97c66fde1b75dcf.txt it checks."""

from __future__ import annotations

import copy
import random
import re

from engine.frazzled import CHALLENGE, FrazzledMinimizeState, score_hand
from engine.frazzled.rule_cards import BONUS_BY_ID
from tests.engine.frazzled.test_minimize import (
    ACE,
    MINIMIZE,
    SCORE_1,
    SCORE_4,
    SCORE_7,
    SCORE_9,
    Dealer,
    scripted,
)

CHALLENGING = (
    "Each player in turn then declares whether they have a lower score than this (an equal score is not "
    "good enough). If they do have a lower score, they reveal it."
)


def _views(state: FrazzledMinimizeState, seats) -> list:
    return [state.view(seat) for seat in seats]


def test_a_player_who_is_not_lower_only_says_so() -> None:
    """ "Each player in turn then declares whether they have a lower score than this (an equal score is
    not good enough). If they do have a lower score, they reveal it." Seat 2 is not lower and keeps
    playing the same cards: whether it holds a 7 or a 9 (and however that score is made), the log, the
    public view and every other player's view are the same."""
    dealer = Dealer()
    hands = [dealer.hand(*SCORE_4), dealer.hand(*SCORE_1), None, dealer.hand(*SCORE_9)]
    piles = [dealer.pile(3), dealer.pile(2), dealer.pile(1)]
    results = []
    for numbers in (SCORE_7, (2, 2, 5, 8, 9, 12)):  # 7 = 9 − 2, and 12 − 2 − 1 (a pair) = 9
        variant = copy.deepcopy(dealer)
        seat_hands = list(hands)
        seat_hands[2] = variant.hand(*numbers)
        state = scripted(variant, seat_hands, piles)
        events = state.apply(0, CHALLENGE)
        results.append((state, events))
    (first, first_events), (second, second_events) = results
    assert first.score(2).total == 7 and second.score(2).total == 9
    assert first_events == second_events
    texts = [event.text for event in first_events]
    assert "reveals a score of {b:4}" in texts[1] and "reveals a score of {b:1}" in texts[2]
    assert first_events[3].seat == 2 and texts[3] == "declares: not lower than {b:1}"
    assert first.playing() == (0, 2, 3)  # seat 1 went through; seat 2 plays on with the same cards
    assert _views(first, (None, 0, 1, 3)) == _views(second, (None, 0, 1, 3))
    assert first.view(None).seats[2].summary.endswith(" · not lower than 1")


def test_a_tie_is_declared_only_where_it_decides_who_goes_through() -> None:
    """ "an equal score is not good enough" — but "If there is a tie that does not involve the player who
    said 'challenge', then no one goes through": that tie is declared; a tie with the challenger, who goes
    through anyway, stays a plain "not lower"."""
    dealer = Dealer()
    state = scripted(
        dealer, [dealer.hand(*SCORE_4), dealer.hand(*SCORE_1), dealer.hand(*SCORE_1), dealer.hand(*SCORE_9)]
    )
    events = state.apply(0, CHALLENGE)
    assert any(
        e.seat == 2 and e.text == "declares a score equal to {b:1}: a tie for the lowest" for e in events
    )
    assert state.playing() == (0, 1, 2, 3)
    dealer = Dealer()
    state = scripted(
        dealer, [dealer.hand(*SCORE_1), dealer.hand(*SCORE_4), dealer.hand(*SCORE_1), dealer.hand(*SCORE_9)]
    )
    events = state.apply(0, CHALLENGE)
    assert [e.text for e in events if e.seat == 2] == ["declares: not lower than {b:1}"]
    assert state.playing() == (1, 2, 3)


def test_resampled_hands_keep_to_what_their_players_declared() -> None:
    """What a challenge makes public stays true of the hands a resample redraws for another viewer: the
    challenger revealed 4 and plays on, seat 2 declared "not lower than 1" (ruling 4). The claim follows
    the challenger's hand through a public draw and discard."""
    dealer = Dealer()
    state = scripted(
        dealer, [dealer.hand(*SCORE_4), dealer.hand(*SCORE_1), dealer.hand(*SCORE_9), dealer.hand(*SCORE_7)]
    )
    state.apply(0, CHALLENGE)
    rules = state.rules_in_play()
    before = state.hand(0)
    state.apply(0, "draw.0")
    discard = state.hand(0)[0]
    state.apply(0, f"discard.{discard.id}")
    drawn = next(card for card in state.hand(0) if card not in before)
    changed = 0
    for seed in range(40):
        other = state.resample_hidden(3, random.Random(seed))
        assert other.view(3) == state.view(3)
        then = [card for card in other.hand(0) if card != drawn] + [discard]
        assert score_hand(then, rules).total == 4
        assert score_hand(other.hand(2), rules, perfect_zero_counts=True).total >= 1
        changed += sorted(other.hand(0)) != sorted(state.hand(0))
    assert changed > 20  # the hands are redrawn, not copied


FOURTEEN_ONE_TEXT = "These cards can be either 14 or 1 at the choice of the player holding them."


def _sneak_table(challenger_hand: tuple[int, ...]) -> FrazzledMinimizeState:
    """Lucky Sixes and Top Heavy in play; seat 1 holds two 14/1s, two 3s and two 6s: as 14 a Perfect Zero,
    as 1 a score of −8; seat 2 scores −17 (the lowest)."""
    dealer = Dealer()
    hands = [
        dealer.hand(*challenger_hand),
        dealer.hand(ACE, ACE, 3, 3, 6, 6),
        dealer.hand(5, 5, 6, 6, 6, 7),
        dealer.hand(*SCORE_9),
    ]
    return scripted(dealer, hands, bonus=("sixes", "high"))


def test_the_fourteen_one_reading_that_serves_the_holder_best_includes_a_perfect_zero() -> None:
    """ "These cards can be either 14 or 1 at the choice of the player holding them." The engine chooses
    for the holder (ruling 7): when someone else challenges with more than two playing, a reading that is a
    Perfect Zero sneaks them through ("If, when someone else says 'challenge', any player has a MINIMIZE
    score of zero and their hand is made up of exactly three distinct pairs ... those players automatically
    sneak through"), even though reading them as 1 gives a lower score that would not be the lowest."""
    state = _sneak_table(SCORE_4)
    rules = (BONUS_BY_ID["sixes"], BONUS_BY_ID["high"], state.duplicates_rule)
    lower = score_hand(state.hand(1), rules)
    assert (lower.total, lower.low_aces, lower.perfect_zero) == (-8, True, False)
    best = score_hand(state.hand(1), rules, perfect_zero_counts=True)
    assert (best.total, best.low_aces, best.perfect_zero) == (0, False, True)
    private = {field.name: field.value for field in state.view(1).private}
    assert "→ -8" in private["Your score now"] and "(Perfect Zero)" in private["At someone else's challenge"]
    assert "At someone else's challenge" not in {field.name for field in state.view(0).private}
    events = state.apply(0, CHALLENGE)
    assert any(e.seat == 1 and e.text.startswith("sneaks through with a Perfect Zero") for e in events)
    assert any(e.seat == 1 and "(14/1 as 14)" in e.text and "(Perfect Zero)" in e.text for e in events)
    assert any(e.seat == 2 and e.text.startswith("goes through") for e in events)
    assert state.playing() == (0, 3)


def test_the_challenger_reads_fourteen_one_for_the_lower_score() -> None:
    """ "If, when someone else says 'challenge' ...": the challenger's own Perfect Zero does not sneak, so
    its 14/1 cards count as 1 there, the lower score (ruling 7)."""
    state = _sneak_table(SCORE_4)
    state = scripted_from(state)
    events = state.apply(1, CHALLENGE)
    assert events[1].seat == 1 and "reveals a score of {b:-8}" in events[1].text


def scripted_from(state: FrazzledMinimizeState) -> FrazzledMinimizeState:
    """The same table with seat 1 to play first."""
    hands = [list(state.hand(seat)) for seat in range(state.num_seats)]
    piles = [list(reversed(state.pile(index))) for index in range(3)]
    return FrazzledMinimizeState.scripted(hands, piles, bonus=("sixes", "high"), first=1)


DECLARED = re.compile(
    r"(reveals a score of|declares: not lower than|declares a score equal to) \{b:(-?\d+)\}"
)


def test_in_random_games_every_resample_keeps_every_declaration_of_a_challenge_true() -> None:
    """The no-leak machinery's resample stays consistent with what a challenge made public (ruling 4):
    right after each challenge in seeded random games, for every viewer, the redrawn hands of the players
    still playing score what they revealed, and at least the score they were "not lower" than."""
    checked = 0
    for seed in range(25):
        state = MINIMIZE.new_game(3 + seed % 6, seed)
        picker = random.Random(seed)
        while not state.is_terminal() and checked < 400:
            seat = picker.choice([s for s in range(state.num_seats) if state.legal_actions(s)])
            legal = [a.code for a in state.legal_actions(seat)]
            code = CHALLENGE if CHALLENGE in legal and picker.random() < 0.3 else picker.choice(legal)
            round_before = state.round
            events = state.apply(seat, code)
            if code != CHALLENGE or state.is_terminal() or state.round != round_before:
                continue
            declared = [
                (e.seat, m.group(1), int(m.group(2))) for e in events if (m := DECLARED.search(e.text))
            ]
            playing = len({who for who, _, _ in declared if who is not None})
            rules = state.rules_in_play()
            for viewer in (None, *range(state.num_seats)):
                other = state.resample_hidden(viewer, random.Random(checked))
                for who, kind, value in declared:
                    if who == viewer or who not in state.playing():
                        continue
                    counts = playing > 2 and who != seat
                    total = score_hand(other.hand(who), rules, perfect_zero_counts=counts).total
                    assert total >= value if kind.startswith("declares: not") else total == value
                    checked += 1
    assert checked > 100
