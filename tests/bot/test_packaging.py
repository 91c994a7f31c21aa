"""How the bot is installed and run by an admin: the ``cardtable`` command, the Docker recipe (checked
file by file, since no container engine runs where the tests run), the dependency locks, the license.

The Docker image cannot be built here; each part of it is proven another way: the settings the container
would see (the image's ``ENV`` overridden by ``--env-file .env`` made from ``.env.example``) put the
database, its backups and the health report on the volume; the image runs as the user that owns the
volume; dependencies are installed from the lock in a layer before any source is copied; the project is
installed from a wheel built in another stage, so no ``build/`` or ``*.egg-info`` reaches it, and
``.dockerignore`` keeps them (and tests, ``.git``, ``.env``) out of the build context; the HEALTHCHECK's
command is the ``cardtable health`` this package installs, and ``tests/bot/test_service.py`` runs it
against a started bot.
"""

from __future__ import annotations

import json
import re
import shlex
import sqlite3
import time
import tomllib
from pathlib import Path, PurePosixPath

import discord
import pytest
from packaging.requirements import Requirement

from bot import cli
from bot.health import check
from bot.invite import INVITE_PERMISSIONS, application_id_of_token, invite_url
from bot.settings import Settings, load_settings

ROOT = Path(__file__).resolve().parents[2]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())


def read(name: str) -> str:
    return (ROOT / name).read_text(encoding="utf-8")


def env_file_assignments(text: str) -> dict[str, str]:
    """What ``docker run --env-file`` (and python-dotenv) sets from a file: ``KEY=value`` lines."""
    found = {}
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            key, _, value = line.partition("=")
            found[key.strip()] = value.strip()
    return found


def documented_settings(text: str) -> set[str]:
    """Every setting ``.env.example`` names, set or commented out (``# NAME=default``)."""
    return set(re.findall(r"^#?\s?([A-Z][A-Z0-9_]+)=", text, flags=re.MULTILINE))


class Dockerfile:
    """The stages of the Dockerfile: ``[(base image, [(instruction, arguments), ...]), ...]``."""

    def __init__(self, text: str) -> None:
        joined = re.sub(r"\\\n\s*", " ", text)
        self.stages: list[tuple[str, list[tuple[str, str]]]] = []
        for line in joined.splitlines():
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            instruction, _, arguments = line.partition(" ")
            if instruction.upper() == "FROM":
                self.stages.append((arguments, []))
            else:
                self.stages[-1][1].append((instruction.upper(), arguments.strip()))

    @property
    def final(self) -> list[tuple[str, str]]:
        return self.stages[-1][1]

    def env(self) -> dict[str, str]:
        """The ``ENV`` of the final image (its own and its base stage's)."""
        values: dict[str, str] = {}
        base = self.stages[-1][0].split()[0]
        for name, instructions in self.stages:
            if name.split()[-1] == base or instructions is self.final:
                for instruction, arguments in instructions:
                    if instruction == "ENV":
                        for pair in shlex.split(arguments):
                            key, _, value = pair.partition("=")
                            values[key] = value
        return values

    def one(self, instruction: str) -> str:
        found = [arguments for name, arguments in self.final if name == instruction]
        assert len(found) == 1, (instruction, found)
        return found[0]


DOCKERFILE = Dockerfile(read("Dockerfile"))


# -- .env.example and the Docker image agree ---------------------------------------------------------


def test_env_example_lists_every_setting_and_only_settings() -> None:
    fields = {name.upper() for name in Settings.model_fields}
    assert documented_settings(read(".env.example")) == fields


