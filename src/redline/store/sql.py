"""The audit store and review queue: every decision as an audit row, held drafts as queue items.

    store = AuditStore("sqlite:///var/lib/redline/redline.db")   # or postgresql+psycopg://…
    store.migrate()
    store.record(decision, text=draft, text_excerpt=scrub(draft).text[:200], held=True)
    page = store.queue()                  # pending items, oldest first
    store.approve(page.items[0].id, expert="expert:3f9a2c1d")

One Engine per store and one session per call, so a store is shared by the threads of a
web server. Everything returned is a frozen dataclass; driver errors become
`StoreUnavailable` (cannot reach, locked, timed out) or `StoreError`.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from alembic.util import CommandError
from sqlalchemy import ColumnElement, Connection, String, cast, func, or_, select, text, update
from sqlalchemy.exc import (
    DBAPIError,
    DisconnectionError,
    IntegrityError,
    InterfaceError,
    OperationalError,
    SQLAlchemyError,
)
from sqlalchemy.exc import TimeoutError as PoolTimeout
from sqlalchemy.orm import sessionmaker

from redline.store.errors import (
    ConflictError,
    NotFoundError,
    StoreError,
    StoreUnavailable,
)
from redline.store.models import DecisionRecord, QueueItemRecord
from redline.store.records import AuditRow, Page, PendingRecord, QueueItem, QueueStatus
from redline.store.sql_insert import RowInsert
from redline.store.sql_rows import (
    MAX_LIMIT,
    audit_row,
    check_limit,
    check_row_storable,
    decision_record,
    decision_values,
    decode_cursor,
    encode_cursor,
    enum_arg,
    queue_item,
    storable_values,
)
from redline.store.sql_engine import (
    BUSY_TIMEOUT_MS,
    PROBE_BUSY_TIMEOUT_MS,
    VERSION_TABLE,
    _build_engine,
    _Checkpointer,
    _in_memory,
    _parse_url,
    is_read_only,
)
from redline.types import Decision, Outcome

__all__ = [
    "AuditRow",
    "AuditStore",
    "BUSY_TIMEOUT_MS",
    "DEFAULT_URL",
    "MAX_LIMIT",
    "Page",
    "PendingRecord",
    "QueueItem",
    "QueueStatus",
]

DEFAULT_URL = "sqlite:///redline.db"
MIGRATIONS = Path(__file__).parent / "migrations"
_PG_MIGRATE_LOCK = 0x7265646C696E65  # "redline": one migrator at a time per database


class AuditStore:
    """Audit rows and the review queue in SQLite (a file, WAL mode) or PostgreSQL."""

    def __init__(self, url: str, *, clock: Callable[[], datetime] | None = None) -> None:
        self._url = _parse_url(url)
        self._clock = clock or (lambda: datetime.now(UTC))
        self.engine = _build_engine(self._url)
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)
        # The audit writer's connection, kept between its batches: a checkout and a check-in
        # from the pool for each batch cost more than the batch's own statements. Dropped
        # after any failure, so the next batch (or the retry) starts on a fresh one.
        self._batch_lock = threading.Lock()
        self._batch_conn: Connection | None = None
        self._batch_pool = self.engine.pool  # the pool it came from (engine.dispose() makes a new one)
        # the audit writer's inserts, compiled once for this dialect (store/sql_insert.py)
        self._row_insert = RowInsert(DecisionRecord.__table__, self.engine.dialect)  # type: ignore[arg-type]
        self._item_insert = RowInsert(
            QueueItemRecord.__table__, self.engine.dialect, ("decision_id", "created_at", "status", "draft_text")  # type: ignore[arg-type]
        )
        self._checkpointer: _Checkpointer | None = None
        if self.backend == "sqlite" and not _in_memory(self._url):
            self._checkpointer = _Checkpointer(self.engine)

    def __repr__(self) -> str:
        return f"AuditStore({self._url.render_as_string(hide_password=True)!r})"

    def __enter__(self) -> AuditStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def backend(self) -> str:
        """The database kind: "sqlite" or "postgresql"."""
        return self._url.get_backend_name()

    def migrate(self) -> None:
        """Bring the schema to the newest revision (`alembic upgrade head`); a no-op when current."""
        config = Config()
        config.set_main_option("script_location", str(MIGRATIONS))
        with self._guard("migrate"):
            with self.engine.begin() as conn:
                if self.backend == "postgresql":  # two services starting at once
                    conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _PG_MIGRATE_LOCK})
                config.attributes["connection"] = conn
                try:
                    command.upgrade(config, "head")
                except CommandError as exc:
                    raise StoreError(
                        f"cannot migrate {self!r}: {exc}; a database migrated by a newer "
                        "redline needs that version (or a downgrade with Alembic)"
                    ) from exc

    @property
    def checkpoints(self) -> int:
        """WAL checkpoints the background thread has run (SQLite files only)."""
        return self._checkpointer.runs if self._checkpointer else 0

    def close(self) -> None:
        """Stop the checkpoint thread and close every pooled connection."""
        if self._checkpointer is not None:
            self._checkpointer.stop()
        with self._batch_lock:
            if self._batch_conn is not None:
                self._batch_conn.close()
                self._batch_conn = None
        self.engine.dispose()

    def ping(self) -> bool:
        """Whether the database answers (for /healthz); never raises."""
        try:
            with self.engine.connect() as conn:
                conn.execute(text("SELECT 1"))
        except SQLAlchemyError:
            return False
        return True

    def health(self) -> str:
        """The store's real state, for /healthz: "ok", "read_only" (it answers but cannot
        write: a read-only file or a standby server) or "down". Never raises.

        A write that changes nothing (and is rolled back) is tried, because a database that
        answers `SELECT 1` may still refuse every audit row."""
        try:
            with self.engine.connect() as conn:
                if self.backend == "sqlite":  # a probe must not wait out a writer's lock
                    conn.exec_driver_sql(f"PRAGMA busy_timeout={PROBE_BUSY_TIMEOUT_MS}")
                try:
                    conn.execute(text(f"UPDATE {VERSION_TABLE} SET version_num = version_num"))
                finally:
                    if not conn.invalidated:
                        conn.rollback()
                        if self.backend == "sqlite":
                            conn.exec_driver_sql(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        except SQLAlchemyError as exc:
            return "read_only" if is_read_only(exc) else "down"
        return "ok"

    def count(self) -> int:
        """How many decisions are recorded."""
        with self._guard("count"), self._sessions() as session:
            return session.scalar(select(func.count()).select_from(DecisionRecord)) or 0

    def record(self, decision: Decision, *, text: str, text_excerpt: str, held: bool) -> None:
        """Write the audit row and, when `held`, a pending queue item holding `text`, in one
        transaction. Idempotent on `decision.id`: a retry is a no-op (the first write wins)."""
        now = self._clock()
        check_row_storable(f"decision {decision.id!r}", text, decision_values(decision, now, text_excerpt))
        with self._guard("record"):
            for attempt in (1, 2):
                # the first attempt may draw a connection that opened while the database was
                # read-only; its error discards the pool (sql_engine), so one retry is enough
                try:
                    self._write_decision(decision_record(decision, now, text_excerpt), text if held else None)
                    return
                except IntegrityError as exc:
                    if self.get(decision.id) is None:  # not a retry: some other constraint
                        raise StoreError(f"cannot record decision {decision.id!r}: {exc.orig}") from exc
                    return
                except SQLAlchemyError as exc:
                    if attempt == 2 or not _stale_connection(exc):
                        raise

    def prepare(self, decision: Decision, text: str, text_excerpt: str) -> tuple[datetime, list[Any]] | None:
        """The audit row of `decision` as `record_many` writes it: its time (now) and its
        values as the driver takes them, for `PendingRecord.prepared`. The service builds it
        on the thread that made the decision, so that the audit writer's thread holds the
        interpreter lock only to hand rows to the database (the lock is what the event loop's
        checks wait for). None where a backend cannot store the row: `record_many` then
        builds it again and gives the error."""
        try:
            return self._row(decision, text, text_excerpt, self._clock())
        except Exception:
            return None

    def _row(self, decision: Decision, text: str, text_excerpt: str, now: datetime) -> tuple[datetime, list[Any]]:
        """(now, the row's driver values); raises StoreError naming the field a backend cannot store."""
        row = decision_values(decision, now, text_excerpt)
        values = self._row_insert.values(row)
        if not storable_values(text, values):  # nearly every row is clean: one look in C
            check_row_storable(f"decision {decision.id!r}", text, row)  # the closer look
        return now, values

    def record_many(self, pending: Sequence[PendingRecord]) -> list[Exception | None]:
        """Write many decisions in ONE transaction (group commit): per entry, None once its
        row is committed, else the error that kept it out. Driver-level inserts (`RowInsert`), no ORM objects.

        When the batch fails (a retried decision id, a refusing database), each entry is
        tried alone with `record`, so that one bad row costs no other its answer."""
        now = self._clock()
        results: list[Exception | None] = [None] * len(pending)
        rows: list[list[Any]] = []  # as the driver takes them (RowInsert.values)
        items: list[dict[str, Any]] = []
        valid: list[int] = []
        for index, entry in enumerate(pending):
            try:  # built and looked at by the caller (`prepare`), or here
                created, values = entry.prepared or self._row(entry.decision, entry.text, entry.text_excerpt, now)
            except Exception as exc:  # this entry alone cannot be stored
                results[index] = exc if isinstance(exc, StoreError) else StoreError(f"cannot record: {exc}")
                continue
            valid.append(index)
            rows.append(values)
            if entry.held:
                items.append({
                    "decision_id": entry.decision.id, "created_at": created, "status": QueueStatus.PENDING.value,
                    "draft_text": entry.text,
                })  # fmt: skip
        if not rows:
            return results
        try:
            with self._guard("record"):
                self._insert_batch(rows, items)
            return results
        except StoreError as exc:
            if not isinstance(exc.__cause__, IntegrityError):  # the database refuses them all
                for index in valid:
                    results[index] = exc
                return results
        for index in valid:  # a retried id (the first write wins) or one row's constraint
            entry = pending[index]
            try:
                self.record(entry.decision, text=entry.text, text_excerpt=entry.text_excerpt, held=entry.held)
            except Exception as exc:
                results[index] = exc
        return results

    def _insert_batch(self, rows: list[list[Any]], items: list[dict[str, Any]]) -> None:
        for attempt in (1, 2):
            try:
                with self._batch_lock:
                    conn = self._batch_conn
                    if conn is not None and self._batch_pool is not self.engine.pool:
                        conn.close()  # the engine was disposed since: its pool is a new one
                        conn = self._batch_conn = None
                    if conn is None:
                        conn = self._batch_conn = self.engine.connect()
                        self._batch_pool = self.engine.pool
                    try:
                        with conn.begin():
                            self._row_insert.execute_values(conn, rows)
                            # after the rows they reference, in the same transaction
                            self._item_insert.execute(conn, items)
                    except BaseException:
                        self._batch_conn = None
                        conn.close()  # rolled back already; back to the pool, or discarded if invalid
                        raise
                return
            except IntegrityError:
                raise
            except SQLAlchemyError as exc:
                if attempt == 2 or not _stale_connection(exc):
                    raise

    def _write_decision(self, row: DecisionRecord, held_text: str | None) -> None:
        with self._sessions.begin() as session:
            session.add(row)
            if held_text is not None:
                session.flush()  # the audit row before the item that references it
                session.add(
                    QueueItemRecord(
                        decision_id=row.id,
                        created_at=row.created_at,
                        status=QueueStatus.PENDING.value,
                        draft_text=held_text,
                    )
                )

    def get(self, decision_id: str) -> AuditRow | None:
        with self._guard("get"), self._sessions() as session:
            found = session.get(DecisionRecord, decision_id)
            return None if found is None else audit_row(found)

    def get_item(self, item_id: int) -> QueueItem:
        """The queue item `item_id`; `NotFoundError` if there is none."""
        with self._guard("get_item"), self._sessions() as session:
            found = session.get(QueueItemRecord, item_id)
            if found is None:
                raise NotFoundError(f"no queue item with id {item_id!r}")
            return queue_item(found)

    def queue(
        self, *, status: QueueStatus | str | None = "pending", limit: int = 50, cursor: str | None = None
    ) -> Page[QueueItem]:
        """Queue items with `status` (None: all), oldest first, so the longest wait comes first."""
        limit = check_limit(limit)
        where: list[ColumnElement[bool]] = []
        if status is not None:
            where.append(QueueItemRecord.status == enum_arg(QueueStatus, "status", status).value)
        if cursor is not None:
            at, last = decode_cursor(cursor, "q")
            where.append(
                or_(
                    QueueItemRecord.created_at > at,
                    (QueueItemRecord.created_at == at) & (QueueItemRecord.id > last),
                )
            )
        stmt = (
            select(QueueItemRecord)
            .where(*where)
            .order_by(QueueItemRecord.created_at, QueueItemRecord.id)
            .limit(limit + 1)
        )
        with self._guard("queue"), self._sessions() as session:
            items = [queue_item(r) for r in session.scalars(stmt)]
        more = len(items) > limit
        items = items[:limit]
        return Page(tuple(items), encode_cursor("q", items[-1].created_at, items[-1].id) if more else None)

    def reviews(self) -> dict[str, QueueStatus]:
        """What Experts decided, by decision id: approved, edited or rejected (pending items
        are left out). A backtest's promotion report splits its holds by this."""
        stmt = select(QueueItemRecord.decision_id, QueueItemRecord.status).where(
            QueueItemRecord.status != QueueStatus.PENDING.value
        )
        with self._guard("reviews"), self._sessions() as session:
            return {decision_id: QueueStatus(status) for decision_id, status in session.execute(stmt)}

    def approve(self, item_id: int, expert: str, note: str | None = None) -> QueueItem:
        """Approve a pending item as it stands: the draft as written or, when an edit was
        held for a second look (`hold_edit`), that edit. `note` says why, if given."""
        item = self.get_item(item_id)
        if item.status is QueueStatus.PENDING and item.edited_text is not None:
            return self._decide(item_id, expert, QueueStatus.EDITED, _held_edit=item.edit_decision_id, note=note)
        return self._decide(item_id, expert, QueueStatus.APPROVED, note=note)

    def edit(
        self,
        item_id: int,
        expert: str,
        text: str,
        *,
        check: tuple[str, Outcome] | None = None,
        note: str | None = None,
    ) -> QueueItem:
        """Approve a pending draft with the Expert's `text` in its place; `check` is the
        gate's decision on `text` (its id and outcome), recorded with the item."""
        if not text.strip():
            raise ValueError("text: an edit needs the replacement text; to stop the draft, reject it")
        checked = {} if check is None else {"edit_decision_id": check[0], "edit_outcome": check[1].value}
        return self._decide(item_id, expert, QueueStatus.EDITED, edited_text=text, note=note, **checked)

    def hold_edit(self, item_id: int, text: str | None, *, check: tuple[str, Outcome]) -> QueueItem:
        """Record the gate's decision on an edit that may not be sent; the item stays pending.
        `text` is kept as the edit held for a second look, or None for an edit that must
        not be kept at all (a refused one)."""
        values: dict[str, str | None] = {"edit_decision_id": check[0], "edit_outcome": check[1].value}
        if text is not None:
            values["edited_text"] = text
        stmt = (
            update(QueueItemRecord)
            .where(QueueItemRecord.id == item_id, QueueItemRecord.status == QueueStatus.PENDING.value)
            .values(**values)
            .execution_options(synchronize_session=False)
        )
        return self._conditional(item_id, stmt, "edit")

    def reject(self, item_id: int, expert: str, note: str | None = None) -> QueueItem:
        """Reject a pending draft; `note` says why."""
        return self._decide(item_id, expert, QueueStatus.REJECTED, note=note)

    def list(
        self,
        *,
        outcome: Outcome | str | None = None,
        policy: str | None = None,
        rule: str | None = None,
        since: datetime | None = None,
        until: datetime | None = None,
        limit: int = 50,
        cursor: str | None = None,
    ) -> Page[AuditRow]:
        """Audit rows, newest first, filtered by outcome, policy name, a rule that fired and
        `since <= created_at < until` (naive datetimes are taken as UTC). Limit capped at 500."""
        limit = check_limit(limit)
        where: list[ColumnElement[bool]] = []
        if outcome is not None:
            where.append(DecisionRecord.outcome == enum_arg(Outcome, "outcome", outcome).value)
        if policy is not None:
            where.append(DecisionRecord.policy_name == policy)
        if rule is not None:  # the JSON list as text holds the id in quotes, on both backends
            quoted = json.dumps(rule).replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
            where.append(cast(DecisionRecord.rules_fired, String).like(f"%{quoted}%", escape="\\"))
        if since is not None:
            where.append(DecisionRecord.created_at >= since)
        if until is not None:
            where.append(DecisionRecord.created_at < until)
        if cursor is not None:
            at, last = decode_cursor(cursor, "a")
            where.append(
                or_(
                    DecisionRecord.created_at < at,
                    (DecisionRecord.created_at == at) & (DecisionRecord.id < last),
                )
            )
        stmt = (
            select(DecisionRecord)
            .where(*where)
            .order_by(DecisionRecord.created_at.desc(), DecisionRecord.id.desc())
            .limit(limit + 1)
        )
        with self._guard("list"), self._sessions() as session:
            rows = [audit_row(r) for r in session.scalars(stmt)]
        more = len(rows) > limit
        rows = rows[:limit]
        return Page(tuple(rows), encode_cursor("a", rows[-1].created_at, rows[-1].id) if more else None)

    def _decide(
        self, item_id: int, expert: str, status: QueueStatus, _held_edit: str | None = None, **values: str | None
    ) -> QueueItem:
        if not expert or not expert.strip():
            raise ValueError(f"expert: who decided must be named, got {expert!r}")
        # A conditional UPDATE, so that two Experts deciding at once cannot both win.
        where = [QueueItemRecord.id == item_id, QueueItemRecord.status == QueueStatus.PENDING.value]
        if _held_edit is not None:  # approving a held edit: only the one that was read
            where.append(QueueItemRecord.edit_decision_id == _held_edit)
        stmt = (
            update(QueueItemRecord)
            .where(*where)
            .values(status=status.value, expert=expert, decided_at=self._clock(), **values)
            .execution_options(synchronize_session=False)
        )
        return self._conditional(item_id, stmt, status.value)

    def _conditional(self, item_id: int, stmt: Any, action: str) -> QueueItem:
        with self._guard(action):
            with self._sessions.begin() as session:
                changed = session.execute(stmt).rowcount  # type: ignore[attr-defined]
            item = self.get_item(item_id)  # NotFoundError for an unknown id
        if not changed:
            if item.status is QueueStatus.PENDING:
                raise ConflictError(f"queue item {item_id} was edited meanwhile; read it again before approving")
            raise ConflictError(
                f"queue item {item_id} is already {item.status.value} (by {item.expert}); "
                "only a pending item can be approved, edited or rejected"
            )
        return item

    @contextmanager
    def _guard(self, action: str) -> Iterator[None]:
        try:
            yield
        except SQLAlchemyError as exc:
            message = f"{action} failed on {self!r}: {_reason(exc)}"
            if _schema_missing(exc):  # a deployment mistake, not an outage: no retry will help
                raise StoreError(f"{message}; the schema is missing or old: call migrate()") from exc
            if is_read_only(exc) or isinstance(exc, (OperationalError, InterfaceError, DisconnectionError, PoolTimeout)):
                raise StoreUnavailable(message) from exc
            raise StoreError(message) from exc


def _stale_connection(exc: SQLAlchemyError) -> bool:
    """A write that failed on a connection that is gone (a restarted server, no pre-ping
    per checkout) or opened read-only: SQLAlchemy has discarded the pool, so one retry
    on a fresh connection is the answer."""
    return is_read_only(exc) or (isinstance(exc, DBAPIError) and exc.connection_invalidated)


def _reason(exc: SQLAlchemyError) -> str:
    orig = getattr(exc, "orig", None)
    return str(orig if orig is not None else exc).strip().splitlines()[0]


def _schema_missing(exc: SQLAlchemyError) -> bool:
    message = str(getattr(exc, "orig", exc))
    return "no such table" in message or ("relation" in message and "does not exist" in message)
