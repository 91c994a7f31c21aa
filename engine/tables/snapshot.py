"""The stored form of a table (everything but its action log): a typed, versioned model, and the two
ways between it and a :class:`~engine.tables.session.TableSession` (:func:`snapshot_of`, :func:`restore`).

:class:`TableSnapshot` is what :mod:`engine.tables.store` writes as the ``snapshot`` of a live table and
reads back at start. ``schema_version`` says which shape a stored snapshot has; :meth:`TableSnapshot.
from_stored` reads every shape ever written, so tables stored by an older bot come back after an upgrade:

- version 1 (no ``schema_version`` key): the untyped dict of the first durable tables, whose ``settings``
  is a list ``[turn_seconds, idle_turn_seconds, idle_after_timeouts]``;
- version 2: this model without time controls (every table on a fixed clock);
- version 3: this model: ``settings.time_control`` (fixed clock, time bank or slow mode) and each seat's
  time bank (``banks``: remaining seconds as of the last move, and when its clock started running).
  Fields added since version 3 have defaults, so a snapshot written before them still loads:
  ``left_seats`` (seats whose player left the game, played by an AI), ``ai_levels`` (an AI seat's level
  when not normal: a table stored before levels restores with normal AI seats), ``hints``, ``hints_rated``
  and ``hint_counts`` (a table stored before them has no hints counted). AI seats' identities are the
  negative ids among ``lobby_players`` and ``players`` (see :mod:`engine.tables.ai_seats`), with their
  names in ``names``.

Where the Discord layer shows a table is not the table's: snapshots stored before the schema's V012 also
said it, and that migration moved it to the Discord layer's own rows (:mod:`storage.table_messages`); a
field of it still read here is ignored.

A game with engine snapshots (Minimize: Declare, Deluxe Memory, MINIMIZE, TOKENIZE, ERADICIZE:
:meth:`engine.core.GameState.engine_snapshot`) also has one stored, written every
:data:`ENGINE_SNAPSHOT_EVERY` actions (:func:`engine_snapshot_of`); :func:`restore` rebuilds the game from
it and replays only the actions after it, when it matches the log (:func:`log_digest`), and replays the
whole log otherwise.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections import deque
from collections.abc import Sequence
from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from engine import Event, GameRules, GameState, get_rules
from engine.core import plural
from engine.lobby import Lobby, Rematch, RematchChoice
from engine.tables.session import TableSession
from engine.tables.table import EVENT_LOG_LENGTH, TableDraft, TablePhase, TableQuestions, TableSettings
from engine.tables.time_control import SeatBank, TimeControl
from storage import StoredEngineSnapshot

logger = logging.getLogger(__name__)

SCHEMA_VERSION = 3

ENGINE_SNAPSHOT_EVERY = 64
"""A game's engine snapshot is written with the save that reaches every 64th action (a count of actions), so
a restart replays at most 63 actions after it instead of its whole log (hundreds of actions in a long game).
Taking one once in 64 moves costs little per move; a smaller count would write more for little, since the
rebuild itself (reading the JSON) stays. The figures: ``bench/restart.py``, in docs/performance.md."""


class SettingsSnapshot(BaseModel):
    """A table's timing rules, in seconds."""

    model_config = ConfigDict(frozen=True)

    turn_seconds: int
    idle_turn_seconds: int
    idle_after_timeouts: int
    rematch_seconds: int = 180  # not in snapshots older than the shown "Play again" deadline
    time_control: TimeControl = TimeControl()  # version 3; a fixed clock before


class RematchSnapshot(BaseModel):
    """The "Play again" choice on a scoreboard: who played, who hosts, and each choice made so far
    (``"again"`` or ``"leave"``, by user id)."""

    model_config = ConfigDict(frozen=True)

    players: list[int]
    host_id: int
    choices: dict[int, str]


