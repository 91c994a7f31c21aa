"""A press is answered with the table drawn straight as Discord JSON (``render_json.table_message_json``,
``action_menus.action_components_json``): it must be exactly the JSON the discord.py objects give
(``embed.to_dict()``, ``view.to_components()``), for every game's table message and every seat's private
components, at every page, over random play; and for a decision paged over several menus."""

from __future__ import annotations

import random
from datetime import datetime, timezone

import discord
import pytest

from cogs.tables import action_menus, render, render_json
from cogs.tables import custom_ids as ids
from engine.tables.session import Phase, TableSession, TableSettings
from engine.registry import GAMES
from tests.tables.toy_game import WidePick

NOW = datetime(2026, 11, 24, 4, 0, tzinfo=timezone.utc)
MAX_MOVES = 400
TRIMMED_WITH_LONG_NAMES = {"memory", "minimize"}  # their logs name players often enough


def _objects_json(session: TableSession, page: int) -> tuple[dict, list[dict]]:
    embed, view = render.table_message(session, page)
    return embed.to_dict(), view.to_components()


def _private_components_match(session: TableSession, user: int, page: int) -> None:
    _, view = render.private_message(session, user, page=page)
    seat = session.seat_of(user)
    actions = session.view(seat).legal_actions
    drawn = action_menus.action_components_json(
        session.table_id, session.state.version, actions, lambda text: render.with_names(session, text), page
    )
    expected = discord.ui.View(timeout=None)
    for item in render.action_components(session, actions, page):
        expected.add_item(item)
    assert action_menus.rows_json(drawn) == expected.to_components() == _without_seat_controls(view)


def _verb(item: dict) -> str:
    return item.get("custom_id", "").rsplit(":", 1)[1]


def _without_seat_controls(view: discord.ui.View) -> list[dict]:
    """The view's components without the seat buttons of a private view ("Leave game", "I'm back")."""
    rows = []
    for row in view.to_components():
        kept = [item for item in row["components"] if _verb(item) not in ids.SEAT_VERBS]
        if kept:
            rows.append({**row, "components": kept})
    return rows


def _check(session: TableSession, private_pages: tuple[int, ...] = (0,)) -> None:
    for page in (0, 1, 2):
        assert render_json.table_message_json(session, page) == _objects_json(session, page)
    for page in private_pages:
        for user in session.players:
            _private_components_match(session, user, page)


@pytest.mark.parametrize("key", sorted(GAMES))
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_table_drawn_as_json_is_the_json_of_the_drawn_objects(key: str, seed: int) -> None:
    """Seed 3 gives the players names so long that some games' embeds must be trimmed to Discord's 6,000
    characters."""
    rules = GAMES[key]
    rng = random.Random(seed)
    seats = rng.randint(rules.min_seats, min(rules.max_seats, 5))
    long = "_long name_" * 60 if seed == 3 else ""
    session = TableSession(f"{key[:4]}{seed:04d}", 10, 20, rules, TableSettings(3600, 5, 2), 1, f"Ann{long}")
    for user in range(2, seats + 1):
        session.join(user, f"Player *{user}*{long}")
    session.start(1, seed, NOW)
    trimmed = False
    for _ in range(MAX_MOVES):
        if session.phase is not Phase.PLAYING:
            break
        _check(session)
        user = rng.choice(session.users_with_actions())
        actions = session.view(session.seat_of(user)).legal_actions
        session.act(user, session.state.version, rng.choice(actions).code, NOW)
        trimmed = trimmed or len(render.table_message(session)[0]) >= render.EMBED_TOTAL_LIMIT - 40
    assert session.phase is not Phase.LOBBY
    if seed != 3:
        assert not trimmed
    elif key in TRIMMED_WITH_LONG_NAMES:
        assert trimmed  # the fallback through fit_embed is checked too


def test_a_decision_paged_over_menus_is_drawn_as_the_same_json() -> None:
    session = TableSession("wide1234", 10, 20, WidePick(), TableSettings(30, 5, 2), 1, "host")
    session.join(2, "bob")
    session.start(1, 1, NOW)
    _check(session, private_pages=(0, 1, 2))
