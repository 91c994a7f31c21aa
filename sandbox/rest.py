"""The sandbox's REST API: routing, authentication, body parsing, error answers.

Routes are matched against the path after the API prefix (``/api/v10``). The
domain logic (what a message edit or an interaction answer does) lives in
:mod:`sandbox.server`; handlers here parse requests and shape answers.

Every JSON answer carries exactly ``Content-Type: application/json`` (with a
``charset`` parameter discord.py would treat the body as text). Unknown routes
answer ``404 {"message": "404: Not Found", "code": 0}`` and are recorded in
``SandboxServer.unhandled_routes``.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Awaitable, Callable
from re import Pattern
from typing import TYPE_CHECKING, Any, Protocol

from aiohttp import web

if TYPE_CHECKING:  # pragma: no cover
    import collections

    from .limits import FormErrors

__all__ = ["ApiError", "RestRequest", "RestApi", "json_response"]

_log = logging.getLogger(__name__)

API_PREFIX_RE = re.compile(r"^/api(?:/v\d+)?")


def json_response(body: Any, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    """Return a response with a JSON body and the exact ``application/json`` content type."""
    all_headers = {"Content-Type": "application/json"}
    if headers:
        all_headers.update(headers)
    return web.Response(body=json.dumps(body).encode(), status=status, headers=all_headers)


class ApiError(Exception):
    """An error answer, raised by handlers.

    Parameters
    ----------
    status : int
        HTTP status.
    code : int
        Discord JSON error code.
    message : str
        Discord's error message.
    violation : str, optional
        When given, recorded in ``SandboxServer.violations`` (the bot broke a rule).
    errors : dict, optional
        Nested ``errors`` object (for 50035).
    """

    def __init__(
        self,
        status: int,
        code: int,
        message: str,
        *,
        violation: str | None = None,
        errors: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(f"{status} {code} {message}")
        self.status = status
        self.code = code
        self.message = message
        self.violation = violation
        self.errors = errors

    @classmethod
    def invalid_form_body(cls, errors: FormErrors, context: str) -> ApiError:
        """Discord's 400 / 50035 "Invalid Form Body" with the nested ``errors``, recorded as a violation of
        ``context`` (what the bot sent, e.g. "command create")."""
        return cls(
            400,
            50035,
            "Invalid Form Body",
            errors=errors.to_dict(),
            violation=f"{context}: " + "; ".join(errors.summary()),
        )

    def body(self) -> dict[str, Any]:
        """The JSON body of the answer."""
        body: dict[str, Any] = {"message": self.message, "code": self.code}
        if self.errors is not None:
            body["errors"] = self.errors
        return body


class RestRequest:
    """A parsed REST request handed to route handlers.

    Attributes
    ----------
    method, path : str
        ``path`` is relative to the API prefix.
    params : dict
        Named groups of the route pattern.
    query : mapping
    json : Any
        Parsed JSON body, or the ``payload_json`` part of a multipart body.
    files : list of (field name, filename, size, content)
    """

    def __init__(
        self,
        method: str,
        path: str,
        params: dict[str, str],
        query: Any,
        body: Any,
        files: list[tuple[str, str, int, bytes]],
    ) -> None:
        self.method = method
        self.path = path
        self.params = params
        self.query = query
        self.json = body
        self.files = files


Handler = Callable[[RestRequest], Awaitable[Any]]


class _Route:
    def __init__(self, method: str, pattern: str, handler: Handler, auth: bool) -> None:
        self.method = method
        self.regex: Pattern[str] = re.compile("^" + pattern + "$")
        self.handler = handler
        self.auth = auth


class _Response:
    """A non-200 success answer (for example 204 No Content)."""

    def __init__(self, status: int, body: Any = None) -> None:
        self.status = status
        self.body = body


NO_CONTENT = _Response(204)


class RestServer(Protocol):
    """What the REST API's entry point needs of the server (:class:`~sandbox.server.SandboxServer`): the
    bot's token, rate limits and injected failures, and where to record requests and violations."""

    bot_token: str
    request_log: collections.deque[tuple[str, str, int]]
    uploads: list[tuple[str, str, list[str]]]
    unhandled_routes: list[str]

    def _note_rate(self, key: str, limit: int, per: float, what: str) -> None: ...

    def _take_failure(self, method: str, path: str) -> web.Response | None: ...

    def _record_violation(self, code: str, text: str) -> None: ...