def test_the_container_made_from_the_readme_keeps_the_database_backups_and_health_report_on_the_volume() -> (
    None
):
    """``docker run --env-file .env -v cardtable-data:/data`` with ``.env`` copied from ``.env.example``
    and the token filled in: the image's ENV, then the env file over it (as Docker does)."""
    volume = PurePosixPath(json.loads(DOCKERFILE.one("VOLUME"))[0])
    environment = DOCKERFILE.env() | env_file_assignments(read(".env.example"))
    environment["DISCORD_TOKEN"] = "filled-in"
    settings = Settings(_env_file=None, **{key.lower(): value for key, value in environment.items()})
    workdir = PurePosixPath(DOCKERFILE.one("WORKDIR"))
    for path in (settings.database_path, settings.backup_path, settings.health_path):
        where = PurePosixPath(path) if PurePosixPath(path).is_absolute() else workdir / path
        assert where.is_relative_to(volume), where
    assert workdir == volume  # even a relative DATABASE_URL set by an admin lands on the volume
    assert settings.database_path == Path("/data/cardtable.db")


def test_compose_file_uses_the_env_file_and_the_volume() -> None:
    compose = read("compose.yaml")
    volume = json.loads(DOCKERFILE.one("VOLUME"))[0]
    assert re.search(r"^\s+env_file: \.env$", compose, re.MULTILINE)
    assert re.search(rf"^\s+- cardtable-data:{volume}$", compose, re.MULTILINE)
    assert re.search(r"^\s+build: \.$", compose, re.MULTILINE)
    assert re.search(r"^volumes:\n  cardtable-data:", compose, re.MULTILINE)


def test_the_image_runs_as_the_user_that_owns_the_volume() -> None:
    user = DOCKERFILE.one("USER")
    run = " ".join(arguments for name, arguments in DOCKERFILE.final if name == "RUN")
    uid = re.search(rf"useradd [^&]*--uid (\d+) {user}\b", run)
    assert uid is not None and int(uid[1]) != 0
    volume = json.loads(DOCKERFILE.one("VOLUME"))[0]
    assert f"mkdir {volume} && chown {user}:{user} {volume}" in run
    instructions = [name for name, _ in DOCKERFILE.final]
    assert instructions.index("USER") < instructions.index("CMD")


def test_dependencies_come_from_the_lock_in_a_layer_before_any_code() -> None:
    final = DOCKERFILE.final
    copies = [(n, arguments) for n, (name, arguments) in enumerate(final) if name == "COPY"]
    lock_copy = next(n for n, arguments in copies if arguments.startswith("requirements.lock "))
    install = next(n for n, (name, arguments) in enumerate(final) if name == "RUN" and "-r " in arguments)
    assert "pip install -r /tmp/requirements.lock" in final[install][1]
    code = [n for n, arguments in copies if n != lock_copy]
    assert code and all(n > install for n in code)  # a code change leaves the dependency layer cached
    # The code arrives only as the wheel of the build stage (no source tree, no build leftovers).
    assert [arguments for _, arguments in copies if _ != lock_copy] == ["--from=wheel /wheels /tmp/wheels"]
    wheel_install = next(a for name, a in final if name == "RUN" and "/tmp/wheels/*.whl" in a)
    assert "--no-deps" in wheel_install and "rm -rf /tmp/wheels" in wheel_install


def test_dockerignore_keeps_build_leftovers_secrets_and_tests_out_of_the_build_context() -> None:
    patterns = {line.strip() for line in read(".dockerignore").splitlines() if line.strip()}

    def ignored(path: str) -> bool:
        parts = PurePosixPath(path).parts
        for pattern in patterns:
            bare = pattern.removeprefix("**/")
            for n in range(len(parts)):
                if PurePosixPath(*parts[: n + 1]).match(pattern) or PurePosixPath(parts[n]).match(bare):
                    return True
        return False

    for leftover in (
        "build/lib/bot/cli.py",
        "dist/cardtable_bot-0.1.0.whl",
        "cardtable_bot.egg-info/PKG-INFO",
        "bot/__pycache__/cli.cpython-311.pyc",
        ".env",
        ".git/HEAD",
        "tests/bot/test_packaging.py",
        "data/cardtable.db",
        ".pytest_cache/README.md",
    ):
        assert ignored(leftover), leftover
    for needed in (
        "pyproject.toml",
        "README.md",
        "LICENSE",
        "requirements.lock",
        "bot/cli.py",
        "engine/core.py",
    ):
        assert not ignored(needed), needed


