"""``resample_unseen`` of the three Frazzled Wool games (the benchmark's perfect-information
ceiling): only what no seat has seen is redrawn."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from engine.ai.core import legal_codes
from engine.registry import GAMES


def _unseen(state) -> Counter:
    """The cards no seat has seen: the draw piles below their tops and the cards set aside."""
    return Counter([card for index in range(3) for card in state.pile(index)[:-1]] + list(state.set_aside))


@pytest.mark.parametrize("game_key", ["minimize", "tokenize", "eradicize"])
def test_resample_unseen_keeps_every_seen_card_and_every_view(game_key: str) -> None:
    """Along a game of random moves: every hand, pile top, pile size and the discard pile stay; the piles'
    hidden cards are the same cards, reshuffled; every seat's view (and the public one) is unchanged; the
    state itself is not changed."""
    state = GAMES[game_key].new_game(3, 7)
    rng = random.Random(game_key)
    reshuffled = 0
    for step in range(160):
        if state.is_terminal():
            break
        if step % 8 == 0:
            before = state.engine_snapshot()
            world = state.resample_unseen(random.Random(step))
            assert state.engine_snapshot() == before
            for seat in range(3):
                assert world.hand(seat) == state.hand(seat)
            assert world.drawn == state.drawn and world.discard_pile == state.discard_pile
            for index in range(3):
                assert len(world.pile(index)) == len(state.pile(index))
                assert world.pile(index)[-1:] == state.pile(index)[-1:]
            assert _unseen(world) == _unseen(state)
            if game_key != "eradicize":
                assert sorted(card.id for card in world.bonus_pile) == sorted(
                    card.id for card in state.bonus_pile
                )
            for viewer in (None, 0, 1, 2):
                assert world.view(viewer) == state.view(viewer)
            reshuffled += any(world.pile(index) != state.pile(index) for index in range(3))
        seat = state.seats_to_act()[0]
        state.apply(seat, rng.choice(legal_codes(state, seat)))
    assert reshuffled  # the hidden order really is redrawn
