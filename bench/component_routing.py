"""What routing a component press costs: the bot's way (discord.py's ``DynamicItem`` dispatch of the
table's items, ``cogs/tables/components.py``, with the cog's fallback listener) against a listener alone,
on demand (never in the test suite).

    python3 bench/component_routing.py                 # 5,000 presses a round, 5 rounds each way
    python3 bench/component_routing.py --presses 2000 --rounds 3
    python3 bench/component_routing.py --menus         # a choice in a private view of 4 menus of 25

Each runs inside one discord.py client, from the gateway's ``INTERACTION_CREATE`` payload of a press on a
Foist table message as the bot draws it (a layout: text, the game's buttons, "My hand", "DM me my hand",
"How to play"; with ``--menus``, a choice in the first of the four menus of 25 options of a private view of
``tests/tables/toy_game.py``'s wide pick), up to the press handler, which does nothing here:

- **listener**: no dynamic item; the client's ``on_interaction`` listener finds the pressed component on
  the message, parses its custom_id and calls the handler (what the tables' own router did before they
  used dynamic items);
- **DynamicItem + fallback**: what the bot does: the table's items (``table_items``) are registered, so
  discord.py matches every registered template, starts a task, rebuilds the pressed message's whole view
  with ``View.from_message``, finds the pressed item in it, makes the dynamic item with ``from_custom_id``
  and calls its callback; and the client's ``on_interaction`` calls ``answer_unclaimed``, which leaves the
  press to the item;
- **DynamicItem alone**: the items and no listener (discord.py's dispatch by itself).

Reported for each: the process's CPU per press (``time.process_time``, the median round), including the
``Interaction`` discord.py builds from the payload either way.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

import discord

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from cogs.tables import custom_ids as ids  # noqa: E402
from cogs.tables import layouts, render  # noqa: E402
from cogs.tables.components import answer_unclaimed, claimed, table_items  # noqa: E402
from engine import get_rules  # noqa: E402
from engine.tables.session import TableDraft, TableSettings  # noqa: E402
from tests.tables.toy_game import WidePick  # noqa: E402

GUILD, CHANNEL, MESSAGE, BOT, PLAYER = 10, 20, 30, 40, 41
NOW = datetime(2026, 11, 26, 20, 0, tzinfo=timezone.utc)
WAYS = ("listener", "DynamicItem + fallback", "DynamicItem alone", "listener again")


class Handler:
    """The press handler (:class:`cogs.tables.press_handler.PressHandler`): counts the presses."""

    def __init__(self) -> None:
        self.presses = 0

    async def on_table_button(self, interaction: discord.Interaction, target: ids.TableCustomId) -> None:
        self.presses += 1

    async def on_option_select(self, interaction, table_id, field, values) -> None:
        self.presses += 1


HANDLER = Handler()


class ListenerClient(discord.Client):
    """A client whose ``on_interaction`` finds a table button on the message and hands it to the handler."""

    async def on_interaction(self, interaction: discord.Interaction) -> None:  # noqa: D102
        data = interaction.data
        values = data.get("values")
        custom_id = str(data["custom_id"])
        target = ids.parse_select(custom_id, values[0]) if values else ids.TableCustomId.parse(custom_id)
        if claimed(interaction) and target is not None:
            await HANDLER.on_table_button(interaction, target)


class FallbackClient(discord.Client):
    """A client whose ``on_interaction`` is the tables cog's fallback."""

    async def on_interaction(self, interaction: discord.Interaction) -> None:  # noqa: D102
        await answer_unclaimed(HANDLER, interaction)


