"""Helpers shared by the Frazzled Wool engine tests: naming cards, listing codes, and the limits every view
and action list keeps."""

from __future__ import annotations

import re

from engine.core import GameState, LegalAction
from engine.frazzled.deck import DECK, FOURTEEN_ONE, Card

CODE = re.compile(r"[A-Za-z0-9_.,+\-]{1,40}")
PAGED = re.compile(r"\(\d+-\d+\)$")


def c(number: int, k: int = 0) -> Card:
    """The k-th card (0..5) of a number in deck order: its colour index is ``i + k`` and its shape index
    ``i + 2k`` (mod 13), where ``i`` is the number's index (the 14/1 card 0, 2 -> 1 ... 13 -> 12)."""
    index = 0 if number == FOURTEEN_ONE else number - 1
    return DECK[index * 6 + k]


def codes(state: GameState, seat: int) -> list[str]:
    """The codes of ``seat``'s legal actions, in order."""
    return [action.code for action in state.legal_actions(seat)]


def fields(view) -> dict[str, str]:
    """A view's table, rules in play and private fields by name."""
    return {field.name: field.value for field in (*view.table, *view.rules, *view.private)}


def check_view_limits(state: GameState) -> None:
    """The engine contract's limits, for every viewer and the public actions."""
    for seat in [None, *range(state.num_seats)]:
        view = state.view(seat)
        assert len(view.title) <= 256
        assert len(view.table) + len(view.private) <= 25
        for field in (*view.table, *view.private):
            assert 0 < len(field.name) <= 256 and 0 < len(field.value) <= 1024
        assert len(view.seats) == state.num_seats
        assert all(len(line.summary) <= 300 for line in view.seats)
        check_actions(view.legal_actions)
    check_actions(state.public_actions())
    for seat in state.seats_to_act():
        assert state.legal_actions(seat), seat
        assert state.default_action(seat) in {action.code for action in state.legal_actions(seat)}


def check_actions(actions: tuple[LegalAction, ...]) -> None:
    """Codes are unique and short, labels and groups short; each decision (the actions of one kind, named
    by the code before its first dot) offers all its options in one group, never paged.

    A description may run longer than a Discord select option holds (ERADICIZE's reasons to play a card
    and its action): the engine never cuts text, the renderer shortens it, and
    ``tests/engine/test_properties.py`` checks that every message it draws fits Discord's limits."""
    assert len(actions) <= 100
    assert len({action.code for action in actions}) == len(actions)
    groups: dict[str, set[str]] = {}
    for action in actions:
        assert CODE.fullmatch(action.code), action.code
        assert len(action.label) <= 80 and len(action.group) <= 150
        assert not PAGED.search(action.group), action.group
        groups.setdefault(action.code.split(".")[0], set()).add(action.group)
    assert all(len(names) == 1 for names in groups.values()), groups
    assert sum(1 for action in actions if not action.group) <= 20  # buttons
