"""What a table picture costs: drawing a game's scene (:mod:`art.table_picture`) as a PNG,
uncached, over the states of seeded random play.

Usage::

    python3 bench/table_pictures.py [games per count]   # default 4

For every game at its smallest and largest seat count, plays ``games`` seeded games by random legal moves
and draws the public scene of every state whose scene differs from the one before (what the bot draws: a
picture is drawn again only when its scene changes), each once, uncached (``table_png.__wrapped__``; the
palette and every face scaled by ``table_picture.warm()`` first, as the bot would at start). Prints per
game: the moves played, the pictures drawn (distinct scenes in a row, so the share of moves that change
the picture), the draw time's p50 / p99 / max in ms (CPU time of the drawing thread) with the pieces drawn
before kept (the cards and the texts, as in a running bot), the p99 and max with the texts drawn anew for
every picture (a table's first picture: every name and note new), the mean and largest PNG size and the
largest picture. Deluxe Memory's board (``cogs.tables.board_image.board_png``, uncached) is measured the
same way for comparison.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from art import table_picture  # noqa: E402
from art.gallery import NAMES  # noqa: E402
from art.table_picture import draw_table, table_png  # noqa: E402
from cogs.tables.board_image import board_png, board_size  # noqa: E402
from engine.registry import GAMES  # noqa: E402


def pictures_of(game: str, num_seats: int, seed: int) -> tuple[int, list]:
    """The moves of one seeded random game and the scenes (or boards) it shows, each change once."""
    state = GAMES[game].new_game(num_seats, seed)
    rng = random.Random(seed)
    shown, moves, last = [], 0, None
    while True:
        view = state.view(None)
        picture = view.scene if view.scene is not None else view.board
        if picture is not None and picture != last:
            shown.append(picture)
            last = picture
        if state.is_terminal() or moves >= 600:
            return moves, shown
        seat = rng.choice(state.seats_to_act())
        state.apply(seat, rng.choice(state.legal_actions(seat)).code)
        moves += 1


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def measure(game: str, num_seats: int, games: int) -> str:
    names = NAMES[:num_seats]
    times, cold, sizes, largest, total_moves, total_pictures = [], [], [], (0, 0), 0, 0
    for seed in range(games):
        moves, shown = pictures_of(game, num_seats, seed)
        total_moves += moves
        total_pictures += len(shown)
        for picture in shown:
            started = time.thread_time()
            if game == "memory":
                png = board_png.__wrapped__(picture)
                size = board_size(picture)
            else:
                png = table_png.__wrapped__(picture, names)
            times.append((time.thread_time() - started) * 1000)
            if game != "memory":
                table_picture._text_lines.cache_clear()
                table_picture._text_image.cache_clear()
                started = time.thread_time()
                table_png.__wrapped__(picture, names)
                cold.append((time.thread_time() - started) * 1000)
                size = draw_table(picture, names).size
            sizes.append(len(png))
            largest = max(largest, size, key=lambda wh: wh[0] * wh[1])
    share = total_pictures / max(1, total_moves)
    return (
        f"| {game} | {num_seats} | {total_moves} | {total_pictures} ({share:.0%}) | "
        f"{statistics.median(times):.2f} | {percentile(times, 0.99):.2f} | {max(times):.2f} | "
        f"{f'{percentile(cold, 0.99):.2f} | {max(cold):.2f}' if cold else '– | –'} | "
        f"{statistics.mean(sizes) / 1024:.1f} | {max(sizes) / 1024:.1f} | {largest[0]} × {largest[1]} |"
    )


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 4
    table_picture.warm()  # every face scaled and on the felt, the palette: as the bot would at start
    print(f"{games} seeded random games per game and seat count\n")
    print(
        "| game | seats | moves | pictures (per move) | p50 ms | p99 ms | max ms | texts anew: p99 ms | "
        "max ms | PNG mean KiB | PNG max KiB | largest (px) |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for key, rules in GAMES.items():
        for num_seats in sorted({rules.min_seats, rules.max_seats}):
            print(measure(key, num_seats, games), flush=True)


if __name__ == "__main__":
    main()
