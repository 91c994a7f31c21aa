"""Shared helpers of the engine tests: random legal play as a hypothesis strategy.

A "random legal play" is a seed plus a list of choice indices: at each step a seat that may act takes the
legal action at ``index % len(legal)``. Hypothesis shrinks failures to short, readable games.
"""

from __future__ import annotations

import random

from hypothesis import strategies as st

from engine import GAMES, GameRules
from engine.core import CARD_MARK

MAX_STEPS = 20_000


def seats_with_actions(state) -> list[int]:
    """Seats that may act now: those the game waits for, and any with an optional out-of-turn action."""
    return [seat for seat in range(state.num_seats) if state.legal_actions(seat)]


@st.composite
def games_in_play(draw, rules: GameRules | None = None, *, finish: bool = False, options: dict | None = None):
    """A game of ``rules`` (or any registered game), dealt with ``options`` (default: the game's defaults),
    after random legal play."""
    if rules is None:
        rules = GAMES[draw(st.sampled_from(sorted(GAMES)))]
    seats = draw(st.integers(rules.min_seats, rules.max_seats))
    seed = draw(st.integers(0, 2**63 - 1))
    choices = draw(st.lists(st.integers(0, 50), max_size=300 if finish else 120))
    state = rules.new_game(seats, seed, options)
    picker = random.Random(seed)
    steps = 0
    while not state.is_terminal() and (finish or steps < len(choices)):
        seat = picker.choice(seats_with_actions(state))
        legal = state.legal_actions(seat)
        choice = choices[steps] if steps < len(choices) else picker.randrange(len(legal))
        state.apply(seat, legal[choice % len(legal)].code)
        steps += 1
        assert steps <= MAX_STEPS, "the game did not end"
    return rules, state


def cards_as_text(text: str) -> str:
    """Engine text with its card marks (:func:`engine.core.card_mark`) dropped to their text, its other
    marks (``{b:...}``) kept: the text as it read before cards were marked."""
    return CARD_MARK.sub(r"\3", text)
