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

import base64
import enum
import json
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

from alembic import command
from alembic.config import Config
from alembic.util import CommandError
from sqlalchemy import ColumnElement, func, or_, select, text, update
from sqlalchemy.exc import (
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
    InvalidCursor,
    NotFoundError,
    StoreError,
    StoreUnavailable,
)
from redline.store.models import EXCERPT_CHARS, DecisionRecord, QueueItemRecord
from redline.store.records import AuditRow, Page, QueueItem, QueueStatus
from redline.store.sql_engine import (
    BUSY_TIMEOUT_MS,
    _build_engine,
    _Checkpointer,
    _in_memory,
    _parse_url,
)
from redline.types import Decision, Finding, Outcome, RiskLevel

__all__ = ["AuditRow", "AuditStore", "BUSY_TIMEOUT_MS", "DEFAULT_URL", "MAX_LIMIT", "Page", "QueueItem", "QueueStatus"]

DEFAULT_URL = "sqlite:///redline.db"
MAX_LIMIT = 500
MIGRATIONS = Path(__file__).parent / "migrations"
_PG_MIGRATE_LOCK = 0x7265646C696E65  # "redline": one migrator at a time per database
MAX_ERROR_CHARS = 2000

class AuditStore:
    """Audit rows and the review queue in SQLite (a file, WAL mode) or PostgreSQL."""

    def __init__(self, url: str, *, clock: Callable[[], datetime] | None = None) -> None:
        self._url = _parse_url(url)
        self._clock = clock or (lambda: datetime.now(UTC))
        self.engine = _build_engine(self._url)
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)
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
        self.engine.dispose()

    def ping(self) -> bool:
        """Whether the database answers (for /healthz); never raises."""
        try:
            with self.engine.connect() as conn:
                conn.execute(text("SELECT 1"))
        except SQLAlchemyError:
            return False
        return True

    def count(self) -> int:
        """How many decisions are recorded."""
        with self._guard("count"), self._sessions() as session:
            return session.scalar(select(func.count()).select_from(DecisionRecord)) or 0

    def record(self, decision: Decision, *, text: str, text_excerpt: str, held: bool) -> None:
        """Write the audit row and, when `held`, a pending queue item holding `text`, in one
        transaction. Idempotent on `decision.id`: a retry is a no-op (the first write wins)."""
        now = self._clock()
        row = _decision_record(decision, now, text_excerpt)
        _check_storable(f"decision {decision.id!r}", {"text": text, **_fields(row)})
        with self._guard("record"):
            try:
                with self._sessions.begin() as session:
                    session.add(row)
                    if held:
                        session.flush()  # the audit row before the item that references it
                        session.add(
                            QueueItemRecord(
                                decision_id=decision.id,
                                created_at=now,
                                status=QueueStatus.PENDING.value,
                                draft_text=text,
                            )
                        )
            except IntegrityError as exc:
                if self.get(decision.id) is None:  # not a retry: some other constraint
                    raise StoreError(f"cannot record decision {decision.id!r}: {exc.orig}") from exc

    def get(self, decision_id: str) -> AuditRow | None:
        with self._guard("get"), self._sessions() as session:
            found = session.get(DecisionRecord, decision_id)
            return None if found is None else _audit_row(found)

    def get_item(self, item_id: int) -> QueueItem:
        """The queue item `item_id`; `NotFoundError` if there is none."""
        with self._guard("get_item"), self._sessions() as session:
            found = session.get(QueueItemRecord, item_id)
            if found is None:
                raise NotFoundError(f"no queue item with id {item_id!r}")
            return _queue_item(found)

    def queue(
        self, *, status: QueueStatus | str | None = "pending", limit: int = 50, cursor: str | None = None
    ) -> Page[QueueItem]:
        """Queue items with `status` (None: all), oldest first, so the longest wait comes first."""
        limit = _check_limit(limit)
        where: list[ColumnElement[bool]] = []
        if status is not None:
            where.append(QueueItemRecord.status == _enum_arg(QueueStatus, "status", status).value)
        if cursor is not None:
            at, last = _decode_cursor(cursor, "q")
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
            items = [_queue_item(r) for r in session.scalars(stmt)]
        more = len(items) > limit
        items = items[:limit]
        return Page(tuple(items), _encode_cursor("q", items[-1].created_at, items[-1].id) if more else None)

    def approve(self, item_id: int, expert: str) -> QueueItem:
        """Approve a pending draft as written."""
        return self._decide(item_id, expert, QueueStatus.APPROVED)

    def edit(self, item_id: int, expert: str, text: str) -> QueueItem:
        """Approve a pending draft with the Expert's `text` in its place."""
        if not text.strip():
            raise ValueError("text: an edit needs the replacement text; to stop the draft, reject it")
        return self._decide(item_id, expert, QueueStatus.EDITED, edited_text=text)

    def reject(self, item_id: int, expert: str, note: str | None = None) -> QueueItem:
        """Reject a pending draft; `note` says why."""
        return self._decide(item_id, expert, QueueStatus.REJECTED, note=note)

    def list(
        self,
        *,
        outcome: Outcome | str | None = None,
        policy: str | None = None,
        since: datetime | None = None,
        until: datetime | None = None,
        limit: int = 50,
        cursor: str | None = None,
    ) -> Page[AuditRow]:
        """Audit rows, newest first, filtered by outcome, policy name and `since <= created_at
        < until` (naive datetimes are taken as UTC). Limit capped at 500."""
        limit = _check_limit(limit)
        where: list[ColumnElement[bool]] = []
        if outcome is not None:
            where.append(DecisionRecord.outcome == _enum_arg(Outcome, "outcome", outcome).value)
        if policy is not None:
            where.append(DecisionRecord.policy_name == policy)
        if since is not None:
            where.append(DecisionRecord.created_at >= since)
        if until is not None:
            where.append(DecisionRecord.created_at < until)
        if cursor is not None:
            at, last = _decode_cursor(cursor, "a")
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
            rows = [_audit_row(r) for r in session.scalars(stmt)]
        more = len(rows) > limit
        rows = rows[:limit]
        return Page(tuple(rows), _encode_cursor("a", rows[-1].created_at, rows[-1].id) if more else None)

    def _decide(self, item_id: int, expert: str, status: QueueStatus, **values: str | None) -> QueueItem:
        if not expert or not expert.strip():
            raise ValueError(f"expert: who decided must be named, got {expert!r}")
        # A conditional UPDATE, so that two Experts deciding at once cannot both win.
        stmt = (
            update(QueueItemRecord)
            .where(QueueItemRecord.id == item_id, QueueItemRecord.status == QueueStatus.PENDING.value)
            .values(status=status.value, expert=expert, decided_at=self._clock(), **values)
            .execution_options(synchronize_session=False)
        )
        with self._guard(status.value):
            with self._sessions.begin() as session:
                changed = session.execute(stmt).rowcount  # type: ignore[attr-defined]
            item = self.get_item(item_id)  # NotFoundError for an unknown id
        if not changed:
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
            if isinstance(exc, (OperationalError, InterfaceError, DisconnectionError, PoolTimeout)):
                raise StoreUnavailable(message) from exc
            raise StoreError(message) from exc


