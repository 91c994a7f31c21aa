"""End-to-end tests of the sandbox with the real, unmodified discord.py client.

A small bot defined in this module (not the project's bot) connects the way the
project's bot does: it sets ``discord.http.Route.BASE``, logs in, asks
``GET /gateway/bot`` for the gateway URL in ``setup_hook``, sets
``DiscordWebSocket.DEFAULT_GATEWAY`` and syncs its commands globally and to the
test guild. Simulated users then drive it through the sandbox.
"""

from __future__ import annotations

import asyncio
import dataclasses
import io
import warnings
from typing import Any

import aiohttp
import pytest
import yarl

with warnings.catch_warnings():
    # discord.player imports audioop, deprecated since Python 3.11 (not our code).
    warnings.filterwarnings("ignore", "'audioop' is deprecated", DeprecationWarning)
    import discord
    from discord import app_commands
    from discord.ext import commands
    from discord.http import MultipartParameters

from sandbox import SandboxServer, SandboxUsageError, print_activity, render_message
from sandbox.models import Channel, Guild, SimUser

DEADLINE = 1.5  # interaction deadline used by these tests (Discord: 3 s)

# Every warning is an error, but for discord.py 2.7.0's float timeout to aiohttp's ws_connect, which newer
# aiohttp deprecates (discord.py 2.7.1 passes a ClientWSTimeout); pyproject.toml allows 2.7.0.
WARNINGS_AS_ERRORS = [
    pytest.mark.filterwarnings("error"),
    pytest.mark.filterwarnings("ignore:parameter 'timeout' of type 'float' is deprecated:DeprecationWarning"),
]
pytestmark = WARNINGS_AS_ERRORS


# =============================================================================================
# the test bot
# =============================================================================================


def _bot(interaction: discord.Interaction) -> "CardTestBot":
    return interaction.client  # type: ignore[return-value]


class JoinButton(discord.ui.DynamicItem[discord.ui.Button], template=r"join:(?P<gid>\d+)"):
    """Join a table: updates the table message in place (answer type 7)."""

    def __init__(self, gid: int) -> None:
        super().__init__(
            discord.ui.Button(label="Join", style=discord.ButtonStyle.primary, custom_id=f"join:{gid}", row=0)
        )
        self.gid = gid

    @classmethod
    async def from_custom_id(cls, interaction, item, match):  # noqa: D102
        return cls(int(match["gid"]))

    async def callback(self, interaction: discord.Interaction) -> None:  # noqa: D102
        players = _bot(interaction).players.setdefault(self.gid, [])
        players.append(interaction.user.name)
        await interaction.response.edit_message(content=f"Players: {', '.join(players)}")


class HandButton(discord.ui.DynamicItem[discord.ui.Button], template=r"hand:(?P<gid>\d+)"):
    """Show the presser's hand ephemerally (answer type 4 + flag 64) with a Discard button."""

    def __init__(self, gid: int) -> None:
        super().__init__(discord.ui.Button(label="My hand", custom_id=f"hand:{gid}", row=0))
        self.gid = gid

    @classmethod
    async def from_custom_id(cls, interaction, item, match):  # noqa: D102
        return cls(int(match["gid"]))

    async def callback(self, interaction: discord.Interaction) -> None:  # noqa: D102
        view = discord.ui.View(timeout=None)
        view.add_item(DiscardButton(self.gid))
        _bot(interaction).sent_views.append(view)
        await interaction.response.send_message(
            f"Hand of {interaction.user.name}: SECRET-CARDS-{interaction.user.name}",
            ephemeral=True,
            view=view,
        )


class DiscardButton(discord.ui.DynamicItem[discord.ui.Button], template=r"discard:(?P<gid>\d+)"):
    """Edit the ephemeral hand message through the interaction (type 7 on an ephemeral)."""

    def __init__(self, gid: int) -> None:
        super().__init__(
            discord.ui.Button(label="Discard", style=discord.ButtonStyle.danger, custom_id=f"discard:{gid}")
        )
        self.gid = gid

    @classmethod
    async def from_custom_id(cls, interaction, item, match):  # noqa: D102
        return cls(int(match["gid"]))

    async def callback(self, interaction: discord.Interaction) -> None:  # noqa: D102
        await interaction.response.edit_message(content="Hand discarded", view=None)


class SlowButton(discord.ui.DynamicItem[discord.ui.Button], template=r"slow:(?P<gid>\d+)"):
    """Defer the update (type 6), then edit the original message."""

    def __init__(self, gid: int) -> None:
        super().__init__(discord.ui.Button(label="Deal", custom_id=f"slow:{gid}", row=0))
        self.gid = gid

    @classmethod
    async def from_custom_id(cls, interaction, item, match):  # noqa: D102
        return cls(int(match["gid"]))

    async def callback(self, interaction: discord.Interaction) -> None:  # noqa: D102
        await interaction.response.defer()
        await asyncio.sleep(0.05)
        await interaction.edit_original_response(content="Cards dealt")


class ThinkButton(discord.ui.DynamicItem[discord.ui.Button], template=r"think:(?P<gid>\d+)"):
    """Defer with thinking (type 5); the first followup replaces "thinking...", a second is ephemeral."""

    def __init__(self, gid: int) -> None:
        super().__init__(discord.ui.Button(label="Think", custom_id=f"think:{gid}", row=0))
        self.gid = gid

    @classmethod
    async def from_custom_id(cls, interaction, item, match):  # noqa: D102
        return cls(int(match["gid"]))

    async def callback(self, interaction: discord.Interaction) -> None:  # noqa: D102
        await interaction.response.defer(thinking=True)
        await asyncio.sleep(0.05)
        await interaction.followup.send("Thought about it")
        await interaction.followup.send("Private thought", ephemeral=True)


class NoteModal(discord.ui.Modal, title="Table note"):
    """A modal with a classic text input and one inside a Label (type 18)."""

    note = discord.ui.TextInput(label="Your note", custom_id="note", max_length=50)
    why = discord.ui.Label(text="Why?", component=discord.ui.TextInput(custom_id="why", required=False))

    async def on_submit(self, interaction: discord.Interaction) -> None:  # noqa: D102
        why = self.why.component.value  # type: ignore[attr-defined]
        await interaction.response.send_message(f"Noted: {self.note.value} / {why or '-'}", ephemeral=True)


class NoteButton(discord.ui.DynamicItem[discord.ui.Button], template=r"note:(?P<gid>\d+)"):
    """Open a modal (type 9)."""

    def __init__(self, gid: int) -> None:
        super().__init__(discord.ui.Button(label="Note", custom_id=f"note:{gid}", row=0))
        self.gid = gid

    @classmethod
    async def from_custom_id(cls, interaction, item, match):  # noqa: D102
        return cls(int(match["gid"]))

    async def callback(self, interaction: discord.Interaction) -> None:  # noqa: D102
        await interaction.response.send_modal(NoteModal())


