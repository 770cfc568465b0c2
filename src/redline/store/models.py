"""The audit store's tables, as SQLAlchemy 2.0 typed ORM classes.

Nothing outside `store/` sees these classes: `store/sql.py` turns rows into frozen
dataclasses. A change here needs a new migration in `store/migrations/versions/`;
`tests/integration/test_audit_store.py` fails when the two drift apart.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    CheckConstraint,
    DateTime,
    Dialect,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Text,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column
from sqlalchemy.types import TypeDecorator

QUEUE_STATUSES = ("pending", "approved", "edited", "rejected")
EXCERPT_CHARS = 200

# Named constraints, so that later migrations (batch mode on SQLite) can refer to them.
NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class UTCDateTime(TypeDecorator[datetime]):
    """Aware UTC datetimes in, aware UTC datetimes out, on both backends.

    SQLite has no time zones: it stores naive UTC text, which then sorts in time order.
    A naive value passed in is taken to be UTC.
    """

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        value = (value if value.tzinfo else value.replace(tzinfo=UTC)).astimezone(UTC)
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)
    type_annotation_map = {datetime: UTCDateTime(), dict[str, Any]: JSON(), list[Any]: JSON()}


class DecisionRecord(Base):
    """One audit row per decision the gate made."""

    __tablename__ = "decisions"
    __table_args__ = (
        Index("ix_decisions_created_at_id", "created_at", "id"),
        Index("ix_decisions_policy_name", "policy_name"),
        Index("ix_decisions_outcome", "outcome"),
    )

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    created_at: Mapped[datetime]
    policy_name: Mapped[str] = mapped_column(String(200))
    policy_hash: Mapped[str] = mapped_column(String(128))
    outcome: Mapped[str] = mapped_column(String(16))
    reason: Mapped[str] = mapped_column(Text)
    risk_level: Mapped[str] = mapped_column(String(16))
    rules_fired: Mapped[list[Any]]
    suppressed: Mapped[list[Any]]  # [{rule, status, cue, severity, start, end, …}]
    findings: Mapped[list[Any]]  # Finding.to_dict() each, detector spans masked
    timings_ms: Mapped[dict[str, Any]]
    total_ms: Mapped[float] = mapped_column(Float)
    licensed_by_context: Mapped[bool] = mapped_column(Boolean)
    context: Mapped[dict[str, Any] | None] = mapped_column(JSON(none_as_null=True))  # no bodies
    text_excerpt: Mapped[str] = mapped_column(String(EXCERPT_CHARS))  # scrubbed by the caller
    error: Mapped[str | None] = mapped_column(Text)
    action: Mapped[dict[str, Any] | None] = mapped_column(JSON(none_as_null=True))  # an action's scores
    # {"findings": n, "suppressed": n} left out by the caps; null: nothing was
    omitted: Mapped[dict[str, Any] | None] = mapped_column(JSON(none_as_null=True))
    layers: Mapped[dict[str, Any] | None] = mapped_column(JSON(none_as_null=True))  # screen, judge, agreement


class QueueItemRecord(Base):
    """A held draft waiting for (or decided by) an Expert."""

    __tablename__ = "queue_items"
    __table_args__ = (
        CheckConstraint(
            "status IN (" + ", ".join(f"'{s}'" for s in QUEUE_STATUSES) + ")", name="status"
        ),
        Index("ix_queue_items_status_created_at", "status", "created_at", "id"),
        {"sqlite_autoincrement": True},  # never reuse an id an Expert may have bookmarked
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    decision_id: Mapped[str] = mapped_column(
        String(64), ForeignKey("decisions.id", ondelete="CASCADE"), unique=True
    )
    created_at: Mapped[datetime]
    status: Mapped[str] = mapped_column(String(16))
    draft_text: Mapped[str] = mapped_column(Text)  # in full: the Expert must read it
    edited_text: Mapped[str | None] = mapped_column(Text)
    expert: Mapped[str | None] = mapped_column(String(200))
    decided_at: Mapped[datetime | None]
    note: Mapped[str | None] = mapped_column(Text)
    # the gate's decision on the latest edit, and its outcome (the draft's is `decision_id`)
    edit_decision_id: Mapped[str | None] = mapped_column(String(64))
    edit_outcome: Mapped[str | None] = mapped_column(String(16))


class QueueLeaseRecord(Base):
    """Who is reviewing a queue item, until when: the workspace leases an item to the Expert
    who opens it, so that two Experts do not review the same draft."""

    __tablename__ = "queue_leases"

    item_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("queue_items.id", ondelete="CASCADE"), primary_key=True, autoincrement=False
    )
    expert: Mapped[str] = mapped_column(String(200))
    until: Mapped[datetime]


class WorkspaceSessionRecord(Base):
    """A signed-in workspace session. The cookie's value is never stored: only its sha256."""

    __tablename__ = "workspace_sessions"
    __table_args__ = (Index("ix_workspace_sessions_expires_at", "expires_at"),)

    id: Mapped[str] = mapped_column(String(64), primary_key=True)  # sha256 hex of the cookie value
    principal: Mapped[str] = mapped_column(String(200))  # the token's label, e.g. expert:3f9a2c1d
    role: Mapped[str] = mapped_column(String(16))
    created_at: Mapped[datetime]
    expires_at: Mapped[datetime]
