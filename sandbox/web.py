"""A web page that shows the sandbox as a Discord client would, to ONE simulated user ("you").

:class:`WebPage` is a small aiohttp server on the loopback interface beside a started
:class:`~sandbox.server.SandboxServer`. A browser on its URL sees the user's guild channel, the channel's
threads and the user's DM with the bot: messages and their edits, embeds, Components V2 layouts, pictures
and application emojis, and the ephemeral answers meant for this user only. The user runs slash commands,
presses buttons, picks options and fills modals through the same calls a test makes
(:meth:`~sandbox.server.SandboxServer.run_command`, ``press``, ``select``, ``submit_modal``), so the
sandbox checks them as Discord would.

Routes (all on ``http://127.0.0.1:<port>``):

- ``GET /``, ``GET /static/<name>``: the page (``web_static/``: one HTML, one JS and one CSS file);
- ``GET /api/events``: server-sent events; first ``state`` (the user, channels, members, the synced
  commands and every visible message), then ``message`` (a message created or edited) and ``delete``;
- ``POST /api/command`` ``{"channel_id", "name", "options"}``, ``/api/press`` ``{"message_id",
  "custom_id"}``, ``/api/select`` ``{"message_id", "custom_id", "values"}``, ``/api/modal``
  ``{"modal_id", "values"}``, ``/api/dismiss`` ``{"message_id"}``: answered with
  ``{"ok", "failed", "reason", "modal"}`` once the bot answered (or the deadline passed); a request a
  Discord client could not make is answered 400 ``{"error"}``;
- ``GET /files/<attachment id>/<filename>``, ``GET /emojis/<id>.png``: uploaded files and emoji images.

A POST must be ``application/json`` and every request must name the page's own host (``127.0.0.1`` or
``localhost`` with its port), so another web site open in the same browser cannot act for the user.
"""

from __future__ import annotations

import asyncio
import json
import logging
from importlib import resources
from typing import Any

from aiohttp import web

from .errors import SandboxUsageError
from .interactions import InteractionResult, ModalView
from .models import Channel, Message, SimUser, content_type
from .server import SandboxServer
from .web_view import channel_view, message_view

__all__ = ["WebPage"]

_log = logging.getLogger(__name__)
HOST = "127.0.0.1"
STATIC = {"index.html": "text/html", "page.js": "text/javascript", "page.css": "text/css"}
KEEPALIVE_SECONDS = 15.0