class PickSelect(discord.ui.DynamicItem[discord.ui.Select], template=r"pick:(?P<gid>\d+)"):
    """A string select; the choice updates the table message."""

    def __init__(self, gid: int) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=f"pick:{gid}",
                placeholder="Pick a card",
                row=1,
                options=[
                    discord.SelectOption(label="Ace of spades", value="AS"),
                    discord.SelectOption(label="Seven of hearts", value="7H"),
                ],
            )
        )
        self.gid = gid

    @classmethod
    async def from_custom_id(cls, interaction, item, match):  # noqa: D102
        return cls(int(match["gid"]))

    async def callback(self, interaction: discord.Interaction) -> None:  # noqa: D102
        await interaction.response.edit_message(content=f"Picked {self.item.values[0]}")


def table_view(gid: int) -> discord.ui.View:
    """The table message's components: 5 buttons, a select, a link and a disabled button."""
    view = discord.ui.View(timeout=None)
    for item in (
        JoinButton(gid),
        HandButton(gid),
        SlowButton(gid),
        ThinkButton(gid),
        NoteButton(gid),
        PickSelect(gid),
    ):
        view.add_item(item)
    view.add_item(discord.ui.Button(label="Rules", url="https://example.invalid/rules", row=2))
    view.add_item(discord.ui.Button(label="Closed", custom_id=f"closed:{gid}", disabled=True, row=2))
    return view


class CardTestBot(commands.Bot):
    """A minimal slash-command/button bot used to exercise the sandbox."""

    def __init__(self, guild_id: int) -> None:
        super().__init__(command_prefix="!", intents=discord.Intents.default(), guild_ready_timeout=0.1)
        self.guild_id = guild_id
        self.errors: list[BaseException] = []
        self.players: dict[int, list[str]] = {}
        self.next_game = 0
        self.last_announce: discord.Message | None = None
        self.release = asyncio.Event()
        self.twice_results: list[Any] = []
        self.sent_views: list[discord.ui.View] = []
        self.seen_messages: list[str] = []

    async def on_message(self, message: discord.Message) -> None:  # noqa: D102
        if not message.author.bot:
            where = "DM" if message.guild is None else message.channel.name  # type: ignore[union-attr]
            self.seen_messages.append(f"{where}:{message.author.name}:{message.content}")

    async def setup_hook(self) -> None:  # noqa: D102
        _shards, url, _limits = await self.http.get_bot_gateway()
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(url)
        self.add_dynamic_items(
            JoinButton, HandButton, DiscardButton, SlowButton, ThinkButton, NoteButton, PickSelect
        )
        register_commands(self)
        self.tree.on_error = self.on_tree_error  # type: ignore[method-assign]
        await self.tree.sync()
        await self.tree.sync(guild=discord.Object(self.guild_id))

    async def close(self) -> None:
        """Stop sent views first: discord.py gives ephemeral views a 15 minute timeout task."""
        for view in self.sent_views:
            view.stop()
        await super().close()

    async def on_tree_error(self, interaction: discord.Interaction, error: Exception) -> None:  # noqa: D102
        self.errors.append(getattr(error, "original", error))


def register_commands(bot: CardTestBot) -> None:
    """Add the test bot's slash commands to its tree."""
    tree = bot.tree

    @tree.command(description="Open a table")
    @app_commands.describe(game="Which game", turn_seconds="Seconds per turn")
    async def play(
        interaction: discord.Interaction, game: str, turn_seconds: app_commands.Range[int, 5, 120] = 30
    ):
        bot.next_game += 1
        embed = discord.Embed(title=f"{game} table", description=f"Turn time {turn_seconds}s")
        embed.add_field(name="Players", value="none yet")
        embed.set_footer(text="sandbox table")
        await interaction.response.send_message(embed=embed, view=table_view(bot.next_game))

    @tree.command(description="Show your cards")
    async def hand(interaction: discord.Interaction):
        await interaction.response.send_message(f"Your cards: SECRET-{interaction.user.name}", ephemeral=True)

    @tree.command(description="Think, then answer")
    async def think(interaction: discord.Interaction):
        await interaction.response.defer(thinking=True, ephemeral=True)
        await asyncio.sleep(0.05)
        await interaction.edit_original_response(content="Done thinking", embed=discord.Embed(title="Result"))

    @tree.command(description="Answer and follow up")
    async def remind(interaction: discord.Interaction):
        await interaction.response.send_message("Reminder set")
        await interaction.followup.send("Only you see this", ephemeral=True)
        public = await interaction.followup.send("Everyone sees this", wait=True)
        original = await interaction.original_response()
        await public.edit(content=f"Everyone sees this (answer {original.id})")

    @tree.command(description="Answer, then delete the answer")
    async def oops(interaction: discord.Interaction):
        await interaction.response.send_message("oops")
        await interaction.delete_original_response()

    @tree.command(description="Answer with a file")
    async def export(interaction: discord.Interaction):
        await interaction.response.send_message(
            "Your score sheet", file=discord.File(io.BytesIO(b"alice,10\n"), "scores.csv")
        )

    @tree.command(description="DM me")
    async def dm(interaction: discord.Interaction):
        try:
            await interaction.user.send(f"Psst {interaction.user.name}, DM-SECRET")
        except discord.Forbidden as exc:
            bot.errors.append(exc)
            await interaction.response.send_message("Your DMs are closed", ephemeral=True)
        else:
            await interaction.response.send_message("Sent you a DM", ephemeral=True)

    @tree.command(description="Post and edit a channel message")
    async def announce(interaction: discord.Interaction, text: str):
        await interaction.response.send_message("Announcing", ephemeral=True)
        assert interaction.channel is not None
        msg = await interaction.channel.send(text)  # type: ignore[union-attr]
        bot.last_announce = await msg.edit(content=f"{text} (edited)")

    @tree.command(description="Answer too late")
    async def late(interaction: discord.Interaction):
        await asyncio.sleep(DEADLINE + 0.3)
        try:
            await interaction.response.send_message("too late")
        except discord.NotFound as exc:
            bot.errors.append(exc)

    @tree.command(description="Answer twice at once")
    async def twice(interaction: discord.Interaction):
        bot.twice_results = await asyncio.gather(
            interaction.response.send_message("first"),
            interaction.response.send_message("second"),
            return_exceptions=True,
        )

    @tree.command(description="Try an answer that breaks a limit, then recover")
    @app_commands.choices(
        kind=[app_commands.Choice(name=n, value=n) for n in ("content", "title", "fields", "total")]
    )
    async def big(interaction: discord.Interaction, kind: str):
        if kind == "content":
            attempt: dict[str, Any] = {"content": "x" * 2001}
        elif kind == "title":
            attempt = {"embed": discord.Embed(title="t" * 257)}
        elif kind == "fields":
            embed = discord.Embed(title="many")
            for i in range(26):
                embed.add_field(name=f"f{i}", value="v")
            attempt = {"embed": embed}
        else:
            attempt = {
                "embeds": [discord.Embed(description="d" * 4000), discord.Embed(description="d" * 2001)]
            }
        try:
            await interaction.response.send_message(**attempt)
        except discord.HTTPException as exc:
            bot.errors.append(exc)
            await interaction.response.send_message(f"refused {exc.code}")

    game = app_commands.Group(name="game", description="Game management")

    @game.command(name="start", description="Start a game")
    async def game_start(interaction: discord.Interaction, mode: str, rounds: int = 1, fast: bool = False):
        await interaction.response.send_message(f"started {mode} rounds={rounds} fast={fast}")

    @game.command(name="stop", description="Stop a game")
    async def game_stop(interaction: discord.Interaction):
        await interaction.response.send_message("stopped")

    tree.add_command(game)

    @tree.command(description="Managers only")
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.guild_only()
    async def admin(interaction: discord.Interaction):
        await interaction.response.send_message("admin ok", ephemeral=True)

    async def card_complete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        cards = ["Ace", "Acorn", "King", "Queen"]
        return [app_commands.Choice(name=c, value=c) for c in cards if c.lower().startswith(current.lower())]

    @tree.command(description="Name a card")
    @app_commands.autocomplete(card=card_complete)
    async def name(interaction: discord.Interaction, card: str):
        await interaction.response.send_message(f"named {card}")

    @tree.command(description="Answer, wait, then follow up")
    async def hold(interaction: discord.Interaction):
        await interaction.response.send_message("holding")
        await bot.release.wait()
        try:
            await interaction.followup.send("released")
        except discord.HTTPException as exc:
            bot.errors.append(exc)

    @tree.command(description="Ping (works in DMs)")
    async def ping(interaction: discord.Interaction, who: discord.User | None = None):
        where = "DM" if interaction.guild is None else interaction.guild.name
        target = f" for {who.name}" if who is not None else ""
        await interaction.response.send_message(f"pong in {where}{target}")

    @tree.command(description="Guild-synced ping", guild=discord.Object(bot.guild_id))
    async def guildping(interaction: discord.Interaction):
        await interaction.response.send_message("guild pong")


