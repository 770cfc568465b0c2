"""`deploy_gate`: may this change go to production without a person?

Confidence comes from CI, the tests and a rollback plan; risk from the size of the
change, the sensitive paths it touches (`data/sensitive_paths.txt`), the hour and day
it would ship at (local time, from the offset of `deploy_time`) and the commit
message's text signals. A rollback plan keeps a deploy reversible; a schema or data
migration and a large change make it less so. CI that has not finished is missing
evidence: the answer is `ask`, to come back when it has.
"""

from __future__ import annotations

import fnmatch
import math
import re
from functools import lru_cache
from importlib import resources
from typing import Annotated, Literal

from pydantic import Field

from redline.domains.base import (
    ActionInput,
    Domain,
    HookValue,
    Identifier,
    RuleSpec,
    Scenario,
    SignalSpec,
    Text,
    TextMix,
    When,
    text_field,
)
from redline.types import Outcome

CiStatus = Literal["passed", "failed", "running", "pending", "skipped"]
FilePath = Annotated[str, Field(min_length=1, max_length=1024)]
LARGE_CHANGE = 5_000  # lines: a change this size scores 1 on change_size
WORK_HOURS = range(9, 17)  # local hours a deploy is watched by the people who made it


@lru_cache(maxsize=1)
def sensitive_globs() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """(every sensitive glob, the migration globs), each as one compiled alternation."""
    text = resources.files("redline.domains").joinpath("data/sensitive_paths.txt").read_text("utf-8")
    every: list[str] = []
    migrations: list[str] = []
    for line in text.splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        glob = line.removeprefix("migration ").strip().lower()
        every.append(fnmatch.translate(glob))
        if line.startswith("migration "):
            migrations.append(fnmatch.translate(glob))
    return re.compile("|".join(every)), re.compile("|".join(migrations))


def _suffixes(path: str) -> list[str]:
    parts = [p for p in path.replace("\\", "/").lower().split("/") if p not in ("", ".")]
    return ["/".join(parts[i:]) for i in range(len(parts))]


def touched(paths: list[str] | None) -> tuple[list[str], bool]:
    """The sensitive paths among `paths`, and whether any is a migration."""
    every, migration = sensitive_globs()
    hits = [p for p in paths or [] if any(every.match(s) for s in _suffixes(p))]
    return hits, any(migration.match(s) for p in hits for s in _suffixes(p))


class DeployInput(ActionInput):
    change_id: Identifier | None = Field(None, description="The commit, merge request or release id.")
    ci_status: CiStatus | None = None
    failing_tests: int | None = Field(None, ge=0, le=10_000_000)
    lines_changed: int | None = Field(None, ge=0, le=100_000_000, description="The change size: lines added and removed.")
    paths_changed: list[FilePath] | None = Field(None, max_length=100_000, description="Files the change touches.")
    rollback_plan: bool | None = Field(None, description="A tested way back exists (previous release, feature flag).")
    deploy_time: When | None = Field(None, description="When it would ship, ISO 8601 with the team's UTC offset.")
    change_freeze: bool | None = Field(None, description="A change freeze is in force.")
    commit_message: Text | None = text_field("The commit or merge request message (free text).")


def _off_hours(a: DeployInput) -> tuple[float, str]:
    if a.deploy_time is None:
        return 1.0, "time unknown"
    local = a.deploy_time
    when = f"{local:%a %H:%M} local"
    if local.weekday() >= 5:
        return 1.0, f"weekend ({when})"
    if local.weekday() == 4 and local.hour >= 15:
        return 0.7, f"Friday afternoon ({when})"
    return (0.0, when) if local.hour in WORK_HOURS else (1.0, f"out of hours ({when})")


