"""Write ``release_tables.db``, a SQLite database of live tables as the release before the table runtime
left ``cogs/tables/`` stores them, and ``release_tables.json``, what each table holds, for
``tests/storage/test_release_upgrade.py``.

The committed files were written with the code of commit 68c1783 (main before the table
runtime moved out of ``cogs/tables/``), by this script in the commit that added it, whose code is 68c1783's
(``git log --diff-filter=A -- tests/data/make_release_db.py`` names it). To write them again, check that
commit out (``git worktree add /tmp/release <commit>``) and run, from that checkout's root::

    PYTHONPATH=$PWD python3 tests/data/make_release_db.py

It imports that release's table runtime (``cogs.tables``), so it runs only where that exists; the test reads
the files with the code of today. Everything is drawn from one seeded generator and a fake clock, so the
tables and the JSON come out the same on every run (only the database's ``updated_at`` column, written
from the wall clock by ``Database.save_table``, differs).

The tables, each stored through :class:`cogs.tables.store.TableStore` after every change, as the bot does:

- for each of the seven games a game in the middle, with people and AI seats (negative ids), moves played
  at random among the engine's legal actions, and turns that ran out (the clock's default move, marked
  ``timed_out`` in the log);
- Foist on a time bank; Minimize with a player away (an AI plays their seat after two turns that ran out
  in a row, ``idle_seats``); Tokenize with a player who left (``left_seats``); Declare in slow mode;
  Minimisère and Deluxe Memory with options set;
- a lobby with options set, an AI seat and a player who asked for DMs;
- a finished Foist game on its scoreboard, its result stored, one player's "Play again" choice made.

The JSON holds, by table id in the order the tables were first stored, what the session held when it was
last stored: phase, seats, AI seats, idle and left seats, clocks, banks, names, options, message id, the
action log with its timed-out marks, the seats to act and their legal action codes, and the final
standings of a finished game (``[points, rank]`` by seat).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import sqlite3
from dataclasses import asdict, dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

from cogs.tables.registry import TableRegistry
from cogs.tables.seat_presses import leave_game
from cogs.tables.session import Phase, TableSession, TableSettings
from cogs.tables.store import TableStore
from cogs.tables.time_control import TimeControl

from cogs.tables import ai_seats
from cogs.tables.table_message import TableMessages
from engine import GAMES, get_rules
from engine.lobby import RematchChoice
from storage import Database

HERE = Path(__file__).resolve().parent
DATABASE = HERE / "release_tables.db"
EXPECTED = HERE / "release_tables.json"

SEED = 25
START = datetime(2026, 3, 14, 18, 0, tzinfo=timezone.utc)
GUILD_ID = 912_345_678_901_234_567
FIRST_CHANNEL_ID = 1_203_456_789_012_345_678
FIRST_USER_ID = 301_234_567_890_123_456
FIRST_MESSAGE_ID = 1_300_000_000_000_000_000
PLAYER_NAMES = ("Ingrid", "Zoë", "Małgorzata", "Kwame", "José", "Aoife", "Nguyễn", "Ravi", "Sören", "Yuki")
TIMEOUT_CHANCE = 0.08  # of a move being the clock's default instead of a press


@dataclass(frozen=True)
class Plan:
    """One table to write: its game, its people and AI seats, how far to play it and what happens on it.

    ``away``: a person lets their clock run out until an AI takes their seat over. ``leave_at``: after
    that many moves, the last person leaves the game. ``moves`` is the number of changes to make (``None``:
    play to the end).
    """

    game: str
    people: int
    ais: int
    moves: int | None
    options: dict[str, Any] = field(default_factory=dict)
    clock: str = "fixed"
    away: bool = False
    leave_at: int | None = None
    dm: bool = True


PLANS = (
    Plan("foist", people=2, ais=1, moves=25, clock="bank"),
    Plan("minimize", people=3, ais=1, moves=40, options={"duplicates_side": "colour"}, away=True),
    Plan("tokenize", people=2, ais=2, moves=120, leave_at=60),
    Plan("eradicize", people=2, ais=2, moves=90),
    Plan("declare", people=2, ais=1, moves=150, options={"quick_throw_back": False}, clock="slow"),
    Plan("minimisere", people=3, ais=1, moves=30, options={"end_by": "deals", "deals": 3, "nines": True}),
    Plan("memory", people=2, ais=1, moves=60, options={"jokin_around": True, "underdogs": True}),
)
LOBBY = Plan(
    "declare", people=2, ais=1, moves=0, options={"triplet_skips": True, "pure_three_reverses": True}
)
SCOREBOARD = Plan("foist", people=3, ais=1, moves=None, dm=False)


class Clock:
    """The fake clock the tables are played on (UTC)."""

    def __init__(self) -> None:
        self.now = START

    def at_least(self, moment: datetime) -> datetime:
        """Move on to ``moment`` if it is later; return the time now."""
        self.now = max(self.now, moment)
        return self.now


def moment(value: datetime | None) -> str | None:
    return None if value is None else value.isoformat()


class Writer:
    """Opens and plays every table on one database and remembers what each one holds."""

    def __init__(self, db: Database) -> None:
        self.rng = random.Random(SEED)
        self.clock = Clock()
        self.registry = TableRegistry()
        self.messages = TableMessages(None, None, 3600.0, self._no_save, self.registry.is_live)  # type: ignore[arg-type]
        self.store = TableStore(db, self.registry, self.messages, lambda: False)
        self.next_user = FIRST_USER_ID
        self.next_channel = FIRST_CHANNEL_ID
        self.next_message = FIRST_MESSAGE_ID
        self.sessions: list[TableSession] = []

    @staticmethod
    async def _no_save(session: TableSession) -> None:
        raise AssertionError("no table message is posted here")

    def open(self, plan: Plan) -> TableSession:
        """A lobby of ``plan``'s game with its people, AI seats and options, its message posted."""
        rules = get_rules(plan.game)
        control = TimeControl(bank_seconds=300.0, increment_seconds=10.0, cap_seconds=600.0)
        control = control.with_kind(plan.clock)
        settings = TableSettings(60, 15, 2, 180, control)
        people = [self._user() for _ in range(plan.people)]
        names = [self.rng.choice(PLAYER_NAMES) + f" #{index + 1}" for index in range(plan.people)]
        table_id = f"{self.rng.getrandbits(40):010x}"
        session = TableSession(table_id, GUILD_ID, self._channel(), rules, settings, people[0], names[0])
        for user, name in zip(people[1:], names[1:], strict=True):
            session.join(user, name)
        for _ in range(plan.ais):
            ai_seats.add_ai(session, session.host_id)
        for name, value in plan.options.items():
            session.set_option(session.host_id, name, value)
        if plan.dm:
            session.dm_wanted.add(people[-1])
        record = self.messages.record(session)
        record.message_id, record.posted_at = self.next_message, self.clock.now
        self.next_message += self.rng.randrange(1, 10**9)
        self.registry.register(session)
        self.sessions.append(session)
        return session

    def _user(self) -> int:
        self.next_user += self.rng.randrange(1, 10**12)
        return self.next_user

    def _channel(self) -> int:
        self.next_channel += self.rng.randrange(1, 10**12)
        return self.next_channel

    async def write(self, plan: Plan) -> TableSession:
        """Open ``plan``'s table, store it, start and play it as planned, storing every change."""
        session = self.open(plan)
        await self.store.persist(session)
        if plan.moves == 0:
            return session
        self.clock.now += timedelta(seconds=self.rng.randint(5, 40))
        session.start(session.host_id, self.rng.getrandbits(63), self.clock.now)
        await self.store.persist(session)
        away = self._person_seats(session)[0] if plan.away else None
        made = 0
        while session.phase is Phase.PLAYING and (plan.moves is None or made < plan.moves):
            if made == plan.leave_at:
                leaver = self._person_seats(session)[-1]
                leave_game(session, session.players[leaver])
            else:
                self._change(session, away)
            await self.store.persist(session)
            made += 1
        return session

    def _person_seats(self, session: TableSession) -> list[int]:
        return [seat for seat, user in enumerate(session.players) if not ai_seats.is_ai(user)]

    def _change(self, session: TableSession, away: int | None) -> None:
        """One move: a seat to act presses one of its legal actions at random (an AI within seconds, a
        person within 25), or a person's clock runs out (at random, when a deadline comes before the press,
        and always for the person planned to be away until an AI takes their seat over)."""
        state = session.state
        assert state is not None and session.deadline is not None
        waiting = state.seats_to_act()
        seat = self.rng.choice(waiting)
        by_ai = ai_seats.ai_plays(session, seat)
        pressed_at = self.clock.now + timedelta(
            seconds=self.rng.randint(1, 3) if by_ai else self.rng.randint(2, 25)
        )
        if away in waiting and away not in session.idle_seats:
            due: datetime | None = session.seat_deadlines[away]
        elif pressed_at > session.deadline:
            due = session.deadline
        elif not by_ai and self.rng.random() < TIMEOUT_CHANCE:
            due = session.seat_deadlines[seat]
        else:
            due = None
        if due is not None:
            events = session.time_out(state.version, self.clock.at_least(due))
            assert events, f"nothing ran out on table {session.table_id}"
            return
        code = self.rng.choice(state.legal_actions(seat)).code
        session.act(session.players[seat], state.version, code, self.clock.at_least(pressed_at), by_ai=by_ai)