class WebPage:
    """The web page of ``server`` for ``user``, whose guild channel is ``channel``.

    Parameters
    ----------
    server : SandboxServer
        A started sandbox.
    user : SimUser
        The one person the page shows the sandbox to: a member of ``channel``'s guild.
    channel : Channel
        The guild text channel the page opens on; its threads and the user's DM are shown too.
    port : int
        The port on 127.0.0.1 to listen on; 0 picks a free one.
    """

    def __init__(self, server: SandboxServer, user: SimUser, channel: Channel, *, port: int = 0) -> None:
        self.server = server
        self.user = user
        self.channel = channel
        self.port = port
        self.modals: dict[str, ModalView] = {}
        self._queues: set[asyncio.Queue[tuple[str, dict[str, Any]]]] = set()
        self._runner: web.AppRunner | None = None

    @property
    def url(self) -> str:
        """The page's address, ``http://127.0.0.1:<port>/``."""
        return f"http://{HOST}:{self.port}/"

    async def start(self) -> WebPage:
        """Listen on 127.0.0.1 and follow the sandbox's messages. Returns the page itself.

        Raises
        ------
        OSError
            If the port is taken.
        """
        app = web.Application(middlewares=[self._same_host])
        app.router.add_get("/", self._static)
        app.router.add_get("/static/{name}", self._static)
        app.router.add_get("/api/events", self._events)
        for action in ("command", "press", "select", "modal", "dismiss"):
            app.router.add_post(f"/api/{action}", self._action)
        app.router.add_get("/files/{id}/{filename}", self._file)
        app.router.add_get("/emojis/{id:\\d+}.png", self._emoji)
        self._runner = web.AppRunner(app, handle_signals=False, shutdown_timeout=1.0, access_log=None)
        await self._runner.setup()
        await web.TCPSite(self._runner, HOST, self.port).start()
        self.port = int(self._runner.addresses[0][1])
        self.server.add_message_listener(self._on_message)
        return self

    async def stop(self) -> None:
        """Stop following the sandbox and stop listening (open event streams end)."""
        if self._runner is None:
            return
        self.server.remove_message_listener(self._on_message)
        for queue in list(self._queues):
            queue.put_nowait(("end", {}))
        await self._runner.cleanup()
        self._runner = None

    async def __aenter__(self) -> WebPage:
        return await self.start()

    async def __aexit__(self, *exc_info: Any) -> None:
        await self.stop()

    # -- what the user sees ----------------------------------------------------------------------

    def channels(self) -> list[Channel]:
        """The channels the page shows: the guild channel, its threads (oldest first), the user's DM."""
        return [self.channel, *self.server.threads_of(self.channel), self.server.dm_channel(self.user)]

    def shows(self, message: Message) -> bool:
        """Whether ``message`` belongs on the page: in one of :meth:`channels`, and public or ephemeral for
        this user (a deleted or dismissed one is taken off it)."""
        channel = message.channel
        if channel.is_dm:
            here = channel.recipient is not None and channel.recipient.id == self.user.id
        else:
            here = channel is self.channel or channel.parent is self.channel
        return here and message.ephemeral_for in (None, self.user.id)

    def state(self) -> dict[str, Any]:
        """The whole page: ``{"you", "home", "channels", "members", "commands", "messages"}``; messages are
        :func:`~sandbox.web_view.message_view` objects, oldest first."""
        guild = self.channel.guild
        assert guild is not None
        messages = [m for ch in self.channels() for m in ch.messages if self.shows(m)]
        messages = [m for m in messages if self.server.can_see(self.user, m)]
        messages.sort(key=lambda m: m.id)
        return {
            "you": {"id": str(self.user.id), "name": self.user.name},
            "home": str(self.channel.id),
            "channels": [channel_view(ch) for ch in self.channels()],
            "members": [{"id": str(m.id), "name": m.name} for m in guild.members],
            "commands": [c for c in self.server.commands if c.get("guild_id") in (None, str(guild.id))],
            "messages": [message_view(self.server, m) for m in messages],
        }

    def _on_message(self, kind: str, message: Message) -> None:
        if not self._queues or not self.shows(message):
            return
        if kind == "delete":
            event = ("delete", {"id": str(message.id)})
        else:
            event = ("message", message_view(self.server, message))
        for queue in self._queues:
            queue.put_nowait(event)

    # -- routes ----------------------------------------------------------------------------------

    @web.middleware
    async def _same_host(self, request: web.Request, handler: Any) -> web.StreamResponse:
        if request.host not in (f"{HOST}:{self.port}", f"localhost:{self.port}"):
            return web.json_response({"error": "this page answers on its own address only"}, status=403)
        if request.method == "POST" and request.content_type != "application/json":
            return web.json_response({"error": "send application/json"}, status=415)
        return await handler(request)

    async def _static(self, request: web.Request) -> web.Response:
        name = request.match_info.get("name", "index.html")
        if name not in STATIC:
            raise web.HTTPNotFound()
        body = resources.files("sandbox").joinpath("web_static", name).read_bytes()
        return web.Response(body=body, content_type=STATIC[name], headers={"Cache-Control": "no-store"})

    async def _events(self, request: web.Request) -> web.StreamResponse:
        response = web.StreamResponse(
            headers={"Content-Type": "text/event-stream", "Cache-Control": "no-store"}
        )
        await response.prepare(request)
        queue: asyncio.Queue[tuple[str, dict[str, Any]]] = asyncio.Queue()
        self._queues.add(queue)
        try:
            await _send_event(response, "state", self.state())
            while True:
                try:
                    kind, data = await asyncio.wait_for(queue.get(), KEEPALIVE_SECONDS)
                except TimeoutError:
                    await response.write(b": keepalive\n\n")
                    continue
                if kind == "end":
                    break
                await _send_event(response, kind, data)
        except (ConnectionResetError, asyncio.CancelledError):
            pass
        finally:
            self._queues.discard(queue)
        return response

    async def _action(self, request: web.Request) -> web.Response:
        try:
            body = await request.json()
            if not isinstance(body, dict):
                raise ValueError("a JSON object is expected")
            action = request.path.rsplit("/", 1)[1]
            result = await getattr(self, f"_do_{action}")(body)
        except KeyError as error:
            return web.json_response({"error": f"unknown or missing: {error}"}, status=400)
        except (SandboxUsageError, ValueError, TypeError) as error:
            return web.json_response({"error": str(error)}, status=400)
        return web.json_response(self._answer(result))

    def _answer(self, result: InteractionResult | None) -> dict[str, Any]:
        if result is None:
            return {"ok": True, "failed": False, "reason": None, "modal": None}
        modal = None
        if result.modal is not None:
            modal_id = str(result.interaction_id)
            self.modals[modal_id] = result.modal
            modal = {"id": modal_id, "title": result.modal.title, "components": result.modal.components}
        return {"ok": result.ok, "failed": result.failed, "reason": result.failure_reason, "modal": modal}

    def _message(self, body: dict[str, Any]) -> Message:
        message = self.server.message(int(body["message_id"]))
        if not self.shows(message):
            raise SandboxUsageError("that message is not on your page")
        return message

    async def _do_command(self, body: dict[str, Any]) -> InteractionResult:
        channel = self.server.channel(int(body["channel_id"]))
        if channel not in self.channels():
            raise SandboxUsageError("that channel is not on your page")
        name = str(body["name"])
        options = self._options(name, dict(body.get("options") or {}))
        return await self.server.run_command(
            self.user, None if channel.is_dm else channel, name, **options
        )

    def _options(self, name: str, given: dict[str, Any]) -> dict[str, Any]:
        """The option values of ``/name`` as the sandbox takes them: the form sends text, the command's
        schema says the type (4 integer, 10 number, 5 boolean, 6 user by id)."""
        definitions = _option_definitions(self.server.commands, name)
        options: dict[str, Any] = {}
        for key, value in given.items():
            kind = definitions.get(key, {}).get("type", 3)
            if value in (None, ""):
                continue
            if kind == 4:
                options[key] = int(value)
            elif kind == 10:
                options[key] = float(value)
            elif kind == 5:
                options[key] = value in (True, "true")
            elif kind == 6:
                options[key] = self.server.users[int(value)]
            else:
                options[key] = str(value)
        return options

    async def _do_press(self, body: dict[str, Any]) -> InteractionResult:
        return await self.server.press(self.user, self._message(body), str(body["custom_id"]))

    async def _do_select(self, body: dict[str, Any]) -> InteractionResult:
        message = self._message(body)
        component = message.component(str(body["custom_id"])) or {}
        values = [str(v) for v in body.get("values") or []]
        if component.get("type") == 5:  # a user select: the sandbox takes users
            chosen: list[Any] = [self.server.users[int(v)] for v in values]
        else:
            chosen = values
        return await self.server.select(self.user, message, str(body["custom_id"]), chosen)

    async def _do_modal(self, body: dict[str, Any]) -> InteractionResult:
        modal = self.modals.pop(str(body["modal_id"]), None)
        if modal is None:
            raise SandboxUsageError("that modal is closed (submitted already, or never shown to you)")
        return await self.server.submit_modal(self.user, modal, dict(body.get("values") or {}))

    async def _do_dismiss(self, body: dict[str, Any]) -> None:
        self.server.dismiss(self.user, self._message(body))

    async def _file(self, request: web.Request) -> web.Response:
        content = self.server.attachment_content.get(request.match_info["id"])
        if content is None:
            raise web.HTTPNotFound()
        return web.Response(body=content, content_type=content_type(content))

    async def _emoji(self, request: web.Request) -> web.Response:
        content = self.server.emoji_images.get(int(request.match_info["id"]))
        if content is None:
            raise web.HTTPNotFound()
        return web.Response(body=content, content_type=content_type(content))


def _option_definitions(commands: list[dict[str, Any]], name: str) -> dict[str, dict[str, Any]]:
    """The options of ``name`` (``"table end"``: a subcommand's) by option name; {} for an unknown one."""
    root, *path = name.split()
    options = next((c.get("options") or [] for c in commands if c.get("name") == root), [])
    for sub in path:
        options = next((o.get("options") or [] for o in options if o.get("name") == sub), [])
    return {o["name"]: o for o in options if o.get("type") not in (1, 2)}


async def _send_event(response: web.StreamResponse, kind: str, data: dict[str, Any]) -> None:
    await response.write(f"event: {kind}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n".encode())
