"""What one running app holds: settings, tokens, policies, the decision log, the audit store.

`Service.record` (and `arecord`, for routes on the event loop) is the step that makes a
200 trustworthy: the decision-log line is written and the audit row (with its queue item
when held) is committed, by the audit writer, before the response exists.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

from fastapi import Request

from redline.decide.gate import Gate
from redline.screen.analysis import TextAnalysis
from redline.domains.registry import DomainRegistry
from redline.service.errors import ApiError
from redline.service.metrics import Metrics
from redline.service.policies import PolicyRegistry
from redline.service.review_state import ReviewState
from redline.service.settings import Settings
from redline.service.tokens import TokenRegistry
from redline.store.decision_log import DecisionLog
from redline.store.errors import StoreError, StoreUnavailable
from redline.store.records import PendingRecord
from redline.store.scrub import scrub
from redline.store.sql import AuditStore
from redline.store.writer import AuditWriter
from redline.types import Decision, Outcome

log = logging.getLogger("redline.service")
EXCERPT_CHARS = 200
HELD = frozenset({Outcome.ESCALATE, Outcome.DEFER, Outcome.ASK})
_LOG_FAILURE_EVERY = 100  # log the first decision-log failure, then every 100th


@dataclass
class Service:
    settings: Settings
    tokens: TokenRegistry
    policies: PolicyRegistry
    decisions: DecisionLog
    store: AuditStore
    metrics: Metrics = field(default_factory=Metrics)
    domains: DomainRegistry = field(default_factory=DomainRegistry.default)
    review: ReviewState | None = None  # None: the flags of the environment (and ./redline.yaml)
    actions: Gate = field(init=False)  # decides actions: no text policy, the domains above
    writer: AuditWriter = field(init=False)

    def __post_init__(self) -> None:
        self.actions = Gate(domains=self.domains)
        if self.review is None:
            self.review = ReviewState(None, self.decisions)
        self.review.metrics = self.metrics
        # every audit row goes through one writer thread with group commit: SQLite has one
        # writer at a time anyway, and a commit shared by a batch costs one sync, not many
        self.writer = AuditWriter(self.store)

    @property
    def flags(self) -> ReviewState:
        assert self.review is not None  # set in __post_init__
        return self.review

    def pending(
        self, decision: Decision, text: str, *, queue: bool = True, analysis: TextAnalysis | None = None
    ) -> PendingRecord:
        """The log line (written now), then what the audit store is to keep: the decision as
        recorded, with its `review` block (the flags in force) when it came without one.
        `analysis`: the text's analysis the check read (its detector findings are reused)."""
        if decision.review is None:
            decision = self.flags.stamp(decision, self.policies.get(decision.policy_name))
        # scrubbed once, whole, then cut: for the log line and for the stored excerpt
        scrubbed = scrub(text, analysis=analysis)
        if not self.decisions.write(decision, text, scrubbed=scrubbed):
            self.metrics.log_failures.inc()
            failures = self.decisions.failures
            if failures % _LOG_FAILURE_EVERY == 1:
                log.error("decision log write failed (%d so far): %s", failures, self.decisions.last_error)
        excerpt = scrubbed.text[:EXCERPT_CHARS]  # no half secret
        held = queue and decision.outcome in HELD
        return PendingRecord(decision, text, excerpt, held=held, prepared=self.store.prepare(decision, text, excerpt))

    def record(self, decision: Decision, text: str, *, queue: bool = True) -> Decision:
        """The log line, then the audit row (and, when held and `queue`, its queue item),
        committed before this returns; raises a 503 ApiError when the row is not stored.
        Returns the decision as recorded (with its `review` block)."""
        entry = self.pending(decision, text, queue=queue)
        try:
            self.writer.record(entry)
        except Exception as exc:
            raise self._not_recorded(decision, exc) from exc
        return entry.decision

    async def arecord(self, decision: Decision, text: str, *, queue: bool = True, entry: PendingRecord | None = None) -> Decision:
        """`record` for a route on the event loop (`entry`: one made by `pending` already)."""
        entry = entry or self.pending(decision, text, queue=queue)
        try:
            await self.writer.arecord(entry)
        except Exception as exc:
            raise self._not_recorded(entry.decision, exc) from exc
        return entry.decision

    def _not_recorded(self, decision: Decision, exc: Exception) -> ApiError:
        # StoreUnavailable, StoreError, or a driver error that slipped by
        self.metrics.store_failures.inc()
        log.error("audit write failed for decision %s: %s", decision.id, exc)
        unavailable = isinstance(exc, StoreUnavailable) or not isinstance(exc, StoreError)
        return ApiError(
            503,
            "store_unavailable" if unavailable else "store_error",
            "the decision could not be recorded in the audit store, so it is not given; retry the check",
            id=decision.id,
            headers={"Retry-After": "1"},
        )

    def close(self) -> None:
        self.flags.stop()
        self.policies.stop()
        self.writer.close()  # commits what is queued before the store goes
        self.decisions.close()
        self.store.close()


def service(request: Request) -> Service:
    svc: Service = request.app.state.service
    return svc