def expected(session: TableSession, messages: TableMessages) -> dict[str, Any]:
    """What ``session`` holds as stored, in JSON."""
    state = session.state
    record = messages.stored_record(session)
    settings = session.settings
    rematch = session.rematch
    return {
        "game": session.rules.key,
        "guild_id": session.guild_id,
        "channel_id": session.channel_id,
        "phase": session.phase.value,
        "host_id": session.host_id,
        "lobby_players": list(session.lobby.players),
        "players": list(session.players),
        "ai_seats": ai_seats.ai_seats_of(session.players or session.lobby.players),
        "names": {str(user): name for user, name in session.names.items()},
        "dm_wanted": sorted(session.dm_wanted),
        "options": dict(session.options) if state is None else state.options.model_dump(mode="json"),
        "seed": None if state is None else state.seed,
        "settings": {
            "turn_seconds": settings.turn_seconds,
            "idle_turn_seconds": settings.idle_turn_seconds,
            "idle_after_timeouts": settings.idle_after_timeouts,
            "rematch_seconds": settings.rematch_seconds,
            "time_control": asdict(settings.time_control),
        },
        "started_at": moment(session.started_at),
        "finished_at": moment(session.finished_at),
        "deadline": moment(session.deadline),
        "seat_deadlines": {str(seat): moment(when) for seat, when in session.seat_deadlines.items()},
        "seat_versions": list(session.seat_versions),
        "banks": [[bank.remaining, moment(bank.running_since)] for bank in session.banks],
        "timeouts_in_row": {str(seat): count for seat, count in session.timeouts_in_row.items()},
        "idle_seats": sorted(session.idle_seats),
        "left_seats": sorted(session.left_seats),
        "rematch": None
        if rematch is None
        else {
            "players": list(rematch.players),
            "host_id": rematch.host_id,
            "choices": {str(user): choice.value for user, choice in rematch.choices.items()},
        },
        "result_saved": session.result_saved,
        "message_id": record.message_id,
        "message_posted_at": moment(record.posted_at),
        "log": []
        if state is None
        else [
            [seat, code, position in session.timed_out_positions]
            for position, (seat, code) in enumerate(state.history)
        ],
        "seats_to_act": [] if state is None else list(state.seats_to_act()),
        "legal_actions": {}
        if state is None
        else {
            str(seat): [action.code for action in state.legal_actions(seat)]
            for seat in range(state.num_seats)
        },
        "standings": None
        if state is None or not state.is_terminal()
        else [[standing.points, standing.rank] for standing in state.standings()],
    }


