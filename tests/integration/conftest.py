"""Real databases for integration tests: a SQLite file, and a PostgreSQL server; and
`make_server`, real servers on this module's backend (each with its own database).

PostgreSQL comes from `REDLINE_TEST_POSTGRES_URL` (a database the tests may wipe: they
drop redline's tables before each test) or, failing that, from a throwaway server
started here with the local `initdb`/`pg_ctl` and stopped at session end. Without
either, PostgreSQL tests FAIL when `CI` is set (CI must not go green on half the
backends) and are skipped, with the reason, elsewhere.
"""

from __future__ import annotations

import importlib.util
import os
import pwd
import re
import secrets
import shlex
import shutil
import socket
import sqlite3
import subprocess
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NoReturn

import pytest

from redline.service.testing import LiveServer

PG_URL_ENV = "REDLINE_TEST_POSTGRES_URL"
REDLINE_TABLES = ("queue_leases", "workspace_sessions", "queue_items", "decisions", "redline_alembic_version")
PG_SEARCH = ("/usr/lib/postgresql/*/bin", "/usr/pgsql-*/bin", "/usr/local/pgsql/bin", "/opt/homebrew/opt/postgresql*/bin")


def _unavailable(reason: str) -> NoReturn:
    if os.environ.get("CI"):
        pytest.fail(f"{reason} (CI is set, so this is a failure, not a skip)", pytrace=False)
    pytest.skip(reason)


def _pg_bindir() -> Path | None:
    """The folder with initdb and pg_ctl: on PATH, else the newest version installed."""
    found = shutil.which("initdb")
    if found and shutil.which("pg_ctl"):
        return Path(found).resolve().parent  # PATH may hold links into the real folder
    candidates = [p for pattern in PG_SEARCH for p in Path("/").glob(pattern.lstrip("/"))]
    candidates = [p for p in candidates if (p / "initdb").exists() and (p / "pg_ctl").exists()]
    version = lambda p: [int(n) for n in re.findall(r"\d+", str(p))] or [0]  # noqa: E731
    return max(candidates, key=version) if candidates else None


def _as_server_user() -> list[str]:
    """PostgreSQL refuses to run as root: run its programs as the `postgres` OS user."""
    if os.geteuid() != 0:
        return []
    try:
        pwd.getpwnam("postgres")
    except KeyError:
        _unavailable("running as root, and there is no `postgres` OS user to run a test server as")
    if shutil.which("runuser"):
        return ["runuser", "-u", "postgres", "--"]
    return ["su", "postgres", "-s", "/bin/sh", "-c"]  # the command follows as one string


def _run(prefix: list[str], args: list[str]) -> subprocess.CompletedProcess[str]:
    command = prefix + [shlex.join(args)] if prefix[:1] == ["su"] else prefix + args
    return subprocess.run(command, capture_output=True, text=True, timeout=120)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def _throwaway_server(bindir: Path) -> Iterator[str]:
    prefix = _as_server_user()
    root = Path(tempfile.mkdtemp(prefix="redline-pg-"))
    if prefix:
        entry = pwd.getpwnam("postgres")
        os.chown(root, entry.pw_uid, entry.pw_gid)
    data, log = root / "data", root / "server.log"
    started = False
    try:
        init = _run(prefix, [str(bindir / "initdb"), "-D", str(data), "-U", "postgres",
                             "-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync"])
        if init.returncode != 0:
            pytest.fail(f"initdb failed:\n{init.stdout}\n{init.stderr}", pytrace=False)
        for _attempt in range(3):  # another process may take the free port first
            port = _free_port()
            options = (f"-h 127.0.0.1 -p {port} -k {root} -c fsync=off "
                       "-c synchronous_commit=off -c full_page_writes=off")
            start = _run(prefix, [str(bindir / "pg_ctl"), "-D", str(data), "-l", str(log),
                                  "-o", options, "-w", "-t", "60", "start"])
            if start.returncode == 0:
                started = True
                break
        if not started:
            server_log = log.read_text() if log.exists() else ""
            pytest.fail(f"pg_ctl start failed:\n{start.stdout}\n{start.stderr}\n{server_log}", pytrace=False)
        import psycopg

        with psycopg.connect(f"postgresql://postgres@127.0.0.1:{port}/postgres", autocommit=True) as conn:
            conn.execute("CREATE DATABASE redline_test")
        yield f"postgresql+psycopg://postgres@127.0.0.1:{port}/redline_test"
    finally:
        if started:
            _run(prefix, [str(bindir / "pg_ctl"), "-D", str(data), "-m", "immediate", "-w", "stop"])
        shutil.rmtree(root, ignore_errors=True)


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[str]:
    """The URL of a PostgreSQL database for this session."""
    if importlib.util.find_spec("psycopg") is None:
        _unavailable("the psycopg driver is not installed: pip install -e '.[test,postgres]'")
    url = os.environ.get(PG_URL_ENV)
    if url:
        yield url
        return
    bindir = _pg_bindir()
    if bindir is None:
        _unavailable(
            "no PostgreSQL server programs (initdb, pg_ctl) on PATH or in /usr/lib/postgresql/*/bin: "
            f"install PostgreSQL (apt-get install postgresql) or set {PG_URL_ENV}"
        )
    with _throwaway_server(bindir) as url:
        yield url


