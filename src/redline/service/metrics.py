"""Prometheus metrics, in a registry per app (so several apps in one process do not clash).

With `--workers N` each worker process counts its own requests; a scrape reaches one of
them. Run one worker per container behind the load balancer when the counts must be exact.
"""

from __future__ import annotations

from typing import Any

from prometheus_client import (
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
)
from prometheus_client.exposition import CONTENT_TYPE_LATEST

CONTENT_TYPE = CONTENT_TYPE_LATEST
_LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)


class Metrics:
    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        self.checks = Counter(
            "redline_checks_total",
            "Checks answered, by outcome and policy.",
            ("outcome", "policy"),
            registry=self.registry,
        )
        self._check_counts: dict[tuple[str, str], Any] = {}  # labels() looked up once per pair
        self.latency = Histogram(
            "redline_check_latency_seconds",
            "Time to answer POST /v1/check: gate, decision log and audit write.",
            buckets=_LATENCY_BUCKETS,
            registry=self.registry,
        )
        self.log_failures = Counter(
            "redline_decision_log_write_failures",
            "Decision-log lines that could not be written (the checks still succeeded).",
            registry=self.registry,
        )
        self.store_failures = Counter(
            "redline_store_failures",
            "Audit-store operations that failed (a check answered 503 instead of 200).",
            registry=self.registry,
        )
        self.policies = Gauge("redline_policies_loaded", "Policies being served.", registry=self.registry)
        self.policy_errors = Gauge(
            "redline_policy_files_with_errors",
            "Policy files whose latest version did not load (the last good one is served).",
            registry=self.registry,
        )
        self.context_minted = Counter(
            "redline_context_minted_blocks",
            "Watch-mode pairs whose decision WITH the conversation was the more restrictive (the license is broken).",
            registry=self.registry,
        )
        self.canary_runs = Counter(
            "redline_canary_runs",
            "Canary battery runs, by result: passed, laundered or inconclusive.",
            ("result",),
            registry=self.registry,
        )

        self.audit_commits = Gauge(
            "redline_audit_commits", "Transactions the audit writer committed (each holds one or more rows).",
            registry=self.registry,
        )
        self.audit_rows = Gauge(
            "redline_audit_rows", "Audit rows the audit writer committed; rows / commits is the batch size.",
            registry=self.registry,
        )
        self.audit_backlog = Gauge(
            "redline_audit_backlog", "Rows waiting for the audit writer now.", registry=self.registry
        )

    def count_check(self, outcome: str, policy: str) -> None:
        """One more check answered with `outcome` under `policy` (`redline_checks_total`)."""
        child = self._check_counts.get((outcome, policy))
        if child is None:  # outcomes are five and policies those served: the dict stays small
            child = self._check_counts[(outcome, policy)] = self.checks.labels(outcome, policy)
        child.inc()

    def render(self) -> bytes:
        return generate_latest(self.registry)
