"""End-to-end fixtures: the real bot (real discord.py client) against the sandbox, on a real database.

Every test that takes the ``world`` fixture, or the ``database_url`` fixture (for ``restartable_world`` or a
bot process of its own), runs once per database backend, its id showing which: ``[sqlite]`` (a file in the
test's temporary folder) and ``[postgresql]`` (an empty database of the test's own on the session's
throwaway PostgreSQL server, ``tests/conftest.py``). What the bot stored is read with portable SQL through
:func:`stored` (``tests/e2e/stored_rows.py``).

Every end-to-end test runs on both (``test_shards.py``'s processes share one PostgreSQL database, so it
runs on PostgreSQL only), except what only SQLite has: its backup files (PostgreSQL is backed up with
``pg_dump``), marked :data:`sqlite_only` with the reason. A new test runs on both unless it is marked.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
import tempfile
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from bot.bot import CardTableBot
from bot.sandbox_demo import sandbox_bot
from sandbox import SandboxServer
from tests.bot.test_entrypoint import bot_environment, run_bot
from tests.e2e import reading
from tests.e2e.stored_rows import stored

PLAYER_NAMES = ("alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi", "ivan", "judy")
TO_ACT = re.compile(r"^▶️ \*\*(?P<name>[^*]+)\*\*", re.MULTILINE)
"""A line of the table message's "Players" field whose player the game waits for."""
NOT_ACTIONS = ("DM me my hand", "My hand", "Rules in play", "How to play", "Leave game", "I'm back", "Hint")
PREVIOUS, NEXT = "◀ Previous", "Next ▶"
PAGING = (PREVIOUS, NEXT)  # the buttons that page through a view's menus (labels start so)


def is_turn_line(message: Any) -> bool:
    """True if ``message`` was sent to mention someone (a turn line: the only messages that mention)."""
    return bool((message.allowed_mentions or {}).get("users"))


