"""The sandbox's web page (:mod:`sandbox.web`) with this package's own test bot (``test_sandbox.py``): a
modal the bot shows through the page is filled in there, and the answer comes back to the page only."""

from __future__ import annotations

import aiohttp

from sandbox.web import WebPage
from tests.sandbox.test_sandbox import WARNINGS_AS_ERRORS, World, discord_globals, world  # noqa: F401

pytestmark = WARNINGS_AS_ERRORS  # every warning an error, as in test_sandbox.py


async def test_a_modal_opened_on_the_page_is_submitted_there(world: World) -> None:  # noqa: F811
    server, channel = world.server, world.channel
    async with WebPage(server, world.alice, channel) as page, aiohttp.ClientSession(page.url) as http:
        command = {"channel_id": str(channel.id), "name": "play", "options": {"game": "foist"}}
        assert (await (await http.post("/api/command", json=command)).json())["ok"]
        table = channel.messages[-1]
        opened = await http.post("/api/press", json={"message_id": str(table.id), "custom_id": "note:1"})
        modal = (await opened.json())["modal"]
        assert modal["title"] == "Table note"
        inputs = [c.get("component") or c.get("components", [{}])[0] for c in modal["components"]]
        assert [i["custom_id"] for i in inputs] == ["note", "why"]
        filled = {"modal_id": modal["id"], "values": {"note": "remember trumps", "why": "fun"}}
        assert (await (await http.post("/api/modal", json=filled)).json())["ok"]
        again = await http.post("/api/modal", json=filled)
        assert again.status == 400 and "closed" in (await again.json())["error"]
        noted = next(m for m in page.state()["messages"] if "Noted" in m["content"])
        assert noted["ephemeral"] and noted["content"] == "Noted: remember trumps / fun"
        assert server.violations == []
