"""What the Expert workspace keeps beside the audit store: sessions, leases, the queue's view.

    ws = WorkspaceStore(store)
    cookie = ws.open_session("expert:3f9a2c1d", "expert", lifetime_s=8 * 3600)
    ws.session(cookie)                      # -> SessionRow, or None once expired or closed
    ws.take_lease(item_id, "expert:3f9a2c1d", seconds=600)   # -> Lease: whose, until when

A session cookie's value is never stored, only its sha256, so a copy of the database
signs nobody in. A lease is taken with an INSERT, or an UPDATE conditional on the lease
being the taker's own or expired, so two Experts opening one item at once cannot both
hold it.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import delete, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import sessionmaker

from redline.store.models import DecisionRecord, QueueItemRecord, QueueLeaseRecord, WorkspaceSessionRecord
from redline.store.records import QueueStatus
from redline.store.sql import AuditStore
from redline.types import Outcome, RiskLevel

__all__ = ["Lease", "PendingItem", "Review", "SessionRow", "WorkspaceStore", "PENDING_CAP"]

PENDING_CAP = 10_000  # pending items read for one queue page's counts; a queue this long needs triage anyway


@dataclass(frozen=True, slots=True)
class SessionRow:
    principal: str
    role: str
    created_at: datetime
    expires_at: datetime


@dataclass(frozen=True, slots=True)
class Lease:
    item_id: int
    expert: str
    until: datetime

    def held_by(self, expert: str) -> bool:
        return self.expert == expert


@dataclass(frozen=True, slots=True)
class PendingItem:
    """One pending queue item with what the queue page shows and counts of its decision."""

    id: int
    created_at: datetime
    decision_id: str
    policy: str
    outcome: Outcome
    reason: str
    risk_level: RiskLevel
    rules: tuple[str, ...]
    excerpt: str  # scrubbed, 200 characters at most
    is_action: bool
    lease: Lease | None  # an unexpired lease, else None


@dataclass(frozen=True, slots=True)
class Review:
    """What an Expert made of a held decision, for the audit browser."""

    item_id: int
    decision_id: str
    status: QueueStatus
    expert: str | None
    decided_at: datetime | None
    note: str | None


def _digest(cookie: str) -> str:
    return hashlib.sha256(cookie.encode("utf-8", errors="surrogatepass")).hexdigest()


class WorkspaceStore:
    """Sessions and leases in the audit store's database (so every worker process sees them)."""

    def __init__(self, store: AuditStore, *, clock: Callable[[], datetime] | None = None) -> None:
        self._store = store
        self._clock = clock or (lambda: datetime.now(UTC))
        self._sessions = sessionmaker(store.engine, expire_on_commit=False)

    def _guard(self, action: str) -> Any:
        return self._store._guard(action)  # one mapping of driver errors for the whole database

    # sessions ------------------------------------------------------------------------
    def open_session(self, principal: str, role: str, *, lifetime_s: int) -> str:
        """A new session; returns the cookie value (shown to the browser, never stored)."""
        cookie = secrets.token_urlsafe(32)
        now = self._clock()
        record = WorkspaceSessionRecord(
            id=_digest(cookie),
            principal=principal,
            role=role,
            created_at=now,
            expires_at=now + timedelta(seconds=lifetime_s),
        )
        with self._guard("open_session"), self._sessions.begin() as session:
            session.execute(delete(WorkspaceSessionRecord).where(WorkspaceSessionRecord.expires_at <= now))
            session.add(record)
        return cookie

    def session(self, cookie: str) -> SessionRow | None:
        """The live session of `cookie`, or None (unknown, closed or expired)."""
        if not cookie or len(cookie) > 200:
            return None
        with self._guard("session"), self._sessions() as session:
            found = session.get(WorkspaceSessionRecord, _digest(cookie))
            if found is None or found.expires_at <= self._clock():
                return None
            return SessionRow(found.principal, found.role, found.created_at, found.expires_at)

    def close_session(self, cookie: str) -> None:
        with self._guard("close_session"), self._sessions.begin() as session:
            session.execute(delete(WorkspaceSessionRecord).where(WorkspaceSessionRecord.id == _digest(cookie)))

    # leases --------------------------------------------------------------------------
    def take_lease(self, item_id: int, expert: str, *, seconds: int) -> Lease:
        """Lease `item_id` to `expert` (or renew it) unless another Expert holds it; returns
        the lease in force, whoever holds it. The item must exist."""
        now = self._clock()
        until = now + timedelta(seconds=seconds)
        with self._guard("take_lease"):
            try:
                with self._sessions.begin() as session:
                    session.add(QueueLeaseRecord(item_id=item_id, expert=expert, until=until))
            except IntegrityError:  # a lease row exists (or, for an unknown item, the key fails)
                stmt = (
                    update(QueueLeaseRecord)
                    .where(
                        QueueLeaseRecord.item_id == item_id,
                        (QueueLeaseRecord.expert == expert) | (QueueLeaseRecord.until <= now),
                    )
                    .values(expert=expert, until=until)
                    .execution_options(synchronize_session=False)
                )
                with self._sessions.begin() as session:
                    session.execute(stmt)
            with self._sessions() as session:
                found = session.get(QueueLeaseRecord, item_id)
        if found is None:
            raise LookupError(f"no queue item with id {item_id!r}")
        return Lease(found.item_id, found.expert, found.until)

    def lease(self, item_id: int) -> Lease | None:
        """The unexpired lease on `item_id`, if any."""
        return self.leases([item_id]).get(item_id)

    def leases(self, item_ids: Iterable[int]) -> dict[int, Lease]:
        ids = list(item_ids)
        if not ids:
            return {}
        now = self._clock()
        stmt = select(QueueLeaseRecord).where(QueueLeaseRecord.item_id.in_(ids), QueueLeaseRecord.until > now)
        with self._guard("leases"), self._sessions() as session:
            return {r.item_id: Lease(r.item_id, r.expert, r.until) for r in session.scalars(stmt)}

    def release(self, item_id: int, expert: str) -> None:
        """Give up `expert`'s lease on `item_id` (after a decision); another's is left alone."""
        stmt = delete(QueueLeaseRecord).where(QueueLeaseRecord.item_id == item_id, QueueLeaseRecord.expert == expert)
        with self._guard("release"), self._sessions.begin() as session:
            session.execute(stmt)

    # the queue and the audit trail, as the pages show them ---------------------------------
    def pending(self, *, cap: int = PENDING_CAP) -> tuple[list[PendingItem], bool]:
        """Pending items, oldest first, with their decisions and live leases; True when
        more than `cap` are pending (only the oldest `cap` are returned)."""
        now = self._clock()
        # Named columns, not whole rows: the queue page needs no findings, timings or layers,
        # and hydrating ORM objects for every pending item costs several times more.
        stmt = (
            select(
                QueueItemRecord.id,
                QueueItemRecord.created_at,
                QueueItemRecord.decision_id,
                DecisionRecord.policy_name,
                DecisionRecord.outcome,
                DecisionRecord.reason,
                DecisionRecord.risk_level,
                DecisionRecord.rules_fired,
                DecisionRecord.text_excerpt,
                DecisionRecord.action.is_not(None),
                QueueLeaseRecord.expert,
                QueueLeaseRecord.until,
            )
            .join(DecisionRecord, DecisionRecord.id == QueueItemRecord.decision_id)
            .outerjoin(
                QueueLeaseRecord,
                (QueueLeaseRecord.item_id == QueueItemRecord.id) & (QueueLeaseRecord.until > now),
            )
            .where(QueueItemRecord.status == QueueStatus.PENDING.value)
            .order_by(QueueItemRecord.created_at, QueueItemRecord.id)
            .limit(cap + 1)
        )
        with self._guard("pending"), self._sessions() as session:
            rows = session.execute(stmt).all()
        items = [
            PendingItem(
                id=item_id,
                created_at=created_at,
                decision_id=decision_id,
                policy=policy,
                outcome=Outcome(outcome),
                reason=reason,
                risk_level=RiskLevel(risk),
                rules=tuple(rules),
                excerpt=excerpt,
                is_action=bool(is_action),
                lease=Lease(item_id, expert, until) if expert is not None else None,
            )
            for (item_id, created_at, decision_id, policy, outcome, reason, risk, rules, excerpt, is_action,
                 expert, until) in rows[:cap]  # fmt: skip
        ]
        return items, len(rows) > cap

    def reviews(self, decision_ids: Iterable[str]) -> dict[str, Review]:
        """The queue item of each of `decision_ids` that was held, by decision id."""
        ids = list(decision_ids)
        if not ids:
            return {}
        stmt = select(QueueItemRecord).where(QueueItemRecord.decision_id.in_(ids))
        with self._guard("reviews"), self._sessions() as session:
            return {
                r.decision_id: Review(r.id, r.decision_id, QueueStatus(r.status), r.expert, r.decided_at, r.note)
                for r in session.scalars(stmt)
            }
