"""The canary battery (docs/review-pipeline.md): traps that must stay held when a covering ask
comes with them.

Each fixture (`review/fixtures.py`) restates a secret or another person's details inside
content an explicit ask may license, and comes with a verified operator's "send it to
me". It is checked twice, without the conversation and with it, at the highest
confidence; *held* means a rule fired (`escalate` or `refuse`), never the auto-send bar:

- `laundered`: held without context, less held with it (the ask relaxed it): the soak fails;
- `broken`: not held even without context, held by none of the rules it names in
  `expect`, or its ask is not read as an ask: the trap tests nothing, so the run is
  inconclusive (never silently skipped);
- `clean`: held both ways, the same.

A run uses reserved ids that real traffic cannot use (`RESERVED_PREFIX`: the service
refuses them in a request), records nothing of its checks but one `battery_summary`
line, and releases what it holds in `finally`, whatever happens.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from redline.decide.ids import new_decision_id
from redline.review.fixtures import Fixture
from redline.review.watch import Checker, is_block
from redline.types import Decision, Outcome

RESERVED_PREFIX = "redline-canary"
CLEAN, LAUNDERED, BROKEN = "clean", "laundered", "broken"
AUTO_SEND = 100  # the highest confidence: a trap counts as held only when a rule fired (escalate, refuse)
MAX_LISTED = 60  # fixtures listed on the summary line (the counts cover all of them)


def is_reserved(uid: str | None) -> bool:
    """Whether `uid` is in the battery's namespace, which real traffic may not use."""
    return uid is not None and uid.strip().lower().startswith(RESERVED_PREFIX)


class RunInProgress(RuntimeError):
    """Another battery run holds the reserved namespace of this process."""


class _Runs:
    """The runs in progress in this process: one at a time, released in `finally`."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.active: set[str] = set()

    def acquire(self, run_id: str) -> None:
        with self._lock:
            if self.active:
                raise RunInProgress(f"a canary battery run is in progress ({sorted(self.active)[0]}); try again later")
            self.active.add(run_id)

    def release(self, run_id: str) -> None:
        with self._lock:
            self.active.discard(run_id)


RUNS = _Runs()


@dataclass(frozen=True, slots=True)
class TrapResult:
    fixture: Fixture
    outcome: str  # clean | laundered | broken
    why: str
    without: Outcome
    with_context: Outcome
    fired_without: tuple[str, ...]
    fired_with: tuple[str, ...]
    ask_mode: str | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.fixture.id,
            "kind": self.fixture.kind,
            "source": self.fixture.source,
            "outcome": self.outcome,
            "why": self.why,
            "without_context": self.without.value,
            "with_context": self.with_context.value,
            "rules_without": list(self.fired_without),
            "rules_with": list(self.fired_with),
            "ask_mode": self.ask_mode,
        }


@dataclass(frozen=True, slots=True)
class BatteryRun:
    run_id: str
    policy_name: str
    policy_hash: str
    trigger: str  # cli | http | schedule
    started: float
    duration_ms: float
    results: tuple[TrapResult, ...]
    errors: tuple[str, ...] = ()
    fixtures_total: int = 0

    @property
    def counts(self) -> dict[str, int]:
        counts = {CLEAN: 0, LAUNDERED: 0, BROKEN: 0}
        for result in self.results:
            counts[result.outcome] += 1
        counts["total"] = self.fixtures_total
        counts["not_run"] = self.fixtures_total - len(self.results)
        return counts

    @property
    def conclusive(self) -> bool:
        """Every fixture ran and tested something."""
        counts = self.counts
        return not self.errors and counts["total"] > 0 and counts["not_run"] == 0 and counts[BROKEN] == 0

    @property
    def passed(self) -> bool:
        return self.conclusive and self.counts[LAUNDERED] == 0

    def summary(self) -> dict[str, Any]:
        """The `review` block of the run's `battery_summary` decision-log line."""
        ordered = sorted(self.results, key=lambda r: (r.outcome == CLEAN, r.fixture.id))  # failures first
        return {
            "kind": "battery_summary",
            "run_id": self.run_id,
            "trigger": self.trigger,
            "policy": self.policy_name,
            "policy_hash": self.policy_hash,
            "counts": self.counts,
            "conclusive": self.conclusive,
            "passed": self.passed,
            "fixtures": [r.to_dict() for r in ordered[:MAX_LISTED]],
            "fixtures_listed": min(len(ordered), MAX_LISTED),
            "errors": list(self.errors),
            "duration_ms": round(self.duration_ms, 3),
        }

    def headline(self) -> str:
        c = self.counts
        verdict = "passed" if self.passed else ("LAUNDERED" if c[LAUNDERED] else "inconclusive")
        return f"canary battery {verdict}: {c[CLEAN]} clean, {c[LAUNDERED]} laundered, {c[BROKEN]} broken of {c['total']}"


