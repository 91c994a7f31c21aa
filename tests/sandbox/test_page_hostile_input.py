"""The sandbox's web page (:mod:`sandbox.web`) under requests no browser sends: every malformed POST is
answered 400 with a short sentence (never a 500, never a traceback), and an event-stream client that
stops reading is cut off once it is :data:`~sandbox.web.MAX_PENDING_EVENTS` events behind, while a
client that reads goes on getting every event. No bot is needed: the page is only asked to read requests.
"""

from __future__ import annotations

import asyncio
import json
import logging
import socket
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest

from sandbox import SandboxServer
from sandbox.models import Channel, SimUser
from sandbox.web import MAX_BODY_BYTES, MAX_PENDING_EVENTS, WebPage
from tests.sandbox.test_sandbox import WARNINGS_AS_ERRORS

pytestmark = WARNINGS_AS_ERRORS  # every warning an error, as in test_sandbox.py

JSON = "application/json"
DEEP_ARRAYS = b"[" * 50_000 + b"]" * 50_000
DEEP_OBJECTS = b'{"":' * 50_000 + b"0" + b"}" * 50_000  # just under the body limit


class World:
    """A started sandbox with one guild channel, the page's user (alice) and the page."""

    def __init__(self, server: SandboxServer, channel: Channel, alice: SimUser, page: WebPage) -> None:
        self.server, self.channel, self.alice, self.page = server, channel, alice, page


@pytest.fixture
async def world() -> AsyncIterator[World]:
    async with SandboxServer() as server:
        guild = server.add_guild("Test Guild")
        channel = guild.add_channel("cards")
        alice = guild.add_member("alice")
        async with WebPage(server, alice, channel) as page:
            yield World(server, channel, alice, page)


def _assert_refused(status: int, text: str, expected: int = 400) -> str:
    """The answer is ``expected`` with ``{"error": <one short sentence>}`` and nothing like a traceback."""
    assert status == expected, text[:300]
    assert "Traceback" not in text and 'File "' not in text and "Error:" not in text
    error = json.loads(text)["error"]
    assert isinstance(error, str) and 0 < len(error) <= 120 and "\n" not in error
    return error


async def _post(page: WebPage, path: str, body: bytes, content_type: str = JSON) -> tuple[int, str]:
    async with aiohttp.ClientSession(page.url) as http:
        async with http.post(path, data=body, headers={"Content-Type": content_type}) as response:
            return response.status, await response.text()


HOSTILE: dict[str, tuple[str, bytes, str, str]] = {
    # name: (path, body, content type, a word the answer must contain)
    "a message id of 1e999": ("/api/press", b'{"message_id": 1e999, "custom_id": "x"}', JSON, "range"),
    "a channel id of 1e999": ("/api/command", b'{"channel_id": 1e999, "name": "p"}', JSON, "range"),
    "an id of 60 digits": ("/api/dismiss", b'{"message_id": ' + b"7" * 60 + b"}", JSON, "range"),
    "arrays nested 50,000 deep": ("/api/press", DEEP_ARRAYS, JSON, "deep"),
    "objects nested 50,000 deep": ("/api/press", DEEP_OBJECTS, JSON, "deep"),
    "an unknown charset": ("/api/press", b'{"message_id": "1"}', f"{JSON}; charset=bogus", "UTF-8"),
    "a charset that is not a text encoding": ("/api/press", b"{}", f"{JSON}; charset=base64", "UTF-8"),
    "a body over the limit": ("/api/press", b'{"x": "' + b"a" * (2 * MAX_BODY_BYTES) + b'"}', JSON, "KiB"),
}


@pytest.mark.parametrize("name", list(HOSTILE))
async def test_a_malformed_request_is_answered_400_with_a_sentence(
    world: World, name: str, caplog: pytest.LogCaptureFixture
) -> None:
    path, body, content_type, word = HOSTILE[name]
    with caplog.at_level(logging.INFO):
        status, text = await _post(world.page, path, body, content_type)
    assert word in _assert_refused(status, text)
    assert [r for r in caplog.records if r.levelno >= logging.WARNING] == []


async def test_ids_must_be_snowflakes(world: World) -> None:
    message = world.server.post_message(world.alice, world.channel, "hello")
    for value in ["true", "-1", "0", str(2**64), '"12a"', '"1.5"', f"{message.id}.5", "[1]", "{}", "null"]:
        body = f'{{"message_id": {value}, "custom_id": "x"}}'.encode()
        error = _assert_refused(*await _post(world.page, "/api/press", body))
        assert "message_id" in error, (value, error)
    body = f'{{"channel_id": "{world.channel.id}", "name": ["play"]}}'.encode()
    assert "name" in _assert_refused(*await _post(world.page, "/api/command", body))


