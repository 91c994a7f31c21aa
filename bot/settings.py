"""The bot's configuration, read from the environment and ``.env`` (pydantic-settings).

Every setting is documented in ``.env.example``. :func:`load_settings` turns a missing or malformed
setting into one :class:`ConfigurationError` line naming it; the token is a ``SecretStr`` and never
appears in a message or a log.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Annotated, Literal

import yarl
from pydantic import Field, SecretStr, ValidationError, field_validator, model_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from art.faces import DECKS as CARD_DECKS
from cogs.tables.table_limits import AI_TABLES, MEMBER_LOBBIES, SERVER_TABLES
from storage import DEFAULT_POOL_SIZE, DatabaseTarget, database_path, database_target, redacted_database_url


class ConfigurationError(Exception):
    """A setting is missing or malformed. ``str(error)`` is one line naming the setting."""


class Settings(BaseSettings):
    """All settings. Environment variables take precedence over ``.env``; names are case-insensitive.

    Times are in seconds.
    """

    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    discord_token: SecretStr = Field(description="The bot's token from the Discord developer portal.")
    discord_api_base: str = Field(
        "https://discord.com/api/v10",
        description="REST base URL of Discord or a Discord-compatible server (asked for the gateway URL).",
    )
    database_url: str = Field(
        "sqlite:///data/cardtable.db",
        description="sqlite:///relative or sqlite:////absolute (SQLite), or "
        "postgresql://user:password@host:5432/database (PostgreSQL, shared by several bot processes).",
    )
    database_pool_size: int = Field(
        DEFAULT_POOL_SIZE, ge=1, le=100, description="PostgreSQL: connections (and threads) per process."
    )
    data_dir: Path = Field(
        Path("data"),
        description="With PostgreSQL, the folder of the health report (SQLite keeps it next to its file).",
    )
    dev_guild_id: int | None = Field(None, description="Sync slash commands to this server only (instant).")
    discord_application_id: int | None = Field(
        None, description="The application id, for `cardtable invite` (default: read from the token)."
    )
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = "INFO"

    default_turn_seconds: int = Field(60, ge=5, le=3600)
    min_turn_seconds: int = Field(10, ge=1, le=3600, description="The shortest turn a /play may ask for.")
    max_turn_seconds: int = Field(3600, ge=1, le=86400)
    idle_after_timeouts: int = Field(
        2, ge=1, description='Timed-out turns in a row after which an AI plays the seat until "I\'m back".'
    )
    turn_alert_delay_seconds: float = Field(
        10.0,
        ge=0,
        le=600,
        description="Seconds a turn waits before its player is mentioned or DMed: who moves sooner is not.",
    )
    ai_pause_seconds: float = Field(
        1.5, ge=0, le=60, description="How long an AI seat waits before it acts, so people can follow."
    )
    press_burst: float = Field(
        8.0, ge=1, le=1000, description="Presses a member may make in a row before they are asked to wait."
    )
    presses_per_second: float = Field(
        4.0, gt=0, le=1000, description="Presses a second a member gets back, once past press_burst."
    )
    default_member_lobbies: int = Field(
        MEMBER_LOBBIES,
        ge=0,
        description="Open lobbies a member may host, on a server that sets none (0: no limit).",
    )
    default_max_tables: int = Field(
        SERVER_TABLES,
        ge=0,
        description="Lobbies and games at once, on a server that sets none (0: no limit).",
    )
    default_ai_tables: int = Field(
        AI_TABLES, ge=0, description="Games with no person seated, on a server that sets none (0: no limit)."
    )
    time_bank_seconds: int = Field(300, ge=1, description="A time bank's starting time, per player.")
    time_bank_increment_seconds: int = Field(10, ge=0, description="Added to a player's time bank per move.")
    time_bank_cap_seconds: int = Field(600, ge=1, description="The most a time bank can hold.")
    slow_turn_hours: int = Field(24, ge=1, le=720, description="Hours per decision in slow mode.")
    lobby_idle_seconds: int = Field(900, ge=1, description="An untouched lobby closes after this long.")
    rematch_seconds: int = Field(180, ge=1, description="How long the Play again choice stays open.")
    queue_minute_seconds: float = Field(
        60.0,
        gt=0,
        le=60,
        description="Seconds in one minute of a server's queue_ai_after (60; only tests shorten it).",
    )
    backup_dir: Path | None = Field(
        None, description="Folder for scheduled database backups; default: 'backups' next to the database."
    )
    backup_interval_minutes: int = Field(360, ge=0, description="Minutes between backups; 0 turns them off.")
    backup_keep: int = Field(8, ge=1, description="How many backups to keep; older ones are deleted.")
    table_message_max_age_seconds: int = Field(
        3000,
        ge=1,
        description="A table message older than this moves to a fresh message (Discord throttles edits of "
        "messages older than an hour).",
    )
    table_edits_per_channel: int = Field(
        5,
        ge=1,
        le=10000,
        description="The most plain edits of table messages in one channel in any 5 s: Discord's limit; "
        "more only against a Discord-compatible server without it (the sandbox of the tests).",
    )
    table_watched_seconds: float = Field(
        60.0,
        gt=0,
        le=86400,
        description="A table no person plays at counts as watched for this long after a press on it; "
        "unwatched, its message is redrawn only every TABLE_UNWATCHED_REDRAW_SECONDS.",
    )
    table_unwatched_redraw_seconds: float = Field(
        30.0,
        ge=0,
        le=3600,
        description="How often the message of an unwatched table no person plays at is redrawn while its "
        "AIs play on (its end is shown at once).",
    )
    shard_count: int | None = Field(
        None,
        ge=1,
        description="How many shards all the bot's processes hold together (default: Discord's recommended "
        "count, all in this process).",
    )
    shard_ids: Annotated[list[int] | None, NoDecode] = Field(
        None, description="The shards this process holds, e.g. 0,1 (default: all of SHARD_COUNT)."
    )
    card_emoji_decks: Annotated[list[str], NoDecode] = Field(
        list(CARD_DECKS),
        description="The decks whose card faces the bot keeps as application emojis (uploaded at start, in "
        "the background), comma-separated: fw (Frazzled Wool), iv (IVAK Declare), fo (Foist), fr (French "
        "suits); empty for none (cards stay text).",
    )

    @field_validator("discord_token")
    @classmethod
    def _token_not_blank(cls, token: SecretStr) -> SecretStr:
        if not token.get_secret_value().strip():
            raise ValueError("is empty")
        return token

    @field_validator("discord_api_base")
    @classmethod
    def _api_base_is_http(cls, url: str) -> str:
        if not url.startswith(("http://", "https://")):
            raise ValueError("must start with http:// or https://")
        try:
            parsed = yarl.URL(url)
            parsed.port  # noqa: B018 - yarl checks the port range when it is read
        except ValueError as error:
            raise ValueError(str(error)) from None
        if not parsed.host:
            raise ValueError("needs a host, e.g. https://discord.com/api/v10")
        return url.rstrip("/")

    @model_validator(mode="after")
    def _turn_lengths_agree(self) -> Settings:
        if not self.min_turn_seconds <= self.default_turn_seconds <= self.max_turn_seconds:
            raise ValueError(
                "DEFAULT_TURN_SECONDS must lie between MIN_TURN_SECONDS and MAX_TURN_SECONDS "
                f"(now {self.default_turn_seconds}, {self.min_turn_seconds} and {self.max_turn_seconds})"
            )
        return self

    @model_validator(mode="after")
    def _time_bank_fits_its_cap(self) -> Settings:
        if self.time_bank_cap_seconds < self.time_bank_seconds:
            raise ValueError(
                "TIME_BANK_CAP_SECONDS must be at least TIME_BANK_SECONDS "
                f"(now {self.time_bank_cap_seconds} and {self.time_bank_seconds})"
            )
        return self

    @field_validator("database_url")
    @classmethod
    def _database_url_is_known(cls, url: str) -> str:
        if not url.startswith(("sqlite:", "postgresql:", "postgres:")):
            raise ValueError(
                "must look like sqlite:///data/cardtable.db (relative), sqlite:////abs/path.db or "
                "postgresql://user:password@host:5432/database"
            )
        database_target(url)  # its ValueError never holds the password
        return url

    @field_validator("card_emoji_decks", mode="before")
    @classmethod
    def _decks_from_commas(cls, value: object) -> object:
        if isinstance(value, str):
            return [deck.strip() for deck in value.split(",") if deck.strip()]
        return value

    @field_validator("card_emoji_decks")
    @classmethod
    def _decks_are_known(cls, decks: list[str]) -> list[str]:
        unknown = [deck for deck in decks if deck not in CARD_DECKS]
        if unknown:
            raise ValueError(f"unknown deck {unknown[0]!r}: the decks are {', '.join(CARD_DECKS)}")
        return list(dict.fromkeys(decks))

    @field_validator("shard_ids", mode="before")
    @classmethod
    def _shard_ids_from_commas(cls, value: object) -> object:
        if not isinstance(value, str):
            return value
        if not value.strip():
            return None
        try:
            return [int(part) for part in value.split(",")]
        except ValueError:
            raise ValueError(f"must be shard numbers separated by commas, e.g. 0,1 (now {value!r})") from None

    @model_validator(mode="after")
    def _shard_ids_within_count(self) -> Settings:
        if self.shard_ids is None:
            return self
        shown = ",".join(str(shard) for shard in self.shard_ids)
        if self.shard_count is None:
            raise ValueError(
                f"SHARD_IDS ({shown}) needs SHARD_COUNT: how many shards all processes hold together"
            )
        if not self.shard_ids:
            raise ValueError("SHARD_IDS is empty: name at least one shard, e.g. 0")
        if any(not 0 <= shard < self.shard_count for shard in self.shard_ids):
            raise ValueError(
                f"SHARD_IDS must each lie between 0 and SHARD_COUNT - 1 (now {shown} and {self.shard_count})"
            )
        if len(set(self.shard_ids)) != len(self.shard_ids):
            raise ValueError(f"SHARD_IDS names a shard twice (now {shown})")
        if not self.holds_every_shard and not self.uses_postgresql:
            raise ValueError(
                f"SHARD_IDS {shown} leaves the other shards of {self.shard_count} to other processes, which "
                "must share one database: set DATABASE_URL to a postgresql:// database"
            )
        return self

    @field_validator("dev_guild_id", "discord_application_id", "shard_count", mode="before")
    @classmethod
    def _blank_guild_is_none(cls, value: object) -> object:
        return None if value == "" else value

    @field_validator("log_level", mode="before")
    @classmethod
    def _log_level_upper(cls, value: object) -> object:
        return value.upper() if isinstance(value, str) else value

    @property
    def holds_every_shard(self) -> bool:
        """True if this process holds every shard (no ``SHARD_IDS``, or all of ``SHARD_COUNT``'s): no
        other process shares its guilds, tables or database."""
        return self.shard_ids is None or set(self.shard_ids) == set(range(self.shard_count or 1))

    @property
    def files_folder(self) -> Path:
        """The folder of the bot's own files (health report, default backup folder): the SQLite database's,
        so in Docker the volume; with PostgreSQL, ``data_dir``."""
        return self.data_dir if self.uses_postgresql else self.database_path.parent

    @property
    def backup_path(self) -> Path:
        """Where scheduled backups go (SQLite; a PostgreSQL database is backed up with ``pg_dump``)."""
        if self.backup_dir is not None:
            return self.backup_dir
        return self.files_folder / "backups"

    @property
    def health_path(self) -> Path:
        """Where the running bot writes its health report (read by ``cardtable health``): next to the SQLite
        database, so in Docker it is on the volume; with PostgreSQL in ``data_dir``. A process holding only
        some shards (``SHARD_IDS``) names its file after them (``cardtable.health.shards-0-2.json``), so
        processes sharing a folder never overwrite each other's report."""
        folder = self.files_folder
        if self.holds_every_shard:
            return folder / "cardtable.health.json"
        # Several processes may share one folder: each reports under its own shards' name.
        shards = "-".join(str(shard) for shard in sorted(self.shard_ids or ()))
        return folder / f"cardtable.health.shards-{shards}.json"

    @property
    def database_path(self) -> Path:
        """The SQLite file the ``database_url`` names.

        Raises
        ------
        ValueError
            If ``database_url`` names a PostgreSQL database (see :attr:`uses_postgresql`).
        """
        return database_path(self.database_url)

    @property
    def database(self) -> DatabaseTarget:
        """The database ``database_url`` names (``.dialect``, ``.path`` or ``.url``, ``.shown``)."""
        return database_target(self.database_url)

    @property
    def uses_postgresql(self) -> bool:
        """True if ``database_url`` names a PostgreSQL database."""
        return self.database.dialect == "postgresql"

    @property
    def redacted_database_url(self) -> str:
        """``database_url`` without its password, for messages and logs."""
        return redacted_database_url(self.database_url)

    @property
    def log_level_number(self) -> int:
        """``log_level`` as a :mod:`logging` level number."""
        return logging.getLevelName(self.log_level)


def load_settings(**overrides: object) -> Settings:
    """Read the settings (``overrides`` win over the environment and ``.env``).

    Raises
    ------
    ConfigurationError
        One line naming the first missing or malformed setting, e.g.
        ``DISCORD_TOKEN is missing: set it in the environment or in .env``.
    """
    try:
        return Settings(**overrides)
    except (UnicodeDecodeError, OSError) as error:
        raise ConfigurationError(f".env could not be read: {error}") from None
    except ValidationError as error:
        first = error.errors()[0]
        reason = first["msg"].removeprefix("Value error, ")
        if not first["loc"]:  # a rule across settings: its text names them
            raise ConfigurationError(reason) from None
        name = str(first["loc"][0]).upper()
        if first["type"] == "missing":
            raise ConfigurationError(f"{name} is missing: set it in the environment or in .env") from None
        raise ConfigurationError(f"{name} is not valid: {reason}") from None
