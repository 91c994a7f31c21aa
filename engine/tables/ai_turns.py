"""The AI seats' turns: after every change of a game, a seat an AI plays (:func:`~engine.tables.ai_seats.
ai_plays`) that the game waits for acts by itself, after a short pause so people can follow.

Each table has at most one task playing its AI turns, a background task of its own: the pause and the
thinking never hold the table's lock, so a person's press is answered meanwhile as ever. The AI thinks in a
worker thread, on the seat's information only (:class:`~engine.ai.core.InformationSet`, made in a worker
under the table's lock: it copies the state with the hidden parts redrawn, which may take milliseconds), at
the seat's level (:func:`~engine.tables.ai_seats.level_of`), with a generator seeded from the table's seed,
the state's version and the seat (:func:`decision_rng`), so the game stays fully determined by its options,
seed and action log. Its move then goes the way of a person's press: the runtime's one commit
(:class:`~engine.tables.moves.AIPlay`), checked by the engine, stored in one transaction before it is shown,
followed like any move. A move thought for a state the game has left (a person moved meanwhile, or the
seat's player pressed "I'm back") is dropped, never applied.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Awaitable, Callable

from engine.ai.core import AIPlayer, InformationSet
from engine.ai.registry import ai_player
from engine.tables import ai_seats
from engine.tables.moves import AIPlay, Move, Unchanged, is_current
from engine.tables.registry import TableRegistry
from engine.tables.session import TableError, TablePhase, TableSession
from engine.tables.tasks import Supervisor

log = logging.getLogger(__name__)

SAVE_RETRY_SECONDS = 5.0
UNATTENDED_PAUSE_SECONDS = 0.1
"""The pause before each AI move once no person can come back to the table: at most ten moves a second."""


def decision_rng(seed: int, version: int, seat: int) -> random.Random:
    """The generator an AI decides with for ``seat`` at state ``version`` of the game dealt from ``seed``:
    the same decision gets the same generator, on any run and after any restart."""
    return random.Random(f"ai:{seed}:{version}:{seat}")


def seat_to_play(session: TableSession) -> int | None:
    """The first seat the game waits for that an AI plays, or ``None``."""
    if session.phase is not TablePhase.PLAYING or session.state is None:
        return None
    return next((seat for seat in session.state.seats_to_act() if ai_seats.ai_plays(session, seat)), None)


Commit = Callable[[TableSession, Move], Awaitable[object]]
"""The runtime's commit of a move (raises :class:`~engine.tables.session.TableError` if it did not happen)."""


class AITurns:
    """Plays the AI seats of every table.

    ``commit(table, move)`` is the runtime's one commit; ``pause_seconds`` is the wait before each AI move,
    and ``unattended_pause_seconds`` the wait once nobody can come back to the table (see
    :func:`~engine.tables.ai_seats.nobody_left`): shorter, so the AIs finish the game quickly, but never
    zero, so such a table never takes the database's whole write rate; ``player_for(game_key, level)`` gives
    the game's AI player at a level (see :data:`engine.ai.registry.LEVELS`).

    :attr:`presses_first` (``None``: nothing), set by the layer that takes people's presses, is awaited
    before each AI move is thought and committed: it returns once no person's move waits to be handled, so
    that in a burst of presses the AI seats, who wait for nobody, go after the people, who wait for an
    answer.
    """

    def __init__(
        self,
        registry: TableRegistry,
        tasks: Supervisor,
        pause_seconds: float,
        commit: Commit,
        *,
        unattended_pause_seconds: float = UNATTENDED_PAUSE_SECONDS,
        player_for: Callable[[str, str], AIPlayer] = ai_player,
    ) -> None:
        self.registry = registry
        self.tasks = tasks
        self.pause_seconds = pause_seconds
        self.unattended_pause_seconds = unattended_pause_seconds
        self.commit = commit
        self.player_for = player_for
        self.presses_first: Callable[[], Awaitable[None]] | None = None
        self.running: dict[str, asyncio.Task] = {}
        self.dropped = 0  # stale moves dropped (for tests and the log)

    def schedule(self, session: TableSession) -> None:
        """Start playing the table's AI turns if the game waits for an AI seat and none is under way (call
        it after every change, and for each table restored at start)."""
        if seat_to_play(session) is None:
            return
        task = self.running.get(session.table_id)
        if task is None or task.done():
            self.running[session.table_id] = self.tasks.spawn(
                self._play(session.table_id), f"AI turns of table {session.table_id}"
            )

    async def _play(self, table_id: str) -> None:
        """Play AI turns while the table waits for an AI seat."""
        try:
            while True:
                session = self.registry.get(table_id)
                if session is None or seat_to_play(session) is None:
                    return
                unattended = ai_seats.nobody_left(session)
                pause = self.unattended_pause_seconds if unattended else self.pause_seconds
                await asyncio.sleep(pause)  # a zero pause still lets the loop answer presses first
                if self.presses_first is not None:
                    await self.presses_first()
                session = self.registry.get(table_id)
                seat = None if session is None else seat_to_play(session)
                if session is None or seat is None:
                    return
                outcome = await self.play_once(session, seat)
                if outcome == "not saved":
                    await asyncio.sleep(SAVE_RETRY_SECONDS)
        finally:
            if self.running.get(table_id) is asyncio.current_task():
                del self.running[table_id]

    async def play_once(self, session: TableSession, seat: int) -> str:
        """Think for ``seat`` on the state as it is now, then commit the move unless it is stale.

        Returns ``"played"``, ``"stale"`` (dropped: the game or the seat's player moved on meanwhile) or
        ``"not saved"`` (the database refused: nothing changed).
        """
        state = session.state
        assert state is not None
        version = state.version
        # Under the lock: a commit meanwhile would copy the state (``GameState.copy`` may finish a lazy deal
        # in place) while the worker reads it.
        async with session.lock:
            if not self.registry.is_live(session) or not is_current(session, state, version, seat):
                return self._drop(session, seat)
            seen = await asyncio.to_thread(InformationSet.of, state, seat)
        rng = decision_rng(state.seed, version, seat)
        player = self.player_for(session.rules.key, ai_seats.level_of(session, seat))
        code = await asyncio.to_thread(player.decide, seen, rng)
        try:
            await self.commit(session, AIPlay(seat, version, code, state))
        except Unchanged:
            return self._drop(session, seat)
        except TableError:
            return "not saved"
        return "played"

    def _drop(self, session: TableSession, seat: int) -> str:
        self.dropped += 1
        log.debug("Dropped a stale AI move on table %s (seat %d)", session.table_id, seat)
        return "stale"
