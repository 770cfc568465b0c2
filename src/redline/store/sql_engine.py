"""Engines for the audit store: URL checks, SQLite pragmas and its WAL checkpoint thread."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError, NoSuchModuleError
from sqlalchemy.pool import StaticPool

from redline.store.errors import StoreError

BUSY_TIMEOUT_MS = 5000
# anyio's threadpool runs at most 40 routes at once; one more for the audit writer and
# one for a health probe. Connections open only when asked for, so an idle server holds few.
POOL_SIZE = 42
POOL_OVERFLOW = 8
PROBE_BUSY_TIMEOUT_MS = 250
VERSION_TABLE = "redline_alembic_version"
# What a database says when it answers but will not write: a SQLite file (or folder)
# that was read-only when the connection opened, a PostgreSQL standby.
_READ_ONLY = ("readonly database", "read-only transaction", "read only transaction", "recovery is in progress")


def is_read_only(exc: BaseException) -> bool:
    message = str(getattr(exc, "orig", None) or exc).lower()
    return any(words in message for words in _READ_ONLY)


def _recycle_read_only_connections(engine: Engine) -> None:
    """A connection that found the database read-only stays read-only (SQLite opens the
    file read-only and keeps it so; PostgreSQL keeps a session on a standby), so every
    such error is handled as a disconnect: SQLAlchemy then discards that connection and
    the rest of the pool, and the next checkout opens afresh, read-write once it can."""

    @event.listens_for(engine, "handle_error")
    def _read_only_is_a_disconnect(context: Any) -> None:
        if is_read_only(context.original_exception):
            context.is_disconnect = True


def _parse_url(url: str) -> URL:
    try:
        parsed = make_url(url)
    except ArgumentError as exc:
        raise StoreError(
            f"url: cannot parse {url!r}; use sqlite:///path/to/redline.db "
            "or postgresql+psycopg://user:pass@host/db"
        ) from exc
    backend = parsed.get_backend_name()
    if backend not in ("sqlite", "postgresql"):
        raise StoreError(
            f"url: backend {backend!r} is not supported; use sqlite:///path/to/redline.db "
            "or postgresql+psycopg://user:pass@host/db"
        )
    if parsed.drivername == "postgresql":  # SQLAlchemy's default would be psycopg2
        parsed = parsed.set(drivername="postgresql+psycopg")
    return parsed


WAL_BACKSTOP_PAGES = 20_000
CHECKPOINT_EVERY_S = 0.25


def _in_memory(url: URL) -> bool:
    database = url.database or ""
    return database in ("", ":memory:") or database.startswith("file::memory:")


class _Checkpointer:
    """Copies the SQLite WAL back into the database every quarter second, PASSIVE (it
    never waits for or blocks a writer), off the request path."""

    def __init__(self, engine: Engine) -> None:
        self._engine = engine
        self._stopped = threading.Event()
        self.runs = 0
        self._thread = threading.Thread(target=self._loop, name="redline-wal-checkpoint", daemon=True)
        self._thread.start()

    def _loop(self) -> None:
        while not self._stopped.wait(CHECKPOINT_EVERY_S):
            try:
                with self._engine.connect() as conn:
                    conn.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")
                self.runs += 1
            except Exception:  # a locked or missing file: the next round tries again
                continue

    def stop(self) -> None:
        self._stopped.set()
        self._thread.join(timeout=2)


def _build_engine(url: URL) -> Engine:
    if url.get_backend_name() == "postgresql":
        try:
            # No pre-ping: it is a round trip on every checkout. A connection that turns out
            # to be gone fails its statement, SQLAlchemy discards the pool, and writes are
            # tried once more on a fresh one (AuditStore.record). The pool holds as many
            # connections as threads can ask for at once (the threadpool, the audit writer),
            # so it never opens and closes one per request past a small default size.
            pg = create_engine(
                url,
                pool_size=POOL_SIZE,
                max_overflow=POOL_OVERFLOW,
                pool_pre_ping=False,
                pool_use_lifo=True,  # see the SQLite engine below
                connect_args={"connect_timeout": 10},
            )
            _recycle_read_only_connections(pg)
            return pg
        except NoSuchModuleError as exc:
            raise StoreError(f"url: no driver for {url.drivername}: {exc}") from exc
        except ImportError as exc:
            raise StoreError(
                "url: PostgreSQL needs the psycopg driver: pip install 'redline[postgres]'"
            ) from exc
    database = url.database or ""
    in_memory = _in_memory(url)
    if in_memory:  # one shared connection, or every connection would see its own database
        engine = create_engine(url, poolclass=StaticPool, connect_args={"check_same_thread": False})
    else:
        Path(database).expanduser().parent.mkdir(parents=True, exist_ok=True)
        # A QueuePool, last in first out: the audit writer then gets the connection it used
        # last, whose page cache is warm. First in first out, it alternated with the WAL
        # checkpointer's connection, and each commit began by reading the B-tree pages
        # of the table and its four indexes again (SQLite drops a connection's cache when
        # another connection wrote).
        engine = create_engine(url, connect_args={"check_same_thread": False}, pool_use_lifo=True)
        _recycle_read_only_connections(engine)

    @event.listens_for(engine, "connect")
    def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
        cursor = dbapi_connection.cursor()
        try:
            if not in_memory:
                cursor.execute("PRAGMA journal_mode=WAL")  # readers do not block the writer
                # copying the WAL back into the database is the background thread's job;
                # left to SQLite it runs inside whichever commit crosses 1,000 pages and
                # stalls that request for 20-200 ms. The high mark is only a backstop.
                cursor.execute(f"PRAGMA wal_autocheckpoint={WAL_BACKSTOP_PAGES}")
            cursor.execute("PRAGMA synchronous=NORMAL")  # durable at checkpoints; safe with WAL
            cursor.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")  # wait for the lock
            cursor.execute("PRAGMA foreign_keys=ON")
        finally:
            cursor.close()

    return engine


