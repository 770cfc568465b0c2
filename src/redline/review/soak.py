"""The soak report: was day D clean enough to trust context with what reaches users?

Read from decision-log events (the JSON lines, rotated files included, by the caller).
A day is `clean` only when ALL of these hold, otherwise `not clean` with each reason:

- volume: at least `min_volume` checks read their conversation in watch mode (each one
  a counterfactual pair): without traffic there is no evidence;
- no context-minted block: in no pair is the decision WITH context more restrictive
  than the one without (the one-way license held);
- at least one battery run that day, every run conclusive (no broken fixture, no error);
- no laundered trap in any run.

Flipping `review.mode` to `enforce` stays an operator's action; this only says whether
the evidence supports it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from redline.types import Outcome

DEFAULT_MIN_VOLUME = 100
BATTERY = "battery_summary"
_DAY = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_RANK = {o.value: o.rank for o in Outcome}
_BLOCKS = {Outcome.ESCALATE.value, Outcome.REFUSE.value}


@dataclass
class _Pair:
    with_context: dict[str, Any] | None = None
    without_context: dict[str, Any] | None = None


@dataclass
class SoakReport:
    day: str
    min_volume: int
    policy: str | None
    decisions: int = 0  # answers given that day (checks, edits, actions)
    volume: int = 0  # counterfactual pairs: checks that read their conversation in watch mode
    would_blocks: int = 0
    context_relaxed: int = 0  # pairs where context licensed a less restrictive outcome
    context_minted: list[str] = field(default_factory=list)  # pair ids
    incomplete_pairs: int = 0
    battery_runs: list[dict[str, Any]] = field(default_factory=list)
    reasons: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    @property
    def clean(self) -> bool:
        return not self.reasons

    @property
    def verdict(self) -> str:
        return "clean" if self.clean else "not clean"

    def to_dict(self) -> dict[str, Any]:
        runs = self.battery_runs
        return {
            "day": self.day,
            "policy": self.policy,
            "verdict": self.verdict,
            "reasons": list(self.reasons),
            "volume": self.volume,
            "min_volume": self.min_volume,
            "decisions": self.decisions,
            "would_blocks": self.would_blocks,
            "context_relaxed": self.context_relaxed,
            "context_minted_blocks": len(self.context_minted),
            "context_minted_pairs": list(self.context_minted[:50]),
            "incomplete_pairs": self.incomplete_pairs,
            "battery": {
                "runs": len(runs),
                "conclusive": sum(1 for r in runs if r["conclusive"]),
                "laundered": sum(r["counts"].get("laundered", 0) for r in runs),
                "broken": sum(r["counts"].get("broken", 0) for r in runs),
                "each": runs,
            },
            "warnings": list(self.warnings),
            "supports_enforce": self.clean,
        }


def valid_day(day: str) -> bool:
    if not _DAY.match(day):
        return False
    try:
        date.fromisoformat(day)
    except ValueError:
        return False
    return True


def _review(event: dict[str, Any]) -> dict[str, Any]:
    review = event.get("review")
    return review if isinstance(review, dict) else {}


def _policy(event: dict[str, Any]) -> str | None:
    policy = event.get("policy")
    return str(policy.get("name")) if isinstance(policy, dict) else None


def _battery_run(event: dict[str, Any], review: dict[str, Any]) -> dict[str, Any]:
    raw_counts = review.get("counts")
    counts: dict[str, Any] = raw_counts if isinstance(raw_counts, dict) else {}
    fixtures = [f for f in review.get("fixtures") or [] if isinstance(f, dict)]
    return {
        "run_id": str(review.get("run_id") or event.get("id")),
        "time": event.get("time"),
        "policy": review.get("policy") or _policy(event),
        "policy_hash": review.get("policy_hash"),
        "trigger": review.get("trigger"),
        "counts": {k: int(v) for k, v in counts.items() if isinstance(v, int)},
        "conclusive": review.get("conclusive") is True,
        "passed": review.get("passed") is True,
        "laundered": [str(f.get("id")) for f in fixtures if f.get("outcome") == "laundered"],
        "broken": [str(f.get("id")) for f in fixtures if f.get("outcome") == "broken"],
        "errors": [str(e) for e in review.get("errors") or []],
    }


def soak_report(
    events: Iterable[dict[str, Any]], *, day: str, min_volume: int = DEFAULT_MIN_VOLUME, policy: str | None = None
) -> SoakReport:
    """The report for UTC day `day` (YYYY-MM-DD) over `events`, optionally one policy's."""
    report = SoakReport(day=day, min_volume=min_volume, policy=policy)
    pairs: dict[str, _Pair] = {}
    for event in events:
        if not str(event.get("time", "")).startswith(day):
            continue
        if policy is not None and _policy(event) != policy:
            continue
        review = _review(event)
        if review.get("kind") == BATTERY or event.get("reason") == BATTERY:
            report.battery_runs.append(_battery_run(event, review))
            continue
        pair_id = review.get("pair_id")
        if isinstance(pair_id, str):
            side = pairs.setdefault(pair_id, _Pair())
            if review.get("answer") == "with_context":
                side.with_context = event
            else:
                side.without_context = event
        if review.get("acted_on") is False:
            continue  # the decision with context in watch mode: recorded, not acted on
        report.decisions += 1
        would_block = review.get("would_block")
        if would_block is True or (would_block is None and event.get("outcome") in _BLOCKS):
            report.would_blocks += 1
    for pair_id, pair in pairs.items():
        if pair.with_context is None or pair.without_context is None:
            report.incomplete_pairs += 1
            continue
        report.volume += 1
        with_rank = _RANK.get(str(pair.with_context.get("outcome")), 0)
        without_rank = _RANK.get(str(pair.without_context.get("outcome")), 0)
        if with_rank > without_rank or _review(pair.with_context).get("context_minted") is True:
            report.context_minted.append(pair_id)
        elif with_rank < without_rank:
            report.context_relaxed += 1
    _verdict(report)
    return report


def _verdict(report: SoakReport) -> None:
    reasons = report.reasons
    if report.volume < report.min_volume:
        reasons.append(
            f"not enough volume: {report.volume} check(s) read their conversation in watch mode, "
            f"fewer than --min-volume {report.min_volume}"
        )
    if report.context_minted:
        shown = ", ".join(report.context_minted[:5])
        reasons.append(
            f"{len(report.context_minted)} context-minted block(s): the decision with context was the more "
            f"restrictive one (the one-way license is broken): {shown}"
        )
    runs = report.battery_runs
    if not runs:
        reasons.append(f"no canary battery run on {report.day}")
    for run in runs:
        if not run["conclusive"]:
            why = [f"broken: {', '.join(run['broken'])}"] if run["broken"] else []
            why += run["errors"][:3]
            if not why and run["counts"].get("not_run"):
                why = [f"{run['counts']['not_run']} fixture(s) not run"]
            reasons.append(f"battery run {run['run_id']} was inconclusive ({'; '.join(why) or 'no fixtures'})")
        if run["counts"].get("laundered"):
            names = ", ".join(run["laundered"]) or f"{run['counts']['laundered']} trap(s)"
            reasons.append(f"battery run {run['run_id']} laundered trap(s): {names}")
    if report.incomplete_pairs:
        report.warnings.append(
            f"{report.incomplete_pairs} pair(s) with only one side in the log (a failed log write or a crash between the two)"
        )
