"""``GameState.decision_key`` and ``has_decision`` over random legal play of every registered game, player
count and variant: a key never stays while the seat's labelled legal actions change (else a stale button
would be accepted), changes seldom while they stay, is hashable and equal for equal states (a copy, an
engine snapshot read back); ``has_decision`` is whether there are legal actions.

Soundness is checked in the strong form the table runtime relies on even across several moves at once (a
timeout plays every due seat): two states with equal keys for a seat give it equal actions, over every
state of every game played with the same seats and options.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import GAMES, GameRules
from engine.core import GameState
from tests.engine.conftest import MAX_STEPS

VARIANTS: dict[str, tuple[dict, ...]] = {
    "declare": ({}, {"triplet_skips": True, "pure_three_reverses": True}, {"quick_throw_back": False}),
    "memory": ({}, {"jokin_around": True, "underdogs": True}, {"simplicity": True}),
    "minimisere": ({}, {"nines": True}),
    "minimize": ({}, {"actions_side": "A"}, {"actions_side": "B"}),
}
"""Options each game is played with besides its defaults (variants that change what may be decided)."""
FORKS = 0.3
"""The share of steps at which a detour is taken (:func:`detour`)."""
RESAMPLES = 0.1
"""The share of steps whose state is also checked with what nobody sees redrawn
(``GameState.resample_hidden``)."""
DETOUR_MOVES = 4
"""How many of the game's own moves a detour follows after its other choice."""
SWEEP_GAMES = 16
"""Whole seeded games per registered game in the sweep (player counts and variants taken in turn)."""
MAX_KEY_CHANGES_PER_ACTION_CHANGE = 1.25
"""How much more often a key may change than the actions it stands for, over the sweep of one game. A key
that changed with every move for every seat changes at least twice as often in every game."""

Seen = dict[tuple, dict]
"""Per ``(seats, options, seat)``, each key met and the actions it stood for."""


@dataclass
class Figures:
    """What some games showed: states checked along the games and along their detours, seat-pairs of
    consecutive states compared, how many of those pairs changed the legal actions, changed the key, and
    changed the key only (spurious)."""

    states: int = 0
    detour_states: int = 0
    pairs: int = 0
    action_changes: int = 0
    key_changes: int = 0
    spurious: int = 0

    @property
    def ratio(self) -> float:
        """Key changes per change of the actions."""
        return self.key_changes / max(self.action_changes, 1)


def check_decisions(state: GameState, seen: Seen, table: tuple) -> tuple:
    """Every seat's key and actions in ``state``, checked: hashable, equal on a copy, one set of actions per
    key (over ``seen``, for the games of ``table``), ``has_decision`` agreeing. Returns them per seat."""
    copy = state.copy()
    noted = []
    for seat in range(state.num_seats):
        actions = state.legal_actions(seat)
        key = state.decision_key(seat)
        assert hash(copy.decision_key(seat)) == hash(key) and copy.decision_key(seat) == key, seat
        assert state.has_decision(seat) == bool(actions), f"seat {seat}: has_decision is wrong"
        known = seen.setdefault((*table, seat), {}).setdefault(key, actions)
        assert known == actions, f"seat {seat}: the key {key!r} stands for two sets of actions"
        noted.append((key, actions))
    return tuple(noted)


def play(
    rules: GameRules,
    seats: int,
    seed: int,
    options: dict,
    seen: Seen,
    figures: Figures,
    choices: list[int] | None = None,
) -> GameState:
    """Play one random legal game (``choices`` as in :func:`tests.engine.conftest.games_in_play`, else to
    its end), checking every state and every consecutive pair (into ``figures``), then its detours
    (:func:`detour`); return its last state."""
    state = rules.new_game(seats, seed, options)
    table = (seats, json.dumps(options, sort_keys=True))
    picker = random.Random(seed)
    before = check_decisions(state, seen, table)
    figures.states += 1
    forks: list[GameState] = []
    steps = 0
    while not state.is_terminal() and (choices is None or steps < len(choices)):
        seat = picker.choice([seat for seat in range(seats) if before[seat][1]])
        legal = before[seat][1]
        choice = choices[steps] if choices is not None else picker.randrange(len(legal))
        if len(legal) > 1 and picker.random() < FORKS:
            forks.append(state.copy())
        if picker.random() < RESAMPLES:
            # What nobody sees redrawn (Foist's tokens, the hands): a state that differs in secrets only.
            check_decisions(state.resample_hidden(None, picker), seen, table)
            figures.detour_states += 1
        state.apply(seat, legal[choice % len(legal)].code)
        steps += 1
        assert steps <= MAX_STEPS, "the game did not end"
        after = check_decisions(state, seen, table)
        figures.states += 1
        for (key, actions), (new_key, new_actions) in zip(before, after, strict=True):
            figures.pairs += 1
            if new_actions != actions:
                figures.action_changes += 1
                assert new_key != key, "the actions changed but not the key"
            if new_key != key:
                figures.key_changes += 1
                figures.spurious += new_actions == actions
        before = after
    for fork in forks:
        figures.detour_states += detour(fork, state.history, picker, seen, table)
    return state


