"""A throwaway PostgreSQL server for the tests and the benchmarks: a fresh cluster from the distribution's
packages (``apt-get install postgresql``), on a loopback port, deleted when stopped.

The tests start one per session (``tests/conftest.py``) and give each test a database of its own. Nothing is
mocked: it is the real server the bot would use, only without durability where a test does not need it
(``fsync = off`` unless ``durable=True``).
"""

from __future__ import annotations

import atexit
import contextlib
import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import uuid
from pathlib import Path

SUPERUSER = "cardtable"


class PostgresUnavailable(RuntimeError):
    """The PostgreSQL server programs (``initdb``, ``pg_ctl``) are not installed."""


def server_bin_dir() -> Path:
    """The folder holding ``initdb`` and ``pg_ctl``: ``$PG_BINDIR``, else the newest
    ``/usr/lib/postgresql/<version>/bin`` (Debian's packages), else the ``PATH``'s.

    Raises
    ------
    PostgresUnavailable
        If none has them; the message says how to install them.
    """
    candidates = [os.environ.get("PG_BINDIR", "")]
    candidates += sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=lambda p: int(Path(p).parent.name))[::-1]
    found = shutil.which("initdb")
    candidates.append(str(Path(found).parent) if found else "")
    for candidate in candidates:
        if candidate and (Path(candidate) / "initdb").exists() and (Path(candidate) / "pg_ctl").exists():
            return Path(candidate)
    raise PostgresUnavailable(
        "PostgreSQL's server programs were not found: install them (apt-get install postgresql) or set "
        "PG_BINDIR; `.ci/run` installs them"
    )


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class ThrowawayPostgres:
    """One PostgreSQL cluster in a temporary folder, started on ``127.0.0.1:<port>``.

    Use :meth:`start` and :meth:`stop` (also run at interpreter exit), or ``with``. PostgreSQL refuses to
    run as root, so under root the server runs as the ``postgres`` user the package created.

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
        self._bin = server_bin_dir()
        self._run_as: str | None = "postgres" if os.geteuid() == 0 else None

    @property
    def data_dir(self) -> Path:
        assert self._folder is not None, "not started"
        return self._folder / "data"

    def url(self, database: str = "postgres") -> str:
        """A ``postgresql://`` URL of ``database`` on this server (the superuser, no password)."""
        return f"postgresql://{SUPERUSER}@127.0.0.1:{self.port}/{database}"

    def _command(self, *args: str) -> list[str]:
        if self._run_as is None:
            return list(args)
        return ["runuser", "-u", self._run_as, "--", *args]

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
            user = pwd.getpwnam(self._run_as)
            os.chown(self._folder, user.pw_uid, user.pw_gid)
        self.port = _free_port()
        subprocess.run(
            self._command(
                str(self._bin / "initdb"), "-D", str(self.data_dir), "-U", SUPERUSER, "--auth=trust",
                "--encoding=UTF8", "--locale=C", "--no-sync",
            ),
            check=True, capture_output=True, text=True,
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
        subprocess.run(
            self._command(
                str(self._bin / "pg_ctl"), "-D", str(self.data_dir), "-l", str(self._folder / "server.log"),
                "-w", "-t", "60", "start",
            ),
            check=True, capture_output=True, text=True,
        )  # fmt: skip
        atexit.register(self.stop)
        return self

    def stop(self) -> None:
        """Stop the server (fast shutdown) and delete the cluster. Does nothing if not started."""
        if self._folder is None:
            return
        folder, self._folder = self._folder, None
        with contextlib.suppress(subprocess.CalledProcessError, FileNotFoundError):
            pg_ctl = str(self._bin / "pg_ctl")
            subprocess.run(
                self._command(pg_ctl, "-D", str(folder / "data"), "-m", "fast", "-w", "stop"),
                check=True, capture_output=True, text=True, timeout=60,
            )  # fmt: skip
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
        pg_ctl = str(self._bin / "pg_ctl")
        subprocess.run(
            self._command(pg_ctl, "-D", str(self.data_dir), "-l", str(self._folder / "server.log"), *args),
            check=True, capture_output=True, text=True, timeout=60,
        )  # fmt: skip

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
