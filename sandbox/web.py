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
  Discord client could not make, and a malformed one (not JSON in UTF-8, nested too deeply, over
  :data:`MAX_BODY_BYTES`, an id that is not a snowflake, a number out of range), is answered 400
  ``{"error"}`` with a short sentence;
- ``GET /files/<attachment id>/<filename>``, ``GET /emojis/<id>.png``: uploaded files and emoji images.

A POST must be ``application/json`` and every request must name the page's own host (``127.0.0.1`` or
``localhost`` with its port), so another web site open in the same browser cannot act for the user.

Each event stream holds at most :data:`MAX_PENDING_EVENTS` events its client has not taken yet; a client
that falls further behind (a stalled tab, a client that never reads) is cut off, with one log line, and a
browser's EventSource then reconnects and starts again from a fresh ``state``.
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
import re
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
MAX_BODY_BYTES = 256 * 1024
"""The largest POST body the page takes: a command form or a full modal is a few kilobytes."""
MAX_PENDING_EVENTS = 256
"""Events an event stream may hold for a client that has not read them yet; one more and it is cut off."""
LARGEST_SNOWFLAKE = 2**64 - 1
LARGEST_OPTION_NUMBER = 2**53  # Discord's range: integers strictly within it, numbers up to it
_DIGITS = re.compile(r"[0-9]{1,20}")
_INTEGER = re.compile(r"[+-]?[0-9]{1,16}")
Event = tuple[str, dict[str, Any]]


class BadRequest(Exception):
    """A request the page cannot take as sent; answered 400 with the message."""


