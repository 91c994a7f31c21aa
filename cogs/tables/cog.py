"""Tables in channels: ``/play``, ``/hand`` and every table button, between Discord and the sessions.

One table per channel. Each press is answered once, within Discord's 3 seconds: the table message is
updated through the press's own interaction response where the press was on it, and everything a
player may not do gets an ephemeral answer that changes nothing. Turn clocks, the idle lobby and the
"Play again" window are APScheduler jobs; DMs and plain edits of the table message go out in supervised
background tasks, outside the table's lock, so neither a game nor a press ever waits on them.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from cogs.tables import custom_ids as ids
from cogs.tables import render
from cogs.tables.components import COG_NAME
from cogs.tables.session import Phase, TableError, TableSession, TableSettings
from engine import GAMES, Event, IllegalAction, get_rules
from engine.lobby import RematchChoice
from storage import GameResult, SeatResult, StoredAction

if TYPE_CHECKING:
    from bot.bot import CardTableBot

log = logging.getLogger(__name__)

PRIVATE_VIEW_LIVE_SECONDS = 14 * 60  # Discord allows edits of an interaction's message for 15 minutes
LOCK_WAIT_SECONDS = 2.0
EDIT_ATTEMPTS = 3
EDIT_RETRY_SECONDS = 1.0  # a press waits at most this long for the table, so it is still answered in time
REMEMBER_GONE_TABLES = 5000

GAME_CHOICES = [app_commands.Choice(name=rules.display_name, value=key) for key, rules in GAMES.items()]


def _now() -> datetime:
    return discord.utils.utcnow()


class TablesCog(commands.Cog, name=COG_NAME):
    """Hosts the tables of every channel the bot is in."""

    def __init__(self, bot: "CardTableBot") -> None:
        self.bot = bot
        self.settings = bot.settings
        self.tables: dict[str, TableSession] = {}
        self.channel_tables: dict[int, str] = {}
        self.gone: OrderedDict[str, str] = OrderedDict()
        self._tasks: set[asyncio.Task] = set()
        self._refreshers: dict[str, _TableMessageRefresher] = {}
        self._private_views: dict[tuple[str, int], _LivePrivateView] = {}
        self._turn_jobs: dict[str, str] = {}

    async def cog_load(self) -> None:
        """Bring back every table stored when the bot stopped (or crashed): replay each game from its log,
        re-arm its clocks (a deadline that passed meanwhile is applied at once) and, once connected, redraw
        its message so it shows the current state with working buttons."""
        restored = []
        for stored in await self.bot.db.load_tables():
            try:
                session = TableSession.restore(
                    stored.snapshot, [(a.seat, a.code, a.timed_out) for a in stored.actions]
                )
            except Exception:
                log.exception("Could not restore table %s: it stays stored but closed", stored.table_id)
                self.gone[stored.table_id] = "This table could not be restored after a restart."
                continue
            self._register(session)
            if session.phase is Phase.SCOREBOARD:
                del self.channel_tables[session.channel_id]
            restored.append(session)
            self._rearm(session)
        if restored:
            log.info("Restored %d tables", len(restored))
            self._spawn(self._redraw_when_ready(restored), "redraw of restored tables")

    def _rearm(self, session: TableSession) -> None:
        if session.phase is Phase.LOBBY:
            self._arm_lobby_clock(session)
        elif session.phase is Phase.PLAYING and session.deadline is not None:
            self._arm_turn_clock(session)
        elif session.phase is Phase.SCOREBOARD:
            finished = session.finished_at or _now()
            when = max(_now(), finished + timedelta(seconds=self.settings.rematch_seconds))
            self._arm(f"rematch:{session.table_id}", when, self._rematch_ran_out, session.table_id)

    async def _redraw_when_ready(self, sessions: list[TableSession]) -> None:
        await self.bot.wait_until_ready()
        for session in sessions:
            if self.tables.get(session.table_id) is session:
                self._refresh_table_message(session)

    async def cog_unload(self) -> None:
        for session in list(self.tables.values()):
            self._disarm_all(session)
        for task in list(self._tasks):
            task.cancel()

    # -- slash commands --------------------------------------------------------------------------

    @app_commands.command(name="play")
    @app_commands.describe(game="The game to play", turn_seconds="Seconds each player has per decision")
    @app_commands.choices(game=GAME_CHOICES)
    async def play(
        self,
        interaction: discord.Interaction,
        game: str,
        turn_seconds: app_commands.Range[int, 1, 86400] | None = None,
    ) -> None:
        """Open a table for a card game in this channel."""
        if interaction.guild_id is None or interaction.channel_id is None:
            await interaction.response.send_message(
                "Tables are played in server channels: use `/play` in a channel of a server.", ephemeral=True
            )
            return
        if game not in GAMES:
            await interaction.response.send_message("I don't know that game.", ephemeral=True)
            return
        missing = _missing_permissions(interaction.app_permissions)
        if missing:
            await interaction.response.send_message(
                f"I can't run a table in this channel: I am missing the **{', '.join(missing)}** "
                "permission here. A server admin can grant it in the channel's settings (Permissions).",
                ephemeral=True,
            )
            return
        if turn_seconds is None:
            turn_seconds = await self.bot.db.guild_turn_seconds(interaction.guild_id)
        seconds = self.settings.default_turn_seconds if turn_seconds is None else turn_seconds
        refusal = self._turn_length_refusal(seconds)
        if refusal is not None:
            await interaction.response.send_message(refusal, ephemeral=True)
            return
        existing = self._channel_table(interaction.channel_id)
        if existing is not None:
            await interaction.response.send_message(
                f"There is already a {existing.rules.display_name} table in this channel: "
                f"{self._jump_url(existing)}",
                ephemeral=True,
            )
            return
        session = TableSession(
            self._new_table_id(),
            interaction.guild_id,
            interaction.channel_id,
            get_rules(game),
            self._table_settings(seconds),
            interaction.user.id,
            interaction.user.display_name,
        )
        embed, view = render.lobby_message(session)
        self._register(session)
        try:
            await self._persist(session)
        except TableError:
            self._forget(session, "This table could not be opened.")
            await interaction.response.send_message(
                "I could not save a new table just now, so none was opened. Please try again.", ephemeral=True
            )
            return
        try:
            sent = await interaction.response.send_message(embed=embed, view=view)
        except BaseException:
            self._forget(session, "This table could not be opened.")
            await self._delete_stored(session)
            raise
        await self._note_posted(session, sent.message_id)
        self._arm_lobby_clock(session)

    admin = app_commands.Group(
        name="table",
        description="Admin tools for the card tables of this server",
        guild_only=True,
        default_permissions=discord.Permissions(manage_guild=True),
    )

    @admin.command(name="end")
    async def end_table(self, interaction: discord.Interaction) -> None:
        """End the table in this channel (a stuck game is closed without a result)."""
        if not await _check_manager(interaction):
            return
        session = self._channel_table(interaction.channel_id or 0)
        if session is None:
            await interaction.response.send_message("There is no table in this channel.", ephemeral=True)
            return
        async with session.lock:
            if self.tables.get(session.table_id) is not session:
                await interaction.response.send_message("That table has just closed.", ephemeral=True)
                return
            await self._close(
                session,
                f"An admin ({interaction.user.display_name}) ended this table; no result was recorded.",
                None,
            )
        await interaction.response.send_message(
            f"The {session.rules.display_name} table is closed.", ephemeral=True
        )

    @admin.command(name="defaults")
    @app_commands.describe(turn_seconds="Seconds per decision when /play does not say (leave empty to reset)")
    async def set_defaults(
        self, interaction: discord.Interaction, turn_seconds: app_commands.Range[int, 1, 86400] | None = None
    ) -> None:
        """Set this server's default turn length for new tables."""
        if not await _check_manager(interaction):
            return
        refusal = None if turn_seconds is None else self._turn_length_refusal(turn_seconds)
        if refusal is not None:
            await interaction.response.send_message(refusal, ephemeral=True)
            return
        assert interaction.guild_id is not None
        await self.bot.db.set_guild_turn_seconds(interaction.guild_id, turn_seconds)
        now = turn_seconds or self.settings.default_turn_seconds
        await interaction.response.send_message(
            f"New tables in this server now give {now} seconds per decision.", ephemeral=True
        )

    @app_commands.command(name="hand")
    @app_commands.describe(dm="Also send it by DM, now and whenever it becomes your turn")
    async def hand(self, interaction: discord.Interaction, dm: bool = False) -> None:
        """Show your hand at the table in this channel (only you can see it)."""
        session = self._table_of_player(interaction)
        if session is None:
            await interaction.response.send_message(
                "You are not playing at a table here. Join one with its **Join** button, or open one "
                "with `/play`.",
                ephemeral=True,
            )
            return
        try:
            if dm:
                await self._dm_hand(interaction, session)
            else:
                await self._show_hand(interaction, session)
        except TableError as refusal:
            await _reply(interaction, str(refusal))

    # -- buttons ---------------------------------------------------------------------------------

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Answer component presses that no :class:`TableButton` will receive.

        discord.py hands a press to a DynamicItem only if its custom_id is among the message's components,
        so a forged custom_id (or one from another bot version) would go unanswered without this.
        """
        if interaction.type is not discord.InteractionType.component:
            return
        custom_id = str((interaction.data or {}).get("custom_id", ""))
        if ids.is_table_custom_id(custom_id) and _is_on_message(interaction.message, custom_id):
            return  # the TableButton on that message handles it
        target = ids.TableCustomId.parse(custom_id)
        if target is not None:
            await self.on_table_button(interaction, target)
        elif not interaction.response.is_done():
            await interaction.response.send_message(
                "That button is not one of mine: nothing happened.", ephemeral=True
            )

    @commands.Cog.listener()
    async def on_raw_message_delete(self, payload: discord.RawMessageDeleteEvent) -> None:
        """Someone deleted a table message: post the table again at once, so the game goes on."""
        table_id = self.channel_tables.get(payload.channel_id)
        session = self.tables.get(table_id) if table_id else None
        if session is None or session.message_id != payload.message_id:
            return
        log.info("The table message of %s was deleted: posting it again", session.table_id)
        session.message_id = None
        self._refresh_table_message(session)

    async def on_option_select(
        self, interaction: discord.Interaction, table_id: str, field: str, values: list[str]
    ) -> None:
        """The host chose option values in the lobby: check them, store them, show the new lobby."""
        session = self.tables.get(table_id)
        if session is None:
            await _reply(interaction, self.gone.get(table_id, "This table no longer exists."))
            return
        try:
            async with _locked(session):
                if field == ids.RULES_MENU:
                    switches = [c for c in render.option_choices(session) if c.kind == "bool"]
                    if not set(values) <= {choice.name for choice in switches}:
                        raise TableError("That option is not one of this game's.")
                    for choice in switches:
                        session.set_option(interaction.user.id, choice.name, choice.name in values)
                else:
                    try:
                        value = render.option_value(session, field, values[0] if values else "")
                    except KeyError:
                        raise TableError("That value is not allowed for this option.") from None
                    session.set_option(interaction.user.id, field, value)
                await self._persist(session)
                await self._answer_with_table(interaction, session, "Option set.")
        except TableError as refusal:
            await _reply(interaction, str(refusal))

    async def on_table_button(self, interaction: discord.Interaction, target: ids.TableCustomId) -> None:
        """Handle a press on any table button: check it, apply it, answer it."""
        session = self.tables.get(target.table_id)
        if session is None:
            reason = self.gone.get(target.table_id, "This table no longer exists.")
            await _reply(interaction, reason)
            return
        try:
            if target.verb == ids.DM:
                await self._dm_hand(interaction, session)  # DM I/O may be slow: never under the lock
            else:
                async with _locked(session):
                    await self._handle_press(interaction, session, target)
        except (TableError, IllegalAction) as refusal:
            await _reply(interaction, str(refusal))
        except discord.HTTPException:
            log.exception("Discord refused an answer for table %s", session.table_id)
        except Exception:
            log.exception("Bug while handling %s on table %s", target, session.table_id)
            await _reply(interaction, "Something went wrong on my side. Please try again.")

    async def _handle_press(
        self, interaction: discord.Interaction, session: TableSession, target: ids.TableCustomId
    ) -> None:
        user = interaction.user
        if target.action is not None:
            await self._play_action(interaction, session, target)
        elif target.verb == ids.JOIN:
            session.join(user.id, user.display_name)
            await self._persist(session)
            self._arm_lobby_clock(session)
            await self._answer_with_table(interaction, session, "You joined the table.")
        elif target.verb == ids.LEAVE:
            session.leave(user.id)
            if session.phase is Phase.CLOSED:
                await self._close(session, "Everyone left, so the table closed.", interaction)
            else:
                await self._persist(session)
                self._arm_lobby_clock(session)
                await self._answer_with_table(interaction, session, "You left the table.")
        elif target.verb == ids.CANCEL:
            session.cancel(user.id)
            await self._close(session, "The host cancelled the table.", interaction)
        elif target.verb == ids.START:
            session.start(user.id, secrets.randbits(63), _now())
            await self._persist(session)
            self._disarm(f"lobby:{session.table_id}")
            self._after_move(session, before=set())
            await self._answer_with_table(interaction, session, "The game has started.")
        elif target.verb == ids.HAND:
            await self._show_hand(interaction, session)
        elif target.verb in (ids.AGAIN, ids.QUIT):
            choice = RematchChoice.PLAY_AGAIN if target.verb == ids.AGAIN else RematchChoice.LEAVE
            session.choose_rematch(user.id, choice)
            await self._persist(session)
            assert session.rematch is not None
            if session.rematch.everyone_chose:
                await self._end_rematch(session, interaction)
            else:
                await self._answer_with_table(interaction, session, "Noted.")
        else:
            raise TableError("That button is not one I know: nothing happened.")

    async def _play_action(
        self, interaction: discord.Interaction, session: TableSession, target: ids.TableCustomId
    ) -> None:
        assert target.action is not None
        before = set(session.users_with_actions())
        session.act(interaction.user.id, target.version, target.action, _now())
        await self._persist(session)  # stored before anyone sees it (a failed save undoes the move)
        # The move stands whatever happens to the answer below: clocks and DMs first.
        self._after_move(session, before)
        if _is_table_message(interaction, session) or session.phase is not Phase.PLAYING:
            await self._answer_with_table(interaction, session, "Done: the game is over.")
        else:
            # Pressed in a private view (ephemeral or DM): refresh that view, then the public table.
            user_id = interaction.user.id
            embed, view = self._private_message(session, user_id, offer_dm=interaction.guild_id is not None)
            try:
                await interaction.response.edit_message(
                    embed=embed, view=view, attachments=render.table_files(session, user_id)
                )
            except discord.HTTPException as error:
                log.warning("Could not refresh a private view of table %s: %s", session.table_id, error)
            else:
                self._track_private_view(session, interaction)
            self._refresh_table_message(session)

    # -- showing the table -----------------------------------------------------------------------

    async def _answer_with_table(
        self,
        interaction: discord.Interaction | None,
        session: TableSession,
        note: str,
        *,
        final_embed: discord.Embed | None = None,
    ) -> None:
        """Show the new table: through the press's own answer if it was on the table message, else by an
        ephemeral ``note`` to the presser (if any) and an edit of the table message.

        ``final_embed`` replaces the table message for good, without buttons (a closed table).
        """
        try:
            if interaction is not None and _is_table_message(interaction, session):
                embed, view = (
                    (final_embed, None) if final_embed is not None else render.current_message(session)
                )
                files = [] if final_embed is not None else render.table_files(session)
                await interaction.response.edit_message(embed=embed, view=view, attachments=files)
                self._refresh_if_editing(session, final_embed)
                return
            if interaction is not None:
                await interaction.response.send_message(note, ephemeral=True)
        except discord.HTTPException as error:
            # The change stands; show it through a plain edit (the player may see "This interaction failed").
            log.warning("Could not answer a press on table %s: %s", session.table_id, error)
        self._refresh_table_message(session, final_embed)

    def _refresh_table_message(self, session: TableSession, final_embed: discord.Embed | None = None) -> None:
        """Bring the table message up to date in the background (see :class:`_TableMessageRefresher`).

        ``final_embed`` replaces the message for good, without buttons (a closed table).
        """
        refresher = self._refreshers.get(session.table_id)
        if refresher is None:
            refresher = self._refreshers[session.table_id] = _TableMessageRefresher(self, session)
        refresher.request(final_embed)

    def _refresh_if_editing(self, session: TableSession, final_embed: discord.Embed | None) -> None:
        """After answering a press with the new table: a plain edit still in flight would land after the
        answer with an older state, so follow it with one more."""
        refresher = self._refreshers.get(session.table_id)
        if refresher is not None and refresher.editing:
            refresher.request(final_embed)

    async def _edit_table_message(self, session: TableSession, final: discord.Embed | None = None) -> None:
        """Bring the table message up to date with a plain edit.

        A deleted message is posted again; an edit Discord keeps refusing (5xx, rate limits beyond
        discord.py's own retries) is tried three times, then the table is posted again; a message older
        than ``table_message_max_age_seconds`` moves to a fresh message (Discord throttles edits of
        messages older than an hour) and the old one loses its buttons; a missing permission is told to the
        host once, in plain words. None of this touches the game.
        """
        channel = self.bot.get_partial_messageable(session.channel_id, guild_id=session.guild_id)
        age = (
            None
            if session.message_posted_at is None
            else (_now() - session.message_posted_at).total_seconds()
        )
        if (
            final is None
            and session.message_id is not None
            and age is not None
            and age > self.settings.table_message_max_age_seconds
            and session.phase is not Phase.CLOSED
        ):
            await self._move_table_message(session, channel)
            return
        for attempt in range(EDIT_ATTEMPTS):
            if final is None:
                embed, view = render.current_message(session)
                files = render.table_files(session)
            else:
                embed, view, files = final, None, []
            try:
                if session.message_id is None:
                    await self._post_table_message(session, channel, embed, view, files)
                else:
                    await channel.get_partial_message(session.message_id).edit(
                        embed=embed, view=view, attachments=files
                    )
                return
            except discord.NotFound:
                log.info("The table message of %s was deleted: posting it again", session.table_id)
                session.message_id = None
            except discord.Forbidden as error:
                await self._tell_host_about_permissions(session, error)
                return
            except discord.HTTPException as error:
                log.warning("Editing the table message of %s failed (%s); retrying", session.table_id, error)
                await asyncio.sleep(EDIT_RETRY_SECONDS * (attempt + 1))
        if session.message_id is not None and final is None:
            log.warning("Giving up editing the table message of %s: posting it again", session.table_id)
            await self._move_table_message(session, channel)

    async def _post_table_message(
        self,
        session: TableSession,
        channel: discord.PartialMessageable,
        embed: discord.Embed,
        view: discord.ui.View | None,
        files: list[discord.File],
    ) -> None:
        message = await channel.send(embed=embed, view=view, files=files)
        session.message_id = message.id
        session.message_posted_at = _now()
        if session.phase is not Phase.CLOSED:
            self._spawn(self._save_quietly(session), f"message id of table {session.table_id}")

    async def _move_table_message(self, session: TableSession, channel: discord.PartialMessageable) -> None:
        """Post the table as a new message and leave the old one as a pointer without buttons."""
        old_id = session.message_id
        embed, view = render.current_message(session)
        try:
            await self._post_table_message(session, channel, embed, view, render.table_files(session))
        except discord.Forbidden as error:
            await self._tell_host_about_permissions(session, error)
            return
        except discord.HTTPException:
            log.warning("Could not move the table message of %s", session.table_id, exc_info=True)
            return
        if old_id is not None:
            moved = discord.Embed(
                title=f"{session.rules.display_name}: the table moved",
                description=f"The game goes on in a fresh message: {self._jump_url(session)}",
                colour=render.CLOSED_COLOUR,
            )
            with contextlib.suppress(discord.HTTPException):
                await channel.get_partial_message(old_id).edit(embed=moved, view=None, attachments=[])

    async def _tell_host_about_permissions(self, session: TableSession, error: discord.Forbidden) -> None:
        """Tell the host once, by DM, that the bot lacks a permission in the table's channel."""
        log.warning(
            "Missing permission in channel %s for table %s: %s", session.channel_id, session.table_id, error
        )
        if session.permission_warned:
            return
        session.permission_warned = True
        await self._send_dm(
            session.host_id,
            content=(
                f"I can't update your {session.rules.display_name} table in <#{session.channel_id}>: "
                f"Discord says I am missing a permission there ({error.text or 'Missing Permissions'}). "
                f"I need {', '.join(REQUIRED_PERMISSIONS.values())} in that channel; a server "
                "admin can grant them in the channel's settings. The game itself is safe and goes on."
            ),
        )

    async def _show_hand(self, interaction: discord.Interaction, session: TableSession) -> None:
        user_id = interaction.user.id
        self._check_private_view(session, user_id)
        embed, view = self._private_message(session, user_id, offer_dm=True)
        await interaction.response.send_message(
            embed=embed, view=view, files=render.table_files(session, user_id), ephemeral=True
        )
        self._track_private_view(session, interaction)

    def _private_message(
        self, session: TableSession, user_id: int, *, offer_dm: bool = False
    ) -> tuple[discord.Embed, discord.ui.View]:
        """A player's private view, with the link back to the table message."""
        return render.private_message(session, user_id, jump_url=self._jump_url(session), offer_dm=offer_dm)

    def _check_private_view(self, session: TableSession, user_id: int) -> None:
        if session.phase is Phase.LOBBY:
            if user_id not in session.lobby.players:
                raise TableError("Join the table first.")
            raise TableError("The game has not started yet: your hand comes when it starts.")
        if session.seat_of(user_id) is None:
            raise TableError("You are not playing at this table.")
        if session.phase is not Phase.PLAYING:
            raise TableError("This game is over: see the final scores on the table message.")

    def _track_private_view(self, session: TableSession, interaction: discord.Interaction) -> None:
        """Remember the ephemeral message that now shows this player's private view, to keep it live.

        Only ephemeral views in the server count (a DM is a new message each turn). Discord lets the bot
        edit an interaction's message for 15 minutes; after that the view is no longer kept up to date.
        """
        if interaction.guild_id is None:
            return
        key = (session.table_id, interaction.user.id)
        live = self._private_views.get(key)
        if live is None:
            live = self._private_views[key] = _LivePrivateView(self, session, interaction.user.id)
        live.interaction = interaction
        live.shown_at = asyncio.get_running_loop().time()
        live.shown = live.signature()

    def _refresh_private_views(self, session: TableSession) -> None:
        """After a move: edit every live private view of this table whose content changed (hands, actions
        offered out of turn), in the background, coalesced per player."""
        now = asyncio.get_running_loop().time()
        for key, live in list(self._private_views.items()):
            if key[0] != session.table_id:
                continue
            if now - live.shown_at > PRIVATE_VIEW_LIVE_SECONDS or session.phase not in (
                Phase.PLAYING,
                Phase.SCOREBOARD,
            ):
                del self._private_views[key]
                continue
            if live.signature() != live.shown:
                live.request()
            if session.phase is Phase.SCOREBOARD:
                del self._private_views[key]

    async def _dm_hand(self, interaction: discord.Interaction, session: TableSession) -> None:
        """Turn on DMs for this player and send the private view (or, in the lobby, a confirmation).

        Runs outside the table's lock (DMs may be slow). An undelivered DM is explained ephemerally,
        with the private view shown there instead.
        """
        user_id = interaction.user.id
        in_lobby = session.phase is Phase.LOBBY
        if in_lobby and user_id in session.dm_wanted:
            session.dm_wanted.discard(user_id)
            await self._answer_with_table(interaction, session, "OK: I will not DM you your hand.")
            return
        if not in_lobby:
            self._check_private_view(session, user_id)
        elif user_id not in session.lobby.players:
            raise TableError("Join the table first.")
        await interaction.response.defer(ephemeral=True, thinking=True)
        if in_lobby:
            why_not = await self._send_dm(
                user_id,
                content=f"I will send your hand here when the {session.rules.display_name} game starts: "
                f"{self._jump_url(session)}",
            )
        else:
            why_not = await self._dm_private_view(session, user_id, "Your hand:")
        if why_not is None:
            session.dm_wanted.add(user_id)
            await interaction.edit_original_response(
                content="✉️ Check your DMs: I will also DM you whenever it is your turn."
            )
            if in_lobby:
                self._refresh_table_message(session)
            return
        session.dm_wanted.discard(user_id)
        if in_lobby or session.phase is not Phase.PLAYING:
            await interaction.edit_original_response(content=why_not)
            return
        embed, view = self._private_message(session, user_id)
        await interaction.edit_original_response(
            content=f"{why_not} Here is your hand instead:",
            embed=embed,
            view=view,
            attachments=render.table_files(session, user_id),
        )

    # -- after a move ----------------------------------------------------------------------------

    def _after_move(self, session: TableSession, before: set[int]) -> None:
        """Re-arm the clock and DM the players whose turn it now is; on the scoreboard, open "Play again"."""
        if session.phase is Phase.PLAYING:
            self._arm_turn_clock(session)
            waited_for = set(session.users_to_act())
            for user_id in session.users_with_actions():
                if user_id in session.dm_wanted and user_id not in before:
                    intro = "It is your turn." if user_id in waited_for else "You can act now, if you wish."
                    self._spawn(
                        self._dm_turn(session, user_id, intro), f"turn DM for table {session.table_id}"
                    )
            if not before:  # the game just started: everyone who asked gets their hand
                for user_id in session.players:
                    if user_id in session.dm_wanted and user_id not in session.users_with_actions():
                        self._spawn(
                            self._dm_turn(session, user_id, intro="The game has started. Your hand:"),
                            "start DM",
                        )
        self._refresh_private_views(session)
        if session.phase is Phase.SCOREBOARD:
            self._disarm_turn_clock(session)
            if self.channel_tables.get(session.channel_id) == session.table_id:
                del self.channel_tables[session.channel_id]  # a new /play may open while the scoreboard shows
            when = _now() + timedelta(seconds=self.settings.rematch_seconds)
            self._arm(f"rematch:{session.table_id}", when, self._rematch_ran_out, session.table_id)

    async def _turn_ran_out(self, table_id: str, version: int) -> None:
        """The turn clock of ``version`` ran out: play the defaults (a stale clock does nothing)."""
        session = self.tables.get(table_id)
        if session is None:
            return
        async with session.lock:
            before = set(session.users_with_actions())
            events = session.time_out(version, _now())
            if not events:
                return
            try:
                await self._persist(session)
            except TableError:  # not saved, so undone: try again shortly
                self._arm(
                    f"turn:{table_id}:{version}",
                    _now() + timedelta(seconds=5),
                    self._turn_ran_out,
                    table_id,
                    version,
                )
                return
            self._after_move(session, before)
            self._refresh_table_message(session)

    async def _dm_turn(self, session: TableSession, user_id: int, intro: str = "It is your turn.") -> None:
        if session.phase is not Phase.PLAYING:
            return
        if await self._dm_private_view(session, user_id, intro) is not None:
            session.dm_wanted.discard(user_id)
            session.events.append(
                Event(session.seat_of(user_id), "can't get DMs from me: use **My hand** instead.")
            )

    async def _dm_private_view(self, session: TableSession, user_id: int, intro: str) -> str | None:
        embed, view = self._private_message(session, user_id)
        files = render.table_files(session, user_id)
        return await self._send_dm(user_id, content=intro, embed=embed, view=view, files=files)

    async def _send_dm(self, user_id: int, **message: object) -> str | None:
        """Send a DM. Returns ``None`` once delivered, else why not, in words for the player."""
        try:
            channel = await self.bot.create_dm(discord.Object(user_id))
            await channel.send(**message)  # type: ignore[arg-type]
        except (discord.Forbidden, discord.NotFound):
            return (
                "📪 I can't DM you: your DMs are closed to me. Allow direct messages from server members "
                "(Privacy settings) and press the button again."
            )
        except discord.HTTPException as error:
            log.warning("A DM to %s failed: %s", user_id, error)
            return "📪 Discord did not deliver my DM just now. Try again in a moment."
        return None

    # -- the end ---------------------------------------------------------------------------------

    def _game_result(self, session: TableSession) -> GameResult:
        """The finished game as the leaderboard stores it."""
        assert (
            session.state is not None and session.started_at is not None and session.finished_at is not None
        )
        return GameResult(
            table_id=session.table_id,
            guild_id=session.guild_id,
            channel_id=session.channel_id,
            game=session.rules.key,
            options=session.state.options.model_dump(),
            seed=session.state.seed,
            actions=list(session.state.history),
            started_at=session.started_at,
            finished_at=session.finished_at,
            seats=[
                SeatResult(
                    seat=standing.seat,
                    user_id=session.players[standing.seat],
                    display_name=session.name_of_seat(standing.seat),
                    points=standing.points,
                    rank=standing.rank,
                )
                for standing in session.standings()
            ],
        )

    async def _persist(self, session: TableSession) -> None:
        """Store the table as it is now, in one transaction: its snapshot, the actions applied since the
        last save and, once the game is over, its result (exactly once). Call it under the table's lock,
        after a change and before anyone is shown it. A closed table is deleted instead.

        Raises
        ------
        TableError
            If the database refused: the table goes back to its stored state, so the change did not
            happen, and the player is asked to try again.
        """
        if session.phase is Phase.CLOSED:
            await self._delete_stored(session)
            return
        result = (
            self._game_result(session)
            if session.phase is Phase.SCOREBOARD and not session.result_saved
            else None
        )
        snapshot = session.snapshot()
        snapshot["result_saved"] = session.result_saved or result is not None
        new_actions = [StoredAction(*action) for action in session.unsaved_actions()]
        try:
            await self.bot.db.save_table(
                session.table_id,
                session.guild_id,
                session.channel_id,
                session.rules.key,
                snapshot,
                new_actions,
                result,
            )
        except Exception:
            if self.bot.is_closed():  # shutting down: the table stays as last stored
                log.warning("Table %s was not saved: the bot is shutting down", session.table_id)
                raise TableError("I am restarting: please try again in a moment.") from None
            log.exception("Could not save table %s: undoing the change", session.table_id)
            await self._reload(session)
            raise TableError(
                "I could not save that just now, so it did not happen. Please try again."
            ) from None
        session.mark_saved()
        if result is not None:
            session.result_saved = True

    async def _reload(self, session: TableSession) -> None:
        """Put a table back to its stored state (after a failed save); forget it if it was never stored."""
        try:
            stored = await self.bot.db.load_table(session.table_id)
        except Exception:
            log.exception("Could not reload table %s either", session.table_id)
            stored = None
        if stored is None:
            self._forget(session, "This table could not be saved, so it closed.")
            return
        session.load(stored.snapshot, [(a.seat, a.code, a.timed_out) for a in stored.actions])

    def _turn_length_refusal(self, seconds: int) -> str | None:
        """Words for a turn length outside the bot's range, or ``None`` if it is allowed."""
        low, high = self.settings.min_turn_seconds, self.settings.max_turn_seconds
        return None if low <= seconds <= high else f"Turns can last {low} to {high} seconds."

    async def _note_posted(self, session: TableSession, message_id: int | None) -> None:
        """Remember (and store) the message a new table was just posted as."""
        async with session.lock:
            session.message_id = message_id
            session.message_posted_at = _now()
            with contextlib.suppress(TableError):
                await self._persist(session)

    async def _save_quietly(self, session: TableSession) -> None:
        """Save a change that is not a move (a new message id), under the table's lock."""
        async with session.lock:
            if self.tables.get(session.table_id) is session:
                with contextlib.suppress(TableError):
                    await self._persist(session)

    async def _delete_stored(self, session: TableSession) -> None:
        try:
            await self.bot.db.delete_table(session.table_id)
        except Exception:
            log.exception("Could not delete the closed table %s from the database", session.table_id)

    async def _rematch_ran_out(self, table_id: str) -> None:
        session = self.tables.get(table_id)
        if session is None or session.phase is not Phase.SCOREBOARD:
            return
        async with session.lock:
            if session.phase is Phase.SCOREBOARD:
                await self._end_rematch(session, None)

    async def _end_rematch(self, session: TableSession, interaction: discord.Interaction | None) -> None:
        """Close the scoreboard; those who chose "Play again" go back to a new lobby in the channel."""
        assert session.rematch is not None
        session.rematch.close()
        lobby = session.rematch.next_lobby(session.rules.min_seats, session.rules.max_seats)
        session.close()
        self._forget(session, "This game is over: see the final scores on the table message.")
        await self._delete_stored(session)
        final_scores, _ = render.scoreboard_message(session)
        await self._answer_with_table(interaction, session, "Noted.", final_embed=final_scores)
        if lobby is None:
            return
        channel = self.bot.get_partial_messageable(session.channel_id, guild_id=session.guild_id)
        if self._channel_table(session.channel_id) is not None:
            with contextlib.suppress(discord.HTTPException):
                await channel.send(
                    "A new table is already open in this channel, so no rematch table was opened."
                )
            return
        rematch = TableSession(
            self._new_table_id(),
            session.guild_id,
            session.channel_id,
            session.rules,
            session.settings,
            lobby.host_id,
            session.names[lobby.host_id],
            players=list(lobby.players),
            names={user: session.names[user] for user in lobby.players},
            dm_wanted=session.dm_wanted & set(lobby.players),
        )
        embed, view = render.lobby_message(rematch)
        self._register(rematch)
        try:
            await self._persist(rematch)
        except TableError:
            return  # _persist forgot it: the channel stays free
        self._arm_lobby_clock(rematch)
        try:
            message = await channel.send(content="Playing again:", embed=embed, view=view)
        except discord.HTTPException as error:
            log.warning("Could not open the rematch table in channel %s: %s", session.channel_id, error)
            self._forget(rematch, "This table could not be opened.")  # never leave the channel blocked
            await self._delete_stored(rematch)
            return
        await self._note_posted(rematch, message.id)

    async def _close(
        self, session: TableSession, reason: str, interaction: discord.Interaction | None
    ) -> None:
        """Close a table that never finished a game, and turn its message into a closed notice."""
        session.close()
        self._forget(session, "This table is closed.")
        await self._delete_stored(session)
        closed = render.closed_message(session, reason)
        await self._answer_with_table(interaction, session, reason, final_embed=closed)

    async def _lobby_ran_out(self, table_id: str) -> None:
        session = self.tables.get(table_id)
        if session is None:
            return
        async with session.lock:
            if session.phase is Phase.LOBBY:
                minutes = max(1, round(self.settings.lobby_idle_seconds / 60))
                await self._close(
                    session, f"Nobody started the game for {minutes} minutes, so the table closed.", None
                )

    # -- bookkeeping -----------------------------------------------------------------------------

    def _table_settings(self, turn_seconds: int) -> TableSettings:
        return TableSettings(
            turn_seconds=turn_seconds,
            idle_turn_seconds=min(turn_seconds, self.settings.idle_turn_seconds),
            idle_after_timeouts=self.settings.idle_after_timeouts,
        )

    def _new_table_id(self) -> str:
        while True:
            table_id = secrets.token_hex(5)
            if table_id not in self.tables and table_id not in self.gone:
                return table_id

    def _register(self, session: TableSession) -> None:
        self.tables[session.table_id] = session
        self.channel_tables[session.channel_id] = session.table_id

    def _forget(self, session: TableSession, reason: str) -> None:
        self.tables.pop(session.table_id, None)
        for key in [key for key in self._private_views if key[0] == session.table_id]:
            del self._private_views[key]
        if self.channel_tables.get(session.channel_id) == session.table_id:
            del self.channel_tables[session.channel_id]
        self.gone[session.table_id] = reason
        while len(self.gone) > REMEMBER_GONE_TABLES:
            self.gone.popitem(last=False)
        self._disarm_all(session)

    def _channel_table(self, channel_id: int) -> TableSession | None:
        table_id = self.channel_tables.get(channel_id)
        return self.tables.get(table_id) if table_id else None

    def _table_of_player(self, interaction: discord.Interaction) -> TableSession | None:
        """The table of this channel; in a DM, the running table where the user plays (their turn first)."""
        user_id = interaction.user.id
        if interaction.guild_id is not None and interaction.channel_id is not None:
            session = self._channel_table(interaction.channel_id)
            if session is None:
                return None
            if user_id in session.seated_users():
                return session
            return None
        playing = [
            s for s in self.tables.values() if s.phase is Phase.PLAYING and s.seat_of(user_id) is not None
        ]
        playing.sort(key=lambda s: user_id not in s.users_to_act())
        return playing[0] if playing else None

    def _jump_url(self, session: TableSession) -> str:
        channel_url = f"https://discord.com/channels/{session.guild_id}/{session.channel_id}"
        return channel_url if session.message_id is None else f"{channel_url}/{session.message_id}"

    def _arm_lobby_clock(self, session: TableSession) -> None:
        when = _now() + timedelta(seconds=self.settings.lobby_idle_seconds)
        self._arm(f"lobby:{session.table_id}", when, self._lobby_ran_out, session.table_id)

    def _arm(self, job_id: str, when: datetime, job: Callable[..., Awaitable[None]], *args: object) -> None:
        self.bot.scheduler.add_job(
            job, "date", run_date=when, id=job_id, args=args, replace_existing=True, misfire_grace_time=None
        )

    def _disarm(self, job_id: str) -> None:
        if self.bot.scheduler.get_job(job_id) is not None:
            self.bot.scheduler.remove_job(job_id)

    def _arm_turn_clock(self, session: TableSession) -> None:
        """Arm the clock of the current decision, and drop the previous one.

        Each state version has its own job id: APScheduler skips (and, for a one-off job, deletes) a job
        that comes due while another run of the same id is still going, which would stop the clock.
        """
        assert session.state is not None and session.deadline is not None
        version = session.state.version
        job_id = f"turn:{session.table_id}:{version}"
        previous = self._turn_jobs.get(session.table_id)
        if previous is not None and previous != job_id:
            self._disarm(previous)
        self._turn_jobs[session.table_id] = job_id
        self._arm(job_id, session.deadline, self._turn_ran_out, session.table_id, version)

    def _disarm_turn_clock(self, session: TableSession) -> None:
        turn_job = self._turn_jobs.pop(session.table_id, None)
        if turn_job is not None:
            self._disarm(turn_job)

    def _disarm_all(self, session: TableSession) -> None:
        self._disarm_turn_clock(session)
        for kind in ("lobby", "rematch"):
            self._disarm(f"{kind}:{session.table_id}")

    def _spawn(self, coroutine: Awaitable[None], what: str) -> asyncio.Task:
        """Run background work (a DM, a message edit) supervised: a bug is logged, never lost silently."""
        task = asyncio.ensure_future(coroutine)
        self._tasks.add(task)

        def done(finished: asyncio.Task) -> None:
            self._tasks.discard(finished)
            if finished.cancelled():
                return
            error = finished.exception()
            if isinstance(error, discord.HTTPException):
                log.warning("Discord refused %s: %s", what, error)
            elif error is not None:
                log.error("Bug in %s", what, exc_info=error)

        task.add_done_callback(done)
        return task


class _TableMessageRefresher:
    """Keeps one table's public message up to date with plain edits (no interaction to answer).

    Edits run one at a time in a background task, outside the table's lock, and each renders the state
    as it is when it runs: requests made while an edit is under way collapse into one more edit, so the
    message never goes back to an older state and a slow or rate-limited edit never blocks the game.
    """

    def __init__(self, cog: TablesCog, session: TableSession) -> None:
        self.cog = cog
        self.session = session
        self.final_embed: discord.Embed | None = None
        self.wanted = False
        self.task: asyncio.Task | None = None

    @property
    def editing(self) -> bool:
        """True while an edit is under way."""
        return self.task is not None and not self.task.done()

    def request(self, final_embed: discord.Embed | None = None) -> None:
        """Ask for an edit (``final_embed``: the table is closed; show this for good)."""
        if final_embed is not None:
            self.final_embed = final_embed
        self.wanted = True
        if not self.editing:
            self.task = self.cog._spawn(self._run(), f"table message edit of {self.session.table_id}")

    async def _run(self) -> None:
        try:
            while self.wanted:
                self.wanted = False
                await self.cog._edit_table_message(self.session, self.final_embed)
        finally:
            if self.session.table_id not in self.cog.tables and not self.wanted:
                self.cog._refreshers.pop(self.session.table_id, None)


class _LivePrivateView:
    """A player's ephemeral private view that follows the game: edited in the background when the
    player's view changes, one edit at a time, each showing the state as it is when it runs."""

    def __init__(self, cog: TablesCog, session: TableSession, user_id: int) -> None:
        self.cog = cog
        self.session = session
        self.user_id = user_id
        self.interaction: discord.Interaction | None = None
        self.shown_at = 0.0
        self.shown: object = None
        self.wanted = False
        self.task: asyncio.Task | None = None

    def signature(self) -> object:
        """What the view shows, to tell whether it changed."""
        seat = self.session.seat_of(self.user_id)
        if self.session.state is None or seat is None:
            return None
        return (self.session.phase, self.session.state.view(seat), self.session.seat_versions[seat])

    def request(self) -> None:
        self.wanted = True
        if self.task is None or self.task.done():
            self.task = self.cog._spawn(self._run(), f"private view edit on table {self.session.table_id}")

    async def _run(self) -> None:
        while self.wanted and self.interaction is not None:
            self.wanted = False
            signature = self.signature()
            embed, view = self.cog._private_message(self.session, self.user_id, offer_dm=True)
            files = render.table_files(self.session, self.user_id)
            try:
                await self.interaction.edit_original_response(embed=embed, view=view, attachments=files)
            except discord.NotFound:  # dismissed by the player, or too old
                self.cog._private_views.pop((self.session.table_id, self.user_id), None)
                return
            self.shown = signature


def _is_table_message(interaction: discord.Interaction, session: TableSession) -> bool:
    """True if the interaction's component is on the table's public message."""
    return interaction.message is not None and interaction.message.id == session.message_id


def _is_on_message(message: discord.Message | None, custom_id: str) -> bool:
    """True if a component with ``custom_id`` is on ``message``."""
    if message is None:
        return False
    for row in message.components:
        for component in getattr(row, "children", [row]):
            if getattr(component, "custom_id", None) == custom_id:
                return True
    return False


@asynccontextmanager
async def _locked(session: TableSession) -> AsyncIterator[None]:
    """Hold the table's lock; refuse (politely) if another action holds it too long."""
    try:
        await asyncio.wait_for(session.lock.acquire(), timeout=LOCK_WAIT_SECONDS)
    except TimeoutError:
        raise TableError("The table is busy: press again in a moment.") from None
    try:
        yield
    finally:
        session.lock.release()


REQUIRED_PERMISSIONS = {
    "view_channel": "View Channel",
    "send_messages": "Send Messages",
    "embed_links": "Embed Links",
    "attach_files": "Attach Files",
}


def _missing_permissions(permissions: discord.Permissions) -> list[str]:
    """The names of the channel permissions a table needs that the bot lacks."""
    return [name for flag, name in REQUIRED_PERMISSIONS.items() if not getattr(permissions, flag)]


async def _check_manager(interaction: discord.Interaction) -> bool:
    """True if the user has Manage Server here; otherwise they are told so (the command's default
    permissions can be loosened by a server's admins, so it is checked again)."""
    permissions = interaction.permissions
    if interaction.guild_id is not None and (permissions.manage_guild or permissions.administrator):
        return True
    await interaction.response.send_message(
        "Only members with the **Manage Server** permission can do that.", ephemeral=True
    )
    return False


async def _reply(interaction: discord.Interaction, text: str) -> None:
    """An ephemeral answer, as the response or, if the interaction was answered already, a followup."""
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True)
    else:
        await interaction.response.send_message(text, ephemeral=True)
