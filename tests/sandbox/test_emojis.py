"""The sandbox's application emojis answer as Discord does: list, create, get, rename and delete through
discord.py's own HTTP client, the image served on the CDN path, and Discord's refusals (a bad or taken
name, an image that is not one or is over 256 KiB, the 2,000th emoji, an unknown id)."""

from __future__ import annotations

import base64
import io
import random

import aiohttp
import discord
import pytest
from PIL import Image

from sandbox import SandboxServer, emojis


def png(size: int = 8) -> bytes:
    """A PNG of ``size`` by ``size`` pixels of noise (which does not compress: 300 is over 256 KiB)."""
    out = io.BytesIO()
    Image.frombytes("RGB", (size, size), random.Random(size).randbytes(size * size * 3)).save(
        out, format="PNG"
    )
    return out.getvalue()


@pytest.fixture
async def api():
    async with SandboxServer() as server:
        http = discord.http.HTTPClient(discord.utils.MISSING)
        old_base = discord.http.Route.BASE
        discord.http.Route.BASE = server.api_base
        try:
            await http.static_login(server.bot_token)
            yield server, http
        finally:
            await http.close()
            discord.http.Route.BASE = old_base


async def test_emojis_are_listed_created_renamed_served_and_deleted(api) -> None:
    server, http = api
    app = server.application_id
    made = await http.create_application_emoji(app, "fo_3_abc123", discord.utils._bytes_to_base64_data(png()))
    assert made["name"] == "fo_3_abc123" and made["require_colons"] and not made["animated"]
    assert (await http.get_application_emojis(app))["items"] == [made]
    renamed = await http.edit_application_emoji(app, int(made["id"]), payload={"name": "fo_3_def456"})
    assert (
        renamed["name"] == "fo_3_def456" == (await http.get_application_emoji(app, int(made["id"])))["name"]
    )
    base = server.api_base.removesuffix("/api/v10")
    async with aiohttp.ClientSession() as session, session.get(f"{base}/emojis/{made['id']}.png") as image:
        assert image.status == 200 and await image.read() == png()
    await http.delete_application_emoji(app, int(made["id"]))
    assert (await http.get_application_emojis(app))["items"] == []
    with pytest.raises(discord.NotFound):
        await http.delete_application_emoji(app, int(made["id"]))
    server.violations.clear()


@pytest.mark.parametrize(
    ("name", "image"),
    [
        ("x", png()),  # a name of one character
        ("a" * 33, png()),  # of 33
        ("no-dash", png()),  # a character Discord refuses
        ("fine_name", b"not an image"),
        ("fine_name", png(300)),  # over 256 KiB
    ],
    ids=["one character", "33 characters", "a dash", "not an image", "over 256 KiB"],
)
async def test_a_bad_emoji_is_refused(api, name: str, image: bytes) -> None:
    server, http = api
    assert len(png(300)) > emojis.IMAGE_MAX_BYTES > len(png())
    uri = "data:image/png;base64," + base64.b64encode(image).decode()
    with pytest.raises(discord.HTTPException) as refused:
        await http.create_application_emoji(server.application_id, name, uri)
    assert refused.value.status == 400 and refused.value.code == 50035
    assert server.application_emojis == {} and len(server.violations) == 1


async def test_a_taken_name_and_the_2001st_emoji_are_refused(api, monkeypatch: pytest.MonkeyPatch) -> None:
    server, http = api
    uri = discord.utils._bytes_to_base64_data(png())
    await http.create_application_emoji(server.application_id, "same", uri)
    with pytest.raises(discord.HTTPException) as taken:
        await http.create_application_emoji(server.application_id, "same", uri)
    assert taken.value.code == 50035
    monkeypatch.setattr(emojis, "EMOJI_LIMIT", 2)
    await http.create_application_emoji(server.application_id, "second", uri)
    with pytest.raises(discord.HTTPException) as full:
        await http.create_application_emoji(server.application_id, "third", uri)
    assert full.value.status == 400 and full.value.code == 30008
    assert len(server.application_emojis) == 2


async def test_a_component_naming_an_unknown_emoji_is_refused(api) -> None:
    server, http = api
    channel = server.add_guild("Card Club").add_channel("cards")
    made = await http.create_application_emoji(
        server.application_id, "fo_3_abc123", discord.utils._bytes_to_base64_data(png())
    )

    def message(emoji_id: str) -> dict:
        button = {
            "type": 2,
            "style": 2,
            "label": "3",
            "custom_id": "c",
            "emoji": {"id": emoji_id, "name": "x"},
        }
        return {"content": "hand", "components": [{"type": 1, "components": [button]}]}

    headers = {"Authorization": f"Bot {server.bot_token}"}
    url = f"{server.api_base}/channels/{channel.id}/messages"
    async with aiohttp.ClientSession(headers=headers) as session:
        async with session.post(url, json=message("12345")) as refused:
            assert refused.status == 400 and (await refused.json())["code"] == 50035
        async with session.post(url, json=message(made["id"])) as sent:
            assert sent.status == 200
    assert len(server.violations) == 1 and "emoji" in server.violations[0]
