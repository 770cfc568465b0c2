"""The review pipeline's lines in the decision log: a battery run's `battery_summary`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from redline.store.decision_event import review_event
from redline.store.decision_log import DecisionLog

if TYPE_CHECKING:
    from redline.review.canary import BatteryRun

BATTERY_REASON = "battery_summary"


class LogSummarySink:
    """Writes each battery run as one `battery_summary` line of `log` (never raises)."""

    def __init__(self, log: DecisionLog) -> None:
        self.log = log

    def write_summary(self, run: BatteryRun) -> bool:
        try:
            event = review_event(
                run.run_id,
                policy={"name": run.policy_name, "hash": run.policy_hash},
                outcome="execute" if run.passed else "escalate",  # escalate: an operator must look
                reason=BATTERY_REASON,
                risk_level="low" if run.passed else "high",
                excerpt=run.headline(),
                review=run.summary(),
                duration_ms=run.duration_ms,
            )
        except Exception:
            return False
        return self.log.write_event(event)
