"""What routing a component press costs: the tables' own router (``cogs/tables/components.py`` ``route``,
called from ``on_interaction``) against discord.py's ``DynamicItem`` dispatch, on demand (never in the
test suite).

    python3 bench/component_routing.py                 # 5,000 presses a round, 5 rounds each way
    python3 bench/component_routing.py --presses 2000 --rounds 3

Both run inside one discord.py client, from the gateway's ``INTERACTION_CREATE`` payload of a press on a
Foist table message as the bot draws it (a layout: text, the game's buttons, "My hand", "DM me my hand",
"How to play"), up to the press handler, which does nothing here:

- **route**: the client's ``on_interaction`` listener calls :func:`cogs.tables.components.route` (what the
  bot does);
- **DynamicItem**: the table button is a registered ``discord.ui.DynamicItem`` and no listener runs (what
  discord.py's own dispatch would do: for each press it matches every registered template, starts a task,
  rebuilds the pressed message's whole view with ``View.from_message``, finds the pressed item in it, makes
  the dynamic item with ``from_custom_id`` and calls its callback). This is a lower bound for that design:
  the bot would still need a listener to answer presses no item takes (a forged or stale custom_id).

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
from cogs.tables.components import route  # noqa: E402
from engine import get_rules  # noqa: E402
from engine.tables.session import TableSession, TableSettings  # noqa: E402

GUILD, CHANNEL, MESSAGE, BOT, PLAYER = 10, 20, 30, 40, 41
NOW = datetime(2026, 11, 26, 20, 0, tzinfo=timezone.utc)


class Handler:
    """The press handler (:class:`cogs.tables.press_handler.PressHandler`): counts the presses."""

    def __init__(self) -> None:
        self.presses = 0

    async def on_table_button(self, interaction: discord.Interaction, target: ids.TableCustomId) -> None:
        self.presses += 1

    async def on_option_select(self, interaction, table_id, field, values) -> None:
        self.presses += 1


HANDLER = Handler()


class TableButton(discord.ui.DynamicItem[discord.ui.Button], template=ids.TEMPLATE):
    """A table button as a discord.py dynamic item."""

    def __init__(self, target: ids.TableCustomId) -> None:
        super().__init__(discord.ui.Button(custom_id=str(target)))
        self.target = target

    @classmethod
    async def from_custom_id(cls, interaction, item, match):  # noqa: D102
        return cls(ids.TableCustomId(match["table"], int(match["version"]), match["verb"]))

    async def callback(self, interaction: discord.Interaction) -> None:  # noqa: D102
        await HANDLER.on_table_button(interaction, self.target)


class RoutingClient(discord.Client):
    """A client whose ``on_interaction`` routes table presses, as the tables cog does."""

    async def on_interaction(self, interaction: discord.Interaction) -> None:  # noqa: D102
        await route(HANDLER, interaction)


def press_payload() -> dict:
    """The ``INTERACTION_CREATE`` payload of "Take" pressed on a started Foist table's message."""
    settings = TableSettings(3600, 5, 2)
    session = TableSession("abcd1234", GUILD, CHANNEL, get_rules("foist"), settings, 1, "ann")
    session.join(2, "bob")
    session.join(3, "cid")
    session.start(1, 7, NOW)
    drawn = render.table_message(session)
    take = layouts.action_rows(drawn.components)[0]["components"][0]["custom_id"]
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
        "data": {"custom_id": take, "component_type": 2},
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


async def measure(dynamic: bool, presses: int, rounds: int) -> list[float]:
    client = (discord.Client if dynamic else RoutingClient)(intents=discord.Intents.none())
    await client._async_setup_hook()  # what logging in does first: the client takes the running loop
    bot_user = {"id": str(BOT), "username": "cards", "discriminator": "0", "avatar": None, "bot": True}
    client._connection.user = discord.ClientUser(state=client._connection, data=bot_user)  # as once ready
    if dynamic:
        client.add_dynamic_items(TableButton)
    payload = press_payload()
    await one_round(client, payload, 200)  # warm-up
    return [await one_round(client, payload, presses) for _ in range(rounds)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--presses", type=int, default=5000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    results = {}
    for name, dynamic in (("route", False), ("DynamicItem", True), ("route again", False)):
        per_press = asyncio.run(measure(dynamic, args.presses, args.rounds))
        results[name] = statistics.median(per_press)
        spread = ", ".join(f"{value * 1e6:.1f}" for value in per_press)
        print(f"{name:12} {results[name] * 1e6:6.1f} µs per press (rounds: {spread})")
    route_cost = min(results["route"], results["route again"])
    extra = results["DynamicItem"] - route_cost
    ratio = results["DynamicItem"] / route_cost
    print(f"DynamicItem costs {extra * 1e6:+.1f} µs per press more than route ({ratio:.2f}x)")


if __name__ == "__main__":
    main()