class RestApi:
    """Route table and aiohttp entry point of the REST API. The server adds the routes
    (``RestHandlers._add_routes``).

    Parameters
    ----------
    server : RestServer
    """

    def __init__(self, server: RestServer) -> None:
        self.server = server
        self.routes: list[_Route] = []

    def add(self, method: str, pattern: str, handler: Handler, *, auth: bool = True) -> None:
        """Register a handler; ``pattern`` is a regex with named groups (``(?P<cid>\\d+)``)."""
        self.routes.append(_Route(method, pattern, handler, auth))

    # -- aiohttp entry point ------------------------------------------------------------

    async def handle(self, request: web.Request) -> web.StreamResponse:
        """Answer one HTTP request (the catch-all aiohttp handler)."""
        server = self.server
        method = request.method.upper()
        match = API_PREFIX_RE.match(request.path)
        path = request.path[match.end() :] if match else request.path
        path = path or "/"
        label = f"{method} {path}"
        try:
            response = await self._handle(request, method, path)
        except ApiError as exc:
            if exc.violation:
                server._record_violation(str(exc.code), exc.violation)
            server.request_log.append((method, path, exc.status))
            return json_response(exc.body(), exc.status)
        server.request_log.append((method, path, response.status))
        _log.debug("%s -> %s", label, response.status)
        return response

    async def _handle(self, request: web.Request, method: str, path: str) -> web.StreamResponse:
        server = self.server
        server._note_rate("global", 50, 1.0, "requests overall")
        failure = server._take_failure(method, path)
        if failure is not None:
            return failure
        path_matched = False
        for route in self.routes:
            found = route.regex.match(path)
            if not found:
                continue
            path_matched = True
            if route.method != method:
                continue
            if route.auth:
                auth = request.headers.get("Authorization", "")
                if auth != f"Bot {server.bot_token}":
                    raise ApiError(401, 0, "401: Unauthorized")
            body, files = await self._read_body(request)
            if files:
                server.uploads.append((method, path, [file[1] for file in files]))
            req = RestRequest(method, path, found.groupdict(), request.query, body, files)
            result = await route.handler(req)
            if isinstance(result, web.StreamResponse):  # not JSON (an emoji's image)
                return result
            if isinstance(result, _Response):
                if result.body is None:
                    return web.Response(status=result.status)
                return json_response(result.body, result.status)
            return json_response(result)
        if path_matched:
            server.unhandled_routes.append(f"{method} {path}")
            raise ApiError(405, 0, "405: Method Not Allowed")
        server.unhandled_routes.append(f"{method} {path}")
        raise ApiError(404, 0, "404: Not Found")

    @staticmethod
    async def _read_body(request: web.Request) -> tuple[Any, list[tuple[str, str, int, bytes]]]:
        files: list[tuple[str, str, int, bytes]] = []
        if not request.can_read_body:
            return None, files
        ctype = request.content_type
        if ctype.startswith("multipart/"):
            body: Any = None
            reader = await request.multipart()
            while True:
                part = await reader.next()
                if part is None:
                    break
                raw = await part.read()  # type: ignore[union-attr]
                name = getattr(part, "name", None)
                filename = getattr(part, "filename", None)
                if name == "payload_json":
                    body = json.loads(raw.decode() or "null")
                elif filename is not None:
                    files.append((name or "", filename, len(raw), bytes(raw)))
            return body, files
        raw_text = await request.text()
        if not raw_text:
            return None, files
        try:
            return json.loads(raw_text), files
        except ValueError as exc:
            raise ApiError(400, 50109, "The request body contains invalid JSON.") from exc
