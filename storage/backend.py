"""Which database a ``DATABASE_URL`` (or a path) names: SQLite (a file, the embedded default) or PostgreSQL
(a server several bot processes can share).

- ``sqlite:///relative/path.db``, ``sqlite:////absolute/path.db`` or a plain path: SQLite.
- ``postgresql://user:password@host:port/database`` (or ``postgres://``): PostgreSQL; any libpq
  parameter may follow as a query string (``?sslmode=require``).

:func:`redacted_database_url` is the URL to show in a message or a log: the password never appears.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import yarl

SQLITE = "sqlite"
POSTGRESQL = "postgresql"

Dialect = Literal["sqlite", "postgresql"]

_POSTGRES_SCHEMES = ("postgresql://", "postgres://")


def database_path(database_url: str) -> Path:
    """The file path of a ``sqlite:///relative.db`` or ``sqlite:////absolute.db`` URL.

    Raises
    ------
    ValueError
        If the URL is not a ``sqlite:///`` URL with a file path.
    """
    prefix = "sqlite:///"
    if not database_url.startswith(prefix) or len(database_url) == len(prefix):
        raise ValueError("must look like sqlite:///data/cardtable.db (relative) or sqlite:////abs/path.db")
    return Path(database_url[len(prefix) :])


def is_postgresql_url(database_url: str) -> bool:
    """True if the URL names a PostgreSQL database (``postgresql://`` or ``postgres://``)."""
    return database_url.startswith(_POSTGRES_SCHEMES)


@dataclass(frozen=True)
class DatabaseTarget:
    """The database to open: ``dialect`` and either the SQLite file ``path`` or the PostgreSQL ``url``
    (libpq's form, password included: pass it to the driver, never show it; show :attr:`shown`)."""

    dialect: Dialect
    path: Path | None = None
    url: str | None = None

    @property
    def shown(self) -> str:
        """The target for a message: the file path, or the URL without its password."""
        return str(self.path) if self.path is not None else redacted_database_url(self.url or "")


def database_target(target: Path | str) -> DatabaseTarget:
    """The database ``target`` names: a :class:`~pathlib.Path` or a plain path string (SQLite), a
    ``sqlite:///`` URL, or a ``postgresql://`` / ``postgres://`` URL.

    Raises
    ------
    ValueError
        If a URL names another scheme, or a PostgreSQL URL has no host or database name (the message never
        holds the password).
    """
    if isinstance(target, Path):
        return DatabaseTarget(SQLITE, path=target)
    if target.startswith("sqlite:"):
        return DatabaseTarget(SQLITE, path=database_path(target))
    if is_postgresql_url(target):
        check_postgresql_url(target)
        return DatabaseTarget(POSTGRESQL, url=target)
    if "://" in target:
        raise ValueError(
            "must be sqlite:///path.db or postgresql://user:password@host:port/database, not "
            + redacted_database_url(target)
        )
    return DatabaseTarget(SQLITE, path=Path(target))


def check_postgresql_url(url: str) -> None:
    """Check that a PostgreSQL URL names a host (or a socket folder given as ``?host=``) and a database.

    Raises
    ------
    ValueError
        Saying what is missing or malformed (without the password).
    """
    try:
        parsed = yarl.URL(url)
        parsed.port  # noqa: B018 - yarl checks the port range when it is read
    except ValueError as error:
        raise ValueError(f"is not a valid URL: {error}") from None
    if not parsed.host and "host" not in parsed.query:
        raise ValueError("needs a host: postgresql://user:password@host:5432/database")
    if not parsed.path.strip("/"):
        raise ValueError("needs a database name: postgresql://user:password@host:5432/database")


def redacted_database_url(url: str) -> str:
    """``url`` with its password (in the authority or as ``?password=``) replaced by ``***``; a SQLite URL
    or a path comes back as it is."""
    if url.startswith("sqlite:") or "://" not in url:
        return url
    try:
        parsed = yarl.URL(url)
    except ValueError:
        return url.split("://", 1)[0] + "://***"  # too broken to tell where a password is
    if parsed.password is not None:
        parsed = parsed.with_password("***")
    if "password" in parsed.query:
        parsed = parsed.update_query(password="***")
    return str(parsed)


def error_line(error: BaseException, database_url: str = "") -> str:
    """``error`` in one line for an admin (its first line; its type's name if it says nothing), with the
    password of ``database_url`` replaced by ``***`` should the driver have quoted it."""
    text = next((line.strip() for line in str(error).splitlines() if line.strip()), type(error).__name__)
    password = _password_of(database_url)
    return text.replace(password, "***") if password else text


def _password_of(url: str) -> str | None:
    if not is_postgresql_url(url):
        return None
    try:
        parsed = yarl.URL(url)
    except ValueError:
        return None
    return parsed.password or parsed.query.get("password") or None
