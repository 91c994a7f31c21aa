"""``python -m bot``: run the bot; ``python -m bot --sandbox``: watch it play in a local sandbox."""

from __future__ import annotations

import argparse
import asyncio
import logging
import sqlite3
import sys

import aiohttp
import discord

from bot.settings import ConfigurationError, Settings, load_settings
from storage import Database


def main(argv: list[str] | None = None) -> int:
    """Run the bot (or the sandbox demo). Returns the process exit code."""
    parser = argparse.ArgumentParser(prog="python -m bot", description="A card-table bot for Discord.")
    parser.add_argument(
        "--sandbox",
        action="store_true",
        help="start a local Discord-compatible sandbox with simulated players and play one game there",
    )
    parser.add_argument("--players", type=int, default=4, help="simulated players in the sandbox (3-7)")
    parser.add_argument("--seed", type=int, default=None, help="seed of the simulated players' choices")
    args = parser.parse_args(argv)

    if args.sandbox:
        from bot.sandbox_demo import run_demo

        logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
        return asyncio.run(run_demo(players=args.players, seed=args.seed))

    try:
        settings = load_settings()
    except ConfigurationError as error:
        print(f"cardtable: configuration error: {error}", file=sys.stderr)
        return 2
    configure_logging(settings.log_level_number)

    try:
        return asyncio.run(_run_bot(settings))
    except KeyboardInterrupt:
        return 0


def configure_logging(level: int) -> None:
    """Log at ``level``, but never below INFO for discord.py's HTTP, gateway and webhook loggers: at DEBUG
    they write request bodies and interaction URLs, which hold players' private views and interaction
    tokens."""
    logging.basicConfig(level=level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger().setLevel(level)
    for name in ("discord.http", "discord.gateway", "discord.webhook"):
        logging.getLogger(name).setLevel(max(level, logging.INFO))


async def _run_bot(settings: Settings) -> int:
    """Open the database, then run the bot until it stops. Failures at start are one line on stderr."""
    from bot.bot import CardTableBot, StartupError

    try:
        database = await Database.open(settings.database_path)
    except (OSError, sqlite3.Error, RuntimeError) as error:
        print(f"cardtable: cannot open the database {settings.database_path}: {error}", file=sys.stderr)
        return 1
    try:
        async with CardTableBot(settings, database) as bot:
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
        await database.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
