"""A local Discord-compatible server for end-to-end tests and demos.
It imports none of the bot's packages (bot, cogs, engine, storage), and discord.py only in endpoints.py.

The real, unmodified discord.py client connects to a :class:`SandboxServer`
(an in-process aiohttp server speaking the gateway and the REST routes a
slash-command/button bot uses). Simulated users run slash commands, press
buttons, pick select options and submit modals; the server enforces Discord's
documented rules and records every breach in ``server.violations``.

Modules
-------
server
    :class:`SandboxServer`: lifecycle, the world, observation, message logic.
simulation
    Simulated users: ``run_command``, ``press``, ``select``, ``submit_modal``...
handlers
    What each REST call does (messages, interaction answers, followups, commands).
gateway
    The websocket gateway (HELLO, IDENTIFY, READY, GUILD_CREATE, RESUME, heartbeats).
scheduled_events
    Guild scheduled events (REST, gateway events, members marking interest); ``event_fields`` checks an
    event's fields and recurrence rule.
shards
    Several gateway sessions at once: each guild's events to its shard, DMs to shard 0.
rest
    Routing, authentication, body parsing, error answers, failure injection hook.
models
    Users, guilds, channels and messages as stored by the sandbox.
interactions
    Interaction records and the :class:`InteractionResult` users get back.
limits
    Discord's size and shape limits.
transcript
    Plain-text rendering of messages and a live activity printer.
endpoints
    ``discord_endpoints``: a discord.py client pointed at the server (the one module importing discord.py).
web
    :class:`~sandbox.web.WebPage`: a web page on 127.0.0.1 showing the sandbox to one simulated user, who
    acts there (``cardtable --sandbox``); ``web_view`` makes each message the page's JSON, ``web_static/``
    holds the page (HTML, one script, one style sheet).
"""

from .endpoints import discord_endpoints
from .errors import SandboxError, SandboxUsageError
from .interactions import InteractionRecord, InteractionResult, ModalView
from .models import Channel, Guild, Message, Permissions, Role, SimUser
from .scheduled_events import ScheduledEvent
from .server import SandboxServer
from .transcript import print_activity, render_channel, render_message

__all__ = [
    "SandboxServer",
    "discord_endpoints",
    "SandboxError",
    "SandboxUsageError",
    "InteractionRecord",
    "InteractionResult",
    "ModalView",
    "Channel",
    "Guild",
    "Message",
    "Permissions",
    "Role",
    "ScheduledEvent",
    "SimUser",
    "print_activity",
    "render_channel",
    "render_message",
]
