"""Pacing the table messages' plain edits within Discord's rate limits, so that a table nobody plays at
never takes the bot's request budget from the tables people play at.

Every plain edit of a table message (:class:`cogs.tables.table_message._Refresher`: an edit with no
interaction to answer) asks :class:`EditPacing` when it may go, and waits; the requests made meanwhile
collapse into that one edit, which draws the table as it is when it goes, so the last edit always shows the
latest table. A press's own answer (the interaction response that redraws the message pressed) is never
paced: it is the press's one request, and Discord counts it apart from the channel's message edits.

Three rules, each a wait before an edit (the longest wins):

- **The channel's window.** At most ``channel_edits`` edits of table messages in one channel (the setting
  ``TABLE_EDITS_PER_CHANNEL``, :data:`CHANNEL_EDITS`) in any :data:`CHANNEL_WINDOW_SECONDS`: Discord allows
  about 5 edits per 5 s per channel, answers more with 429, and discord.py sleeps on the bucket. An edit
  counts from when it went until its answer came back (:meth:`EditPacing.landed`), so however late it
  reached Discord, the edit that follows five later reaches it a whole window after. Tables in one channel
  (a table and its closed predecessor's last edit) share the window.
- **The shared budget of tables with no person seated** (:func:`no_person_seated`: every seat an AI's, taken
  over while away, or left): one token bucket for all of them together, :data:`UNATTENDED_EDITS_PER_SECOND`
  edits a second, so the tables people play at never wait behind them.
- **Unwatched tables.** A table with no person seated and no press on it for ``watched_seconds``
  (``TABLE_WATCHED_SECONDS``) is redrawn at most once every ``unwatched_redraw_seconds``
  (``TABLE_UNWATCHED_REDRAW_SECONDS``) while its game goes on; its AI moves go on at
  their own pace (:mod:`engine.tables.ai_turns`), and the edit that shows the game's end (a closed table or
  a scoreboard, or any table no longer playing) is not held back by this rule. A press on the table
  (:meth:`EditPacing.pressed`) makes it watched again at once. Its players' private views (those away:
  live "My hand" messages and DMs) are not redrawn meanwhile (:meth:`EditPacing.unwatched`), and a player
  who left the game has no live view.

The pacing is the Discord layer's bookkeeping, by table id and channel id, never the table's: it knows of a
table only its id, its channel and who plays its seats.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from cogs.token_bucket import TokenBucket
from engine.tables import ai_seats
from engine.tables.session import TablePhase, TableSession

CHANNEL_EDITS = 5
"""The most plain edits of table messages in one channel within :data:`CHANNEL_WINDOW_SECONDS`."""

CHANNEL_WINDOW_SECONDS = 5.0
"""Discord's window of its per-channel limit on message edits (about 5 edits per 5 s), in seconds."""

UNATTENDED_EDITS_PER_SECOND = 10.0
"""The edits per second that all tables with no person seated share, together. Discord allows a bot about
50 requests a second overall; this leaves 40 a second for the tables people play at: their presses'
answers, their messages' edits, private views, DMs and turn lines."""

UNATTENDED_BURST = 10
"""How many edits the tables with no person seated may make at once after a quiet spell (the bucket's
size, in edits)."""

WATCHED_SECONDS = 60.0
"""A table with no person seated counts as watched for this long after the last press on it, in seconds."""

UNWATCHED_REDRAW_SECONDS = 30.0
"""Seconds between two redraws of an unwatched table's message while its game goes on."""


def no_person_seated(session: TableSession) -> bool:
    """True if ``session``'s game is running and no person plays any of its seats now: each is an AI seat,
    a player taken over while away, or a player who left (:func:`engine.tables.ai_seats.human_seats`)."""
    return session.phase is TablePhase.PLAYING and not ai_seats.human_seats(session)


