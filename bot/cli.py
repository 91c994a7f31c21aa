"""The ``cardtable`` command (also ``python -m bot``).

- ``cardtable``: run the bot (settings from the environment and ``.env``, see ``.env.example``).
- ``cardtable --sandbox``: play in a browser against AI players, no Discord needed (a local sandbox, the
  real bot and a web page on 127.0.0.1): ``--game G --bots N`` opens straight into a table, ``--watch``
  lets its AI seats play it out (alone: simulated people play Foist), ``--transcript`` prints one game
  played by simulated players instead,
  ``--port`` sets the page's port.
- ``cardtable backup``: take a database backup now (safe while the bot runs; SQLite: a PostgreSQL database is
  backed up with ``pg_dump``).
- ``cardtable invite [--application-id ID]``: print the URL that invites the bot.
- ``cardtable health``: exit 0 if the running bot is connected and its database writable (Docker's
  HEALTHCHECK), else print why and exit 1.
- ``cardtable migrate-db --from sqlite:///... --to postgresql://...``: copy a whole database (live tables
  included) into an empty one, and check the counts (:mod:`storage.transfer`).

Every failure is one line on stderr starting with ``cardtable:`` and a non-zero exit code. A running
``cardtable`` prints the stack of every one of its threads to stderr on ``SIGUSR1`` (``kill -USR1 <pid>``),
and goes on: what to look at when it seems stuck.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import faulthandler
import logging
import signal
import sqlite3
import sys

from bot.settings import ConfigurationError, Settings, load_settings
from engine.core import plural

EXIT_CONFIGURATION = 2


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="cardtable", description="A card-table bot for Discord.")
    parser.add_argument(
        "--sandbox",
        action="store_true",
        help="play in your browser, no Discord needed: a local Discord-compatible sandbox, the bot and a web "
        "page on 127.0.0.1",
    )
    sandbox = parser.add_argument_group("--sandbox options")
    sandbox.add_argument("--game", default=None, help="open straight into a table of this game (e.g. foist)")
    sandbox.add_argument("--bots", type=int, default=2, help="AI players at the --game table (default 2)")
    sandbox.add_argument(
        "--watch",
        action="store_true",
        help="AI seats play the --game table to its end (alone: simulated people play Foist)",
    )
    sandbox.add_argument(
        "--transcript", action="store_true", help="print one Foist game of simulated players, no web page"
    )
    sandbox.add_argument("--port", type=int, default=0, help="the web page's port (default: a free one)")
    sandbox.add_argument("--players", type=int, default=4, help="simulated players (3-7)")
    sandbox.add_argument("--seed", type=int, default=None, help="seed of the simulated players' choices")
    commands = parser.add_subparsers(dest="command", metavar="{backup,invite,health,migrate-db}")
    commands.add_parser("backup", help="take a database backup now (into BACKUP_DIR)")
    invite = commands.add_parser("invite", help="print the URL that invites the bot to a server")
    invite.add_argument(
        "--application-id",
        type=int,
        default=None,
        help="the application id (default: DISCORD_APPLICATION_ID, else read from DISCORD_TOKEN)",
    )
    commands.add_parser("health", help="exit 0 if the running bot is connected and its database writable")
    migrate = commands.add_parser(
        "migrate-db",
        help="copy a whole database into an empty one (e.g. SQLite to PostgreSQL) and check the counts",
    )
    migrate.add_argument("--from", dest="source", required=True, help="sqlite:///path.db or postgresql://...")
    migrate.add_argument("--to", dest="target", required=True, help="an EMPTY database: postgresql://...")
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the command ``argv`` names. Returns the process exit code."""
    args = build_parser().parse_args(argv)
    if args.sandbox:
        logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
        _stacks_on_sigusr1()
        return _sandbox(args)
    if args.command == "migrate-db":
        return asyncio.run(_migrate_db(args.source, args.target))
    try:
        settings = load_settings() if args.command is None else _settings_without_token()
    except ConfigurationError as error:
        print(f"cardtable: configuration error: {error}", file=sys.stderr)
        return EXIT_CONFIGURATION
    if args.command == "backup":
        return asyncio.run(_backup(settings))
    if args.command == "invite":
        return _invite(settings, args.application_id)
    if args.command == "health":
        from bot.health import check

        healthy, reason = check(settings.health_path)
        print(f"cardtable: {reason}", file=sys.stdout if healthy else sys.stderr)
        return 0 if healthy else 1
    from bot.run import run

    configure_logging(settings.log_level_number)
    _stacks_on_sigusr1()
    return run(settings)


