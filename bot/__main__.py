"""``python -m bot``: run the bot; ``python -m bot --sandbox``: watch it play in a local sandbox."""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys

import discord

from bot.settings import ConfigurationError, load_settings


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
    logging.basicConfig(
        level=settings.log_level_number, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )

    from bot.bot import CardTableBot

    async def run() -> None:
        async with CardTableBot(settings) as bot:
            await bot.start(settings.discord_token.get_secret_value())

    try:
        asyncio.run(run())
    except discord.LoginFailure:
        print(
            "cardtable: DISCORD_TOKEN was refused: check the token in the environment or .env",
            file=sys.stderr,
        )
        return 1
    except KeyboardInterrupt:
        return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