def _decision_record(decision: Decision, now: datetime, text_excerpt: str) -> DecisionRecord:
    timings = {k: float(v) for k, v in decision.timings_ms.items()}
    return DecisionRecord(
        id=decision.id,
        created_at=now,
        policy_name=decision.policy_name,
        policy_hash=decision.policy_hash,
        outcome=decision.outcome.value,
        reason=decision.reason,
        risk_level=decision.risk_level.value,
        rules_fired=decision.rules_fired,
        suppressed=[
            {"rule": f.rule, "status": f.status.value, "cue": f.cue} for f in decision.suppressed
        ],
        findings=[_stored_finding(f) for f in decision.findings],
        timings_ms=timings,
        total_ms=timings.get("total", sum(timings.values())),
        licensed_by_context=decision.licensed_by_context,
        context=decision.context,
        text_excerpt=text_excerpt[:EXCERPT_CHARS],
        action=decision.action.to_dict() if decision.action is not None else None,
        error=None if decision.error is None else decision.error[:MAX_ERROR_CHARS],
        omitted=dict(decision.omitted) if any(decision.omitted.values()) else None,
    )


def _fields(row: DecisionRecord) -> dict[str, Any]:
    return {column.key: getattr(row, column.key) for column in DecisionRecord.__table__.columns}