@dataclass
class World:
    """A sandbox server with one guild, a bot connected to it, and simulated members."""

    server: SandboxServer
    guild: Any
    channel: Any
    other_channel: Any
    players: dict[str, Any]
    outsider: Any
    bot: CardTableBot
    database_url: str
    """The bot's database: ``sqlite:///<file>`` or ``postgresql://...``; read it with :func:`stored`."""

    @property
    def database_path(self) -> Path:
        """The bot's SQLite file (for tests of SQLite-only features, such as its backup files).

        Raises
        ------
        ValueError
            If the bot runs on PostgreSQL.
        """
        from storage import database_path

        return database_path(self.database_url)

    # -- reading what the channel shows -------------------------------------------------------------

    def message(self, message_id: int) -> Any:
        """The channel message with this id, as the sandbox stores it now."""
        for message in self.channel.messages:
            if message.id == message_id:
                return message
        raise LookupError(f"no message {message_id} in #{self.channel.name}")

    def public_messages(self) -> list[Any]:
        """The channel's non-ephemeral messages, oldest first, but the lines that tell a player of their
        turn (:meth:`turn_lines`)."""
        return [m for m in self.channel.messages if m.ephemeral_for is None and not is_turn_line(m)]

    def turn_lines(self, channel: Any = None) -> list[Any]:
        """The lines that mentioned a player whose turn it was, in ``channel`` (default: the test channel),
        deleted ones included, oldest first."""
        return [m for m in (channel or self.channel).messages if is_turn_line(m)]

    def turn_owner(self, table_message: Any) -> Any | None:
        """The member whose turn the table message shows (the first marked ▶️ in "Players"), or ``None``."""
        match = TO_ACT.search(table_message.text())
        return self.players[match["name"]] if match else None

    # -- acting ----------------------------------------------------------------------------------

    async def play(self, user: Any, **options: Any) -> Any:
        """``/play`` in the test channel; returns the interaction result."""
        return await self.server.run_command(user, self.channel, "play", **options)

    async def press(self, user: Any, message: Any, label: str) -> Any:
        """Press the button labelled ``label`` (prefix match) on ``message`` as ``user``."""
        current = (
            self.message(message.id)
            if message.ephemeral_for is None and message.channel_id == self.channel.id
            else message
        )
        for button in current.buttons():
            if button.get("label", "").startswith(label):
                return await self.server.press(user, current, button["custom_id"])
        labels = [button.get("label") for button in current.buttons()]
        raise LookupError(f"no button {label!r} on the message; it has {labels}")

    def users_to_act(self, table_message: Any) -> list[Any]:
        """Every member the table message says the game waits for (marked ▶️ in "Players")."""
        return [self.players[match["name"]] for match in TO_ACT.finditer(table_message.text())]

    @staticmethod
    def choices_on(hand: Any, page: int) -> list[tuple[int, str, str, str | None, str]]:
        """The actions a private view shows: ``(page, kind, custom_id, value, label)`` for each enabled
        action button (not "My hand", "DM me" or a paging button) and each menu option."""
        choices: list[tuple[int, str, str, str | None, str]] = [
            (page, "button", button["custom_id"], None, button.get("label", ""))
            for button in hand.buttons()
            if button.get("label") not in NOT_ACTIONS
            and not button.get("label", "").startswith(PAGING)
            and not button.get("disabled")
        ]
        for menu in hand.selects():
            choices.extend(
                (page, "select", menu["custom_id"], option["value"], option["label"])
                for option in menu["options"]
            )
        return choices

    async def turn_page(self, user: Any, hand: Any, label: str) -> Any | None:
        """Press the paging button ``label`` ("Next ▶" or "◀ Previous") of a private view; returns the view
        redrawn at that page, or ``None`` if the press was refused (the game moved on)."""
        result = await self.press(user, hand, label)
        if not (result.ok and result.response_type == 7):
            return None
        return result.message if result.message is not None else hand

    async def act_somehow(
        self, user: Any, table: Any, rng: Any, hands: dict[int, Any], prefer: tuple[str, ...] = ()
    ) -> Any:
        """Have ``user`` take one of the actions their private view offers (a random button or menu
        option, on any page of its menus), opening the view with **My hand** when needed. Returns the
        accepted result, or ``None`` if they have nothing to do (the game moved on)."""
        for attempt in range(4):
            hand = hands.get(user.id)
            if hand is None or attempt > 0:
                try:
                    opened = await self.press(user, table, "My hand")
                except LookupError:  # the table message moved on (a background edit showed the end)
                    return None
                if not (opened.ok and opened.ephemeral):
                    return opened  # e.g. the game ended meanwhile
                hand = hands[user.id] = opened.message
            page = 0
            choices = self.choices_on(hand, page)
            while hand is not None and any(b.get("label", "").startswith(NEXT) for b in hand.buttons()):
                hand = await self.turn_page(user, hand, NEXT)
                page += 1
                if hand is not None:
                    choices.extend(self.choices_on(hand, page))
            if hand is None:
                continue
            if not choices:
                if attempt > 0:
                    return None
                continue
            preferred = next(
                (
                    [choice for choice in choices if choice[4].startswith(prefix)]
                    for prefix in prefer
                    if any(choice[4].startswith(prefix) for choice in choices)
                ),
                choices,
            )
            on_page, kind, custom_id, value, _ = (
                preferred[0] if prefer and attempt == 0 else rng.choice(preferred)
            )
            while hand is not None and page > on_page:
                hand = await self.turn_page(user, hand, PREVIOUS)
                page -= 1
            if hand is None:
                continue
            hands[user.id] = hand
            if kind == "button":
                result = await self.server.press(user, hand, custom_id)
            else:
                result = await self.server.select(user, hand, custom_id, [value])
            if result.ok and result.response_type == 7:
                return result
        raise AssertionError(f"{user.name}'s moves were all refused at {table.text()}")

    async def play_to_the_end(
        self, table: Any, rng: Any, max_moves: int = 3000, prefer: tuple[str, ...] = ()
    ) -> Any:
        """Play legal moves through private views until the scoreboard shows; returns it.

        Moves are random, unless ``prefer`` lists label prefixes: then the first choice whose label starts
        with the first matching prefix is taken (a quick strategy that shortens long games)."""
        hands: dict[int, Any] = {}
        for _ in range(max_moves):
            current = self.message(table.id)
            if "final scores" in reading.title(current):
                return current
            waiting = self.users_to_act(current)
            assert waiting, current.text()
            await self.act_somehow(rng.choice(waiting), current, rng, hands, prefer)
        raise AssertionError("the game did not end")

    async def open_table(
        self,
        host: str = "alice",
        seated: tuple[str, ...] = ("bob", "carol"),
        game: str = "foist",
        **options: Any,
    ) -> Any:
        """Open a table of ``game``, seat ``seated`` and start it; returns the table message."""
        result = await self.play(self.players[host], game=game, **options)
        assert result.ok and not result.ephemeral, result
        table = result.message
        for name in seated:
            joined = await self.press(self.players[name], table, "Join")
            assert joined.ok and joined.response_type == 7, joined
        started = await self.press(self.players[host], table, "Start")
        assert started.ok and started.response_type == 7, started
        return self.message(table.id)


BACKENDS = ("sqlite", "postgresql")

