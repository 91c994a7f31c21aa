"""A night's sign-up message and who is in: the members who pressed **I'm in**, and those marked
"Interested" on the night's Discord scheduled event who did not press **Not this time**.

The buttons are plain components with custom_ids of :data:`TEMPLATE` (``night:in:<night id>``,
``night:out:<night id>``), dispatched by discord.py to the nights cog's ``DynamicItem``
(:mod:`cogs.nights.night_cog`). Without the privileged members intent discord.py does not report interest
of members it has not cached, so the interested are read from the event itself (:func:`interested`).
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass

import discord

from cogs.names import shown_name
from cogs.tables import lengths
from engine import GAMES
from engine.core import plural
from engine.nights import Format
from storage.nights import CANCELED, IN, INTERESTED, OUT, OVER, RUNNING, StoredNight, StoredSignup

log = logging.getLogger(__name__)

PREFIX = "night:"
TEMPLATE = r"night:(?P<verb>in|out):(?P<night>[0-9]{1,20})"
"""The custom_id of a sign-up button: ``night:in:<night id>`` or ``night:out:<night id>``."""
CONTENT_MAX = 2000
INTERESTED_READ = 100
"""The most "Interested" members read from an event (one page of Discord's list)."""
INTERESTED_SECONDS = 1.5
"""How long reading the event's "Interested" list may take before a press goes on without it (seconds)."""
FORMAT_WORDS = {
    Format.SWISS: "rounds re-seated by standings",
    Format.KNOCKOUT: "knockout: the winner of each table goes through to a final table",
    Format.RANDOM: "casual: each round seated at random",
}


@dataclass(frozen=True)
class Member:
    """A member who is in: ``user_id`` and display ``name``."""

    user_id: int
    name: str


def night_title(night: StoredNight) -> str:
    """``Foist game night`` (the names of the night's games)."""
    return " / ".join(GAMES[game].display_name for game in night.games) + " game night"


def describe(night: StoredNight, channel_name: str) -> str:
    """The scheduled event's description (Discord allows 1,000 characters)."""
    rounds = plural(night.rounds, "round")
    return (
        f"{rounds}, {FORMAT_WORDS[Format(night.format)]}. Tables open in threads of #{channel_name}. "
        "Sign up with I'm in on the bot's message there, or mark yourself Interested here."
    )[:1000]


def who_is_in(signups: list[StoredSignup], interested: list[Member]) -> list[Member]:
    """The players of a night, in sign-up order: the members who pressed I'm in, then the event's
    interested who pressed nothing (in the event's order); nobody who pressed Not this time or left."""
    pressed = {signup.user_id for signup in signups if signup.status != INTERESTED}
    players = [Member(s.user_id, s.name) for s in signups if s.status == IN]
    players += [Member(s.user_id, s.name) for s in signups if s.status == INTERESTED]
    known = {member.user_id for member in players}
    players += [m for m in interested if m.user_id not in pressed and m.user_id not in known]
    return players


async def interested(guild: discord.Guild, event_id: int | None) -> list[Member]:
    """The members marked "Interested" on the event ``event_id`` (read from Discord, at most
    :data:`INTERESTED_READ`); none if there is no event, or Discord does not answer in
    :data:`INTERESTED_SECONDS`."""
    if event_id is None:
        return []

    async def read() -> list[Member]:
        event = await guild.fetch_scheduled_event(event_id)
        return [
            Member(user.id, user.display_name)
            async for user in event.users(limit=INTERESTED_READ)
            if not user.bot
        ]

    try:
        return await asyncio.wait_for(read(), INTERESTED_SECONDS)
    except (discord.HTTPException, TimeoutError):
        log.info("Could not read who is interested in scheduled event %s", event_id)
        return []


def board_text(night: StoredNight, players: list[Member]) -> str:
    """The sign-up message's text, within Discord's 2,000 characters."""
    start = int(night.starts_at.timestamp())
    lines = [
        f"**{night_title(night)}** <t:{start}:F> (<t:{start}:R>)",
        f"{plural(night.rounds, 'round')}, {FORMAT_WORDS[Format(night.format)]}.",
    ]
    if night.state == CANCELED:
        lines.append("This night is canceled.")
    elif night.state in (RUNNING, OVER):
        lines.append("This night has started: anyone who signs up now plays from the next round.")
    else:
        lines.append(
            "Press **I'm in** to play. Members marked Interested on the server's event play too, unless they "
            "press **Not this time**. At the start, tables open in threads of this channel."
        )
    names = ", ".join(shown_name(member.name) for member in players) or "nobody yet"
    lines.append(f"**In** ({plural(len(players), 'player')}): {names}")
    return lengths.clip("\n".join(lines), CONTENT_MAX)


def board_view(night: StoredNight) -> discord.ui.View | None:
    """The sign-up buttons (a view discord.py does not keep: the dynamic item takes the presses), or
    ``None`` once the night is over or canceled."""
    if night.state in (CANCELED, OVER):
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(
        discord.ui.Button(
            label="I'm in", style=discord.ButtonStyle.success, custom_id=f"{PREFIX}{IN}:{night.night_id}"
        )
    )
    view.add_item(
        discord.ui.Button(
            label="Not this time",
            style=discord.ButtonStyle.secondary,
            custom_id=f"{PREFIX}{OUT}:{night.night_id}",
        )
    )
    return view