def test_the_healthcheck_and_the_command_are_the_installed_console_script() -> None:
    healthcheck = DOCKERFILE.one("HEALTHCHECK")
    assert healthcheck.endswith('CMD ["cardtable", "health"]')
    assert json.loads(DOCKERFILE.one("CMD")) == ["cardtable"]
    assert PYPROJECT["project"]["scripts"] == {"cardtable": "bot.cli:main"}
    help_text = cli.build_parser().format_help()
    assert all(command in help_text for command in ("backup", "invite", "health", "--sandbox"))
    assert DOCKERFILE.one("STOPSIGNAL") == "SIGTERM"


# -- dependency locks, CI, license ---------------------------------------------------------------------


def pins(name: str) -> dict[str, str]:
    found = {}
    for line in read(name).splitlines():
        if line and not line.startswith((" ", "#", "-")):
            package, _, version = line.partition("==")
            found[package.lower().replace("_", "-").replace(".", "-")] = version
    return found


def test_the_locks_pin_every_dependency_within_pyproject_and_agree() -> None:
    runtime, test = pins("requirements.lock"), pins("requirements-test.lock")
    wanted = [Requirement(text) for text in PYPROJECT["project"]["dependencies"]]
    wanted_test = [Requirement(text) for text in PYPROJECT["project"]["optional-dependencies"]["test"]]
    for requirement in wanted + wanted_test:
        key = requirement.name.lower().replace("_", "-").replace(".", "-")
        lock = runtime if requirement in wanted else test
        assert key in lock, requirement
        assert requirement.specifier.contains(lock[key]), (requirement, lock[key])
    assert runtime.items() <= test.items()  # CI tests exactly the versions the image runs


def test_ci_runs_exactly_the_readmes_test_command_which_installs_at_the_locked_versions() -> None:
    readme = read("README.md")
    command = re.search(r"\*\*Run the tests:\*\*\n\n```bash\n(.+)\n```", readme)[1]
    assert command.strip().splitlines()[-1] == read(".ci/run").strip().splitlines()[-1]
    assert "-c requirements-test.lock" in command


def test_mit_license() -> None:
    assert read("LICENSE").startswith("MIT License\n")
    assert PYPROJECT["project"]["license"] == {"text": "MIT"}


# -- the cardtable command ---------------------------------------------------------------------------


