"""Invariants over random legal play (hypothesis) for every registered game: games end and replay exactly,
illegal actions change nothing, no view reveals what its viewer may not see, and every view the bot draws
of it fits Discord's limits."""

from __future__ import annotations

import random
from datetime import datetime, timezone

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cogs.tables import custom_ids as ids
from cogs.tables import render
from cogs.tables.drawn import Drawn
from engine import GAMES, IllegalAction, replay
from engine.tables.session import TableDraft, TablePhase, TableSession, TableSettings
from sandbox.limits import validate_message
from tests.engine.conftest import games_in_play, seats_with_actions
from tests.tables import drawing


@settings(max_examples=60, deadline=None)
@given(games_in_play(finish=True))
def test_every_game_ends_and_replays_exactly(game) -> None:
    rules, state = game
    assert state.is_terminal()
    assert state.seats_to_act() == ()
    standings = state.standings()
    assert sorted(standing.seat for standing in standings) == list(range(state.num_seats))
    assert min(standing.rank for standing in standings) == 1
    again = replay(rules, state.num_seats, state.seed, state.options, state.history)
    assert again.standings() == standings
    assert again.view(None) == state.view(None)


@settings(max_examples=80, deadline=None)
@given(games_in_play(), st.text(max_size=12))
def test_the_seats_to_act_have_actions_and_illegal_ones_change_nothing(game, junk: str) -> None:
    _, state = game
    to_act = set(state.seats_to_act())
    for seat in range(state.num_seats):
        view = state.view(seat)
        assert view.seat == seat
        assert view.legal_actions == state.legal_actions(seat)
        if seat in to_act:
            assert view.legal_actions
    to_act = set(seats_with_actions(state))
    public = state.view(None)
    assert public.private == () and public.legal_actions == ()
    before = [state.view(seat) for seat in range(state.num_seats)], state.version
    codes = {action.code for seat in to_act for action in state.legal_actions(seat)}
    for seat in range(-1, state.num_seats + 1):
        if junk in codes and seat in to_act:
            continue
        try:
            state.apply(seat, junk)
        except IllegalAction:
            pass
        else:
            raise AssertionError(f"{junk!r} by seat {seat} was accepted")
    assert ([state.view(seat) for seat in range(state.num_seats)], state.version) == before


@settings(max_examples=150, deadline=None)
@given(games_in_play(), st.randoms(use_true_random=False))
def test_no_view_reveals_what_its_viewer_may_not_see(game, rng: random.Random) -> None:
    """Every registered game: redrawing what a viewer may not see (other hands, face-down piles, future
    shuffles) leaves that viewer's view, and the public buttons, exactly as they were."""
    _, state = game
    if state.is_terminal():
        return
    for viewer in [None, *range(state.num_seats)]:
        other = state.resample_hidden(viewer, rng)
        assert other.view(viewer) == state.view(viewer)
        assert other.public_actions() == state.public_actions()
        assert other.history == state.history


@pytest.mark.parametrize("key", sorted(GAMES))
def test_resampling_hides_something_that_play_later_shows(key: str) -> None:
    """The resample of the no-leak test is not a plain copy: in some seeded game, playing the same moves
    on the original and on a resample for seat 0 soon shows seat 0 something different."""
    rules = GAMES[key]
    differed = 0
    for seed in range(10):
        state = rules.new_game(rules.min_seats, seed)
        # A generator other than the deal's: a canonical resample (sorted, then shuffled) with the deal's own
        # seed would redeal the very same layout.
        other = state.resample_hidden(0, random.Random(seed + 10_000))
        picker = random.Random(seed)
        for _ in range(300):
            if state.is_terminal():
                break
            if state.view(0) != other.view(0) or state.legal_actions(0) != other.legal_actions(0):
                differed += 1
                break
            seat = picker.choice(seats_with_actions(state))
            action = picker.choice(state.legal_actions(seat)).code
            try:
                other.apply(seat, action)
            except IllegalAction:
                differed += 1  # the resample's legal moves differ: something hidden differed
                break
            state.apply(seat, action)
    assert differed >= 3


# -- Discord's limits ---------------------------------------------------------------------------------

LONGEST_NAME = "N" * 32  # Discord's longest display name


def _within_discords_limits(drawn: Drawn) -> None:
    errors = validate_message(drawing.payload(drawn))
    assert not errors, errors.summary()


def _every_page(draw) -> int:
    """Check every page of a message drawn by ``draw(page)``; returns how many pages there were."""
    page = 0
    while True:
        drawn = draw(page)
        _within_discords_limits(drawn)
        targets = [ids.TableCustomId.parse(button["custom_id"]) for button in drawing.buttons(drawn)]
        following = [target for target in targets if target is not None and (target.page or 0) > page]
        if not following:
            return page + 1
        page += 1
        assert page < 20, "paging does not end"


def _table_of(rules, state) -> TableSession:
    """The table the bot would hold for ``state``: seated by players with the longest names, then the same
    moves pressed by them."""
    now = datetime(2026, 11, 24, tzinfo=timezone.utc)
    session = TableDraft("abcd1234ef", 1, 2, rules, TableSettings(30, 5, 2), 100, LONGEST_NAME)
    for user in range(101, 100 + state.num_seats):
        session.join(user, LONGEST_NAME)
    for name, value in state.options.model_dump().items():
        session.set_option(100, name, value)
    _within_discords_limits(render.lobby_message(session))
    session.start(100, state.seed, now)
    for seat, code in state.history:
        assert session.state is not None
        session.act(session.players[seat], session.state.version, code, now)
    return session


@settings(max_examples=80, deadline=None)
@given(games_in_play())
def test_every_message_the_bot_draws_of_any_game_fits_discords_limits(game) -> None:
    """Every registered game, after random legal play: the table message, each seat's private view (on
    every page of its choices) and the scoreboard stay within Discord's limits (embeds, fields, buttons,
    select menus, custom_ids), with the longest display names."""
    rules, state = game
    session = _table_of(rules, state)
    if session.phase is TablePhase.SCOREBOARD:
        _within_discords_limits(render.scoreboard_message(session))
        return
    _every_page(lambda page: render.table_message(session, page))
    for user in session.players:
        _every_page(
            lambda page, user=user: render.private_message(
                session, user, jump_url="https://discord.com/channels/1/2/3", offer_dm=True, page=page
            )
        )