class TableSnapshot(BaseModel):
    """A table as stored. Times are UTC; seats are indexes into ``players``; user ids are Discord ids, or
    an AI seat's negative identity."""

    model_config = ConfigDict(frozen=True)

    schema_version: Literal[3] = SCHEMA_VERSION
    table_id: str
    guild_id: int
    channel_id: int
    game: str
    settings: SettingsSnapshot
    phase: Literal["lobby", "playing", "scoreboard", "closed"]
    host_id: int
    lobby_players: list[int]
    names: dict[int, str]
    dm_wanted: list[int]
    alert_modes: dict[int, str] = {}
    """How players who chose it for this table are told of their turn (``TableSession.alert_modes``)."""
    ai_levels: dict[int, Literal["easy", "hard"]] = {}
    """Each AI seat's level when not normal, by its identity."""
    hints: bool = False
    """Whether the players may ask the coach for hints (off for a table stored before hints)."""
    hints_rated: bool = False
    """Whether hints are on although the table's results are rated (its scoreboard shows the counts)."""
    hint_counts: dict[int, int] = {}
    """How many hints the coach answered each player, by user id."""
    options: dict[str, Any]
    options_complete: bool = False
    """True when ``options`` of a started game holds every option (written since the Minimisère default
    changed); an older snapshot's options go through :meth:`~engine.core.GameRules.upgrade_options`."""
    seed: int | None = None
    players: list[int] = []
    started_at: datetime | None = None
    finished_at: datetime | None = None
    seat_deadlines: dict[int, datetime] = {}
    seat_versions: list[int] = []
    banks: list[SeatBank] = []
    """Each seat's time bank on a bank table (version 3)."""
    timeouts_in_row: dict[int, int] = {}
    idle_seats: list[int] = []
    left_seats: list[int] = []
    rematch: RematchSnapshot | None = None
    result_saved: bool = False

    @classmethod
    def from_stored(cls, data: dict[str, Any]) -> "TableSnapshot":
        """Read a stored snapshot of any schema version.

        Raises
        ------
        pydantic.ValidationError
            If ``data`` is not a snapshot of a known version.
        """
        version = data.get("schema_version", 1)
        if version in (1, 2):  # version 2 is this shape without time controls: a fixed clock, no banks
            data = {**data, "schema_version": SCHEMA_VERSION}
        if version == 1:
            settings = data.get("settings")
            if isinstance(settings, list | tuple):
                keys = ("turn_seconds", "idle_turn_seconds", "idle_after_timeouts")
                data["settings"] = dict(zip(keys, settings, strict=True))
        return cls.model_validate(data)

    def to_stored(self) -> dict[str, Any]:
        """JSON-ready data for the database."""
        return self.model_dump(mode="json")

    def to_json(self) -> str:
        """The JSON text of :meth:`to_stored` (what the database stores), encoded in one step."""
        return self.model_dump_json()


def snapshot_of(session: TableQuestions | TableSession, **stored: Any) -> TableSnapshot:
    """Everything about ``session`` (a table, or a live table) except its action log (see :func:`restore`);
    ``stored``: fields to set apart (``result_saved`` when the store is about to store the result with this
    snapshot)."""
    fields = dict(
        table_id=session.table_id,
        guild_id=session.guild_id,
        channel_id=session.channel_id,
        game=session.rules.key,
        settings=SettingsSnapshot(
            turn_seconds=session.settings.turn_seconds,
            idle_turn_seconds=session.settings.idle_turn_seconds,
            idle_after_timeouts=session.settings.idle_after_timeouts,
            rematch_seconds=session.settings.rematch_seconds,
            time_control=session.settings.time_control,
        ),
        phase=session.phase.value,
        host_id=session.lobby.host_id,
        lobby_players=list(session.lobby.players),
        names=dict(session.names),
        dm_wanted=sorted(session.dm_wanted),
        alert_modes=dict(session.alert_modes),
        ai_levels=dict(session.ai_levels),
        hints=session.hints,
        hints_rated=session.hints_rated,
        hint_counts=dict(session.hint_counts),
        options=dict(session.options)
        if session.state is None
        else session.state.options.model_dump(mode="json"),
        options_complete=session.state is not None,
        seed=None if session.state is None else session.state.seed,
        players=list(session.players),
        started_at=session.started_at,
        finished_at=session.finished_at,
        seat_deadlines=dict(session.seat_deadlines),
        seat_versions=list(session.seat_versions),
        banks=list(session.banks),
        timeouts_in_row=dict(session.timeouts_in_row),
        idle_seats=sorted(session.idle_seats),
        left_seats=sorted(session.left_seats),
        rematch=None
        if session.rematch is None
        else RematchSnapshot(
            players=list(session.rematch.players),
            host_id=session.rematch.host_id,
            choices={user: choice.value for user, choice in session.rematch.choices.items()},
        ),
        result_saved=session.result_saved,
    )
    fields.update(stored)
    return TableSnapshot(**fields)


