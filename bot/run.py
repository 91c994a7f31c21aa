"""Running the bot until it is stopped: open the database, connect, stop cleanly on SIGTERM or SIGINT.

A failure at start is one line on stderr (``cardtable: ...``) and exit code 1, with no traceback.
"""

from __future__ import annotations

import asyncio
import gc
import sys

import aiohttp
import discord

from bot.settings import Settings
from storage import Database, DatabaseError, DatabaseUnwritable, error_line

GC_THRESHOLDS = (20_000, 20, 20)
"""Python's cyclic garbage collector runs after this many new objects (and every 20th, 400th time over the
older generations). The default (700, 10, 10) makes it scan the whole heap of every live table again and
again while presses allocate their short-lived answers, a real share of the bot's CPU per press with
1,000 live tables (``bench/press_cost.py``, ``docs/performance.md``). Nearly everything a press makes is
freed by reference counting; only the rare cycles wait a little longer."""

SWITCH_INTERVAL_SECONDS = 0.002
"""How long a thread may hold the interpreter before it must let another run (Python's default: 0.005).
An AI player thinks in a worker thread (``engine/tables/ai_turns.py``); a shorter interval lets the event
loop run sooner while it thinks, keeping the loop's waits inside the 20 ms it may be held
(``bench/ai_turns_loop.py``, ``docs/performance.md``)."""


def tune_interpreter() -> None:
    """Set the garbage collector's thresholds (:data:`GC_THRESHOLDS`) and the threads' switch interval
    (:data:`SWITCH_INTERVAL_SECONDS`) for the bot's process."""
    gc.set_threshold(*GC_THRESHOLDS)
    sys.setswitchinterval(SWITCH_INTERVAL_SECONDS)


def run(settings: Settings) -> int:
    """Run the bot until it is stopped. Returns the process exit code (0 after a clean stop)."""
    tune_interpreter()
    try:
        return asyncio.run(_run_bot(settings))
    except KeyboardInterrupt:  # Ctrl-C before the signal handlers were installed
        return 0


async def _run_bot(settings: Settings) -> int:
    from bot.bot import CardTableBot, StartupError
    from bot.shutdown import GracefulShutdown

    try:
        database = await Database.open(settings.database_url, pool_size=settings.database_pool_size)
    except DatabaseUnwritable as error:
        print(f"cardtable: {error}", file=sys.stderr)
        return 1
    except (OSError, RuntimeError, ValueError, *DatabaseError) as error:
        # One line, as for a SQLite file: a PostgreSQL server that refuses (down, wrong password, no such
        # database) is named without its password.
        reason = error_line(error, settings.database_url)
        print(f"cardtable: cannot open the database {settings.database.shown}: {reason}", file=sys.stderr)
        return 1
    shutdown: GracefulShutdown | None = None
    try:
        async with CardTableBot(settings, database) as bot:
            shutdown = GracefulShutdown(bot)
            shutdown.install()
            await bot.start(settings.discord_token.get_secret_value())
    except discord.LoginFailure:
        print(
            "cardtable: DISCORD_TOKEN was refused: check the token in the environment or .env",
            file=sys.stderr,
        )
        return 1
    except (aiohttp.ClientError, discord.GatewayNotFound) as error:
        print(f"cardtable: cannot reach {settings.discord_api_base}: {error}", file=sys.stderr)
        return 1
    except StartupError as error:
        print(f"cardtable: {error}", file=sys.stderr)
        return 1
    except discord.HTTPException as error:
        print(f"cardtable: Discord refused a request while starting: {error}", file=sys.stderr)
        return 1
    finally:
        if shutdown is not None:
            shutdown.uninstall()
        await database.close()
    return 0
