"""The table components as discord.py's dynamic items (``cogs/tables/components.py``), without Discord:
every table custom_id the renderer draws is taken by exactly one item's template, each bot's items hand
presses to that bot's handler, and an item's callback or the fallback parses a press as the tables always
have (an action menu's choice as that action's button, a forged value refused). That discord.py dispatches
them, and that the fallback answers exactly the presses no item takes: ``tests/e2e/test_dynamic_items.py``.
"""

from __future__ import annotations

import random
import re
from datetime import datetime, timezone
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from cogs.tables import components, render
from cogs.tables import custom_ids as ids
from cogs.tables.components import NOT_MINE, TableButton, TableSelect, answer_unclaimed, table_items
from engine.registry import GAMES
from engine.tables.session import TableDraft, TablePhase, TableSettings
from tests.tables import drawing

NOW = datetime(2026, 11, 24, 4, 0, tzinfo=timezone.utc)
BUTTON, SELECT = discord.ComponentType.button.value, discord.ComponentType.string_select.value


class Handler:
    """A press handler that records what it was handed."""

    def __init__(self) -> None:
        self.calls: list[tuple[Any, ...]] = []

    async def on_table_button(self, interaction: Any, target: ids.TableCustomId) -> None:
        self.calls.append(("button", target))

    async def on_option_select(self, interaction: Any, table_id: str, field: str, values: list[str]) -> None:
        self.calls.append(("option", table_id, field, values))


class Response:
    def __init__(self) -> None:
        self.sent: list[str] = []

    def is_done(self) -> bool:
        return bool(self.sent)

    async def send_message(self, text: str, *, ephemeral: bool = False) -> None:
        assert ephemeral
        self.sent.append(text)


def press(custom_id: str, component_type: int, values: list[str] | None = None) -> Any:
    """A component press as the items and the fallback read it (``data``, ``response``), on no message."""
    data: dict[str, Any] = {"custom_id": custom_id, "component_type": component_type}
    if values is not None:
        data["values"] = values
    return SimpleNamespace(data=data, response=Response(), message=None)


def pressed(verb: str) -> tuple[str, ids.TableCustomId]:
    """The handler's record of a button press with ``verb`` on table ``abcd1234`` at version 3."""
    return "button", ids.TableCustomId("abcd1234", 3, verb)


def button_item(custom_id: str) -> discord.ui.Button:
    return discord.ui.Button(custom_id=custom_id)


def menu_item(custom_id: str) -> discord.ui.Select:
    return discord.ui.Select(custom_id=custom_id)


def drawn_custom_ids(key: str, seed: int) -> set[tuple[int, str]]:
    """``(component type, custom_id)`` of every component of every message of a random game of ``key``."""
    rules, rng = GAMES[key], random.Random(seed)
    session = TableDraft(f"{key[:4]}{seed:04d}", 10, 20, rules, TableSettings(3600, 5, 2), 1, "Ann")
    for user in range(2, rng.randint(rules.min_seats, min(rules.max_seats, 5)) + 1):
        session.join(user, f"Player {user}")
    drawn = [render.lobby_message(session)]
    session.start(1, seed, NOW)
    for _ in range(300):
        if session.phase is not TablePhase.PLAYING:
            break
        drawn.extend(render.table_message(session, page) for page in (0, 1))
        drawn.extend(
            render.private_message(session, user, jump_url="https://discord.com/channels/1/2/3", page=page)
            for user in session.players
            for page in (0, 1)
        )
        user = rng.choice(session.users_with_actions())
        action = rng.choice(session.view(session.seat_of(user)).legal_actions)
        session.act(user, session.state.version, action.code, NOW)
    if session.phase is TablePhase.SCOREBOARD:
        drawn.extend((render.scoreboard_message(session), render.final_scoreboard(session)))
    return {
        (component["type"], component["custom_id"])
        for message in drawn
        for component in drawing.components(message)
        if "custom_id" in component
    }


@pytest.mark.parametrize("key", sorted(GAMES))
def test_every_table_custom_id_drawn_is_taken_by_exactly_one_dynamic_item(key: str) -> None:
    templates = {TableButton: re.compile(TableButton.TEMPLATE), TableSelect: re.compile(TableSelect.TEMPLATE)}
    for component_type, custom_id in drawn_custom_ids(key, 1):
        taking = [item for item, template in templates.items() if template.fullmatch(custom_id)]
        if not custom_id.startswith(ids.PREFIX):
            assert taking == [], custom_id  # another cog's ("rp:", "rules:")
        else:
            assert taking == [TableButton if component_type == BUTTON else TableSelect], custom_id