def _stacks_on_sigusr1() -> None:
    """Print every thread's stack to stderr on ``SIGUSR1`` (not on Windows, nor where stderr is no file, nor
    where the signal has a handler already: a benchmark's, ``bench/lock_hold.py``)."""
    if hasattr(signal, "SIGUSR1") and signal.getsignal(signal.SIGUSR1) is signal.SIG_DFL:
        with contextlib.suppress(AttributeError, OSError, ValueError):  # io.UnsupportedOperation: no fileno
            faulthandler.register(signal.SIGUSR1, all_threads=True)


def configure_logging(level: int) -> None:
    """Log at ``level``, but never below INFO for discord.py's HTTP, gateway and webhook loggers: at DEBUG
    they write request bodies and interaction URLs, which hold players' private views and interaction
    tokens."""
    logging.basicConfig(level=level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger().setLevel(level)
    for name in ("discord.http", "discord.gateway", "discord.webhook"):
        logging.getLogger(name).setLevel(max(level, logging.INFO))


def _sandbox(args: argparse.Namespace) -> int:
    if args.transcript:
        from bot.sandbox_demo import run_demo

        return asyncio.run(run_demo(players=args.players, seed=args.seed))
    from bot.sandbox_page import run_page
    from engine import GAMES
    from sandbox import SandboxUsageError

    if args.game is not None and args.game not in GAMES:
        print(f"cardtable: there is no game {args.game!r}; the games: {', '.join(GAMES)}", file=sys.stderr)
        return EXIT_CONFIGURATION
    try:
        return asyncio.run(
            run_page(
                game=args.game,
                bots=args.bots,
                watch=args.watch,
                players=args.players,
                seed=args.seed,
                port=args.port,
            )
        )
    except KeyboardInterrupt:
        return 0
    except SandboxUsageError as error:
        print(f"cardtable: /play refused: {error}", file=sys.stderr)
        return EXIT_CONFIGURATION
    except OSError as error:
        print(f"cardtable: the web page cannot listen on 127.0.0.1:{args.port}: {error}", file=sys.stderr)
        return 1


def _settings_without_token() -> Settings:
    """The settings for a command that does not connect: ``DISCORD_TOKEN`` may be missing."""
    try:
        return load_settings()
    except ConfigurationError as error:
        if not str(error).startswith("DISCORD_TOKEN"):
            raise
        return load_settings(discord_token="-")


async def _backup(settings: Settings) -> int:
    from bot.backups import back_up_file

    if settings.uses_postgresql:
        print(
            f"cardtable: the database is PostgreSQL ({settings.redacted_database_url}): back it up with "
            "pg_dump (see the README, 'Backups'); `cardtable backup` copies a SQLite file",
            file=sys.stderr,
        )
        return 1
    path = settings.database_path
    if not path.is_file():
        print(f"cardtable: there is no database at {path} to back up", file=sys.stderr)
        return 1
    try:
        target = await back_up_file(path, settings.backup_path, settings.backup_keep)
    except (OSError, sqlite3.Error) as error:
        print(f"cardtable: the backup of {path} to {settings.backup_path} failed: {error}", file=sys.stderr)
        return 1
    print(target)
    return 0


async def _migrate_db(source: str, target: str) -> int:
    from storage import DatabaseError, error_line, redacted_database_url
    from storage.transfer import TargetNotEmpty, copy_database

    shown = f"{redacted_database_url(source)} to {redacted_database_url(target)}"
    try:
        counts = await copy_database(source, target)
    except (TargetNotEmpty, FileNotFoundError, ValueError, RuntimeError, OSError, *DatabaseError) as error:
        reason = error_line(ValueError(error_line(error, source)), target)  # neither password shown
        print(f"cardtable: the copy from {shown} failed: {reason}", file=sys.stderr)
        return 1
    width = max(len(count.table) for count in counts)
    for count in counts:
        print(f"{count.table:<{width}}  {count.source:>9} -> {count.target:>9}")
    wrong = [count.table for count in counts if count.source != count.target]
    if wrong:
        print(f"cardtable: the counts differ in {', '.join(wrong)}", file=sys.stderr)
        return 1
    total = sum(count.target for count in counts)
    print(
        f"cardtable: copied {plural(total, 'row')} of {plural(len(counts), 'table')} from {shown}; "
        "every count agrees"
    )
    return 0


def _invite(settings: Settings, application_id: int | None) -> int:
    from bot.invite import application_id_of_token, invite_url

    if application_id is None:
        application_id = settings.discord_application_id
    if application_id is None:
        application_id = application_id_of_token(settings.discord_token.get_secret_value())
    if application_id is None:
        print(
            "cardtable: the application id is unknown: pass --application-id, or set "
            "DISCORD_APPLICATION_ID (or DISCORD_TOKEN)",
            file=sys.stderr,
        )
        return EXIT_CONFIGURATION
    print(invite_url(application_id))
    return 0
