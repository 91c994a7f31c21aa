"""The table runtime put together: one instance of each part, wired to the others (the composition root).

=================  =====================================================================================
module             job
=================  =====================================================================================
``cog``            slash commands and the entry points of presses and gateway events
``presses``        what each press does (the :class:`~cogs.tables.press_handler.PressHandler`)
``registry``       the live tables by id, channel and player
``opening``        the one open-table flow of ``/play`` and "Play again"
``after_move``     what follows a move: clock, DMs, private views, the end of the game
``turn_notices``   slow mode's "your turn" DM; ``time_control``: fixed clock, time banks, slow mode
``clocks``         turn / lobby / rematch clocks: arm, disarm, ran out
``store``          persist, reload, restore at start, the result; ``snapshot``: the stored model
``table_message``  the public message: answer, refresh, post, move, permission notice
``private_views``  live ephemeral views, DMs, paging of a private view
``closing``        closing a table, ending a scoreboard
``threads``        tables in threads: starting one, archiving it when its tables are gone
``ai_seats``       who plays each seat: AI seats in the lobby, seats an AI plays in a game
``ai_turns``       the AI seats' turns: a pause, thinking in a worker, the move stored like a press
``idle_takeover``  "I'm back", and telling a player once that an AI took over their seat
``seat_presses``   Add / Remove AI player, I'm back, Leave game, End table
``render``         pure rendering; ``action_menus``: menus and pages; ``lobby_options``: option checks
=================  =====================================================================================
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from cogs.tables.after_move import AfterMove
from cogs.tables.ai_turns import AITurns
from cogs.tables.clocks import TableClocks
from cogs.tables.closing import TableCloser
from cogs.tables.idle_takeover import IdleNotices
from cogs.tables.opening import TableOpener
from cogs.tables.presses import TablePresses
from cogs.tables.private_views import PrivateViews
from cogs.tables.registry import TableRegistry
from cogs.tables.session import TableSession
from cogs.tables.store import TableStore
from cogs.tables.table_message import TableMessages
from cogs.tables.tasks import Supervisor
from cogs.tables.threads import TableThreads
from cogs.tables.turn_notices import TurnNotices

if TYPE_CHECKING:
    from cogs.host import Host


@dataclass
class TableRuntime:
    """Every part of the table runtime, for one bot."""

    tasks: Supervisor
    registry: TableRegistry
    messages: TableMessages
    store: TableStore
    clocks: TableClocks
    private_views: PrivateViews
    after_move: AfterMove
    opener: TableOpener
    closer: TableCloser
    presses: TablePresses
    threads: TableThreads
    ai_turns: AITurns
    idle_notices: IdleNotices

    @classmethod
    def build(cls, bot: "Host") -> "TableRuntime":
        """Make and wire the parts for ``bot`` (its settings, database and scheduler)."""
        settings = bot.settings
        tasks = Supervisor()
        registry = TableRegistry()
        store: TableStore

        async def save(session: TableSession) -> None:
            await store.save_quietly(session)

        messages = TableMessages(
            bot, tasks, settings.table_message_max_age_seconds, save=save, is_live=registry.is_live
        )
        store = TableStore(bot.db, registry, messages, shutting_down=bot.is_closed)
        clocks = TableClocks(
            bot.scheduler,
            registry,
            messages,
            lobby_idle_seconds=settings.lobby_idle_seconds,
        )
        private_views = PrivateViews(bot, tasks, messages)
        after_move = AfterMove(registry, clocks, private_views, TurnNotices(bot, tasks, messages.jump_url))
        opener = TableOpener(bot, registry, store, clocks, messages)
        closer = TableCloser(registry, store, messages, opener)
        clocks.persist = store.persist
        clocks.after_move = after_move
        clocks.close = closer.close
        clocks.end_rematch = closer.end_rematch
        registry.on_forget(clocks.disarm_all)
        registry.on_forget(private_views.forget)
        presses = TablePresses(registry, store, clocks, messages, private_views, after_move, closer)
        threads = TableThreads(bot, registry, messages, tasks)
        closer.table_closed = threads.table_closed
        ai_turns = AITurns(registry, tasks, settings.ai_pause_seconds)
        ai_turns.persist, ai_turns.after_move, ai_turns.refresh = store.persist, after_move, messages.refresh
        idle_notices = IdleNotices(bot, tasks)
        registry.on_forget(idle_notices.forget)
        after_move.followers += [idle_notices, ai_turns.schedule]
        return cls(
            tasks,
            registry,
            messages,
            store,
            clocks,
            private_views,
            after_move,
            opener,
            closer,
            presses,
            threads,
            ai_turns,
            idle_notices,
        )