def test_the_templates_are_the_custom_id_formats() -> None:
    assert TableButton.TEMPLATE == ids.TEMPLATE and TableSelect.TEMPLATE == ids.SELECT_TEMPLATE
    assert re.fullmatch(TableSelect.TEMPLATE, ids.option_custom_id("abcd1234", "rules"))
    assert re.fullmatch(TableSelect.TEMPLATE, ids.select_custom_id("abcd1234", 12, 3))
    assert re.fullmatch(TableButton.TEMPLATE, str(ids.TableCustomId.for_action("abcd1234", 12, "play.7,3")))


async def test_each_bots_items_hand_its_presses_to_its_own_handler() -> None:
    first, second = Handler(), Handler()
    first_items, second_items = table_items(first), table_items(second)
    assert [item.__mro__[1] for item in first_items] == [TableButton, TableSelect]
    assert first_items[0] is not second_items[0] and first_items[0].handler is first
    button = discord.ui.Button(custom_id="ct:abcd1234:3:join")
    match = re.fullmatch(ids.TEMPLATE, button.custom_id)
    item = await second_items[0].from_custom_id(press(button.custom_id, BUTTON), button, match)
    await item.callback(press(button.custom_id, BUTTON))
    assert first.calls == [] and second.calls == [pressed("join")]
    client = discord.Client(intents=discord.Intents.none())
    client.add_dynamic_items(*first_items)  # discord.py takes them as dynamic items
    client.remove_dynamic_items(*first_items)


@pytest.mark.parametrize(
    ("make", "custom_id", "values", "handed"),
    [
        # A button on the message: its custom_id as parsed, whatever its verb (the handler refuses it).
        (button_item, "ct:abcd1234:3:join", None, pressed("join")),
        (button_item, "ct:abcd1234:3:zzz", None, pressed("zzz")),
        (button_item, "ct:abcd1234:3:a.take", None, pressed("a.take")),
        # An action menu: the one value chosen as that action's button; a forged value or two values refused.
        (menu_item, "ct:abcd1234:3:s.0", ["play.7"], pressed("a.play.7")),
        (menu_item, "ct:abcd1234:3:s.0", ["evil:code"], None),
        (menu_item, "ct:abcd1234:3:s.0", ["take", "pass"], None),
        # A lobby menu: the option it sets, with every value.
        (menu_item, "ct:abcd1234:0:o.rules", ["a", "b"], ("option", "abcd1234", "rules", ["a", "b"])),
        # A menu with a button's custom_id, a button with a menu's (never drawn): as the press they name.
        (menu_item, "ct:abcd1234:3:join", ["x"], pressed("join")),
        (menu_item, "ct:abcd1234:3:zzz", ["x"], None),
        (button_item, "ct:abcd1234:3:s.0", None, None),
    ],
)
async def test_a_dynamic_item_hands_a_press_on_as_its_custom_id_says(make, custom_id, values, handed) -> None:
    handler = Handler()
    item_class = next(
        item for item in table_items(handler) if re.fullmatch(item.TEMPLATE, custom_id) is not None
    )
    base = make(custom_id)
    interaction = press(custom_id, base.type.value, values)
    item = await item_class.from_custom_id(interaction, base, re.fullmatch(item_class.TEMPLATE, custom_id))
    await item.callback(interaction)
    assert handler.calls == ([] if handed is None else [handed])
    assert interaction.response.sent == ([NOT_MINE] if handed is None else [])


@pytest.mark.parametrize(
    ("custom_id", "handed"),
    [
        ("ct:abcd1234:3:join", pressed("join")),
        ("ct:abcd1234:3:p.2", pressed("p.2")),
        ("ct:abcd1234:3:zzz", None),  # an unknown verb
        ("ct:abcd1234:3:s.0", None),  # a menu's custom_id pressed as a button
        ("evil:1", None),
    ],
)
async def test_the_fallback_answers_a_press_on_no_message_as_the_press_it_names(custom_id, handed) -> None:
    handler = Handler()
    interaction = press(custom_id, BUTTON)
    assert not components.claimed(interaction)
    await answer_unclaimed(handler, interaction, ("rp:", "rules:"))
    assert handler.calls == ([] if handed is None else [handed])
    assert interaction.response.sent == ([NOT_MINE] if handed is None else [])


async def test_the_fallback_leaves_other_cogs_presses_alone() -> None:
    handler, interaction = Handler(), press("rp:t:abcd1234", BUTTON)
    await answer_unclaimed(handler, interaction, ("rp:", "rules:"))
    assert handler.calls == [] and interaction.response.sent == []
