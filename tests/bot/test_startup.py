"""Starting the bot: settings errors are one clear line, the README's commands are the ones CI runs."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from bot.settings import ConfigurationError, load_settings

ROOT = Path(__file__).resolve().parents[2]
SETTING_NAMES = ("DISCORD_TOKEN", "DISCORD_API_BASE", "DATABASE_URL", "DEV_GUILD_ID", "LOG_LEVEL")


@pytest.fixture
def clean_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """No settings in the environment, and a working folder without a .env."""
    for name in SETTING_NAMES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize(
    ("overrides", "line"),
    [
        ({}, "DISCORD_TOKEN is missing: set it in the environment or in .env"),
        ({"discord_token": "  "}, "DISCORD_TOKEN is not valid: is empty"),
        ({"discord_token": "t", "dev_guild_id": "abc"}, "DEV_GUILD_ID is not valid"),
        (
            {"discord_token": "t", "database_url": "mysql://bot:s3cret@db/cards"},
            "DATABASE_URL is not valid: must look like",
        ),
        (
            {"discord_token": "t", "database_url": "postgres://bot:s3cret@db"},
            "DATABASE_URL is not valid: needs a database name",
        ),
        ({"discord_token": "t", "discord_api_base": "discord.com"}, "DISCORD_API_BASE is not valid"),
        ({"discord_token": "t", "log_level": "loud"}, "LOG_LEVEL is not valid"),
        (
            {"discord_token": "t", "discord_api_base": "http://127.0.0.1:99999/api"},
            "DISCORD_API_BASE is not valid",
        ),
        (
            {"discord_token": "t", "discord_api_base": "http:///api"},
            "DISCORD_API_BASE is not valid: needs a host",
        ),
        ({"discord_token": "t", "min_turn_seconds": 120}, "DEFAULT_TURN_SECONDS must lie between"),
    ],
)
def test_bad_settings_name_the_setting_in_one_line(
    clean_environment: Path, overrides: dict, line: str
) -> None:
    with pytest.raises(ConfigurationError) as error:
        load_settings(**overrides)
    assert str(error.value).startswith(line)
    assert "\n" not in str(error.value) and "s3cret" not in str(error.value)


def test_a_postgresql_url_keeps_the_health_report_in_the_data_folder(clean_environment: Path) -> None:
    settings = load_settings(
        discord_token="t", database_url="postgresql://bot:s3cret@db:5432/cards", data_dir="/srv/bot"
    )
    assert settings.uses_postgresql and settings.database.url == "postgresql://bot:s3cret@db:5432/cards"
    assert settings.health_path == Path("/srv/bot/cardtable.health.json")
    assert settings.redacted_database_url == "postgresql://bot:***@db:5432/cards"
    assert "s3cret" not in settings.database.shown
    with pytest.raises(ValueError):
        settings.database_path  # noqa: B018 - SQLite's file only
    sqlite = load_settings(discord_token="t")
    assert not sqlite.uses_postgresql and sqlite.health_path == Path("data/cardtable.health.json")
    assert sqlite.database_pool_size == 4


def test_settings_come_from_dotenv_and_the_environment_wins(
    clean_environment: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (clean_environment / ".env").write_text("DISCORD_TOKEN=from-file\nDEV_GUILD_ID=42\nLOG_LEVEL=debug\n")
    settings = load_settings()
    assert settings.discord_token.get_secret_value() == "from-file"
    assert settings.dev_guild_id == 42 and settings.log_level == "DEBUG"
    assert settings.database_path == Path("data/cardtable.db")
    monkeypatch.setenv("DISCORD_TOKEN", "from-env")
    assert load_settings().discord_token.get_secret_value() == "from-env"
    assert "from-env" not in repr(load_settings()) and "from-env" not in str(load_settings())


def test_an_unreadable_env_file_is_one_line(clean_environment: Path) -> None:
    (clean_environment / ".env").write_bytes(b"DISCORD_TOKEN=\xff\xfe\n")
    with pytest.raises(ConfigurationError, match=r"^\.env could not be read"):
        load_settings()


def test_discord_py_request_logs_stay_above_debug() -> None:
    """At DEBUG discord.py logs request bodies and interaction URLs (private views, interaction tokens)."""
    import logging

    from bot.__main__ import configure_logging

    touched = ("", "discord.http", "discord.gateway", "discord.webhook")
    saved = {name: logging.getLogger(name).level for name in touched}
    try:
        configure_logging(logging.DEBUG)
        for name in ("discord.http", "discord.gateway", "discord.webhook.async_"):
            assert logging.getLogger(name).getEffectiveLevel() == logging.INFO
        assert logging.getLogger("cogs.tables.cog").getEffectiveLevel() == logging.DEBUG
    finally:
        for name, level in saved.items():
            logging.getLogger(name).setLevel(level)


def test_python_m_bot_stops_with_one_line_and_no_traceback(clean_environment: Path) -> None:
    env = {key: value for key, value in os.environ.items() if key not in SETTING_NAMES}
    env["PYTHONPATH"] = str(ROOT)
    env["DEV_GUILD_ID"] = "not-a-number"
    env["DISCORD_TOKEN"] = "secret-token-value"
    run = subprocess.run(
        [sys.executable, "-m", "bot"],
        cwd=clean_environment,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 2
    assert run.stdout == ""
    assert run.stderr.strip().splitlines() == [
        "cardtable: configuration error: DEV_GUILD_ID is not valid: "
        "Input should be a valid integer, unable to parse string as an integer"
    ]
    assert "secret-token-value" not in run.stderr


def test_ci_runs_exactly_the_readme_test_command() -> None:
    readme = (ROOT / "README.md").read_text()
    blocks = re.findall(r"```bash\n(.*?)\n```", readme, flags=re.S)
    test_command = next(block for block in blocks if "pytest" in block)
    ci_script = (ROOT / ".ci" / "run").read_text()
    assert test_command in ci_script.splitlines()


def test_the_sandbox_demo_plays_a_whole_game() -> None:
    """``python -m bot --sandbox --transcript`` in a fresh process: a Foist game of simulated players."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    run = subprocess.run(
        [sys.executable, "-m", "bot", "--sandbox", "--transcript", "--seed", "2", "--players", "3"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    shown = ("table open", "Your hand", "final scores", "a new lobby", "Leaderboard", "Average placement")
    for expected in (*shown, "0 violations"):
        assert expected in run.stdout, expected


def test_an_old_settings_file_with_a_setting_no_longer_read_still_starts(
    clean_environment: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """IDLE_TURN_SECONDS was dropped when idle takeover replaced short idle turns: a .env or environment
    that still sets it must not stop the bot."""
    (clean_environment / ".env").write_text("DISCORD_TOKEN=t\nIDLE_TURN_SECONDS=10\nAI_PAUSE_SECONDS=0.5\n")
    monkeypatch.setenv("IDLE_TURN_SECONDS", "7")
    settings = load_settings()
    assert settings.ai_pause_seconds == 0.5 and settings.idle_after_timeouts == 2
    assert not hasattr(settings, "idle_turn_seconds")


def test_the_bot_process_tunes_the_collector_and_the_threads_switch_interval() -> None:
    import gc
    import sys

    from bot.run import GC_THRESHOLDS, SWITCH_INTERVAL_SECONDS, tune_interpreter

    thresholds, interval = gc.get_threshold(), sys.getswitchinterval()
    try:
        tune_interpreter()
        assert gc.get_threshold() == GC_THRESHOLDS
        assert sys.getswitchinterval() == pytest.approx(SWITCH_INTERVAL_SECONDS)
        assert SWITCH_INTERVAL_SECONDS < 0.005  # shorter than Python's default: a thinking AI yields sooner
    finally:
        gc.set_threshold(*thresholds)
        sys.setswitchinterval(interval)
