"""What storing one move costs on SQLite, on demand (never in the test suite): the CPU of the whole process
(the event loop and the database's thread(s): ``time.process_time``) and the wall time per save.

    python3 bench/sqlite_move_cost.py                # 2,000 moves on 20 tables
    python3 bench/sqlite_move_cost.py --moves 500

Each save is what a press stores: a table's snapshot (3 KB of JSON text) and one new action, through
:meth:`storage.Database.save_table`, one at a time, with a press's write deadline set
(``storage.press_write_deadline``, 1.5 s), on a file with ``synchronous = FULL`` (every save fsynced). Run
from another checkout (``PYTHONPATH=<checkout> python3 <checkout>/bench/sqlite_move_cost.py``) to compare
two versions of ``storage`` on the same machine.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from storage import Database, StoredAction, press_write_deadline  # noqa: E402


async def run(moves: int, tables: int) -> tuple[float, float, float]:
    with tempfile.TemporaryDirectory() as folder:
        db = await Database.open(Path(folder) / "bench.db")
        snapshot = '{"filler": "' + "x" * 3000 + '"}'
        for n in range(tables):  # each table stored once first, with its seats (not a move's write)
            await db.save_table(f"t{n}", 1, 2, "foist", snapshot, seated_users=[1, 2, 3])
        walls = []
        cpu = time.process_time()
        for move in range(moves):
            token = press_write_deadline.set(time.monotonic() + 1.5)
            began = time.perf_counter()
            try:
                action = StoredAction(move // tables, 0, "take")
                await db.save_table(f"t{move % tables}", 1, 2, "foist", snapshot, [action])
            finally:
                press_write_deadline.reset(token)
            walls.append(time.perf_counter() - began)
        cpu = time.process_time() - cpu
        await db.close()
    return cpu / moves, statistics.median(walls), sorted(walls)[int(len(walls) * 0.99)]


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--moves", type=int, default=2000)
    parser.add_argument("--tables", type=int, default=20)
    arguments = parser.parse_args()
    cpu, p50, p99 = asyncio.run(run(arguments.moves, arguments.tables))
    print(
        f"{arguments.moves} moves: CPU {cpu * 1e6:.0f} µs per move (all threads); "
        f"wall p50 {p50 * 1000:.2f} ms, p99 {p99 * 1000:.2f} ms"
    )


if __name__ == "__main__":
    main()