async def test_option_numbers_out_of_range_or_not_whole_are_refused(world: World) -> None:
    # Sync one command the way a bot does, so the page knows the options' types.
    command = {
        "name": "roll",
        "description": "Roll",
        "options": [
            {"type": 4, "name": "dice", "description": "How many"},
            {"type": 10, "name": "odds", "description": "How likely"},
        ],
    }
    async with aiohttp.ClientSession() as http:
        synced = await http.put(
            f"{world.server.api_base}/applications/{world.server.application_id}/commands",
            json=[command],
            headers={"Authorization": f"Bot {world.server.bot_token}"},
        )
        assert synced.status == 200, await synced.text()
    for options, word in [({"dice": 2.5}, "whole"), ({"odds": "1e999"}, "range"), ({"dice": 2**60}, "range")]:
        body = json.dumps({"channel_id": str(world.channel.id), "name": "roll", "options": options}).encode()
        assert word in _assert_refused(*await _post(world.page, "/api/command", body)), options
    # A well-formed command gets past the page (no bot is connected, so it is not delivered).
    well_formed = {"channel_id": str(world.channel.id), "name": "roll", "options": {"dice": "3"}}
    body = json.dumps(well_formed).encode()
    status, text = await _post(world.page, "/api/command", body)
    assert status == 200 and json.loads(text)["failed"], text


async def test_the_wrong_content_type_is_refused_and_emojis_need_a_sane_id(world: World) -> None:
    _assert_refused(*await _post(world.page, "/api/press", b"message_id=1", "text/plain"), expected=415)
    async with aiohttp.ClientSession(world.page.url) as http:
        async with http.get("/emojis/" + "9" * 5000 + ".png") as response:
            assert response.status == 404


# -- event streams ---------------------------------------------------------------------------------


async def _read_events(response: aiohttp.ClientResponse, seen: list[dict[str, Any]]) -> None:
    async for raw in response.content:
        line = raw.decode()
        if line.startswith("data: "):
            seen.append(json.loads(line[len("data: ") :]))


def _stalled_client(page: WebPage) -> socket.socket:
    """An event-stream client that asks once and never reads: a socket with the smallest receive buffer."""
    client = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    client.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)
    client.connect(("127.0.0.1", page.port))
    client.sendall(f"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:{page.port}\r\n\r\n".encode())
    return client


async def _cut_off(client: socket.socket) -> bool:
    """Whether the server closed ``client``'s connection (reading what it had sent, until the end)."""
    client.setblocking(False)
    while True:
        try:
            if not client.recv(65536):
                return True
        except BlockingIOError:
            await asyncio.sleep(0.01)
        except ConnectionResetError:
            return True


async def test_a_client_that_stops_reading_is_cut_off_and_a_reading_one_goes_on(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    page, server = world.page, world.server
    stalled = _stalled_client(page)
    seen: list[dict[str, Any]] = []  # the reading client's events: the state, then each message
    async with aiohttp.ClientSession(page.url) as http, http.get("/api/events") as response:
        reader = asyncio.create_task(_read_events(response, seen))
        try:
            with caplog.at_level(logging.WARNING, logger="sandbox.web"):
                async with asyncio.timeout(5):
                    while len(page.event_backlogs) < 2 or not seen:
                        await asyncio.sleep(0.01)
                    posted = 0
                    while len(page.event_backlogs) == 2:
                        for _ in range(20):  # a burst, then let the reading client catch up
                            server.post_message(world.alice, world.channel, "x" * 1900)
                            posted += 1
                            assert max(page.event_backlogs) <= MAX_PENDING_EVENTS
                        while len(seen) < 1 + posted and page.event_backlogs:
                            await asyncio.sleep(0.001)
                    assert await _cut_off(stalled)
                    last = server.post_message(world.alice, world.channel, "still here")
                    while seen[-1].get("id") != str(last.id):
                        await asyncio.sleep(0.01)
            assert posted > MAX_PENDING_EVENTS
            assert len(page.event_backlogs) == 1
            logged = [r for r in caplog.records if r.levelno >= logging.WARNING]
            assert len(logged) == 1 and logged[0].name == "sandbox.web" and "behind" in logged[0].getMessage()
            assert len(seen) == 1 + posted + 1  # the reading client missed nothing
        finally:
            reader.cancel()
            stalled.close()
