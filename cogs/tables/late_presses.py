"""A move press answered in time, however busy the bot: Discord fails an interaction not answered within 3
seconds of its creation ("This interaction failed"). A press the bot will not begin to answer in time is
acknowledged at once with a deferred update (response type 6, which shows nothing), and its answer then
edits the message the press was on (or comes as an ephemeral followup). A press answered in time costs one
request, as always (its answer); an acknowledged one costs two.

Every move press is handled in its :func:`turn`, and three checks acknowledge it:

- **on arrival**: the presses not yet answered ahead of it (:class:`Backlog`), times the running estimate
  of the seconds between two answers while presses wait, predict when its answer would begin; if that is
  later than :data:`ANSWER_WITHIN_SECONDS` after Discord created it, the acknowledgement is sent before
  anything else is done for it;
- **in its turn**: a press that has waited so long that its answer would begin too late is acknowledged
  before its move is committed and drawn;
- **by a timer**: a press whose answer has not begun :data:`ACKNOWLEDGE_AFTER_SECONDS` after it arrived
  (a wait the estimate did not foresee: a busy table, a slow save) is acknowledged then.

The turns: at most :data:`AT_ONCE` presses are worked on (committed, drawn) at the same time, the others
wait in order of arrival. A burst of a thousand presses would otherwise each start their work in the same
turn of the event loop, every later turn of the loop would hold all of their slices, and the
acknowledgements (requests of their own, a few turns of the loop each) would go out too late. And no press
begins its turn while acknowledgements wait to be sent (:data:`DEFERRING_AT_ONCE`), the oldest press first.

Every answer to a watched press goes through :func:`edit_pressed` or :func:`send_private`, which know
whether it was acknowledged. :data:`BACKLOG` counts the acknowledgements, for tests and benchmarks.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import heapq
import logging
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
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
AT_ONCE = 8
"""How many presses are worked on at the same time; the others wait their turn, in order of arrival. Enough
for their waits on the database and on Discord to overlap; few enough that a turn of the event loop stays
short with any number of presses waiting."""
DEFERRING_AT_ONCE = 128
"""How many acknowledgements may be on their way at the same time; the others wait, the press Discord
created first going first (a press acknowledged by its timer is older than those acknowledged on arrival
meanwhile), and while any waits no press begins its turn: an acknowledgement due goes before an answer that
can wait. A thousand at once would each open a connection of their own."""
FIRST_SECONDS_PER_PRESS = 0.005
"""The estimate of the seconds between two answers before any was measured: a few milliseconds of the bot's
CPU a press (``bench/press_cost.py``, ``docs/performance.md``) and room for the AI seats moving meanwhile."""
SMOOTHING = 0.2
"""The weight of each new measure in the running estimate (an exponentially weighted mean)."""


@dataclass
class _Watch:
    interaction: discord.Interaction
    arrived: float
    """``time.monotonic()`` when the press reached :func:`turn`."""
    timer: asyncio.TimerHandle | None = None
    acknowledging: asyncio.Task[None] | None = None
    working: bool = False
    """True while the press holds one of the :data:`AT_ONCE` turns."""


_watched: dict[int, _Watch] = {}
"""The presses not yet answered, by interaction id."""
_deferring: dict[int, asyncio.Task[None]] = {}
"""The deferred updates on their way, by interaction id: an answer after the press's handling (a refusal)
waits for its own."""


@dataclass
class Backlog:
    """The presses arrived and not yet answered, and how fast the bot answers them.

    ``waiting``: presses waiting for their turn; ``working``: presses in their turn whose answer has not
    begun.
    ``seconds_per_press``: the running estimate of the seconds between two answers while presses wait their
    turn (an exponentially weighted mean of the measured intervals, weight :data:`SMOOTHING`;
    :data:`FIRST_SECONDS_PER_PRESS` until one was measured). ``at_once``: how many presses may be in their
    turn (:data:`AT_ONCE`).

    The counts of presses acknowledged before their answer: ``on_arrival``, ``in_turn``, ``by_timer``,
    and ``late``, all of them.
    """

    seconds_per_press: float = FIRST_SECONDS_PER_PRESS
    at_once: int = AT_ONCE
    waiting: int = 0
    working: int = 0
    on_arrival: int = 0
    in_turn: int = 0
    by_timer: int = 0
    _turns: collections.deque[asyncio.Future[None]] = field(default_factory=collections.deque, repr=False)
    _sending: int = field(default=0, repr=False)
    """Acknowledgements on their way."""
    _unsent: list[tuple[int, asyncio.Future[None]]] = field(default_factory=list, repr=False)
    """The acknowledgements waiting to be sent: a heap by interaction id (Discord's ids grow with time)."""
    _loop: asyncio.AbstractEventLoop | None = field(default=None, repr=False)
    _last_answer: float | None = field(default=None, repr=False)
    """``time.monotonic()`` of the last answer begun while presses waited (``None``: none waited)."""
    _quiet: asyncio.Event | None = field(default=None, repr=False)
    """Set once no press waits for its turn nor for its acknowledgement (:meth:`presses_handled`)."""

    @property
    def late(self) -> int:
        """How many presses were acknowledged before their answer."""
        return self.on_arrival + self.in_turn + self.by_timer

    def predicted_wait(self) -> float:
        """Seconds until the answer of a press arriving now would begin: one interval for each press not yet
        answered, and one for itself."""
        return (self.waiting + self.working + 1) * self.seconds_per_press

    def turn_seconds(self) -> float:
        """Seconds a press takes from the start of its turn to its answer, as the estimate says: while
        presses wait, ``at_once`` presses share the bot, so each takes that many intervals."""
        return self.at_once * self.seconds_per_press

    def _on_this_loop(self) -> None:
        """Start afresh on a new event loop (a bot started again in the same process): the presses of the
        last one are gone with it."""
        loop = asyncio.get_running_loop()
        if self._loop is not loop:
            self._loop, self.waiting, self.working, self._last_answer = loop, 0, 0, None
            self._sending = 0
            self._quiet = None
            self._unsent.clear()
            self._turns.clear()

    async def presses_handled(self) -> None:
        """Return once no move press waits for its turn nor for its acknowledgement to be sent (at once if
        none does): the AI seats' moves wait for it (``engine.tables.ai_turns.AITurns.presses_first``), so
        that in a burst the people's presses, who wait for an answer, go first."""
        self._on_this_loop()
        while self.waiting or self._unsent:
            if self._quiet is None or self._quiet.is_set():
                self._quiet = asyncio.Event()
            await self._quiet.wait()

    def _maybe_quiet(self) -> None:
        """Wake what waits for :meth:`presses_handled` if no press waits any more."""
        if not self.waiting and not self._unsent and self._quiet is not None:
            self._quiet.set()

    @contextlib.asynccontextmanager
    async def _sending_slot(self, interaction_id: int) -> AsyncIterator[None]:
        """Hold one of the :data:`DEFERRING_AT_ONCE` places of the acknowledgements on their way (waiting for
        one, oldest interaction first, if none is free)."""
        self._on_this_loop()
        loop = self._loop
        if self._sending >= DEFERRING_AT_ONCE or self._unsent:
            place = asyncio.get_running_loop().create_future()
            heapq.heappush(self._unsent, (interaction_id, place))
            try:
                await place
            except asyncio.CancelledError:
                if place.done() and not place.cancelled():  # handed a place as it was cancelled: pass it on
                    self._sent()
                raise
            finally:
                if (interaction_id, place) in self._unsent:
                    self._unsent.remove((interaction_id, place))
                    heapq.heapify(self._unsent)
                if not self._unsent:
                    self._next()
                self._maybe_quiet()
        else:
            self._sending += 1
        try:
            yield
        finally:
            if self._loop is loop:
                self._sent()

    def _sent(self) -> None:
        """An acknowledgement is on its way no more: hand its place to the oldest waiting."""
        self._sending -= 1
        while self._unsent and self._sending < DEFERRING_AT_ONCE:
            _, place = heapq.heappop(self._unsent)
            if not place.done():
                place.set_result(None)
                self._sending += 1

    async def _take_turn(self, watched: _Watch) -> None:
        """Wait for one of the ``at_once`` turns (at once, with no pause, if one is free and nobody waits)."""
        self._on_this_loop()
        if self.working >= self.at_once or self._turns or self._unsent:
            turn = asyncio.get_running_loop().create_future()
            self._turns.append(turn)
            self.waiting += 1
            try:
                await turn
            except asyncio.CancelledError:
                if turn.done() and not turn.cancelled():  # handed the turn as it was cancelled: pass it on
                    self.working -= 1
                    self._next()
                raise
            finally:
                self.waiting -= 1
                with contextlib.suppress(ValueError):
                    self._turns.remove(turn)
                self._maybe_quiet()
        else:
            self.working += 1
        watched.working = True

    def _end_turn(self, watched: _Watch, answered: bool) -> None:
        """The press's turn ends: as its answer begins (``answered``: measure the interval since the last
        answer while presses wait), or as its handling ends without one."""
        if not watched.working or self._loop is not asyncio.get_running_loop():
            return
        watched.working = False
        self.working -= 1
        if answered:
            now = time.monotonic()
            if self.waiting and self._last_answer is not None:
                interval = now - self._last_answer
                self.seconds_per_press += SMOOTHING * (interval - self.seconds_per_press)
            self._last_answer = now if self.waiting else None
        self._next()

    def _next(self) -> None:
        """Hand free turns to the presses waiting longest (a turn counts from the moment it is handed), unless
        acknowledgements wait to be sent."""
        while self._turns and self.working < self.at_once and not self._unsent:
            turn = self._turns.popleft()
            if not turn.done():
                turn.set_result(None)
                self.working += 1


BACKLOG = Backlog()
"""The bot's presses not yet answered (one per process: interaction ids are unique)."""


def _age(interaction: discord.Interaction) -> float:
    """Seconds since Discord created ``interaction`` (by its id's timestamp; below 0 if the clocks differ)."""
    return (discord.utils.utcnow() - interaction.created_at).total_seconds()


@contextlib.asynccontextmanager
async def turn(interaction: discord.Interaction) -> AsyncIterator[None]:
    """Handle the move press ``interaction`` in its turn: acknowledge it at once if the backlog predicts a
    late answer, wait for its turn among the presses being worked on (:data:`AT_ONCE`), acknowledge it if it
    has grown too old meanwhile, then run the block (its move, committed and answered through
    :func:`edit_pressed` or :func:`send_private`). Watched all along: if no answer has begun
    :data:`ACKNOWLEDGE_AFTER_SECONDS` after it arrived (or :data:`ANSWER_WITHIN_SECONDS` after its creation,
    if sooner), it is acknowledged then. The turn ends as its answer begins or as the block ends.

    Raises
    ------
    BaseException
        Whatever the block raised (the turn is ended and the press forgotten first).
    """
    if interaction.id in _watched or interaction.response.is_done():
        yield
        return
    backlog = BACKLOG
    watched = _Watch(interaction, time.monotonic())
    _watched[interaction.id] = watched
    age = _age(interaction)
    try:
        if age + backlog.predicted_wait() > ANSWER_WITHIN_SECONDS:
            backlog.on_arrival += 1
            _start_deferring(watched)
        delay = max(0.0, min(ACKNOWLEDGE_AFTER_SECONDS, ANSWER_WITHIN_SECONDS - age))
        watched.timer = asyncio.get_running_loop().call_later(delay, _acknowledge, interaction)
        await backlog._take_turn(watched)
        too_old = _age(interaction) + backlog.turn_seconds() > ANSWER_WITHIN_SECONDS
        if watched.acknowledging is None and too_old:
            backlog.in_turn += 1
            _start_deferring(watched)
        yield
    finally:
        forget(interaction)


def _start_deferring(watched: _Watch) -> None:
    """Send the press's deferred update (a task of its own: its answer waits for it)."""
    interaction = watched.interaction
    if watched.acknowledging is None and not interaction.response.is_done():
        deferring = asyncio.get_running_loop().create_task(_defer(interaction))
        watched.acknowledging = _deferring[interaction.id] = deferring
        deferring.add_done_callback(lambda _: _deferring.pop(interaction.id, None))


def _acknowledge(interaction: discord.Interaction) -> None:
    watched = _watched.get(interaction.id)
    if watched is None or watched.acknowledging is not None or interaction.response.is_done():
        return
    BACKLOG.by_timer += 1
    _start_deferring(watched)


async def _defer(interaction: discord.Interaction) -> None:
    try:
        async with BACKLOG._sending_slot(interaction.id):
            if not interaction.response.is_done():
                await interaction.response.defer()
    except discord.HTTPException as error:  # too late already, or Discord is down: the answer tries anyway
        log.warning("Could not acknowledge a late press: %s", error)


async def acknowledged(interaction: discord.Interaction) -> bool:
    """Stop watching ``interaction`` as its answer begins (its turn ends): True if it was acknowledged
    already (the answer must then edit the original response or come as a followup), False if the answer is
    its response. A deferral on its way is waited for."""
    _stop_watching(interaction, answered=True)
    deferring = _deferring.get(interaction.id)
    if deferring is not None:
        with contextlib.suppress(asyncio.CancelledError):
            await deferring
    return interaction.response.is_done()


def forget(interaction: discord.Interaction) -> None:
    """Stop watching ``interaction`` (its handling is over, answered or not); its turn ends."""
    _stop_watching(interaction, answered=False)


def _stop_watching(interaction: discord.Interaction, *, answered: bool) -> None:
    """Forget ``interaction``'s watch and timer, and end its turn (``answered``: as its answer begins)."""
    watched = _watched.pop(interaction.id, None)
    if watched is not None:
        if watched.timer is not None:
            watched.timer.cancel()
        BACKLOG._end_turn(watched, answered=answered)


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
