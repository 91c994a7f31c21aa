"""The table runtime: every table's life without Discord, and the one :meth:`TableRuntime.commit` that every
move goes through, whoever makes it (a press, a slash command, a clock, an AI seat, a takeover, a leaver).

A commit takes the table's lock, steps the table (:func:`engine.tables.step.step`: the next table, a
value, and its effects, values too), stores the new table in one transaction, makes it the live table
(:meth:`~engine.tables.session.TableSession.swap`) and releases the lock; then it carries the effects out
(clocks, AI turns, the channel freed, a rematch lobby) and hands the layer that shows tables one
:class:`~engine.tables.outcome.Outcome` (what changed and who must see what), through the caller's
``answer`` and the :class:`~engine.tables.outcome.Presenter`. A move refused or not stored leaves the
table as it was: nothing to undo.

=================  =====================================================================================
module             job
=================  =====================================================================================
``table``          a table as a value, and its draft: lobby, game, scoreboard, its clock's rules
``session``        a live table: its current value, its lock
``step``           the one change of a table: (table, move, now) -> (table, effects)
``moves``          every move and its check; ``outcome``: what a commit hands the presenter
``registry``       the live tables by id, channel and player
``store``          persist, restore at start, the result; ``snapshot``: the stored model
``clocks``         turn / lobby / rematch clocks on APScheduler
``ai_seats``       who plays each seat; ``ai_turns``: the AI seats' turns, thought in a worker
``lobby_options``  the options a lobby offers and the check of a choice
=================  =====================================================================================
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import functools
import gc
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import datetime, timedelta

from apscheduler.schedulers.base import BaseScheduler

from engine.ai.core import AIPlayer
from engine.ai.registry import ai_player
from engine.lobby import Lobby
from engine.tables import ai_seats, step
from engine.tables.ai_turns import UNATTENDED_PAUSE_SECONDS, AITurns
from engine.tables.clocks import TableClocks, utcnow
from engine.tables.moves import CountHint, LobbyIdle, Move, RematchWindowClosed, TimeOut, Unchanged
from engine.tables.outcome import Outcome, Presenter
from engine.tables.registry import TableRegistry, WaitingTable
from engine.tables.session import TableError, TablePhase, TableSession
from engine.tables.store import TableStore
from engine.tables.table import TableDraft
from engine.tables.tasks import Supervisor

log = logging.getLogger(__name__)

LOCK_WAIT_SECONDS = 2.0
"""How long a press waits for a busy table before it is refused, so it is still answered in time."""
SAVE_RETRY_SECONDS = 5
RESTORE_SLICE_SECONDS = 0.02
"""How long :meth:`TableRuntime.finish_restoring` replays waiting tables before it lets the event loop
answer (seconds)."""
GIVE_WAY_SECONDS = 0.1
"""How long, at most, :meth:`TableRuntime.finish_restoring` waits after a slice for the moves being committed
to be done (seconds; a move takes several turns of the event loop: one slice between each would hold it for
many)."""
NOT_OPENED = "This table could not be opened."

Answer = Callable[[Outcome], Awaitable[None]]
"""How whoever made a move answers it (a press's own response), run once the move is stored and the table's
lock released."""


class ChannelTaken(TableError):
    """A new table's channel has a table already (``table``): nothing was opened."""

    def __init__(self, table: TableSession) -> None:
        super().__init__(f"There is already a {table.rules.display_name} table in this channel.")
        self.table = table


@contextlib.asynccontextmanager
async def locked(table: TableSession, wait: float | None) -> AsyncIterator[None]:
    """Hold the table's lock; with ``wait`` (seconds), refuse politely if it is held longer than that.

    Raises
    ------
    TableError
        The table stayed busy for ``wait`` seconds.
    """
    if wait is not None and table.lock.locked():  # a free lock is taken at once, no timer
        try:
            await asyncio.wait_for(table.lock.acquire(), timeout=wait)
        except TimeoutError:
            raise TableError("The table is busy: press again in a moment.") from None
    else:
        await table.lock.acquire()
    try:
        yield
    finally:
        table.lock.release()


class TableRuntime:
    """Every live table of one bot process, and the one way to change them.

    Parameters
    ----------
    registry, store:
        The live tables and their storage (made first).
    scheduler:
        The APScheduler running the tables' clocks.
    presenter:
        The layer that shows tables (Discord).
    tasks:
        Runs the AI seats' turns in the background.
    lobby_idle_seconds, ai_pause_seconds, unattended_pause_seconds:
        How long an untouched lobby stays open; how long an AI seat waits before it acts, and before it acts
        at a table no person can come back to (seconds).
    player_for:
        The AI player of a game at a level, by key and level.
    now:
        The clock (UTC).
    """

    def __init__(
        self,
        registry: TableRegistry,
        store: TableStore,
        scheduler: BaseScheduler,
        presenter: Presenter,
        tasks: Supervisor,
        *,
        lobby_idle_seconds: float,
        ai_pause_seconds: float,
        unattended_pause_seconds: float = UNATTENDED_PAUSE_SECONDS,
        player_for: Callable[[str, str], AIPlayer] = ai_player,
        now: Callable[[], datetime] = utcnow,
    ) -> None:
        self.registry = registry
        self.store = store
        self.presenter = presenter
        self.tasks = tasks
        self.now = now
        self.lobby_idle_seconds = lobby_idle_seconds
        self.clocks = TableClocks(
            scheduler,
            turn_ran_out=self.turn_ran_out,
            lobby_ran_out=self.lobby_ran_out,
            rematch_ran_out=self.rematch_ran_out,
            lobby_idle_seconds=lobby_idle_seconds,
            still_waiting=registry.waiting.__contains__,
            now=now,
        )
        self.ai_turns = AITurns(
            registry,
            tasks,
            ai_pause_seconds,
            functools.partial(self.commit, wait=None),
            unattended_pause_seconds=unattended_pause_seconds,
            player_for=player_for,
        )
        self._commits = 0  # moves being committed now (the background replay gives way to them)
        self._no_commit = asyncio.Event()
        self._no_commit.set()
        registry.on_forget(self._forgotten)
        registry.restorer = self._restore_table
        # Why a rematch lobby may not open (words for its channel), or None: the server's limits. Whatever
        # it counts, it counts with no wait before the lobby is registered (open() does so at once).
        self.opening_refusal: Callable[[TableSession], Awaitable[str | None]] | None = None
        self._shown: Callable[[TableSession], None] | None = None  # set by finish_restoring
        self._unshown: list[TableSession] = []  # replayed before finish_restoring

    def _forgotten(self, table: TableSession) -> None:
        self.clocks.disarm_all(table)
        self.presenter.forget(table)

    # -- the one commit ----------------------------------------------------------------------------------

    async def commit(
        self,
        table: TableSession,
        move: Move,
        answer: Answer | None = None,
        *,
        wait: float | None = LOCK_WAIT_SECONDS,
    ) -> Outcome:
        """Apply ``move`` to ``table``, store it, schedule what follows, all under the table's lock; then,
        with the lock released, show it: ``answer(outcome)`` (whoever made the move answers it) and
        :meth:`Presenter.show`.

        ``wait``: how long to wait for a busy table (seconds; ``None``: as long as it takes, for clocks and
        AI seats).

        Raises
        ------
        Unchanged
            The table is gone, or the move turned out to change nothing (a stale clock or AI move).
        TableError
            The table refuses the move, is busy, or could not store it (the table is as it was).
        IllegalAction
            The game refuses the move.
        """
        self._commits += 1
        self._no_commit.clear()
        try:
            return await self._commit(table, move, answer, wait)
        finally:
            self._commits -= 1
            if not self._commits:
                self._no_commit.set()

    async def _commit(
        self, table: TableSession, move: Move, answer: Answer | None, wait: float | None
    ) -> Outcome:
        async with locked(table, wait):
            if not self.registry.is_live(table):
                raise Unchanged(self.registry.gone_reason(table.table_id))
            new, effects = step.step(table.value, move, self.now())
            forget = next((effect for effect in effects if isinstance(effect, step.Forget)), None)
            if forget is None:
                await self.store.persist(table, new)  # stored before anyone sees it (if not, nothing changed)
                table.swap(new)
            else:
                table.swap(new)
                self.registry.forget(table, forget.reason)
                await self.store.delete(table)
        # The lock is released: the table is stored and live, and the answer's request to Discord and what
        # the presenter starts hold up no other move of the table. No await comes before the clocks and AI
        # turns are set, so no other move of the table comes between.
        return await self._carry_out(table, move, effects, answer)

    async def _carry_out(
        self, table: TableSession, move: Move, effects: tuple[step.Effect, ...], answer: Answer | None
    ) -> Outcome:
        """Carry out a stored move's ``effects`` (:mod:`engine.tables.step`) on the live ``table``: clocks and
        AI turns first, then the answer and the presenter, then a rematch lobby."""
        shown: step.Show | None = None
        rematch: Lobby | None = None
        for effect in effects:
            match effect:
                case step.ArmLobbyClock():
                    self.clocks.arm_lobby(table)
                case step.DisarmLobbyClock():
                    self.clocks.disarm_lobby(table)
                case step.ArmTurnClock():
                    self.clocks.arm_turn(table)
                case step.DisarmTurnClock():
                    self.clocks.disarm_turn(table)
                case step.FreeChannel():
                    self.registry.free_channel(table)
                case step.ArmRematchClock():
                    self.clocks.arm_rematch(table)
                case step.PlayAITurns():
                    self.ai_turns.schedule(table)
                case step.Show():
                    shown = effect
                case step.OpenRematch(lobby=lobby):
                    rematch = lobby
        outcome = Outcome(
            table,
            move,
            "Done." if shown is None else shown.note,
            answered=answer is not None,
            **({} if shown is None else _outcome_fields(shown)),
        )
        if shown is not None:
            try:
                if answer is not None:
                    await answer(outcome)
            finally:
                self.presenter.show(outcome)
        if rematch is not None:
            await self._open_rematch(table, rematch)
        return outcome

    async def count_hint(self, table: TableSession, user_id: int) -> None:
        """Count a hint the coach answered ``user_id`` at ``table`` and store the count with the table
        (:class:`~engine.tables.moves.CountHint`). A hint is no move of the game: nothing is logged, shown or
        scheduled. A table gone since is not counted; a save that fails leaves it uncounted (it is logged)."""
        with contextlib.suppress(TableError):
            await self.commit(table, CountHint(user_id), wait=None)

    # -- opening -----------------------------------------------------------------------------------------

    async def open(self, table: TableSession, post: Callable[[], Awaitable[object]]) -> None:
        """Register, store and post the new lobby ``table`` (``post()`` shows it: which message does is the
        Discord layer's to keep), then arm its idle clock. The channel is checked and taken in one step,
        with no wait between, so of two ``/play`` (or a rematch) in one channel at the same moment only one
        opens.

        Raises
        ------
        ChannelTaken
            If a table holds the channel already (nothing was stored or posted).
        TableError
            If it could not be stored (nothing was posted).
        BaseException
            Whatever ``post`` raised (the table is forgotten and deleted first).
        """
        existing = self.registry.channel_table(table.channel_id)
        if existing is not None:
            raise ChannelTaken(existing)
        self.registry.register(table)
        try:
            await self.store.persist(table)
        except TableError:
            self.registry.forget(table, NOT_OPENED)
            raise
        try:
            await post()
        except BaseException:
            self.registry.forget(table, NOT_OPENED)
            await self.store.delete(table)
            raise
        self.clocks.arm_lobby(table)

    async def _open_rematch(self, finished: TableSession, lobby: Lobby | None) -> None:
        """Seat those who chose "Play again" at a new lobby in the finished table's channel (unless another
        table opened there meanwhile, or :attr:`opening_refusal` refuses it: its channel is told why), with
        the finished game's AI players while there is room."""
        if lobby is None:
            return
        if self.registry.channel_table(finished.channel_id) is not None:
            await self.presenter.notice(
                finished, "A new table is already open in this channel, so no rematch table was opened."
            )
            return
        draft = TableDraft(
            self.registry.new_table_id(),
            finished.guild_id,
            finished.channel_id,
            finished.rules,
            finished.settings,
            lobby.host_id,
            finished.names[lobby.host_id],
            players=list(lobby.players),
            names={user: finished.names[user] for user in lobby.players},
            dm_wanted=finished.dm_wanted & set(lobby.players),
        )
        seated = set(lobby.players)
        draft.alert_modes = {user: how for user, how in finished.alert_modes.items() if user in seated}
        draft.hints, draft.hints_rated = finished.hints, finished.hints_rated  # no hint counted yet
        ai_seats.seat_again(draft, ai_seats.ai_seats_of(finished.players), finished.ai_levels)  # them too
        rematch = TableSession(draft)
        refusal = None if self.opening_refusal is None else await self.opening_refusal(rematch)
        if refusal is not None:
            await self.presenter.notice(finished, refusal)
            return
        try:
            await self.open(rematch, functools.partial(self.presenter.post_table, rematch, "Playing again:"))
        except TableError:
            return
        except Exception as error:  # the presenter could not post it (it was forgotten and deleted)
            log.warning("Could not open the rematch table in channel %s: %s", finished.channel_id, error)

    # -- restarts ----------------------------------------------------------------------------------------

    async def restore(self, owns_guild: Callable[[int], bool] | None = None) -> int:
        """Restore every stored table (of the guilds ``owns_guild`` accepts) and return how many.

        Nothing is replayed yet but lobbies (which have no game): each table waits in the registry
        (:class:`~engine.tables.registry.WaitingTable`) with its clock armed from its stored deadlines (a
        deadline that passed meanwhile fires at once), and its game is replayed from its log the first time
        it is needed (a press, a clock, ``/hand``: :meth:`TableRegistry.get`) or by :meth:`finish_restoring`,
        whichever comes first. A process with thousands of long games so answers at once instead of after
        replaying them all (``bench/restart.py``; figures in docs/performance.md)."""
        waiting = await self.store.load_waiting(owns_guild)
        games = []
        for table in waiting:
            if table.needs_replay:
                self.registry.add_waiting(table)
                games.append(table)
            else:  # a lobby: no game to replay
                self._restore_table(table)
        self.clocks.arm_waiting(games)
        gc.freeze()  # see finish_restoring
        return len(waiting)

    def _restore_table(self, table: WaitingTable) -> TableSession | None:
        """Replay a waiting table, register it and re-arm its clocks; show it and let it play on once
        :meth:`finish_restoring` has started (until then it waits for it). ``None`` if it does not replay."""
        session = self.store.restore(table)
        if session is None:
            return None
        self.clocks.rearm(session)
        if session.stored_log_outdated:  # written by an older engine: store the upgraded log
            self.tasks.spawn(self.store.save_quietly(session), f"upgraded log of table {session.table_id}")
        if self._shown is None:
            self._unshown.append(session)
        else:
            self._shown(session)
            self._play_on(session)
        return session

    async def finish_restoring(self, shown: Callable[[TableSession], None]) -> None:
        """Once the tables can be shown: ``shown(table)`` and :meth:`_play_on` every table restored so far,
        and from now on each one as it is replayed; then replay every table still waiting, those with AI
        seats first, in slices of at most :data:`RESTORE_SLICE_SECONDS` of the event loop (one game's
        replay is never cut), so presses are answered in between: after each slice it waits until no move
        is being committed (at most :data:`GIVE_WAY_SECONDS`), so a press's several turns of the event
        loop are not each held up by a slice.

        What each slice built lives as long as its table, so it is moved out of the cyclic garbage
        collector's reach (``gc.freeze()``) after each slice: otherwise every collection of the older
        generations scans it all again and holds the event loop for long with thousands of tables
        (``bench/restart.py``). The cost: a cycle among a restored table's objects is
        not collected when the table ends (at most what the restart built)."""
        self._shown = shown
        unshown, self._unshown = self._unshown, []
        for session in unshown:
            if self.registry.is_live(session):
                shown(session)
                self._play_on(session)
        order = sorted(self.registry.waiting.values(), key=lambda table: not table.has_ai)
        started = time.perf_counter()
        for table in order:
            self.registry.restore(table.table_id)  # None if a press replayed it meanwhile
            if time.perf_counter() - started >= RESTORE_SLICE_SECONDS:
                gc.freeze()
                await asyncio.sleep(0)
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._no_commit.wait(), GIVE_WAY_SECONDS)
                started = time.perf_counter()
        gc.freeze()

    def _play_on(self, table: TableSession) -> None:
        """A restored table plays on: an AI whose turn it was plays."""
        if self.registry.is_live(table):
            self.ai_turns.schedule(table)

    # -- clocks running out ------------------------------------------------------------------------------

    async def turn_ran_out(self, table_id: str) -> None:
        """A turn clock ran out: play the default of each seat whose clock has run out."""
        table = self.registry.get(table_id)
        if table is None:
            return
        try:
            await self.commit(table, TimeOut(), wait=None)
        except Unchanged:  # fired early, or the deadline moved: keep the clock on the deadline
            playing = table.phase is TablePhase.PLAYING and table.deadline is not None
            if self.registry.is_live(table) and playing:
                self.clocks.arm_turn(table)
        except TableError:  # not saved, so undone: try again shortly
            if self.registry.is_live(table):
                self.clocks.arm_turn(table, self.now() + timedelta(seconds=SAVE_RETRY_SECONDS))

    async def lobby_ran_out(self, table_id: str) -> None:
        """Nobody started the game in time: close the lobby."""
        table = self.registry.get(table_id)
        if table is not None:
            minutes = max(1, round(self.lobby_idle_seconds / 60))
            with contextlib.suppress(TableError):
                await self.commit(table, LobbyIdle(minutes), wait=None)

    async def rematch_ran_out(self, table_id: str) -> None:
        """The "Play again" window closed: end the scoreboard."""
        table = self.registry.get(table_id)
        if table is not None and table.phase is TablePhase.SCOREBOARD:
            with contextlib.suppress(TableError):
                await self.commit(table, RematchWindowClosed(), wait=None)


def _outcome_fields(shown: step.Show) -> dict[str, object]:
    """The fields of :class:`Outcome` that a :class:`~engine.tables.step.Show` gives, by name (but its
    note)."""
    fields = dataclasses.fields(shown)
    return {field.name: getattr(shown, field.name) for field in fields if field.name != "note"}