class _EventStream:
    """One client's open event stream: the events it has not been sent yet, at most
    :data:`MAX_PENDING_EVENTS`, and its connection, to cut off when it falls behind."""

    def __init__(self, request: web.Request) -> None:
        self.queue: asyncio.Queue[Event] = asyncio.Queue(MAX_PENDING_EVENTS)
        self.transport = request.transport
        self.peer = request.remote

    def push(self, event: Event) -> bool:
        """Queue ``event``; False (and nothing queued) if the client is :data:`MAX_PENDING_EVENTS` behind."""
        try:
            self.queue.put_nowait(event)
        except asyncio.QueueFull:
            return False
        return True

    def end(self, *, abort: bool) -> None:
        """End the stream: drop what is pending, so the handler stops at once, and with ``abort`` also cut
        the connection, since a handler stuck writing to a client that does not read never gets there."""
        while not self.queue.empty():
            self.queue.get_nowait()
        self.queue.put_nowait(("end", {}))
        if abort and self.transport is not None:
            self.transport.abort()


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
        self._streams: set[_EventStream] = set()
        self._runner: web.AppRunner | None = None

    @property
    def url(self) -> str:
        """The page's address, ``http://127.0.0.1:<port>/``."""
        return f"http://{HOST}:{self.port}/"

    @property
    def event_backlogs(self) -> list[int]:
        """For each open event stream, how many events wait to be sent to its client (each at most
        :data:`MAX_PENDING_EVENTS`)."""
        return [stream.queue.qsize() for stream in self._streams]

    async def start(self) -> WebPage:
        """Listen on 127.0.0.1 and follow the sandbox's messages. Returns the page itself.

        Raises
        ------
        OSError
            If the port is taken.
        """
        app = web.Application(middlewares=[_no_traceback, self._same_host], client_max_size=MAX_BODY_BYTES)
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
        for stream in list(self._streams):
            stream.end(abort=False)
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
        if not self._streams or not self.shows(message):
            return
        event: Event
        if kind == "delete":
            event = ("delete", {"id": str(message.id)})
        else:
            event = ("message", message_view(self.server, message))
        for stream in list(self._streams):
            if not stream.push(event):
                self._streams.discard(stream)
                stream.end(abort=True)
                _log.warning(
                    "closed the event stream of %s: it fell %d events behind", stream.peer, MAX_PENDING_EVENTS
                )

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
        stream = _EventStream(request)
        self._streams.add(stream)
        try:
            await _send_event(response, "state", self.state())
            while True:
                try:
                    kind, data = await asyncio.wait_for(stream.queue.get(), KEEPALIVE_SECONDS)
                except TimeoutError:
                    await response.write(b": keepalive\n\n")
                    continue
                if kind == "end":
                    break
                await _send_event(response, kind, data)
        except (ConnectionResetError, asyncio.CancelledError):
            pass
        finally:
            self._streams.discard(stream)
        return response

    async def _action(self, request: web.Request) -> web.Response:
        try:
            body = await _json_body(request)
            action = request.path.rsplit("/", 1)[1]
            result = await getattr(self, f"_do_{action}")(body)
        except KeyError as error:
            return web.json_response({"error": f"unknown or missing: {error}"}, status=400)
        except (BadRequest, SandboxUsageError, ValueError, TypeError) as error:
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
        message = self.server.message(_snowflake(body["message_id"], "message_id"))
        if not self.shows(message):
            raise SandboxUsageError("that message is not on your page")
        return message

    async def _do_command(self, body: dict[str, Any]) -> InteractionResult:
        channel = self.server.channel(_snowflake(body["channel_id"], "channel_id"))
        if channel not in self.channels():
            raise SandboxUsageError("that channel is not on your page")
        name = _text(body, "name")
        options = self._options(name, _object(body, "options"))
        return await self.server.run_command(self.user, None if channel.is_dm else channel, name, **options)

    def _options(self, name: str, given: dict[str, Any]) -> dict[str, Any]:
        """The option values of ``/name`` as the sandbox takes them: the form sends text, the command's
        schema says the type (4 integer, 10 number, 5 boolean, 6 user by id)."""
        definitions = _option_definitions(self.server.commands, name)
        options: dict[str, Any] = {}
        for key, value in given.items():
            kind = definitions.get(key, {}).get("type", 3)
            if value in (None, ""):
                continue
            if isinstance(value, (dict, list)):
                raise BadRequest(f"option {key!r} must be text, a number or true/false")
            if kind == 4:
                options[key] = _option_number(key, value, integer=True)
            elif kind == 10:
                options[key] = _option_number(key, value, integer=False)
            elif kind == 5:
                options[key] = value in (True, "true")
            elif kind == 6:
                options[key] = self.server.users[_snowflake(value, f"option {key!r}")]
            else:
                options[key] = str(value)
        return options

    async def _do_press(self, body: dict[str, Any]) -> InteractionResult:
        return await self.server.press(self.user, self._message(body), _text(body, "custom_id"))

    async def _do_select(self, body: dict[str, Any]) -> InteractionResult:
        message = self._message(body)
        custom_id = _text(body, "custom_id")
        component = message.component(custom_id) or {}
        values = _texts(body.get("values"), "values")
        if component.get("type") == 5:  # a user select: the sandbox takes users
            chosen: list[Any] = [self.server.users[_snowflake(v, "values")] for v in values]
        else:
            chosen = values
        return await self.server.select(self.user, message, custom_id, chosen)

    async def _do_modal(self, body: dict[str, Any]) -> InteractionResult:
        modal_id = _text(body, "modal_id")
        values = _object(body, "values")
        for key, value in values.items():
            if not isinstance(value, str):
                values[key] = _texts(value, f"values.{key}")
        modal = self.modals.pop(modal_id, None)
        if modal is None:
            raise SandboxUsageError("that modal is closed (submitted already, or never shown to you)")
        return await self.server.submit_modal(self.user, modal, values)

    async def _do_dismiss(self, body: dict[str, Any]) -> None:
        self.server.dismiss(self.user, self._message(body))

    async def _file(self, request: web.Request) -> web.Response:
        content = self.server.attachment_content.get(request.match_info["id"])
        if content is None:
            raise web.HTTPNotFound()
        return web.Response(body=content, content_type=content_type(content))

    async def _emoji(self, request: web.Request) -> web.Response:
        if not _DIGITS.fullmatch(request.match_info["id"]):
            raise web.HTTPNotFound()
        content = self.server.emoji_images.get(int(request.match_info["id"]))
        if content is None:
            raise web.HTTPNotFound()
        return web.Response(body=content, content_type=content_type(content))


@web.middleware
async def _no_traceback(request: web.Request, handler: Any) -> web.StreamResponse:
    """A failure of the page's own code is logged here and answered with a sentence, never a traceback
    (aiohttp puts one in the answer when asyncio runs in debug mode)."""
    try:
        return await handler(request)
    except web.HTTPException:
        raise
    except Exception:
        _log.exception("the sandbox page failed on %s %s", request.method, request.path)
        answer = {"error": "the page's server failed on this request (see its log)"}
        return web.json_response(answer, status=500)


def _option_definitions(commands: list[dict[str, Any]], name: str) -> dict[str, dict[str, Any]]:
    """The options of ``name`` (``"table end"``: a subcommand's) by option name; {} for an unknown one."""
    root, *path = name.split()
    options = next((c.get("options") or [] for c in commands if c.get("name") == root), [])
    for sub in path:
        options = next((o.get("options") or [] for o in options if o.get("name") == sub), [])
    return {o["name"]: o for o in options if o.get("type") not in (1, 2)}