def log_digest(actions: Sequence[tuple[int, str, bool]]) -> str:
    """The SHA-256 (hex) of an action log ``[(seat, code, timed_out), ...]``: an engine snapshot holds the
    digest of the actions it was taken after, and is used only with a log that starts with them."""
    text = json.dumps(
        [[seat, code, bool(timed_out)] for seat, code, timed_out in actions], separators=(",", ":")
    )
    return hashlib.sha256(text.encode()).hexdigest()


def engine_snapshot_of(session: TableQuestions) -> StoredEngineSnapshot | None:
    """The engine snapshot of ``session``'s game now, as stored: its version, the digest of its log
    (:func:`log_digest`), and as JSON text the state (:meth:`engine.core.GameState.engine_snapshot`) and the
    table's last log lines (:attr:`TableSession.log_events`: a replay of the log would make them).
    ``None`` if the table has no game or its game has no snapshot."""
    state = session.state
    data = None if state is None else state.engine_snapshot()
    if state is None or data is None:
        return None
    events = [[event.seat, event.text] for event in session.log_events]
    text = json.dumps({"state": data, "events": events}, separators=(",", ":"))
    return StoredEngineSnapshot(state.version, log_digest(session.stored_log()), text)


def restore(
    snapshot: TableSnapshot,
    actions: list[tuple[int, str, bool]],
    engine: StoredEngineSnapshot | None = None,
) -> TableSession:
    """Rebuild a table from its :func:`snapshot_of`, its action log ``[(seat, code, timed_out), ...]`` and
    its engine snapshot if one is stored.

    The game is rebuilt from ``engine`` when it matches the log (taken after the log's first
    ``engine.version`` actions, by their :func:`log_digest`) and only the actions after it are replayed;
    otherwise (none, another log's, or one that does not read) it is replayed from its seed, the mismatch
    logged. Either way the state is exactly the one that was saved; clocks, seat versions, idle marks and
    the last log lines come back too.

    Raises
    ------
    KeyError
        If the game is not one this bot hosts (any more).
    IllegalAction
        If the log does not replay (a corrupt record).
    """
    settings = snapshot.settings
    draft = TableDraft(
        snapshot.table_id,
        snapshot.guild_id,
        snapshot.channel_id,
        get_rules(snapshot.game),
        TableSettings(
            settings.turn_seconds,
            settings.idle_turn_seconds,
            settings.idle_after_timeouts,
            settings.rematch_seconds,
            settings.time_control,
        ),
        snapshot.host_id,
        snapshot.names.get(snapshot.host_id, "host"),
        players=list(snapshot.lobby_players),
        names=dict(snapshot.names),
        dm_wanted=set(snapshot.dm_wanted),
    )
    load_into(draft, snapshot, actions, engine)
    return TableSession(draft)