# =============================================================================================
# fixtures
# =============================================================================================


@dataclasses.dataclass
class World:
    """A running sandbox with a connected test bot."""

    server: SandboxServer
    guild: Guild
    channel: Channel
    alice: SimUser
    bob: SimUser
    carol: SimUser
    manager: SimUser
    bot: CardTestBot
    task: "asyncio.Task[None]"


ALL_COMMANDS = [
    "play",
    "hand",
    "think",
    "remind",
    "oops",
    "export",
    "dm",
    "announce",
    "late",
    "twice",
    "big",
    "game",
    "admin",
    "name",
    "hold",
    "ping",
    "guildping",
]


async def start_bot(server: SandboxServer, guild: Guild) -> "tuple[CardTestBot, asyncio.Task[None]]":
    """Start a fresh test bot in this event loop and wait until it is ready."""
    bot = CardTestBot(guild.id)
    task = asyncio.create_task(bot.start(server.bot_token))
    await server.wait_for_bot(timeout=10)
    await server.wait_for_commands(ALL_COMMANDS, timeout=10)
    return bot, task


async def stop_bot(bot: commands.Bot, task: "asyncio.Task[None]") -> None:
    """Close the bot and wait for ``bot.start`` to return."""
    await bot.close()
    await asyncio.wait_for(task, timeout=5)


