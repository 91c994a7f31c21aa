"""What the renderer draws, as one digest, and what drawing the table message of a new state costs, on demand
(never in the test suite).

    python3 bench/render_digest.py              # digests, without and with card emojis, of 2 seeds
    python3 bench/render_digest.py --seeds 5    # more random games
    python3 bench/render_digest.py --timing     # also the table message of new Foist states, in µs

For every game at its fewest and most seats, random games (a seed each) are played move by move through the
table (``TableDraft.act``, ``freeze``, ``draft``: as a press does), at most 120 moves each; after every move
the renderer draws the message of the table's phase, each seat's private view (the ephemeral one and the
DM), the table message at its second page of menus, and once the game is over the DM's scoreboard. Each
drawing (components, embed, content, the attachments' names and alt texts) is hashed into one SHA-256
digest, first without card emojis, then with an emoji for every face (as after a sync): a change of the
renderer that keeps every message byte for byte the same keeps both digests.

``--timing``: CPU microseconds (``time.process_time``) per ``render.table_message`` of new Foist states,
each drawn first once (what a press draws: nothing known of the state yet), then again (what the engine and
the renderer keep of it), with card emojis and the garbage collector's older objects frozen.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import hashlib
import json
import random
import sys
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from art.faces import all_faces  # noqa: E402
from cogs.card_emojis import CARD_EMOJIS  # noqa: E402
from cogs.tables import render  # noqa: E402
from engine.registry import GAMES  # noqa: E402
from engine.tables.session import TableDraft, TablePhase, TableSettings  # noqa: E402
from tests.tables.conftest import EveryFaceApplication  # noqa: E402

START = datetime(2026, 1, 5, 12, 0, tzinfo=timezone.utc)
MOVES = 120


def tables(seed: int, only: set[str] | None = None):
    """``(game, table)`` after every move of the random games of ``seed`` (every game, or those ``only``)."""
    rng = random.Random(seed)
    for key, rules in sorted(GAMES.items()):
        if only and key not in only:
            continue
        for players in sorted({rules.min_seats, rules.max_seats}):
            draft = TableDraft(f"{key[:4]}{seed}{players}", 10, 20, rules, TableSettings(60, 5, 2), 1, "Ann")
            for user in range(2, players + 1):
                draft.join(user, f"Player number {user}")
            draft.start(1, rng.randrange(10**6), START)
            now = START
            for _ in range(MOVES):
                table = draft.freeze()
                yield key, table
                draft = table.draft()
                users = draft.users_to_act() if draft.phase is TablePhase.PLAYING else []
                if not users:
                    break
                user = rng.choice(users)
                actions = draft.legal_actions(draft.seat_of(user))
                if not actions:
                    break
                now += timedelta(seconds=3)
                draft.act(user, draft.state.version, rng.choice(actions).code, now)


def _text(drawn) -> str:
    return json.dumps(
        {
            "components": drawn.components,
            "embed": drawn.embed,
            "content": drawn.content,
            "layout": drawn.layout,
            "attachments": [(file.filename, file.description) for file in drawn.attachments],
        },
        sort_keys=True,
        default=str,
    )


def digest(seeds: range) -> tuple[int, str]:
    """How many drawings the games of ``seeds`` gave, and their digest."""
    total = hashlib.sha256()
    count = 0
    for seed in seeds:
        for _, table in tables(seed):
            drawn = [render.current_message(table)]
            if table.phase is TablePhase.PLAYING:
                for user in table.seated_users():
                    drawn.append(render.private_message(table, user, offer_dm=True))
                    drawn.append(render.private_message(table, user, jump_url="https://discord.com/x/y"))
                drawn.append(render.table_message(table, page=1))
            else:
                drawn.append(render.dm_scoreboard(table))
            for message in drawn:
                total.update(_text(message).encode())
                count += 1
    return count, total.hexdigest()


def timing(seeds: range) -> tuple[int, float, float]:
    """New Foist states of ``seeds``: how many, then CPU µs per table message drawn first, and again."""
    states = [
        table for seed in seeds for _, table in tables(seed, {"foist"}) if table.phase is TablePhase.PLAYING
    ]
    gc.collect()
    gc.freeze()
    started = time.process_time()
    for table in states:
        render.table_message(table)
    first = time.process_time()
    for table in states:
        render.table_message(table)
    again = time.process_time()
    return len(states), (first - started) / len(states) * 1e6, (again - first) / len(states) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seeds", type=int, default=2, help="random games per game and seat count")
    parser.add_argument("--timing", action="store_true", help="also time the table message of Foist states")
    args = parser.parse_args()
    seeds = range(args.seeds)
    count, plain = digest(seeds)
    print(f"without card emojis: {count} drawings, digest {plain}")
    asyncio.run(CARD_EMOJIS.sync(EveryFaceApplication(), all_faces()))
    count, shown = digest(seeds)
    print(f"with card emojis:    {count} drawings, digest {shown}")
    if args.timing:
        states, first, again = timing(range(100, 100 + 10 * args.seeds))
        print(f"table message of {states} new Foist states: {first:.1f} µs first, {again:.1f} µs again (CPU)")


if __name__ == "__main__":
    main()