async def main() -> None:
    DATABASE.unlink(missing_ok=True)
    db = await Database.open(DATABASE)
    try:
        writer = Writer(db)
        for plan in PLANS:
            await writer.write(plan)
        await writer.write(LOBBY)
        finished = await writer.write(SCOREBOARD)
        finished.choose_rematch(finished.host_id, RematchChoice.PLAY_AGAIN)
        await writer.store.persist(finished)
        assert await db.result_count(finished.table_id) == 1
        tables = {session.table_id: expected(session, writer.messages) for session in writer.sessions}
    finally:
        await db.close()
    check(tables)
    with contextlib.closing(sqlite3.connect(DATABASE)) as raw:
        (version,) = raw.execute("PRAGMA user_version").fetchone()
    EXPECTED.write_text(json.dumps({"schema_version": version, "tables": tables}, indent=1) + "\n")
    print(f"{DATABASE.name}: {DATABASE.stat().st_size} bytes, {len(tables)} tables")


def check(tables: dict[str, dict[str, Any]]) -> None:
    """Refuse to write files that lack what the test needs."""
    playing = [table for table in tables.values() if table["phase"] == "playing"]
    assert {table["game"] for table in playing} == set(GAMES), "a game in the middle for each game"
    assert all(table["ai_seats"] and len(table["ai_seats"]) < len(table["players"]) for table in playing)
    assert all(any(timed_out for _, _, timed_out in table["log"]) for table in playing), "turns ran out"
    assert any(table["banks"] for table in playing), "a table on a time bank"
    assert any(table["idle_seats"] for table in playing), "a player away"
    assert any(table["left_seats"] for table in playing), "a player who left"
    (lobby,) = [table for table in tables.values() if table["phase"] == "lobby"]
    assert lobby["options"] and lobby["ai_seats"]
    (finished,) = [table for table in tables.values() if table["phase"] == "scoreboard"]
    assert finished["result_saved"] and finished["standings"] and finished["rematch"]["choices"]


if __name__ == "__main__":
    asyncio.run(main())
