"""The hard level's search of the Frazzled Wool games (:mod:`engine.frazzled.ai_search`) on a scripted
position: it overrules a poor first choice when another move is clearly better."""

from __future__ import annotations

import random

from engine.ai.core import AIPlayer, InformationSet
from engine.frazzled.ai_eradicize import evaluate
from engine.frazzled.ai_search import SearchPlayer, eradicize_rollout
from engine.frazzled.deck import DECK
from engine.frazzled.eradicize import EradicizeState
from tests.engine.frazzled.helpers import c


class FirstLegal(AIPlayer):
    """Plays the first legal move: the search's base, so its choice is the one to overrule."""

    name = "first"

    def decide(self, seen: InformationSet, rng: random.Random) -> str:
        return seen.legal_codes()[0]


def test_the_search_keeps_its_last_card_instead_of_taking_a_big_hand_with_a_6() -> None:
    """ERADICIZE, draw piles out: seat 0 holds a 6 of its shape token (always playable) and a 9, nothing
    face up; the seat on its right holds eight cards. Playing the 6 passes every hand left, so seat 0 would
    get eight cards; playing the 9 leaves it the 6, its winning card next turn (every other card is on the
    discard pile, and the other hands hold no action card, so nothing can stop it in any world). The first
    legal move is the 6; the search overrules it and plays the 9."""
    six, nine = c(6, 4), c(9, 0)
    hands = [[six, nine], [c(4, 2), c(5, 2)], [c(number, 1) for number in (3, 4, 5, 7, 8, 9, 11, 12)]]
    face_up = [[], [c(12, 5)], [c(11, 5)]]
    top = c(3, 3)
    placed = {card for group in (*hands, *face_up) for card in group} | {top}
    state = EradicizeState.scripted(
        3, hands, discard=[*(card for card in DECK if card not in placed), top], face_up=face_up
    )
    assert state.legal_actions(0)[0].code == f"play.{six.id}"
    search = SearchPlayer(FirstLegal(), eradicize_rollout, evaluate, worlds=8, moves=12)
    assert search.choose(state, 0, random.Random(1)) == f"play.{nine.id}"