def press_payload(menus: bool) -> dict:
    """The ``INTERACTION_CREATE`` payload of "Take" pressed on a started Foist table's message, or with
    ``menus`` of a choice in the first menu of a wide pick's private view."""
    settings = TableSettings(3600, 5, 2)
    rules = WidePick() if menus else get_rules("foist")
    session = TableDraft("abcd1234", GUILD, CHANNEL, rules, settings, 1, "ann")
    session.join(2, "bob")
    session.join(3, "cid")
    session.start(1, 7, NOW)
    drawn = render.private_message(session, 2, jump_url="https://discord.com/channels/10/20/30")
    drawn = drawn if menus else render.table_message(session)
    pressed = layouts.action_rows(drawn.components)[0]["components"][0]
    data = {"custom_id": pressed["custom_id"], "component_type": pressed["type"]}
    if menus:
        data["values"] = [pressed["options"][0]["value"]]
    user = {"id": str(PLAYER), "username": "bob", "discriminator": "0", "global_name": "bob", "avatar": None}
    message = {
        "id": str(MESSAGE),
        "channel_id": str(CHANNEL),
        "author": {"id": str(BOT), "username": "cards", "discriminator": "0", "avatar": None, "bot": True},
        "content": "",
        "timestamp": NOW.isoformat(),
        "edited_timestamp": None,
        "tts": False,
        "mention_everyone": False,
        "mentions": [],
        "mention_roles": [],
        "attachments": [],
        "embeds": [] if drawn.embed is None else [drawn.embed],
        "components": list(drawn.components),
        "pinned": False,
        "type": 0,
        "flags": 32768 if drawn.layout else 0,  # IS_COMPONENTS_V2
    }
    return {
        "id": "50",
        "application_id": str(BOT),
        "type": 3,
        "token": "token",
        "version": 1,
        "guild_id": str(GUILD),
        "channel_id": str(CHANNEL),
        "channel": {
            "id": str(CHANNEL),
            "type": 0,
            "guild_id": str(GUILD),
            "name": "cards",
            "position": 0,
            "permission_overwrites": [],
            "nsfw": False,
            "parent_id": None,
        },
        "member": {
            "user": user,
            "roles": [],
            "joined_at": NOW.isoformat(),
            "permissions": "0",
            "deaf": False,
            "mute": False,
            "flags": 0,
        },
        "app_permissions": "0",
        "locale": "en-US",
        "guild_locale": "en-US",
        "entitlements": [],
        "authorizing_integration_owners": {},
        "context": 0,
        "attachment_size_limit": 10485760,
        "message": message,
        "data": data,
    }


async def one_round(client: discord.Client, payload: dict, presses: int) -> float:
    """CPU seconds per press for ``presses`` presses, each handled to its end."""
    state = client._connection
    before_count = HANDLER.presses
    started = time.process_time()
    for _ in range(presses):
        state.parse_interaction_create(payload)
        for _ in range(4):  # the tasks discord.py starts for the press (and, for a dynamic item, its own)
            await asyncio.sleep(0)
    spent = time.process_time() - started
    assert HANDLER.presses - before_count == presses, "every press reaches the handler"
    return spent / presses


async def measure(way: str, presses: int, rounds: int, menus: bool) -> list[float]:
    """CPU seconds per press of each round, routed ``way`` (one of :data:`WAYS`)."""
    kind = {"DynamicItem + fallback": FallbackClient, "DynamicItem alone": discord.Client}
    client = kind.get(way, ListenerClient)(intents=discord.Intents.none())
    await client._async_setup_hook()  # what logging in does first: the client takes the running loop
    bot_user = {"id": str(BOT), "username": "cards", "discriminator": "0", "avatar": None, "bot": True}
    client._connection.user = discord.ClientUser(state=client._connection, data=bot_user)  # as once ready
    if way.startswith("DynamicItem"):
        client.add_dynamic_items(*table_items(HANDLER))
    payload = press_payload(menus)
    await one_round(client, payload, 200)  # warm-up
    return [await one_round(client, payload, presses) for _ in range(rounds)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--presses", type=int, default=5000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--menus", action="store_true", help="a choice in a private view's menus")
    args = parser.parse_args()
    results = {}
    for way in WAYS:
        per_press = asyncio.run(measure(way, args.presses, args.rounds, args.menus))
        results[way] = statistics.median(per_press)
        spread = ", ".join(f"{value * 1e6:.1f}" for value in per_press)
        print(f"{way:22} {results[way] * 1e6:6.1f} µs per press (rounds: {spread})")
    listener = min(results["listener"], results["listener again"])
    for way in ("DynamicItem + fallback", "DynamicItem alone"):
        extra, ratio = results[way] - listener, results[way] / listener
        print(f"{way} costs {extra * 1e6:+.1f} µs per press more than the listener ({ratio:.2f}x)")


if __name__ == "__main__":
    main()