_UNSTORABLE = re.compile("[\x00\ud800-\udfff]")


def _check_storable(what: str, value: Any, where: str = "") -> None:
    """Refuse a row that some backend cannot store or that could not be read back and sent
    as UTF-8: a NUL (PostgreSQL text) or a lone surrogate anywhere in it, a key included."""
    if isinstance(value, str):
        found = _UNSTORABLE.search(value)
        if found is not None:
            kind = "a NUL character" if found.group() == "\x00" else "a lone surrogate"
            raise StoreError(f"cannot record {what}: {where or 'a value'} holds {kind} at offset {found.start()}")
    elif isinstance(value, dict):
        for key, item in value.items():
            _check_storable(what, key, where)
            _check_storable(what, item, f"{where}.{key}" if where else str(key))
    elif isinstance(value, (list, tuple)):
        for index, item in enumerate(value):
            _check_storable(what, item, f"{where}[{index}]")


def _stored_finding(finding: Finding) -> dict[str, Any]:
    """A detector's match is the secret or the personal datum itself: the audit row keeps
    its type and span (the span points into the draft an Expert can read), not its text."""
    data = finding.to_dict()
    if finding.entity is not None:
        data["text"] = f"[{finding.entity}]"
    return data


def _audit_row(r: DecisionRecord) -> AuditRow:
    return AuditRow(
        id=r.id,
        created_at=r.created_at,
        policy_name=r.policy_name,
        policy_hash=r.policy_hash,
        outcome=Outcome(r.outcome),
        reason=r.reason,
        risk_level=RiskLevel(r.risk_level),
        rules_fired=tuple(r.rules_fired),
        suppressed=tuple(r.suppressed),
        findings=tuple(r.findings),
        timings_ms=dict(r.timings_ms),
        total_ms=r.total_ms,
        licensed_by_context=r.licensed_by_context,
        context=r.context,
        text_excerpt=r.text_excerpt,
        error=r.error,
        action=r.action,
        omitted=dict(r.omitted or {"findings": 0, "suppressed": 0}),
    )


def _queue_item(r: QueueItemRecord) -> QueueItem:
    return QueueItem(
        id=r.id,
        decision_id=r.decision_id,
        created_at=r.created_at,
        status=QueueStatus(r.status),
        draft_text=r.draft_text,
        edited_text=r.edited_text,
        expert=r.expert,
        decided_at=r.decided_at,
        note=r.note,
        edit_decision_id=r.edit_decision_id,
        edit_outcome=None if r.edit_outcome is None else Outcome(r.edit_outcome),
    )


E = TypeVar("E", bound=enum.Enum)


def _enum_arg(kind: type[E], name: str, value: E | str) -> E:
    try:
        return kind(value)
    except ValueError:
        allowed = ", ".join(str(m.value) for m in kind)
        raise ValueError(f"{name}: {value!r} is not one of {allowed}") from None


def _check_limit(limit: int) -> int:
    if limit < 1:
        raise ValueError(f"limit: must be at least 1, got {limit!r}")
    return min(limit, MAX_LIMIT)


def _encode_cursor(kind: str, at: datetime, last: str | int) -> str:
    raw = json.dumps([kind, at.astimezone(UTC).isoformat(), last], separators=(",", ":"))
    return base64.urlsafe_b64encode(raw.encode()).decode().rstrip("=")


def _decode_cursor(cursor: str, kind: str) -> tuple[datetime, Any]:
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
        got, at, last = json.loads(raw)
        if got != kind or not isinstance(last, str if kind == "a" else int):
            raise ValueError(kind)
        return datetime.fromisoformat(at), last
    except (ValueError, TypeError) as exc:  # binascii.Error and JSONDecodeError are ValueErrors
        raise InvalidCursor(
            f"cursor: {cursor[:60]!r} is not a cursor from this listing; "
            "pass the next_cursor of the previous page, or none for the first page"
        ) from exc


def _reason(exc: SQLAlchemyError) -> str:
    orig = getattr(exc, "orig", None)
    return str(orig if orig is not None else exc).strip().splitlines()[0]


def _schema_missing(exc: SQLAlchemyError) -> bool:
    message = str(getattr(exc, "orig", exc))
    return "no such table" in message or ("relation" in message and "does not exist" in message)