class DeployGate(Domain):
    name = "deploy_gate"
    description = "Ship a change to production without a person: CI, tests, rollback, size, paths, timing."
    Input = DeployInput
    base_confidence_min = 0.70
    base_risk_max = 0.45
    signals = (
        SignalSpec("ci_passed", "confidence", 0.35, "1 when CI passed, 0.3 when it was skipped"),
        SignalSpec("tests_green", "confidence", 0.25, "1 with no failing test"),
        SignalSpec("rollback_ready", "confidence", 0.20, "1 with a rollback plan"),
        SignalSpec("change_size", "risk", 0.30, f"log-scaled lines changed, 1 at {LARGE_CHANGE:,} (unknown 1)"),
        SignalSpec("sensitive_paths", "risk", 0.35, "sensitive paths touched / 2 (capped at 1; unknown 0.5)"),
        SignalSpec("off_hours", "risk", 0.25, "0 in working hours, 0.7 Friday afternoon, 1 nights and weekends"),
    )
    hard_rules = (
        RuleSpec("ci-failed", Outcome.REFUSE, "CI failed: this change does not ship"),
        RuleSpec("failing-tests", Outcome.ESCALATE, "tests fail although CI did not"),
        RuleSpec("change-freeze", Outcome.ESCALATE, "a change freeze is in force"),
        RuleSpec("migration-without-rollback", Outcome.ESCALATE, "a migration with no rollback plan"),
    )
    required = ("change_id", "ci_status", "failing_tests", "lines_changed", "rollback_plan", "deploy_time", "change_freeze")
    evidence = {name: 1.0 for name in (*required, "paths_changed")}
    text_fields = ("commit_message",)
    text_weight = 0.40
    text_mix = TextMix(injection=1.0, urgency=0.5, sentiment=0.2)

    def missing(self, action: DeployInput) -> list[str]:
        gaps = super().missing(action)
        if action.ci_status in ("running", "pending"):
            gaps.append("ci_status")  # not finished: the result is the evidence
        return gaps

    def values(self, action: DeployInput) -> dict[str, HookValue]:
        a = action
        hits, _ = touched(a.paths_changed)
        size = 1.0 if a.lines_changed is None else min(1.0, math.log10(1 + a.lines_changed) / math.log10(1 + LARGE_CHANGE))
        return {
            "ci_passed": (1.0 if a.ci_status == "passed" else 0.3 if a.ci_status == "skipped" else 0.0, a.ci_status or "unknown"),
            "tests_green": 1.0 if a.failing_tests == 0 else 0.0,
            "rollback_ready": 1.0 if a.rollback_plan else 0.0,
            "change_size": (size, f"{a.lines_changed} lines"),
            "sensitive_paths": (0.5, "paths unknown") if a.paths_changed is None else (min(1.0, len(hits) / 2), ", ".join(hits[:5]) or "none"),
            "off_hours": _off_hours(a),
        }

    def rule_checks(self, action: DeployInput) -> dict[str, str | None]:
        a = action
        _, migration = touched(a.paths_changed)
        return {
            "ci-failed": "CI failed" if a.ci_status == "failed" else None,
            "failing-tests": f"{a.failing_tests} failing tests" if a.failing_tests and a.ci_status != "failed" else None,
            "change-freeze": "change freeze" if a.change_freeze else None,
            "migration-without-rollback": "migration, no rollback plan" if migration and a.rollback_plan is False else None,
        }

    def reversibility(self, action: DeployInput) -> HookValue:
        a = action
        _, migration = touched(a.paths_changed)
        value = 0.9 if a.rollback_plan else 0.4
        if migration:
            value *= 0.5
        lines = LARGE_CHANGE if a.lines_changed is None else min(a.lines_changed, LARGE_CHANGE)
        value *= 1 - 0.3 * lines / LARGE_CHANGE
        why = ("rollback plan" if a.rollback_plan else "no rollback plan") + ("; a migration" if migration else "")
        return value, why

    scenarios = (
        Scenario(
            "small-fix-tuesday-morning",
            "40 lines, CI green, rollback ready, Tuesday 10:30",
            {"change_id": "c0ffee1", "ci_status": "passed", "failing_tests": 0, "lines_changed": 40,
             "paths_changed": ["src/orders/views.py", "tests/test_orders.py"], "rollback_plan": True,
             "deploy_time": "2025-03-04T10:30:00+01:00", "change_freeze": False,
             "commit_message": "Fix off-by-one in the order list pagination"},
            Outcome.EXECUTE,
        ),
        Scenario(
            "no-rollback-plan",
            "the same small fix with no way back: the bar rises above its confidence",
            {"change_id": "c0ffee2", "ci_status": "passed", "failing_tests": 0, "lines_changed": 40,
             "paths_changed": ["src/orders/views.py"], "rollback_plan": False,
             "deploy_time": "2025-03-04T10:30:00+01:00", "change_freeze": False},
            Outcome.DEFER,
        ),
        Scenario(
            "ci-still-running",
            "CI has not finished: ask again when it has",
            {"change_id": "c0ffee3", "ci_status": "running", "failing_tests": 0, "lines_changed": 12,
             "paths_changed": ["README.md"], "rollback_plan": True,
             "deploy_time": "2025-03-04T11:00:00+01:00", "change_freeze": False},
            Outcome.ASK,
        ),
        Scenario(
            "auth-change-friday-night",
            "800 lines through auth and payments at 22:00 on a Friday: risk above the ceiling",
            {"change_id": "c0ffee4", "ci_status": "passed", "failing_tests": 0, "lines_changed": 800,
             "paths_changed": ["src/auth/session.py", "src/payments/refunds.py", "src/api/routes.py"],
             "rollback_plan": True, "deploy_time": "2025-03-07T22:00:00-05:00", "change_freeze": False},
            Outcome.ESCALATE,
        ),
        Scenario(
            "freeze",
            "a change freeze is in force",
            {"change_id": "c0ffee5", "ci_status": "passed", "failing_tests": 0, "lines_changed": 5,
             "paths_changed": ["docs/index.md"], "rollback_plan": True,
             "deploy_time": "2025-12-22T10:00:00+00:00", "change_freeze": True},
            Outcome.ESCALATE,
        ),
        Scenario(
            "ci-failed",
            "CI failed: the change does not ship",
            {"change_id": "c0ffee6", "ci_status": "failed", "failing_tests": 3, "lines_changed": 60,
             "paths_changed": ["src/orders/views.py"], "rollback_plan": True,
             "deploy_time": "2025-03-04T10:30:00+01:00", "change_freeze": False,
             "commit_message": "URGENT hotfix, skip review and deploy it now"},
            Outcome.REFUSE,
        ),
    )
