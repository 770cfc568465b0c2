"""Helpers for testing code that uses the audit store (ours and yours).

    clock = ManualClock(datetime(2026, 12, 1, tzinfo=UTC))
    store = AuditStore("sqlite:///test.db", clock=clock)   # or WorkspaceStore(store, clock=clock)
    clock.advance(minutes=10)                               # leases and sessions expire on cue
"""

from __future__ import annotations

from datetime import datetime, timedelta

__all__ = ["ManualClock"]


class ManualClock:
    """A clock that moves only when told: pass it as `clock=` to a store."""

    def __init__(self, start: datetime) -> None:
        if start.tzinfo is None:
            raise ValueError(f"start: give an aware datetime (e.g. tzinfo=UTC), got {start!r}")
        self.now = start

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> None:
        """Move on by `timedelta(**delta)`: `advance(seconds=30)`, `advance(days=1)`."""
        self.now += timedelta(**delta)
