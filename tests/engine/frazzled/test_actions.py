"""The typed actions of the three Frazzled Wool games: every code parses back to itself, malformed codes
are not moves, ``check`` agrees exactly with ``legal_actions`` (random legal play, hypothesis), and games
stored by the engine before typed actions replay to the same end."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings

from engine import GAMES, IllegalAction, replay
from engine.core import CARD_MARK, STRONG
from engine.frazzled import EradicizeAction, FrazzledMinimizeAction, TokenizeAction
from tests.engine.conftest import games_in_play

STORED_LOGS = Path(__file__).parent / "data" / "logs_before_typed_actions.json"
"""One random game of each, played and stored by the engine before the ``engine/frazzled`` package (string
codes parsed ad hoc, menus paged): seat count, seed, action log, final standings and public table."""

ACTION_TYPES = {"minimize": FrazzledMinimizeAction, "tokenize": TokenizeAction, "eradicize": EradicizeAction}


def candidate_codes(num_seats: int) -> list[str]:
    """Every code of every kind the three games know, over the ranges a game can reach."""
    codes = ["keep", "pickup", "challenge", "flip.dup", "flip.act"]
    codes += [f"draw.{pile}" for pile in range(3)] + [f"bonus.{slot}" for slot in range(3)]
    codes += [f"swap.{index}" for index in range(3)] + [f"fan.{position}" for position in range(45)]
    for prefix in ("discard", "play", "give"):
        codes += [f"{prefix}.{card}" for card in range(78)]
    for kind in "cs":
        codes += [f"token.{kind}{index}" for index in range(13)]
        codes += [f"steal.{seat}.{kind}{index}" for seat in range(num_seats) for index in range(13)]
    return codes


@pytest.mark.parametrize("key", sorted(ACTION_TYPES))
@pytest.mark.parametrize(
    "code",
    ["draw.01", "draw.3", "draw.-1", "discard.78", "token.x1", "token.c13", "set.3.2.1", "fan", "Keep"],
)
def test_malformed_codes_are_not_moves(key: str, code: str) -> None:
    with pytest.raises(ValueError):
        ACTION_TYPES[key].parse(code)
    state = GAMES[key].new_game(3, seed=1)
    with pytest.raises(IllegalAction, match="not allowed in this game"):
        state.apply(state.seats_to_act()[0], code)


def test_another_games_code_is_not_a_move() -> None:
    for key, code in (("minimize", "pickup"), ("eradicize", "challenge"), ("tokenize", "play.3")):
        with pytest.raises(ValueError):
            ACTION_TYPES[key].parse(code)


def _set_codes(state, seat: int) -> list[str]:
    """The set codes ``seat`` could declare (TOKENIZE), to try them on every seat."""
    return [action.code for action in state.legal_actions(seat) if action.code.startswith("set.")]


def assert_check_agrees_with_legal_actions(state) -> None:
    """Every listed code parses back to itself and passes ``check``; every other code is refused with
    words."""
    if state.is_terminal():
        return
    candidates = candidate_codes(state.num_seats) + ["set.0.1.2", "set.6.7.8"]
    candidates += [code for other in range(state.num_seats) for code in _set_codes(state, other)]
    for seat in range(state.num_seats):
        legal = {action.code for action in state.legal_actions(seat)}
        for code in legal:
            action = state.action_type.parse(code)
            assert action.format() == code
            assert state.check(seat, action) is None, (seat, code)
        for code in candidates:
            try:
                action = state.action_type.parse(code)
            except ValueError:
                continue
            words = state.check(seat, action)
            assert (words is None) == (code in legal), (seat, code, words)
            assert words is None or words.strip()


@settings(max_examples=40, deadline=None)
@given(games_in_play(GAMES["minimize"]))
def test_minimize_check_agrees_with_legal_actions(game) -> None:
    assert_check_agrees_with_legal_actions(game[1])


@settings(max_examples=40, deadline=None)
@given(games_in_play(GAMES["tokenize"]))
def test_tokenize_check_agrees_with_legal_actions(game) -> None:
    assert_check_agrees_with_legal_actions(game[1])


@settings(max_examples=40, deadline=None)
@given(games_in_play(GAMES["eradicize"]))
def test_eradicize_check_agrees_with_legal_actions(game) -> None:
    assert_check_agrees_with_legal_actions(game[1])


@pytest.mark.parametrize("key", sorted(ACTION_TYPES))
def test_games_stored_before_typed_actions_replay_to_the_same_end(key: str) -> None:
    stored = json.loads(STORED_LOGS.read_text(encoding="utf-8"))[key]
    history = [(seat, code) for seat, code in stored["history"]]
    state = replay(GAMES[key], stored["seats"], stored["seed"], None, history)
    assert state.is_terminal() and state.history == history
    assert [[s.seat, s.points, s.rank, s.detail] for s in state.standings()] == stored["standings"]
    # The stored table was written with Discord's bold (**x**); the engine now marks with strong() ({b:x}),
    # and cards with card_mark() ({card:fw:7|7 Blue ★}, shown as the text before emojis).
    view = state.view(None)  # the table, then the rules in play (kept apart)
    table = [
        [field.name, STRONG.sub(r"**\1**", CARD_MARK.sub(r"\3", field.value))]
        for field in (*view.table, *view.rules)
    ]
    assert table == stored["table"]


@settings(max_examples=60, deadline=None)
@given(games_in_play(GAMES["tokenize"]))
def test_cards_are_one_group_and_a_handful_of_other_choices_are_buttons(game) -> None:
    """The games offer a decision's cards (discards) as one group however many (the renderer shows each
    card's face on a button when they fit), and its other choices as separate buttons while there are a
    handful (five, or three sets), as one list of choices beyond that, however long (the renderer pages
    it)."""
    _, state = game
    for seat in range(state.num_seats):
        by_kind: dict[str, list] = {}
        for action in state.legal_actions(seat):
            by_kind.setdefault(action.code.split(".")[0], []).append(action)
        for kind, actions in by_kind.items():
            groups = {action.group for action in actions}
            assert len(groups) == 1, (kind, groups)
            if kind == "discard":
                assert groups == {"Discard a card…"}, (kind, len(actions), groups)
            if kind in ("fan", "token", "steal"):
                assert (groups == {""}) == (len(actions) <= 5), (kind, len(actions), groups)
            if kind == "set":
                assert (groups == {""}) == (len(actions) <= 3), (kind, len(actions), groups)