def detour(
    fork: GameState, history: list[tuple[int, str]], picker: random.Random, seen: Seen, table: tuple
) -> int:
    """From ``fork``, a state of the game whose log is ``history``: the mover takes another legal action,
    then the game's own next moves are made while they stay legal (at most :data:`DETOUR_MOVES`), each
    state checked (:func:`check_decisions`). States that differ from the game's by one choice are where a
    key missing a field shows. Returns the states checked."""
    seat, code = history[fork.version]
    others = [action.code for action in fork.legal_actions(seat) if action.code != code]
    fork.apply(seat, picker.choice(others))
    check_decisions(fork, seen, table)
    checked = 1
    for seat, code in history[fork.version : fork.version + DETOUR_MOVES]:
        if fork.is_terminal() or code not in {action.code for action in fork.legal_actions(seat)}:
            break
        fork.apply(seat, code)
        check_decisions(fork, seen, table)
        checked += 1
    return checked


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(sorted(GAMES)), st.data())
def test_a_key_changes_whenever_the_actions_do(key: str, data) -> None:
    """Random legal play (a sampled game, player count, variant and seed): soundness at every step, and the
    keys of the last state equal those of its engine snapshot read back."""
    rules = GAMES[key]
    seats = data.draw(st.integers(rules.min_seats, rules.max_seats))
    options = data.draw(st.sampled_from(VARIANTS.get(key, ({},))))
    seed = data.draw(st.integers(0, 2**63 - 1))
    choices = data.draw(st.lists(st.integers(0, 50), max_size=150))
    state = play(rules, seats, seed, options, {}, Figures(), choices)
    snapshot = state.engine_snapshot()
    if snapshot is not None:
        restored = type(state).from_engine_snapshot(json.loads(json.dumps(snapshot)), state.history)
        for seat in range(seats):
            assert restored.decision_key(seat) == state.decision_key(seat)


def sweep(key: str, games: int = SWEEP_GAMES) -> Figures:
    """Whole seeded random games of one registered game, player counts and variants in turn, checked as one
    run (one key table per seats and options); their figures added up."""
    rules = GAMES[key]
    figures = Figures()
    seen: Seen = {}
    counts = range(rules.min_seats, rules.max_seats + 1)
    variants = VARIANTS.get(key, ({},))
    for seed in range(games):
        options = variants[seed // len(counts) % len(variants)]
        play(rules, counts[seed % len(counts)], seed, options, seen, figures)
    return figures


@pytest.mark.parametrize("key", sorted(GAMES))
def test_over_whole_games_keys_are_sound_and_seldom_change_alone(key: str) -> None:
    """Whole games (:func:`sweep`): every check of :func:`play`, and the keys change at most
    :data:`MAX_KEY_CHANGES_PER_ACTION_CHANGE` times as often as the actions."""
    figures = sweep(key)
    assert figures.action_changes > 100
    assert figures.ratio <= MAX_KEY_CHANGES_PER_ACTION_CHANGE, (
        f"{key}: {figures.key_changes} key changes for {figures.action_changes} changes of the actions "
        f"({figures.spurious} spurious, over {figures.states} states)"
    )


def test_the_default_key_is_the_legal_actions_themselves() -> None:
    state = GAMES["foist"].new_game(3, 1)
    seat = state.seats_to_act()[0]
    assert GameState.decision_key(state, seat) == state.legal_actions(seat)
    assert GameState.has_decision(state, seat) is True
    assert GameState.has_decision(state, (seat + 1) % 3) is False
