"""How much each message kind asks its reader to read, per game and player count, against its
budget (:mod:`cogs.tables.lengths`).

Usage::

    python3 bench/message_budgets.py [--game KEY ...] [--seeds 2] [--every 3] [--moves 3000] [--emojis]

For every game (default: all seven) and player count, it plays seeded random games (seeds 1..``--seeds``,
whole games up to ``--moves`` moves) with the display names of ``tests/tables/test_drawn.py`` and, every
``--every`` moves, draws the table message and every seat's private view (ephemeral) and DM (with a turn
DM's intro), then the scoreboard. It prints a Markdown table of the longest of each kind, in characters of
text (:func:`cogs.tables.lengths.text_length`), marking those over budget with ⚠. With ``--emojis`` every
card face has an application emoji (ids of 19 digits), so cards show as ``<:name:id> text``: a budget
counts an emoji as one character, and a last column gives the largest text as Discord counts it (the
emojis' markup included: an embed's, against its 6,000; a layout's text displays', against their 4,000).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
from datetime import datetime, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from art.faces import all_faces  # noqa: E402
from cogs.card_emojis import CARD_EMOJIS  # noqa: E402
from cogs.tables import lengths, render  # noqa: E402
from cogs.tables.drawn import Drawn  # noqa: E402
from engine.registry import GAMES  # noqa: E402
from engine.tables.session import TableDraft, TablePhase, TableSettings  # noqa: E402
from tests.tables.conftest import EveryFaceApplication  # noqa: E402
from tests.tables.drawing import payload  # noqa: E402
from tests.tables.test_drawn import DM_INTRO, JUMP_URL, NAMES  # noqa: E402

NOW = datetime(2026, 11, 24, 4, 0, tzinfo=timezone.utc)
LIMITS = {
    "table": lengths.TABLE_MESSAGE,
    "private": lengths.PRIVATE_VIEW,
    "dm": lengths.DM,
    "scoreboard": lengths.TABLE_MESSAGE,
}


MARKUP = "markup"
"""The largest text of any kind, as Discord counts it (:func:`cogs.tables.lengths.embed_size`,
:func:`cogs.tables.lengths.message_size`)."""
_largest = [0]


def _size(drawn: Drawn) -> int:
    message = payload(drawn)
    size = lengths.embed_size(drawn.embed) if drawn.embed is not None else lengths.message_size(message)
    _largest[0] = max(_largest[0], size)
    return lengths.text_length(message)


def longest(key: str, seats: int, seeds: int, every: int, moves: int) -> dict[str, int]:
    """The longest message of each kind over ``seeds`` random games of ``key`` at ``seats`` players."""
    found = dict.fromkeys(LIMITS, 0)
    for seed in range(1, seeds + 1):
        rng = random.Random(seed)
        session = TableDraft(
            f"{key[:4]}{seed:04d}", 10, 20, GAMES[key], TableSettings(3600, 5, 2), 1, NAMES[0]
        )
        for user in range(2, seats + 1):
            session.join(user, NAMES[user - 1])
        session.start(1, seed, NOW)
        for move in range(moves):
            if session.phase is not TablePhase.PLAYING:
                break
            if move % every == 0:
                found["table"] = max(found["table"], _size(render.table_message(session)))
                for user in session.players:
                    view = render.private_message(session, user, jump_url=JUMP_URL, offer_dm=True)
                    dm = render.private_message(session, user, jump_url=JUMP_URL).with_content(DM_INTRO)
                    found["private"] = max(found["private"], _size(view))
                    found["dm"] = max(found["dm"], _size(dm))
            user = rng.choice(session.users_with_actions())
            actions = session.view(session.seat_of(user)).legal_actions
            session.act(user, session.state.version, rng.choice(actions).code, NOW)
        if session.phase is TablePhase.SCOREBOARD:
            found["scoreboard"] = max(found["scoreboard"], _size(render.scoreboard_message(session)))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", nargs="*", default=sorted(GAMES), choices=sorted(GAMES))
    parser.add_argument("--seeds", type=int, default=2)
    parser.add_argument("--every", type=int, default=3)
    parser.add_argument("--moves", type=int, default=3000)
    parser.add_argument("--emojis", action="store_true", help="every card face has its emoji")
    args = parser.parse_args()
    if args.emojis:
        asyncio.run(CARD_EMOJIS.sync(EveryFaceApplication(), all_faces()))
    extra = [MARKUP] if args.emojis else []
    print("| game | players | " + " | ".join([*LIMITS, *extra]) + " |")
    print("| --- | --- |" + " --- |" * (len(LIMITS) + len(extra)))
    for key in args.game:
        rules = GAMES[key]
        for seats in range(rules.min_seats, rules.max_seats + 1):
            _largest[0] = 0
            found = longest(key, seats, args.seeds, args.every, args.moves)
            cells = [f"{found[kind]}{' ⚠' if found[kind] > limit else ''}" for kind, limit in LIMITS.items()]
            cells += [str(_largest[0])] if args.emojis else []
            print(f"| {key} | {seats} | " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()
