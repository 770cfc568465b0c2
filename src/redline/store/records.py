"""What the audit store returns: frozen dataclasses, free of any database library, so
the service and tools can use them without importing SQLAlchemy."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Generic, TypeVar

from redline.types import Decision, Outcome, RiskLevel

T = TypeVar("T")


class QueueStatus(str, enum.Enum):
    PENDING = "pending"
    APPROVED = "approved"
    EDITED = "edited"
    REJECTED = "rejected"


@dataclass(frozen=True, slots=True)
class AuditRow:
    """One decision as recorded. `findings` are Expert-internal: never show them to a client."""

    id: str
    created_at: datetime
    policy_name: str
    policy_hash: str
    outcome: Outcome
    reason: str
    risk_level: RiskLevel
    rules_fired: tuple[str, ...]
    suppressed: tuple[dict[str, Any], ...]  # {rule, status, cue, severity, start, end, …}
    findings: tuple[dict[str, Any], ...]
    timings_ms: dict[str, float]
    total_ms: float
    licensed_by_context: bool
    context: dict[str, Any] | None
    text_excerpt: str
    error: str | None
    action: dict[str, Any] | None = None  # for an action: signals, thresholds, the deciding test
    omitted: dict[str, int] = field(default_factory=lambda: {"findings": 0, "suppressed": 0})  # left out by the caps
    layers: dict[str, Any] | None = None  # the screen's and the judge's verdicts, their agreement


@dataclass(frozen=True, slots=True)
class QueueItem:
    """A held draft and what an Expert made of it."""

    id: int
    decision_id: str
    created_at: datetime
    status: QueueStatus
    draft_text: str
    edited_text: str | None
    expert: str | None
    decided_at: datetime | None
    note: str | None
    edit_decision_id: str | None = None  # the gate's decision on the latest edit
    edit_outcome: Outcome | None = None

    @property
    def final_text(self) -> str | None:
        """The text that may now be sent: the edit, the approved draft, else nothing."""
        if self.status is QueueStatus.EDITED:
            return self.edited_text
        return self.draft_text if self.status is QueueStatus.APPROVED else None


@dataclass(frozen=True, slots=True)
class Page(Generic[T]):
    """One page of a listing; pass `next_cursor` back for the next (None: no more)."""

    items: tuple[T, ...]
    next_cursor: str | None




@dataclass(frozen=True, slots=True)
class PendingRecord:
    """One decision on its way to the audit store: the row, and the queue item when `held`."""

    decision: Decision
    text: str  # the full text: kept in the queue item when held, never in the row
    text_excerpt: str  # scrubbed by the caller
    held: bool
    # the row's time and its values as the driver takes them, when the caller built them
    # (AuditStore.prepare); None: the store builds them
    prepared: tuple[datetime, list[Any]] | None = None
