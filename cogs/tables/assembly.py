"""The tables extension put together: the table runtime (Discord-free) and the Discord parts that show it
and route presses to it, each made once with what it needs, in order (nothing is wired afterwards)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import discord

from cogs.tables import late_presses
from cogs.tables.edit_pacing import EditPacing
from cogs.tables.message_ids import TableMessageIds
from cogs.tables.presenter import DiscordPresenter
from cogs.tables.presses import TablePresses
from cogs.tables.private_views import PrivateViews
from cogs.tables.table_limits import OpeningLimits, TableLimits
from cogs.tables.table_message import TableMessages
from cogs.tables.threads import TableThreads
from cogs.tables.turn_alerts import AlertChoices, TurnAlerts
from cogs.tables.turn_notices import TurnNotices
from engine.tables.queues import TableQueues, seated_channel
from engine.tables.registry import TableRegistry
from engine.tables.runtime import TableRuntime
from engine.tables.store import TableStore
from engine.tables.tasks import Supervisor

if TYPE_CHECKING:
    from cogs.host import Host


@dataclass(frozen=True)
class TableParts:
    """The parts of the tables extension of one bot."""

    runtime: TableRuntime
    messages: TableMessages
    private_views: PrivateViews
    presses: TablePresses
    turn_alerts: TurnAlerts
    limits: OpeningLimits
    queues: TableQueues


def assemble(bot: "Host") -> TableParts:
    """Make the parts for ``bot`` (its settings, database and scheduler)."""
    settings = bot.settings
    tasks = Supervisor(expected=(discord.HTTPException,))
    registry = TableRegistry()
    store = TableStore(bot.db, registry, shutting_down=bot.is_closed)
    pacing = EditPacing(
        channel_edits=settings.table_edits_per_channel,
        watched_seconds=settings.table_watched_seconds,
        unwatched_redraw_seconds=settings.table_unwatched_redraw_seconds,
    )
    messages = TableMessages(
        bot,
        tasks,
        settings.table_message_max_age_seconds,
        ids=TableMessageIds(bot.db, tasks),
        is_live=registry.is_live,
        pacing=pacing,
    )
    private_views = PrivateViews(bot, tasks, messages)
    threads = TableThreads(bot, registry, messages, tasks)
    turn_alerts = TurnAlerts(
        bot,
        tasks,
        messages,
        private_views,
        AlertChoices(bot.db),
        TurnNotices(bot, bot.db),
        settings.turn_alert_delay_seconds,
    )
    runtime = TableRuntime(
        registry,
        store,
        bot.scheduler,
        DiscordPresenter(bot, tasks, messages, private_views, threads, turn_alerts),
        tasks,
        lobby_idle_seconds=settings.lobby_idle_seconds,
        ai_pause_seconds=settings.ai_pause_seconds,
    )
    private_views.commit = runtime.commit
    presses = TablePresses(runtime, messages, private_views)
    defaults = TableLimits(
        settings.default_member_lobbies, settings.default_max_tables, settings.default_ai_tables
    )
    limits = OpeningLimits(registry, bot.db, defaults)
    runtime.opening_refusal = limits.rematch_refusal
    runtime.ai_turns.presses_first = late_presses.BACKLOG.presses_handled  # people before AI seats
    queues = TableQueues(
        bot.db,
        bot.scheduler,
        lambda guild_id, user_id: seated_channel(registry, guild_id, user_id),
        minute_seconds=settings.queue_minute_seconds,
    )
    return TableParts(runtime, messages, private_views, presses, turn_alerts, limits, queues)