MACHINE_SPEED = {"presses_per_second": 1000, "table_edits_per_channel": 10000}
"""The tests press and play faster than people do (``ai_pause_seconds=0``): a member's press limit
(:mod:`cogs.press_limits`) is lifted, and the sandbox does not hold the bot to Discord's 5 edits per 5 s per
channel, so each edit goes as soon as it is wanted; unless a test asks for a limit
(``@pytest.mark.bot_settings(table_edits_per_channel=5)``, as in ``tests/e2e/test_edit_pacing.py``)."""


sqlite_only = pytest.mark.backends("sqlite")
"""Mark a test (or a module: ``pytestmark = sqlite_only``) to run on SQLite only; the module docstring
says which tests may be."""


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Parametrise ``database_url`` over the backends the test's ``backends`` marker names (default: all)."""
    if "database_url" not in metafunc.fixturenames:
        return
    marker = metafunc.definition.get_closest_marker("backends")
    names = marker.args if marker else BACKENDS
    unknown = set(names) - set(BACKENDS)
    if unknown:
        raise ValueError(f"unknown backends {sorted(unknown)} on {metafunc.definition.nodeid}")
    metafunc.parametrize(
        "database_url",
        [
            pytest.param(name, id=name, marks=[pytest.mark.postgres] if name == "postgresql" else [])
            for name in names
        ],
        indirect=True,
    )


@pytest.fixture
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The bot's database for this test: ``sqlite:///<tmp>/data/bot.db`` or a ``postgresql://`` URL of an
    empty database of the test's own (the parameter, ``sqlite`` or ``postgresql``, is in the test's id)."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'data' / 'bot.db'}"
    return request.getfixturevalue("postgres_url")


@asynccontextmanager
async def restartable_world(database_url: str, **settings: Any):
    """A sandbox with one guild and its members, and two functions: one that (re)starts the bot on the
    database ``database_url`` (an async context manager), and one that makes the :class:`World` of a
    started bot."""
    async with SandboxServer(interaction_deadline=3.0) as server:
        guild = server.add_guild("Card Club")
        channel = guild.add_channel("cards")
        other_channel = guild.add_channel("lounge")
        players = {name: guild.add_member(name) for name in PLAYER_NAMES}
        outsider = guild.add_member("mallory")
        with tempfile.TemporaryDirectory(prefix="cardtable-e2e-") as data_dir:
            options = {"min_turn_seconds": 1, "ai_pause_seconds": 0, **MACHINE_SPEED, **settings}
            if not database_url.startswith("sqlite:"):  # the health report's folder (SQLite: the file's)
                options.setdefault("data_dir", Path(data_dir))

            def start_bot():
                return sandbox_bot(server, guild.id, database_url, **options)

            def world_with(bot: CardTableBot) -> World:
                return World(server, guild, channel, other_channel, players, outsider, bot, database_url)

            yield start_bot, world_with
        assert server.unhandled_routes == [], server.unhandled_routes


@pytest.fixture
async def world(database_url: str, request: pytest.FixtureRequest):
    """A running sandbox + bot on ``database_url``. Mark a test ``@pytest.mark.bot_settings(**overrides)``
    to change settings."""
    marker = request.node.get_closest_marker("bot_settings")
    settings = {"log_level": "INFO", **(marker.kwargs if marker else {})}
    async with restartable_world(database_url, **settings) as (start_bot, world_with):
        async with start_bot() as bot:
            yield world_with(bot)


# -- helpers shared by the end-to-end tests ---------------------------------------------------------

EMOJI = re.compile(r"<:([a-z0-9_]{2,32}):(\d+)>")
"""A custom emoji as Discord writes it in text: group 1 its name, 2 its id."""


async def card_emojis_synced(world: World) -> None:
    """Wait for the bot's start-up sync of the card emojis (the decks of its ``card_emoji_decks``) to end
    without a failure."""
    report = await world.bot.card_emoji_sync
    assert report.failure is None and report.uploaded, report


def card_emojis_shown(world: World, message: Any, deck: str) -> set[str]:
    """The card emojis of ``deck`` that ``message`` showed in its text over all its versions (``<:name:id>``),
    by name; each is the application emoji of that name and id the sandbox holds."""
    shown = set()
    for version in message.versions:
        for name, emoji_id in EMOJI.findall(json.dumps(version, ensure_ascii=False)):
            if name.startswith(f"{deck}_"):
                assert world.server.application_emojis[int(emoji_id)]["name"] == name
                shown.add(name)
    return shown


