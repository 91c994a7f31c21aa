"""The one way a table changes: :func:`step`, a pure function of a table, a move and the time, which returns
the next table and what must follow, as plain values (:class:`Effect`). No I/O, no asyncio, no Discord: the
runtime (:meth:`engine.tables.runtime.TableRuntime.commit`) stores the new table, makes it the live one and
then carries the effects out.

A move is checked and made on a draft of the table (:meth:`~engine.tables.table.Table.draft`), so a move
refused (:class:`~engine.tables.table.TableError`, ``IllegalAction``) leaves nothing behind: the table
given is never changed, whatever happens.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from engine.core import plural
from engine.lobby import Lobby
from engine.tables import ai_seats
from engine.tables.moves import Change, Move
from engine.tables.table import Table, TableDraft, TablePhase

TABLE_CLOSED = "This table is closed."
OVER = "This game is over: see the final scores on the table message."


class Effect:
    """Something that must follow a move, carried out by the runtime once the new table is stored."""


@dataclass(frozen=True)
class Store(Effect):
    """Store the new table (in one transaction, before anyone sees it; if it cannot be, the move did not
    happen)."""


@dataclass(frozen=True)
class Forget(Effect):
    """The table is gone: forget it (a press on it is told ``reason``) and delete it from the database."""

    reason: str


@dataclass(frozen=True)
class ArmLobbyClock(Effect):
    """(Re)start the idle lobby's clock."""


@dataclass(frozen=True)
class DisarmLobbyClock(Effect):
    """The game started: the idle lobby's clock stops."""


@dataclass(frozen=True)
class ArmTurnClock(Effect):
    """Set the turn clock on the table's earliest deadline."""


@dataclass(frozen=True)
class DisarmTurnClock(Effect):
    """The game ended: the turn clock stops."""


@dataclass(frozen=True)
class FreeChannel(Effect):
    """The game ended: a new ``/play`` may open in the channel while the scoreboard shows."""


@dataclass(frozen=True)
class ArmRematchClock(Effect):
    """Start the "Play again" window's clock."""


@dataclass(frozen=True)
class PlayAITurns(Effect):
    """Let every AI seat whose turn it is play (each after its pause)."""


@dataclass(frozen=True)
class OpenRematch(Effect):
    """Seat those who chose "Play again" at a new ``lobby`` in the table's channel."""

    lobby: Lobby


@dataclass(frozen=True)
class Show(Effect):
    """Show the move (see :class:`~engine.tables.outcome.Outcome`, whose fields these are): ``note`` for
    whoever made it, ``before`` the users who could act before it; why the table closed, whether the
    scoreboard ended and a rematch follows; whose new turn it is and who was just taken over (user ids)."""

    note: str
    before: frozenset[int] = frozenset()
    closed: str | None = None
    scoreboard_ended: bool = False
    rematch: bool = False
    turn_alerts: tuple[int, ...] = ()
    newly_away: tuple[int, ...] = ()


def step(table: Table, move: Move, now: datetime) -> tuple[Table, tuple[Effect, ...]]:
    """The table after ``move`` at ``now`` (UTC), and what must follow, in order. ``table`` is not changed.

    A game past its rules' bound on moves (:func:`past_bound`) ends with no result, whatever the move. A
    table that closes or whose scoreboard ends is forgotten and deleted (:class:`Forget`), not stored.

    Raises
    ------
    TableError
        The table refuses the move (words for the player), or the move changed nothing
        (:class:`~engine.tables.moves.Unchanged`).
    IllegalAction
        The game refuses the move.
    """
    draft = table.draft()
    change = move.apply(draft, now)
    if change.close is None and past_bound(draft):
        change = Change(close=too_long(draft))
    if change.close is not None:
        draft.close()
        return draft.freeze(), (Forget(TABLE_CLOSED), Show(change.close, closed=change.close))
    if change.end_scoreboard:
        assert draft.rematch is not None
        draft.rematch.close()
        lobby = draft.rematch.next_lobby(draft.rules.min_seats, draft.rules.max_seats)
        draft.close()
        effects: list[Effect] = [
            Forget(OVER),
            Show(change.note, scoreboard_ended=True, rematch=lobby is not None),
        ]
        if lobby is not None:
            effects.append(OpenRematch(lobby))
        return draft.freeze(), tuple(effects)
    # As it will be once stored (it becomes the table only then): its whole log, and a finished game's
    # result, in the database.
    draft.saved_actions = 0 if draft.state is None else len(draft.state.history)
    draft.stored_log_outdated = False
    draft.result_saved = draft.result_saved or draft.phase is TablePhase.SCOREBOARD
    new = draft.freeze()
    if change.quiet:
        return new, (Store(),)
    return new, (Store(), *_what_follows(table, new, change.note))


def _what_follows(before: Table, after: Table, note: str) -> list[Effect]:
    """The clocks, AI turns and notices that follow a stored change from ``before`` to ``after``."""
    could_act = frozenset(before.users_with_actions())
    if after.phase is TablePhase.LOBBY:
        return [ArmLobbyClock(), Show(note, could_act)]
    effects: list[Effect] = []
    if before.phase is TablePhase.LOBBY and after.phase is TablePhase.PLAYING:  # the game started
        effects.append(DisarmLobbyClock())
    if after.phase is TablePhase.PLAYING:
        effects.append(ArmTurnClock())
    elif after.phase is TablePhase.SCOREBOARD and before.phase is TablePhase.PLAYING:
        effects += [DisarmTurnClock(), FreeChannel(), ArmRematchClock()]
    effects.append(PlayAITurns())
    effects.append(
        Show(
            note,
            could_act,
            turn_alerts=newly_waiting(after, frozenset(before.users_to_act())),
            newly_away=newly_away(before, after),
        )
    )
    return effects


def newly_waiting(table: Table, waited_before: frozenset[int]) -> tuple[int, ...]:
    """The people a change made the game wait for (user ids, seat order): a new turn of theirs. Each
    user the game waits for now who was not waited for before the change (``waited_before``), whose seat no
    AI plays (an AI seat, a player away or gone). Whether and how each is told is their choice (the
    presenter's, see :data:`~engine.tables.table.ALERT_MODES`)."""
    if table.phase is not TablePhase.PLAYING:
        return ()
    return tuple(
        user
        for user in table.users_to_act()
        if user not in waited_before and not ai_seats.ai_plays(table, table.players.index(user))
    )


def newly_away(before: Table, after: Table) -> tuple[int, ...]:
    """The players a change handed to an AI because they were away (user ids, seat order) who asked for
    DMs: each is told once each time (a player back, then away again, is told again)."""
    return tuple(
        after.players[seat]
        for seat in sorted(after.idle_seats - before.idle_seats)
        if after.players[seat] in after.dm_wanted and not ai_seats.is_ai(after.players[seat])
    )


def past_bound(table: Table | TableDraft) -> bool:
    """True if ``table``'s game has taken more actions than its rules' bound on a game's length
    (``GameRules.max_moves``): a guard that does not depend on how anyone plays."""
    bound = table.rules.max_moves
    return (
        table.phase is TablePhase.PLAYING
        and table.state is not None
        and bound is not None
        and (table.state.version > bound)
    )


def too_long(table: Table | TableDraft) -> str:
    """Why a table past its game's bound on moves ended (the table shows it)."""
    assert table.state is not None
    return (
        f"This {table.rules.display_name} game went past {plural(table.state.version - 1, 'move')}, "
        "longer than a game of it ever lasts, so it ended with no result: nobody's rating changes."
    )
