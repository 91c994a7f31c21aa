"""A press answered in time, however busy the bot: Discord fails an interaction not answered within 3
seconds of its creation ("This interaction failed"). A table press the bot has not begun to answer
:data:`ACKNOWLEDGE_AFTER_SECONDS` after it arrived (sooner if Discord created it earlier still) is
acknowledged at once with a deferred update, which shows nothing, and its answer then edits the message
the press was on (or comes as an ephemeral followup). A press answered in time costs one request, as
always; a late one costs two.

Every answer to a watched press goes through :func:`edit_pressed` or :func:`send_private`, which know
whether it was acknowledged. The count of presses acknowledged late (:data:`LATE`) is for tests and
benchmarks.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass
from typing import Any

import discord

log = logging.getLogger(__name__)

ANSWER_WITHIN_SECONDS = 2.5
"""How long after Discord created a press its answer may begin (Discord fails it at 3 seconds; the rest is
the answer's own way there)."""
ACKNOWLEDGE_AFTER_SECONDS = 2.4
"""How long after the press reached the bot it is acknowledged if no answer has begun (a bound that holds
whatever the clocks of Discord and of the bot's machine say). Later than the waits that end in an answer
of their own (a busy table, a database locked by another program: about 2 seconds), so those are still
the press's one response."""


@dataclass
class _Watch:
    timer: asyncio.TimerHandle
    acknowledging: asyncio.Task | None = None


_watched: dict[int, _Watch] = {}
"""The presses not yet answered, by interaction id."""


@dataclass
class LateCount:
    """How many presses were acknowledged before their answer (``late``)."""

    late: int = 0


LATE = LateCount()


def watch(interaction: discord.Interaction) -> None:
    """Acknowledge ``interaction`` (a component press) with a deferred update if no answer has begun by
    :data:`ACKNOWLEDGE_AFTER_SECONDS` from now, or :data:`ANSWER_WITHIN_SECONDS` from its creation if that
    is sooner."""
    if interaction.id in _watched or interaction.response.is_done():
        return
    age = (discord.utils.utcnow() - interaction.created_at).total_seconds()
    delay = max(0.0, min(ACKNOWLEDGE_AFTER_SECONDS, ANSWER_WITHIN_SECONDS - age))
    timer = asyncio.get_running_loop().call_later(delay, _acknowledge, interaction)
    _watched[interaction.id] = _Watch(timer)


def _acknowledge(interaction: discord.Interaction) -> None:
    watched = _watched.get(interaction.id)
    if watched is None or interaction.response.is_done():
        return
    LATE.late += 1
    watched.acknowledging = asyncio.get_running_loop().create_task(_defer(interaction))


async def _defer(interaction: discord.Interaction) -> None:
    try:
        await interaction.response.defer()
    except discord.HTTPException as error:  # too late already, or Discord is down: the answer tries anyway
        log.warning("Could not acknowledge a late press: %s", error)


async def acknowledged(interaction: discord.Interaction) -> bool:
    """Stop watching ``interaction`` as its answer begins: True if it was acknowledged already (the answer
    must then edit the original response or come as a followup), False if the answer is its response.
    A deferral on its way is waited for."""
    watched = _watched.pop(interaction.id, None)
    if watched is not None:
        watched.timer.cancel()
        if watched.acknowledging is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await watched.acknowledging
    return interaction.response.is_done()


def forget(interaction: discord.Interaction) -> None:
    """Stop watching ``interaction`` (its handling is over, answered or not)."""
    watched = _watched.pop(interaction.id, None)
    if watched is not None:
        watched.timer.cancel()


async def edit_pressed(interaction: discord.Interaction, **edit: Any) -> None:
    """Answer the press by editing the message it was on (``edit``: the keyword arguments of
    ``response.edit_message``), in one request if it is in time, else as an edit of the acknowledged
    response.

    Raises
    ------
    discord.HTTPException
        Discord refused the edit.
    """
    if await acknowledged(interaction):
        await interaction.edit_original_response(**edit)
    else:
        await interaction.response.edit_message(**edit)


async def send_private(interaction: discord.Interaction, **message: Any) -> None:
    """Answer the press with a new ephemeral message (``message``: the keyword arguments of
    ``response.send_message``): its response, or a followup once it was acknowledged.

    Raises
    ------
    discord.HTTPException
        Discord refused the message.
    """
    message["ephemeral"] = True
    if await acknowledged(interaction):
        await interaction.followup.send(**message)
    else:
        await interaction.response.send_message(**message)
