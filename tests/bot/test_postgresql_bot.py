"""The bot on a PostgreSQL database: it plays and reports its health as on SQLite, takes no backups
(``pg_dump`` does), and a database it cannot use stops it with one line that never shows the password."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import pytest

from bot.cli import main
from bot.sandbox_demo import sandbox_bot
from sandbox import SandboxServer
from tests.bot.test_entrypoint import bot_environment, run_bot


def with_password(url: str, password: str) -> str:
    """``postgresql://user@host...`` with ``password`` set (the test server trusts loopback: ignored)."""
    scheme, rest = url.split("://", 1)
    user, host = rest.split("@", 1)
    return f"{scheme}://{user}:{password}@{host}"


async def test_the_bot_plays_on_postgresql_and_leaves_backups_to_pg_dump(
    postgres_url: str, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="bot.bot")
    async with SandboxServer() as server:
        guild = server.add_guild("Card Club")
        channel = guild.add_channel("cards")
        alice, bob = guild.add_member("alice"), guild.add_member("bob")
        url = with_password(postgres_url, "s3cret")
        data_dir = tmp_path / "data"  # not there yet: the bot makes it for its health report
        settings = {
            "database_url": url,
            "data_dir": data_dir,
            "log_level": "INFO",
            "presses_per_second": 1000,
        }
        async with sandbox_bot(server, guild.id, tmp_path / "unused.db", **settings) as bot:
            assert bot.db.dialect == "postgresql"
            opened = await server.run_command(alice, channel, "play", game="foist")
            assert opened.ok and "table open" in opened.message.text()
            (join,) = [b["custom_id"] for b in opened.message.buttons() if b.get("label") == "Join"]
            joined = await server.press(bob, opened.message, join)
            assert joined.ok, joined
            ((table_id, guild_id, _channel),) = await bot.db.tables_of_user(bob.id)
            assert guild_id == guild.id and await bot.db.load_table(table_id) is not None
            assert bot.scheduler.get_job("database-backup") is None
            report = await bot.health.report()
            assert report["database_writable"] is True
            assert (data_dir / "cardtable.health.json").is_file()
    assert not (tmp_path / "unused.db").exists() and not (tmp_path / "backups").exists()
    backups_said = [r.getMessage() for r in caplog.records if "pg_dump" in r.getMessage()]
    assert len(backups_said) == 1 and "s3cret" not in backups_said[0] and "***" in backups_said[0]


def test_cardtable_backup_says_it_is_pg_dumps_job(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DATABASE_URL", "postgresql://bot:s3cret@db.example:5432/cards")
    assert main(["backup"]) == 1
    said = capsys.readouterr().err.strip()
    assert said.startswith("cardtable: the database is PostgreSQL") and "pg_dump" in said
    assert "s3cret" not in said and "\n" not in said


async def test_a_database_the_server_refuses_is_one_line_without_the_password(
    postgres_url: str, tmp_path: Path
) -> None:
    missing = with_password(postgres_url.rsplit("/", 1)[0] + "/no_such_database", "s3cret")
    env = {**bot_environment(tmp_path, DISCORD_TOKEN="x"), "DATABASE_URL": missing}
    process = await run_bot(env, tmp_path)
    _, stderr = await asyncio.wait_for(process.communicate(), timeout=30)
    text = stderr.decode()
    assert process.returncode == 1
    last_line = text.strip().splitlines()[-1]
    assert last_line.startswith("cardtable: cannot open the database postgresql://cardtable:***@"), text
    assert "no_such_database" in last_line and "does not exist" in last_line
    assert "s3cret" not in text and "Traceback" not in text