def _libpq(url: str) -> str:
    return re.sub(r"^postgresql\+\w+://", "postgresql://", url)


@pytest.fixture
def postgres_url(postgres_server: str) -> str:
    """The session's PostgreSQL database with redline's tables dropped: each test starts bare."""
    import psycopg

    with psycopg.connect(_libpq(postgres_server), autocommit=True) as conn:
        conn.execute(f"DROP TABLE IF EXISTS {', '.join(REDLINE_TABLES)} CASCADE")
    return postgres_server


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A bare database of each backend: a SQLite file, then PostgreSQL."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'redline.db'}"
    return str(request.getfixturevalue("postgres_url"))


@pytest.fixture
def store(db_url: str, clock: Any) -> Iterator[Any]:
    """A migrated audit store on `db_url`, on the module's `clock` fixture (a ManualClock
    at that module's start time)."""
    from redline.store.sql import AuditStore

    with AuditStore(db_url, clock=clock) as s:
        s.migrate()
        yield s


def _raw_query(url: str, sql: str) -> list[tuple[Any, ...]]:
    if url.startswith("sqlite"):
        conn = sqlite3.connect(url.removeprefix("sqlite:///"))
        try:
            return conn.execute(sql).fetchall()
        finally:
            conn.close()
    import psycopg

    with psycopg.connect(_libpq(url)) as pg:
        return pg.execute(sql).fetchall()


@pytest.fixture
def raw_query() -> Callable[[str, str], list[tuple[Any, ...]]]:
    """`raw_query(url, sql)`: ask the database directly, past the store, with the plain driver."""
    return _raw_query


# ---------------------------------------------------------------- live servers

EXAMPLE_POLICY = Path(__file__).parent.parent.parent / "examples" / "policy.yaml"


def _pg_database(server_url: str) -> str:
    """A fresh database on the session's PostgreSQL server, so that servers do not share rows."""
    import psycopg

    name = f"redline_svc_{secrets.token_hex(4)}"
    libpq = re.sub(r"^postgresql\+\w+://", "postgresql://", server_url)
    admin = libpq.rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    return server_url.rsplit("/", 1)[0] + "/" + name


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture(scope="module")
def make_server(
    backend: str, request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Callable[..., LiveServer]]:
    """Start servers on this module's backend; each gets its own database and folder."""
    started: list[LiveServer] = []

    def make(
        *args: str, log_path: Path | None = None, policies: Path | None = None, env: dict[str, str] | None = None
    ) -> LiveServer:
        root = tmp_path_factory.mktemp(f"server-{backend}")
        if policies is None:
            policies = root / "policies"
            policies.mkdir()
            shutil.copy(EXAMPLE_POLICY, policies / "example.yaml")
        if backend == "sqlite":
            db_url = f"sqlite:///{root / 'redline.db'}"
        else:
            db_url = _pg_database(str(request.getfixturevalue("postgres_server")))
        server = LiveServer(
            policies_dir=policies,
            db_url=db_url,
            log_path=log_path or root / "redline.decisions.jsonl",
            output=root / "server.log",
            args=args,
            env=dict(env or {}),
        )
        started.append(server)
        server.run()
        return server

    yield make
    for server in started:
        server.stop()


@pytest.fixture(scope="module")
def server(make_server: Callable[..., LiveServer]) -> LiveServer:
    """One server for the module's tests that need no server of their own."""
    return make_server()


@pytest.fixture(scope="module")
def http(server: LiveServer) -> Iterator[Any]:
    import httpx

    with httpx.Client(base_url=server.url, timeout=60) as client:
        yield client