class EditPacing:
    """When each plain edit of a table message may go (see the module).

    Parameters
    ----------
    watched_seconds:
        A table with no person seated is watched for this long after a press on it (seconds).
    unwatched_redraw_seconds:
        An unwatched table's message is redrawn at most once in this long while its game goes on
        (seconds).
    unattended_edits_per_second:
        The edits a second all tables with no person seated share (requests per second).
    clock:
        The time in seconds, monotonic (a test's fake clock).
    enabled:
        ``False`` lets every edit go at once (only to show, in a test, what the pacing prevents).
    """

    def __init__(
        self,
        *,
        watched_seconds: float = WATCHED_SECONDS,
        unwatched_redraw_seconds: float = UNWATCHED_REDRAW_SECONDS,
        unattended_edits_per_second: float = UNATTENDED_EDITS_PER_SECOND,
        unattended_burst: int = UNATTENDED_BURST,
        channel_edits: int = CHANNEL_EDITS,
        channel_window_seconds: float = CHANNEL_WINDOW_SECONDS,
        clock: Callable[[], float] = time.monotonic,
        enabled: bool = True,
    ) -> None:
        self.watched_seconds = watched_seconds
        self.unwatched_redraw_seconds = unwatched_redraw_seconds
        self.channel_edits = channel_edits
        self.channel_window_seconds = channel_window_seconds
        self.clock = clock
        self.enabled = enabled
        self.unattended = TokenBucket(unattended_edits_per_second, unattended_burst, clock)
        self._channels: dict[int, list[Edit]] = {}  # by channel id: its edits within the window
        self._pressed: dict[str, float] = {}  # by table id: when it was last pressed
        self._redrawn: dict[str, float] = {}  # by table id: when its last edit went

    # -- what the pacing learns ----------------------------------------------------------------------

    def pressed(self, table_id: str) -> None:
        """A press on table ``table_id`` arrived (any press: a move, "My hand", a page): it is watched."""
        self._pressed[table_id] = self.clock()

    def forget(self, table_id: str) -> None:
        """Table ``table_id`` is gone: forget its presses and redraws (its channel's window stays)."""
        self._pressed.pop(table_id, None)
        self._redrawn.pop(table_id, None)

    def watched(self, table_id: str) -> bool:
        """True if table ``table_id`` was pressed within the last ``watched_seconds``."""
        pressed = self._pressed.get(table_id)
        return pressed is not None and self.clock() - pressed < self.watched_seconds

    def unwatched(self, session: TableSession) -> bool:
        """True if ``session``'s game runs with no person seated and nobody pressed it for
        ``watched_seconds``: its private views wait for the next press or the game's end (the players away
        see the table as it is when they look)."""
        return self.enabled and no_person_seated(session) and not self.watched(session.table_id)

    # -- when an edit may go -------------------------------------------------------------------------

    def wait_seconds(self, session: TableSession, *, final: bool = False) -> float:
        """Seconds the next plain edit of ``session``'s table message must wait (0: it may go now).

        ``final``: the edit replaces the message for good (a closed table, a scoreboard); it waits only for
        its channel's window and, with no person seated, the shared budget.
        """
        if not self.enabled:
            return 0.0
        waits = [self._channel_wait(session.channel_id)]
        if no_person_seated(session):
            waits.append(self.unattended.wait_seconds())
            if not final and not self.watched(session.table_id):
                redrawn = self._redrawn.get(session.table_id)
                if redrawn is not None:
                    waits.append(redrawn + self.unwatched_redraw_seconds - self.clock())
        return max(0.0, *waits)

    def going(self, session: TableSession) -> Edit:
        """The plain edit of ``session``'s message goes now (after :meth:`wait_seconds` said 0): count it.
        Returns the edit, to hand to :meth:`landed` once Discord answered it."""
        now = self.clock()
        edit = Edit(session.channel_id, now)
        self._channels.setdefault(session.channel_id, []).append(edit)
        self._redrawn[session.table_id] = now
        if self.enabled and no_person_seated(session):
            self.unattended.take()
        return edit

    def landed(self, edit: Edit) -> None:
        """Discord answered ``edit`` (or refused it): its channel's window counts it from now."""
        edit.at = self.clock()

    def _channel_wait(self, channel_id: int) -> float:
        edits = self._channels.get(channel_id)
        if edits is None:
            return 0.0
        horizon = self.clock() - self.channel_window_seconds
        edits[:] = [edit for edit in edits if edit.at > horizon]
        if len(edits) < self.channel_edits:
            if not edits:
                del self._channels[channel_id]  # a quiet channel is not kept
            return 0.0
        times = sorted(edit.at for edit in edits)
        return times[-self.channel_edits] + self.channel_window_seconds - self.clock()


@dataclass
class Edit:
    """One plain edit of a table message in channel ``channel_id``, counted from ``at`` (seconds, the
    pacing's clock): when it went, then when its answer came back."""

    channel_id: int
    at: float