def logged_moves(world: World) -> int:
    """How many moves the database holds for the live tables."""
    ((count,),) = stored(world.database_url, "SELECT COUNT(*) FROM live_table_actions")
    return count


def bot_process_environment(tmp_path: Path, database_url: str, **settings: str) -> dict[str, str]:
    """The environment of a bot process (``python -m bot``, run in ``tmp_path``) on ``database_url``, with
    ``settings`` (environment variables such as ``DISCORD_TOKEN``); PostgreSQL's health report goes to
    ``tmp_path``."""
    env = {name.upper(): str(value) for name, value in MACHINE_SPEED.items()}
    env.update(bot_environment(tmp_path, **settings))
    env["DATABASE_URL"] = database_url
    if not database_url.startswith("sqlite:"):
        env["DATA_DIR"] = str(tmp_path)
    return env


async def start_bot_process(
    server: SandboxServer,
    env: dict[str, str],
    cwd: Path,
    commands: tuple[str, ...] = ("play", "hand", "leaderboard"),
) -> asyncio.subprocess.Process:
    """Start the bot as its own process (``python -m bot`` in ``cwd`` with ``env``: see
    :func:`bot_process_environment`) once ``server`` has no bot connected (one killed before is gone), and
    return it once it is connected and has synced ``commands``.

    Raises
    ------
    TimeoutError
        If the old bot is still connected after 10 s, or the new one is not ready within 30 s.
    """
    await server.wait_for(lambda: not server.bot_connected, timeout=10)
    process = await run_bot(env, cwd)
    await server.wait_for_bot(timeout=30)
    await server.wait_for_commands(list(commands), timeout=30)
    return process


def live_tables(world: World) -> dict:
    """The bot's live tables by table id (the registry of the tables cog), those restored at start and not
    replayed yet replayed now (as a press on them would)."""
    registry = world.bot.get_cog("Tables").registry
    return {table_id: registry.get(table_id) for table_id in [*registry.tables, *registry.waiting]}


def session_of(world: World):
    """The one live table of the world's bot."""
    (session,) = live_tables(world).values()
    return session


def discord_now():
    """Discord's clock (UTC, aware), as the bot reads it."""
    import discord

    return discord.utils.utcnow()


async def refused(world: World, result: Any, words: str) -> None:
    """The press was answered in time, ephemerally, to its presser only, with ``words`` in it."""
    assert result.ok, result
    assert result.ephemeral, result
    assert words.lower() in result.message.text().lower(), result.message.text()


async def answered_with(world: World, result: Any, words: str) -> None:
    """A deferred ephemeral answer whose later edit says ``words``."""
    assert result.ok and result.ephemeral, result
    await world.server.wait_for(
        lambda: result.message is not None and words in result.message.text(), timeout=5
    )


CARD_UP = re.compile(
    r"\*\*(?:<:fo_(?P<face>\d+)_[0-9a-f]{6}:\d+>|(?P<number>\d+))\*\* with (?P<tokens>\d+) tokens? on it"
)
"""Foist's card up on the table message: its emoji alone (``face``), or its number where it has none."""


def card_up_number(found: re.Match[str]) -> int:
    """The number of the card up a :data:`CARD_UP` match found."""
    return int(found["face"] or found["number"])


def action_labels(message: Any) -> list[str]:
    """Labels of the game-action buttons (custom_id verb ``a.<code>``) on a message."""
    return [
        button["label"]
        for button in message.buttons()
        if button["custom_id"].rsplit(":", 1)[1].startswith("a.")
    ]


async def play_to_the_end(world: World, table: Any, rng: random.Random, *, max_moves: int = 400) -> Any:
    """The player whose turn the table shows presses Take or No thanks until the scoreboard shows.

    Every press must be answered by updating the table message itself (response type 7).
    """
    for _ in range(max_moves):
        table = world.message(table.id)
        if "final scores" in reading.title(table):
            return table
        actor = world.turn_owner(table)
        assert actor is not None, table.text()
        card_up = CARD_UP.search(table.text())
        assert card_up is not None, table.text()
        assert [label.split(" ")[0] for label in action_labels(table)] == ["Take", "No"]  # always both
        wants = int(card_up["tokens"]) * 3 >= card_up_number(card_up) - 6 or rng.random() < 0.1
        result = await world.press(actor, table, "Take" if wants else "No thanks")
        if result.ephemeral:  # refused privately: no tokens left, so the player must take
            assert result.message.ephemeral_for == actor.id
            assert "no tokens left" in result.message.text(), result.message.text()
            result = await world.press(actor, table, "Take")
        assert result.ok and result.response_type == 7 and not result.ephemeral, result
    raise AssertionError("the game did not end")
