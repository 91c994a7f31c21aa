"""``cardtable --sandbox``'s web page, server side, without a browser: what the page's server sends (over
real HTTP, the events a browser reads) and what a click or a command posted to it does in the sandbox.
``tests/bot/test_sandbox_browser.py`` plays a game on the page in a real browser."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import aiohttp

from bot.sandbox_page import YOUR_NAME, sandbox_page, watch_table

FAST_AI = {"ai_pause_seconds": 0.05, "card_emoji_decks": ["fo"]}


class EventStream:
    """The page's server-sent events, read as a browser's EventSource reads them, in the background."""

    def __init__(self, response: aiohttp.ClientResponse) -> None:
        self.events: list[tuple[str, Any]] = []
        self._arrived = asyncio.Event()
        self._reader = asyncio.create_task(self._read(response))

    async def _read(self, response: aiohttp.ClientResponse) -> None:
        kind, data = "message", ""
        async for raw in response.content:
            line = raw.decode().rstrip("\n")
            if line.startswith("event: "):
                kind = line[len("event: ") :]
            elif line.startswith("data: "):
                data = line[len("data: ") :]
            elif not line and data:
                self.events.append((kind, json.loads(data)))
                kind, data = "message", ""
                self._arrived.set()

    async def wait_for(self, predicate: Callable[[str, Any], bool], timeout: float = 10.0) -> Any:
        """The data of the first event (so far or to come) for which ``predicate(kind, data)`` holds."""
        async with asyncio.timeout(timeout):
            seen = 0
            while True:
                for kind, data in self.events[seen:]:
                    if predicate(kind, data):
                        return data
                seen = len(self.events)
                self._arrived.clear()
                await self._arrived.wait()

    def message_ids(self) -> set[str]:
        ids = {data["id"] for kind, data in self.events if kind == "message"}
        for kind, data in self.events:
            if kind == "state":
                ids.update(message["id"] for message in data["messages"])
        return ids

    def close(self) -> None:
        self._reader.cancel()


def _media_urls(view: dict[str, Any]) -> list[str]:
    urls: list[str] = []

    def walk(components: list[dict[str, Any]]) -> None:
        for component in components:
            urls.extend(item["media"]["url"] for item in component.get("items") or [])
            walk(component.get("components") or [])

    walk(view["components"])
    return urls


async def test_the_page_shows_a_table_with_its_picture_and_emojis_and_only_your_ephemerals(
    tmp_path: Path,
) -> None:
    async with sandbox_page(tmp_path, game="foist", bots=2, **FAST_AI) as session:
        server, channel = session.server, session.channel
        alice = channel.guild.add_member("alice")
        async with aiohttp.ClientSession(session.page.url) as http:
            stream = EventStream(await http.get("/api/events"))
            try:
                state = await stream.wait_for(lambda kind, _: kind == "state")
                assert state["you"]["name"] == YOUR_NAME
                assert {"play", "hand", "rules", "leaderboard", "stats", "replay"} <= {
                    command["name"] for command in state["commands"]
                }
                (lobby,) = state["messages"]
                assert lobby["command"] == {"user": YOUR_NAME, "name": "play"}
                assert "table open" in json.dumps(lobby)

                # A choice in a select menu and a click on the page are a select and a press in the sandbox,
                # answered by the bot.
                menus = server.message(int(lobby["id"])).selects()
                levels = next(menu for menu in menus if menu["custom_id"].endswith("levels"))
                hard = next(o["value"] for o in levels["options"] if o["label"].endswith(": hard"))
                choice = {"message_id": lobby["id"], "custom_id": levels["custom_id"], "values": [hard]}
                chosen = await http.post("/api/select", json=choice)
                assert (await chosen.json())["ok"] is True
                await stream.wait_for(lambda kind, data: kind == "message" and "(hard)" in json.dumps(data))
                start = next(b for b in server.message(int(lobby["id"])).buttons() if b["label"] == "Start")
                click = {"message_id": lobby["id"], "custom_id": start["custom_id"]}
                pressed = await http.post("/api/press", json=click)
                assert (await pressed.json())["ok"] is True

                # The table: a Components V2 layout whose picture is served by the page, card emojis too.
                def table_with_emojis(kind: str, data: Any) -> bool:
                    return kind == "message" and data["components_v2"] and bool(data["emojis"])

                table = await stream.wait_for(table_with_emojis)
                (picture,) = _media_urls(table)
                assert picture.startswith("/files/") and all(a["referenced"] for a in table["attachments"])
                served = await http.get(picture)
                attachment_id = picture.split("/")[2]
                assert served.content_type == "image/png"
                assert await served.read() == server.attachment_content[attachment_id]
                emoji_id, emoji_url = next(iter(table["emojis"].items()))
                assert "<:" in json.dumps(table["components"]) and emoji_id in json.dumps(table["components"])
                emoji = await http.get(emoji_url)
                assert await emoji.read() == server.emoji_images[int(emoji_id)]

                # alice's ephemeral answer never reaches your page; yours does, marked as only yours.
                hers = await server.run_command(alice, channel, "rules", game="foist")
                assert hers.ephemeral and hers.message.ephemeral_for == alice.id
                command = {"channel_id": str(channel.id), "name": "rules", "options": {"game": "foist"}}
                posted = await http.post("/api/command", json=command)
                assert (await posted.json())["ok"] is True
                yours = await stream.wait_for(
                    lambda kind, data: kind == "message" and data["ephemeral"] and "Foist" in json.dumps(data)
                )
                assert server.message(int(yours["id"])).ephemeral_for == session.you.id
                assert str(hers.message.id) not in stream.message_ids()
                theirs = {"message_id": str(hers.message.id), "custom_id": "x"}
                refused = await http.post("/api/press", json=theirs)
                assert refused.status == 400 and "not on your page" in (await refused.json())["error"]
                again = EventStream(await http.get("/api/events"))
                fresh = await again.wait_for(lambda kind, _: kind == "state")
                again.close()
                assert yours["id"] in {m["id"] for m in fresh["messages"]}
                assert str(hers.message.id) not in {m["id"] for m in fresh["messages"]}
                dismissed = await http.post("/api/dismiss", json={"message_id": yours["id"]})
                assert (await dismissed.json())["ok"] and server.message(int(yours["id"])).dismissed

                # What a browser could not send: a press of a button that is not there, a form post, another
                # host's name (a web site rebinding its name to 127.0.0.1).
                missing = {"message_id": table["id"], "custom_id": "ct:x:0:take"}
                forged = await http.post("/api/press", json=missing)
                assert forged.status == 400 and "no button" in (await forged.json())["error"]
                form = await http.post("/api/press", data="message_id=1")
                assert form.status == 415
                rebound = await http.get("/api/events", headers={"Host": f"evil.example:{session.page.port}"})
                assert rebound.status == 403
            finally:
                stream.close()
        assert server.violations == []


async def test_watch_hands_your_seat_to_an_ai_and_the_table_plays_on_by_itself(tmp_path: Path) -> None:
    # ``cardtable --sandbox --game foist --bots 2 --watch``: the table starts and plays itself out (that
    # all-AI tables end is tests/engine/ai/test_games_end.py's to show; here it starts and moves unpressed).
    async with sandbox_page(tmp_path, game="foist", bots=2, **FAST_AI) as session:
        await watch_table(session)
        table = session.table
        assert table is not None

        def text() -> str:
            return json.dumps(session.server.message(table.id).components)

        await session.server.wait_for(lambda: "left the game: an AI plays their seat" in text(), timeout=10)
        await session.server.wait_for(lambda: text().count(" took ") >= 2, timeout=20)
        assert session.server.violations == []
