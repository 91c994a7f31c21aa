"""What the card faces cost: drawing every face, its PNG, and making them application emojis at
start through the sandbox with the real discord.py client.

Usage::

    python3 bench/card_emojis.py

Prints, for every deck and in all: the faces, the CPU time to draw them (128 px, ``Face.image``) and to
encode their PNGs, the PNG sizes (mean and largest, Discord's limit being 256 KiB); then the wall time of
the bot's emoji sync in the sandbox at a first start (every face uploaded, one at a time) and at a restart
(every emoji found, nothing uploaded).
"""

from __future__ import annotations

import asyncio
import io
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from art.faces import DECKS, all_faces  # noqa: E402
from bench.no_limits import NO_LIMITS  # noqa: E402
from bot.sandbox_demo import sandbox_bot  # noqa: E402
from sandbox import SandboxServer  # noqa: E402


def draw_costs() -> None:
    print("| deck | faces | draw (ms, all) | PNG encode (ms, all) | PNG mean (bytes) | PNG largest (bytes) |")
    print("|---|---|---|---|---|---|")
    totals = [0, 0.0, 0.0, 0, 0]
    for deck, faces in DECKS.items():
        started = time.process_time()
        images = [face.image() for face in faces]
        drawn = time.process_time() - started
        started = time.process_time()
        sizes = []
        for image in images:
            out = io.BytesIO()
            image.save(out, format="PNG")
            sizes.append(len(out.getvalue()))
        encoded = time.process_time() - started
        print(
            f"| {deck} | {len(faces)} | {drawn * 1000:.0f} | {encoded * 1000:.0f} | "
            f"{sum(sizes) / len(sizes):.0f} | {max(sizes)} |"
        )
        totals = [
            totals[0] + len(faces),
            totals[1] + drawn,
            totals[2] + encoded,
            totals[3] + sum(sizes),
            max(totals[4], max(sizes)),
        ]
    count, drawn, encoded, size, largest = totals
    print(f"| all | {count} | {drawn * 1000:.0f} | {encoded * 1000:.0f} | {size / count:.0f} | {largest} |")


async def sync_costs() -> None:
    async with SandboxServer() as server:
        guild = server.add_guild("Card Club")
        guild.add_channel("cards")
        with tempfile.TemporaryDirectory() as folder:
            database = Path(folder) / "bot.db"
            for start in ("first start", "restart"):
                async with sandbox_bot(
                    server, guild.id, database, card_emoji_decks=list(DECKS), **NO_LIMITS
                ) as bot:
                    report = await bot.card_emoji_sync
                print(
                    f"{start}: sync {report.seconds:.2f} s wall, {report.uploaded} uploaded, "
                    f"{report.found} found ({len(all_faces())} faces)"
                )


if __name__ == "__main__":
    draw_costs()
    asyncio.run(sync_costs())