@pytest.fixture
def admin_shell(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An admin's folder with no .env and no bot settings in the environment."""
    monkeypatch.chdir(tmp_path)
    for name in Settings.model_fields:
        monkeypatch.delenv(name.upper(), raising=False)
    return tmp_path


def test_invite_prints_the_url_with_the_documented_permissions_and_both_scopes(
    admin_shell: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    permissions = discord.Permissions(
        view_channel=True,
        send_messages=True,
        embed_links=True,
        attach_files=True,
        read_message_history=True,
        create_public_threads=True,  # tables in threads
        send_messages_in_threads=True,
        create_events=True,  # game nights' scheduled events
    ).value
    expected = (
        f"https://discord.com/oauth2/authorize?client_id=1234567890&permissions={permissions}"
        "&scope=bot+applications.commands"
    )
    assert cli.main(["invite", "--application-id", "1234567890"]) == 0
    assert capsys.readouterr().out.strip() == expected
    monkeypatch.setenv("DISCORD_APPLICATION_ID", "1234567890")
    assert cli.main(["invite"]) == 0
    assert capsys.readouterr().out.strip() == expected
    monkeypatch.delenv("DISCORD_APPLICATION_ID")
    monkeypatch.setenv("DISCORD_TOKEN", "MTIzNDU2Nzg5MA.Gabcde.secret-part")  # base64("1234567890")
    assert cli.main(["invite"]) == 0
    assert capsys.readouterr().out.strip() == expected
    monkeypatch.delenv("DISCORD_TOKEN")
    assert cli.main(["invite"]) == 2
    assert capsys.readouterr().err.strip().startswith("cardtable: the application id is unknown")
    # The admin's page (docs/running.md, "Permissions") lists the same permissions and the same integer.
    running = read("docs/running.md")
    assert all(f"*{name}*" in running for name in INVITE_PERMISSIONS.values())
    assert f"permissions={permissions}" in running
    assert invite_url(1).count("scope=bot+applications.commands") == 1
    assert application_id_of_token("not a token") is None


def test_backup_on_demand_writes_a_consistent_copy_and_keeps_the_newest(
    admin_shell: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    database = admin_shell / "data" / "cardtable.db"
    monkeypatch.setenv("BACKUP_KEEP", "2")
    assert cli.main(["backup"]) == 1
    assert (
        capsys.readouterr().err.strip()
        == f"cardtable: there is no database at {Path('data/cardtable.db')} to back up"
    )
    database.parent.mkdir()
    with sqlite3.connect(database) as db:
        db.execute("CREATE TABLE marker (x)")
        db.execute("INSERT INTO marker VALUES (42)")
    made = []
    for _ in range(3):
        assert cli.main(["backup"]) == 0
        made.append(admin_shell / capsys.readouterr().out.strip())
    kept = sorted((admin_shell / "data" / "backups").glob("cardtable-*.sqlite3"))
    assert kept == sorted(made[1:])
    with sqlite3.connect(kept[-1]) as copy:
        assert copy.execute("SELECT x FROM marker").fetchall() == [(42,)]
    assert database.read_bytes()[60:64] == b"\x00\x00\x00\x00"  # not migrated by the backup (user_version 0)


def test_python_m_bot_is_the_cardtable_command() -> None:
    import bot.__main__

    assert bot.__main__.main is cli.main


# -- the health report -------------------------------------------------------------------------------


def test_the_health_check_reads_the_report(tmp_path: Path) -> None:
    path = tmp_path / "cardtable.health.json"
    assert check(path) == (False, f"no health report at {path}: is the bot running?")
    now = time.time()

    def report(**fields: object) -> tuple[bool, str]:
        path.write_text(json.dumps({"connected": True, "database_writable": True, "at": now} | fields))
        return check(path, now + 5)

    assert report() == (True, "healthy: connected to Discord, database writable")
    assert report(connected=False) == (False, "the bot is not connected to Discord")
    assert report(database_writable=False, database_problem="database is locked") == (
        False,
        "the database is not writable: database is locked",
    )
    assert report(at=now - 600)[1].startswith("the bot's last health report is 605 seconds old")
    assert report(stopped=True) == (False, "the bot has stopped")
    assert load_settings(discord_token="t", database_url="sqlite:////data/x.db").health_path == Path(
        "/data/cardtable.health.json"
    )


def test_compose_postgres_profile_runs_every_shard_on_one_postgresql_database() -> None:
    """The ``postgres`` profile's bot processes: settings the bot accepts, one PostgreSQL database for all,
    one SHARD_COUNT, and together every shard once (a shard nobody holds is servers where nobody answers)."""
    compose = read("compose.yaml")
    environment = dict(re.findall(r"^\s+(DATABASE_URL|SHARD_COUNT|DATA_DIR): (.+)$", compose, re.MULTILINE))
    shard_ids = re.findall(r'^\s+SHARD_IDS: "([\d,]+)"$', compose, re.MULTILINE)
    services = compose.split("\nvolumes:", 1)[0]
    assert len(shard_ids) == len(re.findall(r"^  cardtable-shard-\d+:", services, re.MULTILINE)) == 2
    url = environment["DATABASE_URL"].replace("${POSTGRES_PASSWORD:?set POSTGRES_PASSWORD in .env}", "pw")
    held = []
    for ids in shard_ids:
        settings = load_settings(
            discord_token="x",
            database_url=url,
            shard_count=environment["SHARD_COUNT"].strip('"'),
            shard_ids=ids,
            data_dir=environment["DATA_DIR"].split("#")[0].strip(),
        )
        assert settings.uses_postgresql and not settings.holds_every_shard
        held += settings.shard_ids
    assert sorted(held) == list(range(settings.shard_count))
    assert re.search(r"^\s+profiles: \[postgres\]$", compose, re.MULTILINE)
