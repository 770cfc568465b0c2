"""The review pipeline inside the service: the flags in force, the check path that obeys
them, the canary battery and its scheduled job.

Flags come from the settings file (`--settings`, $REDLINE_SETTINGS or ./redline.yaml)
and the environment; the file is re-read when it changes and on SIGHUP. Every check goes
through `ReviewState.check`, so every decision carries its `review` block, and in watch
mode the decision made with context is logged beside the answer.
"""

from __future__ import annotations

import fcntl
import logging
import os
import threading
from pathlib import Path
from typing import Any

from redline.decide.gate import Gate
from redline.errors import RedlineError
from redline.review.canary import BatteryRun, RunInProgress, run_battery
from redline.review.fixtures import load_fixtures
from redline.review.flags import FlagSource, PolicyFlags, ReviewFlags
from redline.review.license import License
from redline.review.watch import Reviewed, review_check, stamp_plain
from redline.screen.analysis import TextAnalysis
from redline.service.metrics import Metrics
from redline.store.decision_log import DecisionLog
from redline.store.review_log import LogSummarySink
from redline.types import Decision

log = logging.getLogger("redline.service.review")
TEST_HOOK_ENV = "REDLINE_TEST_LICENSE_HOOK"


def license_hook_from_env() -> tuple[str | None, License | None]:
    """The license a test asked for in $REDLINE_TEST_LICENSE_HOOK (`mint-blocks`), if any.

    Tests of the review pipeline need a license that breaks the one-way rule; nothing
    else may use one, so it is loud: logged at start, shown on /healthz and in every
    decision's `review.test_hook`. An unknown value refuses to start.
    """
    name = os.environ.get(TEST_HOOK_ENV)
    if not name:
        return None, None
    from redline.service.testing import LICENSE_HOOKS

    hook = LICENSE_HOOKS.get(name)
    if hook is None:
        from redline.service.settings import ServiceConfigError

        raise ServiceConfigError(f"${TEST_HOOK_ENV}={name!r} is not a test license hook ({', '.join(LICENSE_HOOKS)})")
    log.warning("TEST LICENSE HOOK %s IS ACTIVE: the one-way context license is broken on purpose", name)
    return name, hook


class ReviewState:
    def __init__(
        self,
        settings_path: Path | None,
        decisions: DecisionLog,
        *,
        reload_interval_s: float = 1.0,
        test_hook: str | None = None,
        canary_every_s: float | None = None,
    ) -> None:
        self.source = FlagSource(settings_path, interval=reload_interval_s)
        self.decisions = decisions
        self.test_hook = test_hook
        self.canary_every_s = canary_every_s
        self.last_run: dict[str, Any] | None = None
        self.metrics: Metrics | None = None  # the service's, set when it is built
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._lock_fd: int | None = None
        for problem in self.source.current().errors:
            log.error("review settings: %s (the safe setting is used)", problem)

    # flags ---------------------------------------------------------------------------
    def current(self) -> ReviewFlags:
        return self.source.current()

    def for_gate(self, gate: Gate) -> PolicyFlags:
        return self.current().for_policy(gate.policy.name, development=gate.policy.development)

    def _marked(self, decision: Decision) -> Decision:
        if self.test_hook is not None and decision.review is not None:
            decision.review["test_hook"] = self.test_hook
        return decision

    # checks --------------------------------------------------------------------------
    def check(self, gate: Gate, text: str | TextAnalysis, context: Any, confidence: float | None) -> Reviewed:
        """`text` may be its `TextAnalysis`: every check the flags call for reads that one."""
        reviewed = review_check(gate, text, context, confidence, self.for_gate(gate))
        for decision in reviewed.decisions:
            self._marked(decision)
        if reviewed.shadow is not None:  # logged only: never an audit row or a queue item
            self.decisions.write(reviewed.shadow, text.text if isinstance(text, TextAnalysis) else text)
        if reviewed.context_minted:
            if self.metrics is not None:
                self.metrics.context_minted.inc()
            log.error("context-minted block in pair %s (policy %s)", reviewed.answer.review and
                      reviewed.answer.review.get("pair_id"), gate.policy.name)  # fmt: skip
        return reviewed

    def stamp(self, decision: Decision, gate: Gate | None = None) -> Decision:
        """A decision made without a conversation (an edit, an action), with the flags in force."""
        flags = self.for_gate(gate) if gate is not None else self.current().for_policy(decision.policy_name, development=False)
        return self._marked(stamp_plain(decision, flags, kind="action" if decision.action is not None else "check"))

    # the battery ---------------------------------------------------------------------
    def run_battery(self, gate: Gate, *, trigger: str) -> BatteryRun:
        """Raises RunInProgress when a run is under way."""
        problems: list[str] = []
        try:
            fixtures = load_fixtures(self.current().fixtures)
        except RedlineError as exc:
            fixtures, problems = [], [str(exc)]
        run = run_battery(
            gate, fixtures, policy_name=gate.policy.name, policy_hash=gate.policy_hash, trigger=trigger,
            sink=LogSummarySink(self.decisions), errors=problems,
        )  # fmt: skip
        self.last_run = {"run_id": run.run_id, "policy": run.policy_name, "passed": run.passed,
                         "conclusive": run.conclusive, "counts": run.counts, "trigger": trigger}  # fmt: skip
        if self.metrics is not None:
            result = "passed" if run.passed else "laundered" if run.counts["laundered"] else "inconclusive"
            self.metrics.canary_runs.labels(result).inc()
        level = logging.INFO if run.passed else logging.ERROR
        log.log(level, "%s (policy %s, %s)", run.headline(), run.policy_name, run.run_id)
        return run

    def start(self, gates: Any) -> None:
        """The scheduled battery: every `canary_every_s` seconds, each policy whose
        conversations are read. One process of a `--workers N` service runs it: the one
        that holds the lock file beside the decision log."""
        if not self.canary_every_s:
            return
        interval = self.canary_every_s

        def loop() -> None:
            while not self._stop.wait(interval):
                if not self._scheduler_lock():
                    continue
                for gate in list(gates):
                    if not self.for_gate(gate).uses_context:
                        continue
                    try:
                        self.run_battery(gate, trigger="schedule")
                    except RunInProgress:
                        log.info("scheduled canary run skipped: another run is in progress")
                    except Exception:  # the job must outlive any one bad run
                        log.exception("scheduled canary run failed for policy %s", gate.policy.name)

        self._thread = threading.Thread(target=loop, name="redline-canary-schedule", daemon=True)
        self._thread.start()

    def _scheduler_lock(self) -> bool:
        if self._lock_fd is not None:
            return True
        path = self.decisions.path + ".canary.lock"
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        except OSError:
            return True  # no lock file possible: run (two runs are harmless, none is not)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            return False
        self._lock_fd = fd
        return True

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
        if self._lock_fd is not None:
            os.close(self._lock_fd)
            self._lock_fd = None

    def health(self) -> dict[str, Any]:
        flags = self.current()
        return {
            **flags.to_dict(),
            "test_hook": self.test_hook,
            "canary_every_s": self.canary_every_s,
            "last_battery_run": self.last_run,
        }