def load_into(
    session: TableDraft,
    snapshot: TableSnapshot,
    actions: list[tuple[int, str, bool]],
    engine: StoredEngineSnapshot | None = None,
) -> None:
    """Put the draft ``session`` back to a stored snapshot, log and engine snapshot (see :func:`restore`),
    in place."""
    session.phase = TablePhase(snapshot.phase)
    session.lobby = Lobby(
        snapshot.host_id, session.rules.min_seats, session.rules.max_seats, list(snapshot.lobby_players)
    )
    session.names = dict(snapshot.names)
    session.dm_wanted = set(snapshot.dm_wanted)
    session.alert_modes = dict(snapshot.alert_modes)
    session.ai_levels = dict(snapshot.ai_levels)
    session.hints = snapshot.hints
    session.hints_rated = snapshot.hints_rated
    session.hint_counts = dict(snapshot.hint_counts)
    session.options = dict(snapshot.options)
    if snapshot.seed is not None and not snapshot.options_complete:
        session.options = session.rules.upgrade_options(session.options)
    session.players = list(snapshot.players)
    session.started_at = snapshot.started_at
    session.finished_at = snapshot.finished_at
    session.result_saved = snapshot.result_saved
    session.events.clear()
    session.timed_out_positions = set()
    session.state = None
    log = upgraded_log(session.rules, actions)
    if snapshot.seed is not None:
        rebuilt = _rebuilt(session, snapshot.seed, log, engine)
        if rebuilt is None:
            state = session.rules.new_game(len(session.players), snapshot.seed, dict(session.options))
            session.events.append(
                Event(None, f"The game begins with {plural(len(session.players), 'player')}.")
            )
        else:
            state, last_lines = rebuilt
            session.events.extend(last_lines)
        for seat, code, timed_out in log[state.version :]:
            if timed_out:
                session.events.append(Event(seat, "ran out of time."))
            session.events.extend(state.apply(seat, code))
        session.timed_out_positions = {
            position for position, (_, _, timed_out) in enumerate(log) if timed_out
        }
        session.state = state
        session.note_legal_actions()
    session.log_events = deque(session.events, maxlen=EVENT_LOG_LENGTH)
    session.seat_deadlines = dict(snapshot.seat_deadlines)
    session.clock_names = (
        {}
        if session.state is None
        else {seat: session.state.decision_clock(seat) for seat in session.seat_deadlines}
    )
    session.seat_versions = list(snapshot.seat_versions)
    session.banks = list(snapshot.banks)
    session.timeouts_in_row = dict(snapshot.timeouts_in_row)
    session.idle_seats = set(snapshot.idle_seats)
    session.left_seats = set(snapshot.left_seats)
    rematch = snapshot.rematch
    session.rematch = (
        None
        if rematch is None
        else Rematch(
            players=list(rematch.players),
            host_id=rematch.host_id,
            choices={user: RematchChoice(choice) for user, choice in rematch.choices.items()},
        )
    )
    session.saved_actions = len(log)
    session.stored_log_outdated = log != actions
    if session.stored_log_outdated:
        session.saved_actions = 0  # the next save writes the whole upgraded log in place of the stored one


def _rebuilt(
    session: TableDraft, seed: int, log: list[tuple[int, str, bool]], engine: StoredEngineSnapshot | None
) -> tuple[GameState, list[Event]] | None:
    """The game of ``session`` and its last log lines as of the engine snapshot ``engine`` (to be brought
    up to date with the rest of ``log``), or ``None`` to replay the whole log: no snapshot, one that does
    not match ``log`` (logged), or one that does not read as this table's game (logged)."""
    if engine is None:
        return None
    if engine.version > len(log) or engine.digest != log_digest(log[: engine.version]):
        logger.warning(
            "Table %s: its engine snapshot (after %d actions) does not match its log of %d actions: replaying"
            " the whole log",
            session.table_id,
            engine.version,
            len(log),
        )
        return None
    try:
        data = json.loads(engine.snapshot)
        history = [(seat, code) for seat, code, _ in log[: engine.version]]
        state = session.rules.state_class.from_engine_snapshot(data["state"], history)
        if state.seed != seed or state.num_seats != len(session.players):
            seats = plural(state.num_seats, "seat")
            raise ValueError(f"a snapshot of another game (seed {state.seed}, {seats})")
        events = [Event(seat, text) for seat, text in data["events"]]
    except Exception:
        logger.warning(
            "Table %s: its engine snapshot does not read: replaying the log", session.table_id, exc_info=True
        )
        return None
    return state, events


def upgraded_log(rules: GameRules, actions: list[tuple[int, str, bool]]) -> list[tuple[int, str, bool]]:
    """A stored log ``[(seat, code, timed_out), ...]`` rewritten by the game's :meth:`GameRules.upgrade_log`
    (a log written by an older engine, e.g. Minimize: Declare's old family steps), action by action so
    that each kept action keeps its timed-out mark. A current log (the upgrade leaves it as it is, the
    common case) is returned as it is, without going action by action (a restart reads hundreds of
    thousands of actions)."""
    plain = [(seat, code) for seat, code, _ in actions]
    if rules.upgrade_log(plain) == plain:
        return list(actions)
    upgraded = []
    for seat, code, timed_out in actions:
        upgraded.extend((again, new_code, timed_out) for again, new_code in rules.upgrade_log([(seat, code)]))
    return upgraded