class SummarySink(Protocol):
    """Where the `battery_summary` line goes (the decision log); False when not stored."""

    def write_summary(self, run: BatteryRun) -> bool: ...


def conversation(fixture: Fixture, run_id: str) -> dict[str, Any]:
    """The fixture's covering ask, from a verified operator under the run's reserved uid."""
    operator = f"{RESERVED_PREFIX}:{run_id}"
    return {
        "operator_uid": operator,
        "recipient": "primary",
        "messages": [{"role": "user", "sender_uid": operator, "text": fixture.ask}],
    }


def classify(fixture: Fixture, without: Decision, with_context: Decision) -> tuple[str, str]:
    """The trap's outcome and why."""
    held = is_block(without.outcome)  # defer is the auto-send bar, not a rule
    if with_context.outcome.rank < without.outcome.rank:
        return LAUNDERED, f"held as {without.outcome.value} without context, {with_context.outcome.value} with the ask"
    if not held:
        return BROKEN, "not held even without context: the trap no longer tests anything"
    fired = set(without.rules_fired)
    if not fired & set(fixture.expect):
        return BROKEN, f"held, but not by {' or '.join(fixture.expect)}: the trap no longer tests that rule"
    facts = with_context.context or {}
    if facts.get("mode") == "weak" or not facts.get("ask"):
        reason = facts.get("error") or f"mode {facts.get('mode', '?')}"
        return BROKEN, f"the covering ask is not read as an explicit ask ({reason}): nothing was offered to launder"
    return CLEAN, f"held as {without.outcome.value} both ways"


def run_battery(
    gate: Checker,
    fixtures: Sequence[Fixture],
    *,
    policy_name: str,
    policy_hash: str,
    trigger: str,
    sink: SummarySink | None = None,
    errors: Sequence[str] = (),
    on_progress: Callable[[int, int], None] | None = None,
) -> BatteryRun:
    """Run every fixture twice against `gate`, then write the summary line (in `finally`:
    a run cut short by an error is summarised as inconclusive, never lost). Raises
    RunInProgress when another run of this process is under way."""
    run_id = "canary-" + new_decision_id()
    RUNS.acquire(run_id)
    started, clock = time.time(), time.perf_counter()
    results: list[TrapResult] = []
    problems = list(errors)
    run: BatteryRun | None = None
    try:
        for done, fixture in enumerate(fixtures if not problems else ()):
            without = gate.check(fixture.text, None, AUTO_SEND)
            with_context = gate.check(fixture.text, conversation(fixture, run_id), AUTO_SEND)
            outcome, why = classify(fixture, without, with_context)
            mode = (with_context.context or {}).get("mode")
            results.append(TrapResult(
                fixture, outcome, why, without.outcome, with_context.outcome,
                tuple(without.rules_fired), tuple(with_context.rules_fired), mode,
            ))  # fmt: skip
            if on_progress is not None:
                on_progress(done + 1, len(fixtures))
    except Exception as exc:  # the gate never raises; a progress callback or a bug might
        problems.append(f"the run stopped: {type(exc).__name__}: {exc}")
        raise
    finally:
        run = BatteryRun(
            run_id, policy_name, policy_hash, trigger, started, (time.perf_counter() - clock) * 1e3,
            tuple(results), tuple(problems), len(fixtures),
        )  # fmt: skip
        try:
            if sink is not None and not sink.write_summary(run):
                run = _with_error(run, "the battery_summary line could not be written to the decision log")
        finally:
            RUNS.release(run_id)
    return run


def _with_error(run: BatteryRun, message: str) -> BatteryRun:
    return BatteryRun(
        run.run_id, run.policy_name, run.policy_hash, run.trigger, run.started, run.duration_ms,
        run.results, (*run.errors, message), run.fixtures_total,
    )  # fmt: skip


__all__ = [
    "BROKEN",
    "CLEAN",
    "LAUNDERED",
    "RESERVED_PREFIX",
    "BatteryRun",
    "RunInProgress",
    "SummarySink",
    "TrapResult",
    "classify",
    "conversation",
    "is_reserved",
    "run_battery",
]
