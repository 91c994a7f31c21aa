"""The benchmarks that give the table runtime's before and after figures still find what they measure:
``bench/press_path.py`` traces a press through ``TableRuntime.commit`` and ``bench/lock_hold.py`` finds
the table's lock where it lives. If the runtime is restructured, these fail until the benchmarks are
pointed at the new places (``Tracer.COMMIT``, ``LOCK_PLACES``), so the after figures can be measured as
the before figures were. Only that the figures are printed is checked, never a timing."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run_bench(*command: str) -> str:
    env = {key: value for key, value in os.environ.items() if not key.startswith(("DISCORD_", "DEV_GUILD"))}
    done = subprocess.run(
        [sys.executable, *command], cwd=ROOT, env=env, capture_output=True, text=True, timeout=100
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def test_press_path_traces_one_press_through_the_commit() -> None:
    out = run_bench("bench/press_path.py", "--quick")
    modules = re.search(r"project modules entered \(bot/, cogs/, engine/, storage/, art/\): (\d+)", out)
    assert modules and int(modules[1]) > 10, out
    assert re.search(r"switches between project modules: \d+ edges", out), out
    assert re.search(r"from engine/tables into cogs: \d+ edges", out), out
    assert re.search(r"calls from the runtime into the Discord layer: \d+; 1 commit\(s\)", out), out


def test_lock_hold_finds_the_tables_lock_and_times_each_press() -> None:
    out = run_bench("bench/lock_hold.py", "--tables", "2", "--games", "1")
    presses = re.search(r"(\d+) presses", out)
    holds = re.search(r"; (\d+) holds in the window", out)
    assert presses and holds, out  # the lock was found and held by the presses
    assert int(holds[1]) == int(presses[1]), out  # one hold per press
    assert "hold time (acquire -> release): p50" in out and "of which the answer's HTTP request: " in out, out
