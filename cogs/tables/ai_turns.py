"""The AI seats' turns: after every change of a game, a seat an AI plays (:func:`~cogs.tables.ai_seats.
ai_plays`) that the game waits for acts by itself, after a short pause so people can follow.

Each table has at most one task playing its AI turns, a background task of its own: the pause and the
thinking never hold the table's lock, so a person's press is answered meanwhile as ever. The AI thinks in a
worker thread, on a copy of the state (``GameState.copy``, itself made in a worker under the table's
lock: a copy may take milliseconds), with a generator seeded from the table's seed,
the state's version and the seat (:func:`decision_rng`), so the game stays fully determined by its options,
seed and action log. Its move then goes the way of a person's press: under the table's lock, checked by the
engine (:meth:`~cogs.tables.session.TableSession.act`), stored in one transaction before it is shown,
followed like any move, its events in the table's log. A move thought for a state the game has left (a
person moved meanwhile, or the seat's player pressed "I'm back") is dropped, never applied.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Awaitable, Callable

from cogs.tables import ai_seats
from cogs.tables.registry import TableRegistry
from cogs.tables.session import Phase, TableError, TableSession
from cogs.tables.table_message import now
from cogs.tables.tasks import Supervisor
from engine import GameState, IllegalAction
from engine.ai.core import AIPlayer
from engine.ai.registry import ai_player

log = logging.getLogger(__name__)

SAVE_RETRY_SECONDS = 5.0


def decision_rng(seed: int, version: int, seat: int) -> random.Random:
    """The generator an AI decides with for ``seat`` at state ``version`` of the game dealt from ``seed``:
    the same decision gets the same generator, on any run and after any restart."""
    return random.Random(f"ai:{seed}:{version}:{seat}")


def seat_to_play(session: TableSession) -> int | None:
    """The first seat the game waits for that an AI plays, or ``None``."""
    if session.phase is not Phase.PLAYING or session.state is None:
        return None
    return next((seat for seat in session.state.seats_to_act() if ai_seats.ai_plays(session, seat)), None)


class AITurns:
    """Plays the AI seats of every table.

    ``persist(session)`` stores a move (raises :class:`TableError` if it could not; the table is then back
    to its stored state), ``after_move(session, before)`` follows it, ``refresh(session)`` redraws the table
    message. ``pause_seconds`` is the wait before each AI move (none once nobody can come back to the table,
    see :func:`~cogs.tables.ai_seats.nobody_left`); ``player_for(game_key)`` gives the game's AI player.
    """

    def __init__(
        self,
        registry: TableRegistry,
        tasks: Supervisor,
        pause_seconds: float,
        *,
        player_for: Callable[[str], AIPlayer] = ai_player,
    ) -> None:
        self.registry = registry
        self.tasks = tasks
        self.pause_seconds = pause_seconds
        self.player_for = player_for
        self.persist: Callable[[TableSession], Awaitable[None]] | None = None
        self.after_move: Callable[[TableSession, set[int]], None] | None = None
        self.refresh: Callable[[TableSession], None] | None = None
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
                pause = 0.0 if ai_seats.nobody_left(session) else self.pause_seconds
                await asyncio.sleep(pause)  # a zero pause still lets the loop answer presses first
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
        """Think for ``seat`` on the state as it is now, then apply the move unless it is stale.

        Returns ``"played"``, ``"stale"`` (dropped: the game or the seat's player moved on meanwhile) or
        ``"not saved"`` (the database refused: nothing changed).
        """
        state = session.state
        assert state is not None
        version = state.version
        async with session.lock:  # nothing changes the state while a worker copies it (it may be slow)
            if self._stale(session, state, version, seat):
                return "stale"
            thinking: GameState = await asyncio.to_thread(state.copy)
        rng = decision_rng(state.seed, version, seat)
        player = self.player_for(session.rules.key)
        code = await asyncio.to_thread(player.choose, thinking, seat, rng)
        async with session.lock:
            if self._stale(session, state, version, seat):
                return "stale"
            return await self._apply(session, seat, version, code)

    def _stale(self, session: TableSession, state: GameState, version: int, seat: int) -> bool:
        """True (and counted) if the game or the seat's player moved on since the AI started on ``state``
        at ``version``: the table closed or was reloaded, someone moved, or the seat is no longer an AI's."""
        if (
            self.registry.is_live(session)
            and session.state is state
            and state.version == version
            and seat in state.seats_to_act()
            and ai_seats.ai_plays(session, seat)
        ):
            return False
        self.dropped += 1
        log.debug("Dropped a stale AI move on table %s (seat %d)", session.table_id, seat)
        return True

    async def _apply(self, session: TableSession, seat: int, version: int, code: str) -> str:
        """Apply, store and follow the AI's move (the table's lock is held)."""
        assert self.persist is not None and self.after_move is not None and self.refresh is not None
        assert session.state is not None
        before = set(session.users_with_actions())
        user_id = session.players[seat]
        try:
            session.act(user_id, version, code, now(), by_ai=True)
        except (TableError, IllegalAction) as refusal:  # a bug in the AI: the game goes on with the default
            log.error("%s AI chose %r, refused (%s): playing the default", session.rules.key, code, refusal)
            session.act(user_id, version, session.state.default_action(seat), now(), by_ai=True)
        try:
            await self.persist(session)
        except TableError:
            return "not saved"
        self.after_move(session, before)
        self.refresh(session)
        return "played"