@pytest.fixture
def discord_globals(monkeypatch: pytest.MonkeyPatch):
    """Restore discord.py's class-level endpoints after the test."""
    monkeypatch.setattr(discord.http.Route, "BASE", discord.http.Route.BASE)
    monkeypatch.setattr(
        discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY", discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    )
    return monkeypatch


def _leftover_tasks() -> list[asyncio.Task[Any]]:
    current = asyncio.current_task()
    return [t for t in asyncio.all_tasks() if t is not current and not t.done()]


@pytest.fixture
async def world(discord_globals):
    """A sandbox with a guild, four users and a connected test bot; checks for leaks afterwards."""
    server = SandboxServer(interaction_deadline=DEADLINE)
    await server.start()
    guild = server.add_guild("Test Guild")
    channel = guild.add_channel("cards")
    alice = guild.add_member("alice")
    bob = guild.add_member("bob")
    carol = guild.add_member("carol", dms_open=False)
    manager = guild.add_member("manny", manage_guild=True)
    discord.http.Route.BASE = server.api_base
    bot, task = await start_bot(server, guild)
    try:
        yield World(server, guild, channel, alice, bob, carol, manager, bot, task)
    finally:
        bot.release.set()
        if not bot.is_closed():
            await stop_bot(bot, task)
        await server.stop()
        for _ in range(20):
            if not _leftover_tasks():
                break
            await asyncio.sleep(0.05)
        assert _leftover_tasks() == []


# =============================================================================================
# connecting, syncing, the REST basics
# =============================================================================================


async def test_bot_logs_in_connects_and_syncs_global_and_guild_commands(world: World) -> None:
    server, bot = world.server, world.bot
    assert server.identify_count == 1
    assert bot.user is not None and bot.user.id == server.bot_user.id
    assert bot.application_id == server.application_id
    global_names = set(server.command_names())
    assert {"play", "hand", "game", "admin"} <= global_names and "guildping" not in global_names
    assert server.command_names(world.guild) == ["guildping"]
    guild_cmd = next(c for c in server.commands if c["name"] == "guildping")
    assert guild_cmd["guild_id"] == str(world.guild.id)
    admin = next(c for c in server.commands if c["name"] == "admin")
    assert admin["default_member_permissions"] == str(1 << 5)
    # discord.py sees the guild, its channel and itself as a member
    await server.wait_for(lambda: bot.get_guild(world.guild.id) is not None)
    dguild = bot.get_guild(world.guild.id)
    assert dguild is not None and dguild.get_channel(world.channel.id) is not None
    assert dguild.me is not None
    # GET of the synced commands goes through the real client too
    fetched = await bot.tree.fetch_commands(guild=discord.Object(world.guild.id))
    assert [c.name for c in fetched] == ["guildping"]
    assert server.violations == [] and server.unhandled_routes == []


async def test_rest_answers_exact_json_content_type_auth_and_unknown_routes(world: World) -> None:
    server = world.server
    async with aiohttp.ClientSession() as session:
        async with session.get(
            f"{server.api_base}/users/@me", headers={"Authorization": "Bot wrong"}
        ) as resp:
            assert resp.status == 401
            assert resp.headers["Content-Type"] == "application/json"
        async with session.get(
            f"{server.api_base}/users/@me", headers={"Authorization": f"Bot {server.bot_token}"}
        ) as resp:
            assert resp.status == 200
            assert resp.headers["Content-Type"] == "application/json"
            assert (await resp.json())["id"] == str(server.bot_user.id)
        async with session.get(
            f"{server.api_base}/gateway/bot", headers={"Authorization": f"Bot {server.bot_token}"}
        ) as resp:
            body = await resp.json()
            assert body["url"] == server.gateway_url and body["shards"] == 1
        async with session.get(
            f"{server.api_base}/stickers/1", headers={"Authorization": f"Bot {server.bot_token}"}
        ) as resp:
            assert resp.status == 404
            assert await resp.json() == {"message": "404: Not Found", "code": 0}
    assert server.unhandled_routes == ["GET /stickers/1"]


async def test_wrong_token_fails_login(world: World) -> None:
    bot = commands.Bot(command_prefix="!", intents=discord.Intents.default())
    with pytest.raises(discord.LoginFailure):
        await bot.login("not-the-token")
    await bot.close()


# =============================================================================================
# answers of every type, in the right place with the right visibility
# =============================================================================================


async def test_command_answer_with_embed_and_buttons_is_public(world: World) -> None:
    server, alice, bob = world.server, world.alice, world.bob
    r = await server.run_command(alice, world.channel, "play", game="foist", turn_seconds=45)
    assert r.ok and not r.failed and r.response_type == 4 and not r.ephemeral
    msg = r.message
    assert msg is not None and msg.channel_id == world.channel.id and msg.author_id == server.bot_user.id
    assert r.embeds[0]["title"] == "foist table"
    assert "Turn time 45s" in msg.text() and "sandbox table" in msg.text() and "Players" in msg.text()
    assert [b["label"] for b in msg.buttons()] == [
        "Join",
        "My hand",
        "Deal",
        "Think",
        "Note",
        "Rules",
        "Closed",
    ]
    assert msg.button("Rules")["url"].startswith("https://") and "custom_id" not in msg.button("Rules")
    assert msg.button(custom_id="closed:1")["disabled"] is True
    assert msg in server.visible_messages(bob, world.channel)
    assert any("foist table" in t for t in server.seen_texts(bob))
    assert world.channel.messages == [msg]
    assert server.violations == []


async def test_button_updates_message_in_place(world: World) -> None:
    server = world.server
    table = (await server.run_command(world.alice, world.channel, "play", game="foist")).message
    assert table is not None
    r = await server.press(world.alice, table, "join:1")
    assert r.ok and r.response_type == 7 and r.message is table
    assert table.content == "Players: alice"
    r2 = await server.press(world.bob, table.id, "join:1")
    assert r2.message is table and table.content == "Players: alice, bob"
    assert [v["content"] for v in table.versions] == ["", "Players: alice", "Players: alice, bob"]
    assert len(table.buttons()) == 7, "components were kept by the edit"
    r3 = await server.select(world.bob, table, "pick:1", ["7H"])
    assert r3.response_type == 7 and table.content == "Picked 7H"
    assert server.violations == []


async def test_ephemeral_answer_is_visible_only_to_its_user(world: World) -> None:
    server, alice, bob = world.server, world.alice, world.bob
    table = (await server.run_command(alice, world.channel, "play", game="foist")).message
    r = await server.press(alice, table, "hand:1")
    assert r.ok and r.response_type == 4 and r.ephemeral
    secret = r.message
    assert secret is not None and secret.ephemeral_for == alice.id and secret.flags & 64
    assert secret in server.visible_messages(alice, world.channel)
    assert secret not in server.visible_messages(bob, world.channel)
    assert secret in world.channel.messages
    assert not any("SECRET-CARDS-alice" in t for t in server.seen_texts(bob))
    assert any("SECRET-CARDS-alice" in t for t in server.seen_texts(alice))
    with pytest.raises(SandboxUsageError, match="cannot see"):
        await server.press(bob, secret, "discard:1")
    # the owner can use the ephemeral's buttons; the edit goes through the interaction
    r2 = await server.press(alice, secret, "discard:1")
    assert (
        r2.response_type == 7
        and r2.ephemeral
        and secret.content == "Hand discarded"
        and secret.buttons() == []
    )
    # a slash command answered ephemerally
    r3 = await server.run_command(bob, world.channel, "hand")
    assert r3.ephemeral and r3.message is not None and r3.message.ephemeral_for == bob.id
    server.dismiss(bob, r3.message)
    assert r3.message not in server.visible_messages(bob)
    assert server.violations == []


async def test_deferred_update_then_edit_original(world: World) -> None:
    server = world.server
    table = (await server.run_command(world.alice, world.channel, "play", game="foist")).message
    r = await server.press(world.alice, table, "slow:1")
    assert r.ok and r.response_type == 6 and r.message is table
    msg = await r.wait_message(timeout=5)
    assert msg.content == "Cards dealt"
    assert server.violations == []


async def test_deferred_thinking_then_edit_and_followups(world: World) -> None:
    server, alice, bob = world.server, world.alice, world.bob
    r = await server.run_command(alice, world.channel, "think")
    assert r.ok and r.response_type == 5 and r.ephemeral
    assert r.message is not None
    msg = await r.wait_message(timeout=5)
    assert msg.content == "Done thinking" and msg.embeds[0]["title"] == "Result" and not msg.loading
    assert msg.ephemeral_for == alice.id
    # a deferred answer on a button completed by followups: the first one replaces "thinking..."
    table = (await server.run_command(alice, world.channel, "play", game="foist")).message
    r2 = await server.press(bob, table, "think:1")
    assert r2.response_type == 5 and not r2.ephemeral
    first = await r2.wait_followup(timeout=5)
    assert first is r2.message and first.content == "Thought about it" and not first.loading
    second = await r2.wait_followup(timeout=5)
    assert second.content == "Private thought" and second.ephemeral_for == bob.id
    assert second not in server.visible_messages(alice)
    assert server.violations == []


async def test_followups_public_and_ephemeral(world: World) -> None:
    server, alice, bob = world.server, world.alice, world.bob
    r = await server.run_command(alice, world.channel, "remind")
    assert r.content == "Reminder set" and not r.ephemeral
    private = await r.wait_followup()
    public = await r.wait_followup()
    assert private.content == "Only you see this" and private.ephemeral_for == alice.id
    assert public.ephemeral_for is None
    # the bot fetched @original and edited the followup by id through the interaction token
    expected = f"Everyone sees this (answer {r.message.id})"  # type: ignore[union-attr]
    await server.wait_for(lambda: public.content == expected)
    assert [m.content for m in server.visible_messages(bob, world.channel)] == ["Reminder set", expected]
    assert len(server.visible_messages(alice, world.channel)) == 3
    assert r.followups == [private, public]
    assert server.violations == []


async def test_original_deleted_and_file_answer(world: World) -> None:
    server = world.server
    r = await server.run_command(world.alice, world.channel, "oops")
    assert r.ok and r.message is not None
    await server.wait_for(lambda: r.message.deleted)  # type: ignore[union-attr]
    assert r.message not in server.visible_messages(world.alice)
    assert "oops" in server.seen_texts(world.bob)
    r2 = await server.run_command(world.alice, world.channel, "export")
    assert r2.content == "Your score sheet"
    assert [(a["filename"], a["size"]) for a in r2.message.attachments] == [("scores.csv", 9)]  # type: ignore[union-attr]
    assert "(file scores.csv, 9 bytes)" in render_message(r2.message)  # type: ignore[arg-type]
    assert server.violations == []


async def test_user_messages_reach_the_bot_without_content_intent(world: World) -> None:
    server, bot = world.server, world.bot
    server.post_message(world.alice, world.channel, "hello table")
    server.post_message(world.alice, world.channel, f"{server.bot_user.mention} hi bot")
    server.post_message(world.bob, None, "hello in DM")
    await server.wait_for(lambda: len(bot.seen_messages) == 3)
    # no message_content intent: guild content is empty unless the bot is mentioned; DMs keep it
    assert bot.seen_messages == [
        "cards:alice:",
        f"cards:alice:{server.bot_user.mention} hi bot",
        "DM:bob:hello in DM",
    ]
    with pytest.raises(SandboxUsageError, match="not a member"):
        server.post_message(server.add_user("stranger"), world.channel, "hi")


async def test_bot_with_members_intent_chunks_members(discord_globals) -> None:
    async with SandboxServer() as server:
        guild = server.add_guild("Big")
        guild.add_channel("general")
        guild.add_member("alice")
        guild.add_member("bob")
        discord.http.Route.BASE = server.api_base
        intents = discord.Intents.default()
        intents.members = True
        intents.message_content = True
        bot = commands.Bot(command_prefix="!", intents=intents, guild_ready_timeout=0.1)

        async def setup_hook() -> None:
            _shards, url, _limits = await bot.http.get_bot_gateway()
            discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(url)

        bot.setup_hook = setup_hook  # type: ignore[method-assign]
        task = asyncio.create_task(bot.start(server.bot_token))
        try:
            await server.wait_for(lambda: bot.is_ready(), timeout=10)
            dguild = bot.get_guild(guild.id)
            assert dguild is not None and dguild.chunked
            assert sorted(m.name for m in dguild.members) == ["CardBot", "alice", "bob"]
            carol = guild.add_member("carol")
            await server.wait_for(lambda: dguild.get_member(carol.id) is not None)
            found = await dguild.query_members(query="al")  # REQUEST_GUILD_MEMBERS (op 8)
            assert [m.name for m in found] == ["alice"]
            assert "<- op 8" in server.gateway_log
        finally:
            await stop_bot(bot, task)


async def test_modal_opened_from_a_button_and_submitted(world: World) -> None:
    server, alice = world.server, world.alice
    table = (await server.run_command(alice, world.channel, "play", game="foist")).message
    r = await server.press(alice, table, "note:1")
    assert r.ok and r.response_type == 9 and r.message is None and r.modal is not None
    assert r.modal.title == "Table note"
    assert r.modal.labels() == {"note": "Your note", "why": "Why?"}
    with pytest.raises(SandboxUsageError, match="shown to alice"):
        await server.submit_modal(world.bob, r.modal, {"note": "hi"})
    with pytest.raises(SandboxUsageError, match="at most 50"):
        await server.submit_modal(alice, r.modal, {"note": "x" * 51})
    r2 = await server.submit_modal(alice, r.modal, {"note": "remember trumps", "why": "fun"})
    assert r2.ok and r2.response_type == 4 and r2.ephemeral
    assert r2.content == "Noted: remember trumps / fun"
    with pytest.raises(SandboxUsageError, match="already submitted"):
        await server.submit_modal(alice, r.modal, {"note": "again"})
    assert server.violations == []


async def test_subcommands_typed_options_and_autocomplete(world: World) -> None:
    server, alice = world.server, world.alice
    r = await server.run_command(alice, world.channel, "game start", mode="duel", rounds=3, fast=True)
    assert r.content == "started duel rounds=3 fast=True"
    r = await server.run_command(alice, world.channel, "game stop")
    assert r.content == "stopped"
    r = await server.run_command(alice, world.channel, "ping", who=world.bob)
    assert r.content == "pong in Test Guild for bob"
    ac = await server.autocomplete(alice, world.channel, "name", "card", "ac")
    assert ac.response_type == 8 and [c["value"] for c in ac.choices or []] == ["Ace", "Acorn"]
    r = await server.run_command(alice, world.channel, "guildping")
    assert r.content == "guild pong"
    assert server.violations == []


async def test_slash_command_in_a_dm(world: World) -> None:
    server, alice = world.server, world.alice
    r = await server.run_command(alice, None, "ping")
    assert r.ok and r.content == "pong in DM"
    assert r.message is not None and r.message.is_dm and r.message.channel is alice.dm_channel
    assert server.dm_messages(alice) == [r.message]
    assert r.message not in server.visible_messages(world.bob)
    with pytest.raises(SandboxUsageError, match="only synced to guild 'Test Guild'"):
        await server.run_command(alice, None, "guildping")
    with pytest.raises(SandboxUsageError):
        await server.run_command(world.manager, None, "admin")


async def test_dm_send_open_and_closed(world: World) -> None:
    server, alice, carol = world.server, world.alice, world.carol
    r = await server.run_command(alice, world.channel, "dm")
    assert r.content == "Sent you a DM" and r.ephemeral
    dms = server.dm_messages(alice)
    assert [m.content for m in dms] == ["Psst alice, DM-SECRET"]
    assert dms[0].is_dm and dms[0].channel.recipient is alice
    assert not any("DM-SECRET" in t for t in server.seen_texts(world.bob))
    assert server.violations == []
    r2 = await server.run_command(carol, world.channel, "dm")
    assert r2.content == "Your DMs are closed"
    assert server.dm_messages(carol) == []
    forbidden = [e for e in world.bot.errors if isinstance(e, discord.Forbidden)]
    assert forbidden and forbidden[0].code == 50007
    assert server.violations == []  # trying is no breach: the bot cannot know beforehand
    assert server.refused_dms == [carol.id]
    # toggling the flag opens the DM again
    carol.dms_open = True
    await server.run_command(carol, world.channel, "dm")
    assert [m.content for m in server.dm_messages(carol)] == ["Psst carol, DM-SECRET"]


async def test_channel_message_send_edit_delete_and_transcript(world: World) -> None:
    server = world.server
    events: list[str] = []
    server.on_message_event = lambda kind, msg: events.append(f"{kind}:{msg.content}")
    out = io.StringIO()
    listener = print_activity(server, channels=[world.channel], file=out)
    r = await server.run_command(world.alice, world.channel, "announce", text="Game night")
    assert r.ephemeral
    await server.wait_for(lambda: world.bot.last_announce is not None)
    posted = [m for m in world.channel.messages if m.content.startswith("Game night")]
    assert len(posted) == 1
    msg = posted[0]
    assert [v["content"] for v in msg.versions] == ["Game night", "Game night (edited)"]
    assert msg in server.visible_messages(world.bob)
    assert world.bot.last_announce is not None
    await world.bot.last_announce.delete()
    assert msg.deleted and msg not in server.visible_messages(world.bob)
    assert "Game night (edited)" in server.seen_texts(world.bob)
    assert events == [
        "create:Announcing",
        "create:Game night",
        "edit:Game night (edited)",
        "delete:Game night (edited)",
    ]
    server.remove_message_listener(listener)
    log = out.getvalue()
    assert "+++ new message" in log and "~~~ edited message" in log and "--- deleted message" in log
    assert "ephemeral, only alice" in log
    assert server.violations == []


# =============================================================================================
# rules: deadline, one answer, token lifetime, limits, unknown things
# =============================================================================================


async def test_late_answer_fails_and_is_recorded(world: World) -> None:
    server = world.server
    r = await server.run_command(world.alice, world.channel, "late")
    assert r.failed and not r.ok and r.response_type is None and r.message is None
    assert "not answered within" in (r.failure_reason or "")
    await server.wait_for(lambda: server.violations, timeout=5)
    assert server.violations[0].startswith("[10062]") and "/late" in server.violations[0]
    await server.wait_for(lambda: world.bot.errors, timeout=5)
    assert isinstance(world.bot.errors[0], discord.NotFound) and world.bot.errors[0].code == 10062
    assert world.channel.messages == []


async def test_second_answer_is_refused_and_recorded(world: World) -> None:
    server = world.server
    r = await server.run_command(world.alice, world.channel, "twice")
    assert r.ok and r.content == "first"
    await server.wait_for(lambda: len(world.bot.twice_results) == 2)
    error = world.bot.twice_results[1]
    assert isinstance(error, discord.HTTPException) and error.status == 400 and error.code == 40060
    assert [m.content for m in world.channel.messages] == ["first"]
    assert len(server.violations) == 1 and server.violations[0].startswith("[40060]")


async def test_token_expires_after_its_lifetime(world: World) -> None:
    server = world.server
    r = await server.run_command(world.alice, world.channel, "hold")
    assert r.content == "holding"
    server.advance_clock(901)
    world.bot.release.set()
    await server.wait_for(lambda: world.bot.errors, timeout=5)
    assert isinstance(world.bot.errors[0], discord.HTTPException) and world.bot.errors[0].code == 50027
    assert r.followups == []
    assert server.violations[0].startswith("[50027]")


@pytest.mark.parametrize(
    "kind, where",
    [("content", "content"), ("title", "embeds.0.title"), ("fields", "embeds.0.fields"), ("total", "embeds")],
)
async def test_interaction_answer_over_a_limit_is_refused_then_bot_recovers(
    world: World, kind: str, where: str
) -> None:
    server = world.server
    r = await server.run_command(world.alice, world.channel, "big", kind=kind)
    assert r.ok and r.content == "refused 50035"
    error = world.bot.errors[0]
    assert isinstance(error, discord.HTTPException) and error.status == 400 and error.code == 50035
    assert len(server.violations) == 1
    assert server.violations[0].startswith("[50035]") and f"{where}:" in server.violations[0]


def _row(*components: dict[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": list(components)}


def _button(custom_id: str, label: str = "b", **extra: Any) -> dict[str, Any]:
    return {"type": 2, "style": 1, "label": label, "custom_id": custom_id, **extra}


def _select(custom_id: str, n_options: int = 2, **extra: Any) -> dict[str, Any]:
    options = [{"label": f"o{i}", "value": f"v{i}"} for i in range(n_options)]
    return {"type": 3, "custom_id": custom_id, "options": options, **extra}


BAD_PAYLOADS = {
    "11 embeds": ({"embeds": [{"title": "e"}] * 11}, "embeds"),
    "description 4097": ({"embeds": [{"description": "d" * 4097}]}, "embeds.0.description"),
    "field value 1025": (
        {"embeds": [{"fields": [{"name": "n", "value": "v" * 1025}]}]},
        "embeds.0.fields.0.value",
    ),
    "field name 257": (
        {"embeds": [{"fields": [{"name": "n" * 257, "value": "v"}]}]},
        "embeds.0.fields.0.name",
    ),
    "footer 2049": ({"embeds": [{"footer": {"text": "f" * 2049}}]}, "embeds.0.footer.text"),
    "author 257": ({"embeds": [{"author": {"name": "a" * 257}}]}, "embeds.0.author.name"),
    "6 rows": ({"components": [_row(_button(f"r{i}")) for i in range(6)]}, "components"),
    "6 buttons": ({"components": [_row(*[_button(f"b{i}") for i in range(6)])]}, "components.0.components"),
    "select not alone": ({"components": [_row(_select("s"), _button("b"))]}, "components.0.components"),
    "26 options": ({"components": [_row(_select("s", 26))]}, "components.0.components.0.options"),
    "option label 101": (
        {
            "components": [
                _row({"type": 3, "custom_id": "s", "options": [{"label": "l" * 101, "value": "v"}]})
            ]
        },
        "components.0.components.0.options.0.label",
    ),
    "placeholder 151": (
        {"components": [_row(_select("s", placeholder="p" * 151))]},
        "components.0.components.0.placeholder",
    ),
    "button label 81": ({"components": [_row(_button("b", "l" * 81))]}, "components.0.components.0.label"),
    "custom_id 101": ({"components": [_row(_button("c" * 101))]}, "components.0.components.0.custom_id"),
    "empty custom_id": ({"components": [_row(_button(""))]}, "components.0.components.0.custom_id"),
    "duplicate custom_id": (
        {"components": [_row(_button("same"), _button("same"))]},
        "components.0.components.1.custom_id",
    ),
    "link with custom_id": (
        {
            "components": [
                _row({"type": 2, "style": 5, "label": "l", "url": "https://x.invalid", "custom_id": "c"})
            ]
        },
        "components.0.components.0.custom_id",
    ),
    "link without url": (
        {"components": [_row({"type": 2, "style": 5, "label": "l"})]},
        "components.0.components.0.url",
    ),
    "empty message": ({"content": ""}, "(body)"),
}


@pytest.mark.parametrize("name", list(BAD_PAYLOADS))
async def test_channel_message_over_a_limit_is_refused(world: World, name: str) -> None:
    payload, where = BAD_PAYLOADS[name]
    with pytest.raises(discord.HTTPException) as info:
        await world.bot.http.send_message(world.channel.id, params=MultipartParameters(payload, None, None))
    assert info.value.status == 400 and info.value.code == 50035
    assert world.channel.messages == []
    assert len(world.server.violations) == 1 and f"{where}:" in world.server.violations[0]


async def test_limits_at_the_edge_are_accepted(world: World) -> None:
    payload = {
        "content": "c" * 2000,
        "components": [_row(*[_button(f"b{r}{i}", "l" * 80) for i in range(5)]) for r in range(4)]
        + [_row(_select("s", 25, placeholder="p" * 150))],
    }
    data = await world.bot.http.send_message(
        world.channel.id, params=MultipartParameters(payload, None, None)
    )
    assert len(data["content"]) == 2000
    embeds = [
        {"title": "t" * 256, "description": "d" * 4096},
        {"fields": [{"name": "n", "value": "v" * 1024}] * 1},
    ]
    await world.bot.http.send_message(
        world.channel.id, params=MultipartParameters({"embeds": embeds}, None, None)
    )
    # flag 64 on a plain channel message is ignored
    data = await world.bot.http.send_message(
        world.channel.id, params=MultipartParameters({"content": "x", "flags": 64}, None, None)
    )
    assert data["flags"] == 0 and world.channel.messages[-1].ephemeral_for is None
    assert world.server.violations == []


async def test_unknown_message_and_channel(world: World) -> None:
    server, bot = world.server, world.bot
    with pytest.raises(discord.NotFound) as info:
        await bot.http.get_message(world.channel.id, 12345)
    assert info.value.code == 10008
    with pytest.raises(discord.NotFound) as info:
        await bot.http.send_message(999, params=MultipartParameters({"content": "x"}, None, None))
    assert info.value.code == 10003
    # an ephemeral message cannot be reached through the channel API
    r = await server.run_command(world.alice, world.channel, "hand")
    assert r.message is not None
    with pytest.raises(discord.NotFound):
        await bot.http.edit_message(
            world.channel.id, r.message.id, params=MultipartParameters({"content": "x"}, None, None)
        )
    assert [v[:7] for v in server.violations] == ["[10008]", "[10003]", "[10008]"]
    assert "ephemeral" in server.violations[2]


async def test_raw_answers_wrong_type_early_token_and_foreign_edit(world: World) -> None:
    """Rules discord.py guards on its side, checked with raw HTTP calls."""
    server, bot = world.server, world.bot
    # a forged command the bot does not know: the test answers it by hand
    pending = asyncio.create_task(server.run_command(world.alice, world.channel, "ghost", forged=True))
    await server.wait_for(lambda: server.interactions)
    record = next(iter(server.interactions.values()))
    base = server.api_base
    async with aiohttp.ClientSession() as session:
        followup = f"{base}/webhooks/{server.application_id}/{record.token}"
        async with session.post(followup, json={"content": "early"}) as resp:
            assert resp.status == 404 and (await resp.json())["code"] == 10015
        callback = f"{base}/interactions/{record.id}/{record.token}/callback?with_response=1"
        async with session.post(callback, json={"type": 7, "data": {"content": "x"}}) as resp:
            assert resp.status == 400 and "type" in (await resp.json())["errors"]
        async with session.post(callback, json={"type": 4, "data": {"content": "by hand"}}) as resp:
            body = await resp.json()
            assert resp.status == 200 and body["resource"]["message"]["content"] == "by hand"
            assert resp.headers["Content-Type"] == "application/json"
    result = await pending
    assert result.ok and result.content == "by hand"
    assert [v[:7] for v in server.violations] == ["[10015]", "[50035]"]
    # the bot may not edit a user's message
    user_msg = server.post_message(world.alice, world.channel, "mine")
    with pytest.raises(discord.Forbidden) as info:
        await bot.http.edit_message(
            world.channel.id, user_msg.id, params=MultipartParameters({"content": "x"}, None, None)
        )
    assert info.value.code == 50005 and user_msg.content == "mine"


async def test_misuse_raises_clear_errors_and_forged_interactions_go_through(world: World) -> None:
    server, alice = world.server, world.alice
    with pytest.raises(SandboxUsageError, match="no command /nope"):
        await server.run_command(alice, world.channel, "nope")
    with pytest.raises(SandboxUsageError, match="no option 'colour'"):
        await server.run_command(alice, world.channel, "play", game="x", colour="red")
    with pytest.raises(SandboxUsageError, match="must be an int"):
        await server.run_command(alice, world.channel, "play", game="x", turn_seconds="30")
    with pytest.raises(SandboxUsageError, match="above max_value"):
        await server.run_command(alice, world.channel, "play", game="x", turn_seconds=500)
    with pytest.raises(SandboxUsageError, match="required options missing"):
        await server.run_command(alice, world.channel, "play")
    with pytest.raises(SandboxUsageError, match="needs a subcommand"):
        await server.run_command(alice, world.channel, "game")
    with pytest.raises(SandboxUsageError, match="not one of the choices"):
        await server.run_command(alice, world.channel, "big", kind="huge")
    with pytest.raises(SandboxUsageError, match="cannot see /admin"):
        await server.run_command(alice, world.channel, "admin")
    r = await server.run_command(world.manager, world.channel, "admin")
    assert r.content == "admin ok"
    table = (await server.run_command(alice, world.channel, "play", game="foist")).message
    with pytest.raises(SandboxUsageError, match="no button with custom_id 'join:99'"):
        await server.press(alice, table, "join:99")
    with pytest.raises(SandboxUsageError, match="disabled"):
        await server.press(alice, table, "closed:1")
    with pytest.raises(SandboxUsageError, match="not a button"):
        await server.press(alice, table, "pick:1")
    with pytest.raises(SandboxUsageError, match="not options"):
        await server.select(alice, table, "pick:1", ["KS"])
    assert server.violations == []


async def test_forged_press_is_delivered_and_discord_py_drops_it(world: World) -> None:
    """discord.py only runs a DynamicItem whose custom_id is on ``interaction.message``."""
    server = world.server
    table = (await server.run_command(world.alice, world.channel, "play", game="foist")).message
    r = await server.press(world.alice, table, "join:2", forged=True)
    assert r.failed and "not answered" in (r.failure_reason or "")
    assert server.interactions[r.interaction_id].data["custom_id"] == "join:2"
    assert 2 not in world.bot.players


async def test_injected_failures(world: World) -> None:
    server, bot = world.server, world.bot
    server.inject_failure("POST", r"/channels/\d+/messages$", status=403, code=50013)
    with pytest.raises(discord.Forbidden) as info:
        await bot.http.send_message(
            world.channel.id, params=MultipartParameters({"content": "x"}, None, None)
        )
    assert info.value.code == 50013
    # a rate limit is retried by discord.py itself
    server.inject_failure("POST", r"/channels/\d+/messages$", status=429, retry_after=0.05)
    data = await bot.http.send_message(
        world.channel.id, params=MultipartParameters({"content": "y"}, None, None)
    )
    assert data["content"] == "y"
    assert [s for _m, p, s in server.request_log if p.endswith("/messages")][-3:] == [403, 429, 200]


async def test_rate_limits_are_reported_not_enforced(world: World) -> None:
    channel = world.bot.get_channel(world.channel.id)
    assert isinstance(channel, discord.TextChannel)
    for i in range(7):
        await channel.send(f"spam {i}")
    assert len(world.channel.messages) == 7
    assert len(world.server.rate_limit_warnings) == 2
    assert world.server.rate_limit_warnings[0].startswith("messages sent to <Channel #cards")
    # history through discord.py: newest first, ephemerals and deleted messages excluded
    history = [m.content async for m in channel.history(limit=3)]
    assert history == ["spam 6", "spam 5", "spam 4"]
    member = await channel.guild.fetch_member(world.alice.id)
    assert member.name == "alice" and member.joined_at is not None


# =============================================================================================
# the world changing while connected; reconnects and restarts
# =============================================================================================


async def test_guild_and_channel_added_after_connect(world: World) -> None:
    server, bot = world.server, world.bot
    guild2 = server.add_guild("Second Guild")
    await server.wait_for(lambda: bot.get_guild(guild2.id) is not None)
    lobby = guild2.add_channel("lobby")
    await server.wait_for(lambda: bot.get_channel(lobby.id) is not None)
    dave = guild2.add_member("dave")
    guild2.add_member(world.alice)
    r = await server.run_command(dave, lobby, "ping")
    assert r.content == "pong in Second Guild"
    with pytest.raises(SandboxUsageError, match="no command /guildping"):
        await server.run_command(dave, lobby, "guildping")
    assert server.visible_messages(world.bob, lobby) == []
    assert r.message in server.visible_messages(world.alice, lobby)


async def test_gateway_drop_is_resumed_and_missed_events_are_replayed(world: World) -> None:
    server = world.server
    await server.drop_bot_connections(4000)
    assert not server.bot_connected
    # dispatched while the bot is disconnected: kept in the session's backlog, replayed on RESUME
    r = await server.run_command(world.alice, world.channel, "ping")
    assert r.ok and r.content == "pong in Test Guild"
    assert server.resume_count == 1 and server.identify_count == 1
    assert "<- op 6" in server.gateway_log
    await server.wait_for_bot()
    # RECONNECT (op 7): discord.py closes and resumes by itself
    server.send_reconnect()
    await server.wait_for(lambda: server.resume_count == 2, timeout=5)
    r = await server.run_command(world.alice, world.channel, "ping")
    assert r.ok and server.identify_count == 1
    assert server.violations == []


async def test_invalid_session_makes_discord_py_identify_again(world: World) -> None:
    server = world.server
    await server.drop_bot_connections(4000, resumable=False)
    # discord.py waits 5 s (Client.before_identify_hook) before a non-initial IDENTIFY
    await server.wait_for(lambda: server.identify_count == 2, timeout=10)
    await server.wait_for_bot()
    assert server.resume_count == 0
    r = await server.run_command(world.alice, world.channel, "ping")
    assert r.content == "pong in Test Guild"
    assert server.violations == []


async def test_gateway_protocol_with_a_raw_websocket(world: World) -> None:
    server = world.server
    async with aiohttp.ClientSession() as session:
        async with session.ws_connect(server.gateway_url + "?v=10&encoding=json") as ws:
            hello = await ws.receive_json(timeout=2)
            assert hello["op"] == 10 and hello["d"]["heartbeat_interval"] == 41250
            await ws.send_json({"op": 1, "d": None})
            assert (await ws.receive_json(timeout=2))["op"] == 11
            await ws.send_json({"op": 6, "d": {"token": server.bot_token, "session_id": "nope", "seq": 3}})
            assert await ws.receive_json(timeout=2) == {"op": 9, "d": False, "s": None, "t": None}
            await ws.send_json({"op": 8, "d": {"guild_id": str(world.guild.id)}})
            await ws.receive(timeout=2)
            assert ws.close_code == 4003
        async with session.ws_connect(server.gateway_url) as ws:
            await ws.receive_json(timeout=2)
            await ws.send_json({"op": 2, "d": {"token": "wrong", "intents": 513, "properties": {}}})
            await ws.receive(timeout=2)
            assert ws.close_code == 4004
    assert server.violations == ["[4004] gateway IDENTIFY with a wrong token (closed with 4004)"]


async def test_bot_restart_connects_again_to_the_same_server(world: World) -> None:
    server = world.server
    table = (await server.run_command(world.alice, world.channel, "play", game="foist")).message
    await stop_bot(world.bot, world.task)
    await server.wait_for(lambda: not server.bot_connected)
    # the old session stays resumable (as on Discord), so the interaction waits for its deadline
    r = await server.run_command(world.alice, world.channel, "ping")
    assert r.failed and "no bot gateway connection was open" in (r.failure_reason or "")
    for restart in range(1, 4):
        bot, task = await start_bot(server, world.guild)
        try:
            assert server.identify_count == 1 + restart
            # the dynamic items of each new process handle buttons of messages sent before
            r2 = await server.press(world.bob, table, "join:1")
            assert r2.ok and table.content == "Players: bob"
            r3 = await server.run_command(world.alice, world.channel, "ping")
            assert r3.content == "pong in Test Guild"
        finally:
            await stop_bot(bot, task)
    assert server.command_names(world.guild) == ["guildping"], "commands survive restarts, as on Discord"
    assert server.violations == []


# =============================================================================================
# rendering
# =============================================================================================


async def test_render_message(world: World) -> None:
    server = world.server
    table = (await server.run_command(world.alice, world.channel, "play", game="foist")).message
    text = render_message(table)
    assert text.splitlines()[0] == "#cards  CardBot"
    assert "== foist table ==" in text and "* Players: none yet" in text and "-- sandbox table" in text
    assert "[Join] [My hand] [Deal] [Think] [Note]" in text
    assert "<select: Pick a card | Ace of spades, Seven of hearts>" in text
    assert "[Rules ->] [Closed (disabled)]" in text
    secret = (await server.run_command(world.alice, world.channel, "hand")).message
    assert "(ephemeral, only alice)" in render_message(secret)
    await server.run_command(world.alice, world.channel, "dm")
    dm_text = render_message(server.dm_messages(world.alice)[0])
    assert dm_text.startswith("DM with alice  CardBot  (DM)")