async def _json_body(request: web.Request) -> dict[str, Any]:
    """The request's body, a JSON object in UTF-8 of at most :data:`MAX_BODY_BYTES`.

    Raises
    ------
    BadRequest
        With a sentence for the sender: a charset other than UTF-8, a larger body, bytes that are not
        UTF-8, text that is not JSON (``NaN`` included), a number out of range (``1e999``, an integer of
        over 40 digits), JSON nested too deeply for the parser, or JSON that is not an object.
    """
    charset = (request.charset or "utf-8").lower()
    if charset not in ("utf-8", "utf8"):
        raise BadRequest("send JSON in UTF-8 (charset=utf-8)")
    if request.content_length is not None and request.content_length > MAX_BODY_BYTES:
        raise BadRequest(f"the body is over {MAX_BODY_BYTES // 1024} KiB")
    try:
        raw = await request.read()
    except web.HTTPRequestEntityTooLarge:
        raise BadRequest(f"the body is over {MAX_BODY_BYTES // 1024} KiB") from None
    try:
        text = raw.decode("utf-8")
        body = json.loads(text, parse_constant=_no_constant, parse_float=_finite_float, parse_int=_short_int)
    except UnicodeDecodeError:
        raise BadRequest("the body is not UTF-8") from None
    except RecursionError:  # the parser recurses once per level of nesting
        raise BadRequest("the body is nested too deeply") from None
    except ValueError as error:
        raise BadRequest(f"the body is not JSON ({error})") from None
    if not isinstance(body, dict):
        raise BadRequest("a JSON object is expected")
    return body


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _finite_float(text: str) -> float:
    number = float(text)
    if not math.isfinite(number):
        raise BadRequest(f"a number in the body is out of range ({text[:20]})")
    return number


def _short_int(text: str) -> int:
    # Python refuses over 4,300 digits with a long message, and takes quadratic time below that.
    if len(text) > 40:
        raise BadRequest(f"a number in the body is out of range ({text[:20]}...)")
    return int(text)


def _snowflake(value: Any, key: str) -> int:
    """``value`` (the request's ``key``) as an id: a string of digits (as Discord sends ids) or a whole
    number, in 1..2**64-1.

    Raises
    ------
    BadRequest
        If the value is anything else.
    """
    if isinstance(value, str) and _DIGITS.fullmatch(value):
        number = int(value)
    elif isinstance(value, int) and not isinstance(value, bool):
        number = value
    else:
        raise BadRequest(f"{key} must be an id (a string of digits)")
    if not 0 < number <= LARGEST_SNOWFLAKE:
        raise BadRequest(f"{key} is out of range for an id")
    return number


def _text(body: dict[str, Any], key: str) -> str:
    """``body[key]``, which must be a string (KeyError if missing, BadRequest if not a string)."""
    value = body[key]
    if not isinstance(value, str):
        raise BadRequest(f"{key} must be a string")
    return value


def _texts(value: Any, key: str) -> list[str]:
    """``value``, which must be a list of strings or null (an empty list)."""
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise BadRequest(f"{key} must be a list of strings")
    return list(value)


def _object(body: dict[str, Any], key: str) -> dict[str, Any]:
    """``body[key]``, a copy of a JSON object, or {} if it is missing or null."""
    value = body.get(key)
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise BadRequest(f"{key} must be an object")
    return dict(value)


def _option_number(key: str, value: Any, *, integer: bool) -> int | float:
    """A command option's value as an integer (type 4) or number (type 10): given as a number or text."""
    what = "a whole number" if integer else "a number"
    if isinstance(value, bool):
        raise BadRequest(f"option {key!r} must be {what}")
    number: int | float
    if isinstance(value, str):
        text = value.strip()
        try:
            if integer and not _INTEGER.fullmatch(text) or len(text) > 64:
                raise ValueError(text)
            number = int(text) if integer else float(text)
        except ValueError:
            raise BadRequest(f"option {key!r} must be {what}") from None
    elif isinstance(value, (int, float)):
        number = value
    else:
        raise BadRequest(f"option {key!r} must be {what}")
    if integer and not isinstance(number, int):
        if not (isinstance(number, float) and number.is_integer()):
            raise BadRequest(f"option {key!r} must be {what}")
        number = int(number)
    largest = LARGEST_OPTION_NUMBER - 1 if integer else LARGEST_OPTION_NUMBER
    if not (math.isfinite(number) and -largest <= number <= largest):
        raise BadRequest(f"option {key!r} is out of range")
    return number


async def _send_event(response: web.StreamResponse, kind: str, data: dict[str, Any]) -> None:
    await response.write(f"event: {kind}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n".encode())
