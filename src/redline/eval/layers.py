"""The layer view of a probe run: did screen and judge agree, and what did the judge add.

Kept apart from the miss and over-flag accounting of `probes.py`: these functions only
read decisions and cases, so either side can change without the other.
"""

from __future__ import annotations

import statistics
from collections import Counter
from typing import Any

from pydantic import ValidationError

from redline.errors import SuiteError
from redline.policy.judge_check import judge_problems
from redline.policy.schema import JudgeSettings, Policy
from redline.types import Decision


def with_judge(policy: Policy, kind: str | None, when: str | None = None) -> Policy:
    """The policy with its judge replaced (`redline eval --judge`), checked as a load would."""
    if kind is None:
        return policy
    try:
        settings = JudgeSettings(kind=kind, **({"when": when} if when else {}))  # type: ignore[arg-type]
    except ValidationError as exc:
        problems = "; ".join(str(e["msg"]).removeprefix("Value error, ") for e in exc.errors())
        hint = " (a model judge needs its model and server: set them under judge: in the policy)" if kind in (
            "openai", "anthropic") else ""
        raise SuiteError(f"--judge {kind}{f' --judge-when {when}' if when else ''}: {problems}{hint}") from exc
    for _key, problem in judge_problems(settings, policy.source_dir):
        raise SuiteError(f"--judge {kind}: {problem}")
    updated = policy.model_copy(update={"judge": settings})
    updated.__dict__.pop("hash", None)  # the cached hash was the old judge's
    updated._source_dir = policy.source_dir
    updated._source_path = policy.source_path
    return updated


def layer_fields(decision: Decision) -> dict[str, Any]:
    """What one case records about the layers."""
    judge = decision.layers.get("judge") or {}
    return {
        "decided_by": decision.layers.get("decided_by"),
        "agreement": decision.layers.get("agreement"),
        "judge_status": judge.get("status") if judge.get("called") else None,
        "judge_latency_ms": judge.get("latency_ms") if judge.get("called") else None,
    }


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))], 4)


def layer_summary(cases: list[dict[str, Any]], judge: str | None) -> dict[str, Any]:
    """Agreement rate over judged probes, judge statuses and latency, and its catches."""
    judged = [c for c in cases if c.get("judge_status") is not None]
    agreed = [c for c in judged if c.get("agreement")]
    latencies = [float(c["judge_latency_ms"]) for c in judged if c.get("judge_latency_ms") is not None]
    return {
        "judge": judge,
        "judged": len(judged),
        "agreement_rate": round(len(agreed) / len(judged), 4) if judged else None,
        "decided_by": dict(sorted(Counter(str(c.get("decided_by")) for c in cases).items())),
        "judge_status": dict(sorted(Counter(c["judge_status"] for c in judged).items())),
        "judge_latency_ms": {
            "p50": round(statistics.median(latencies), 4), "p99": _percentile(latencies, 0.99)
        } if latencies else None,
        "known_screen_misses_caught_by_judge": [
            c["id"] for c in cases if c.get("known_screen_miss") and c.get("outcome_ok") and c.get("decided_by") == "judge"
        ],
    }
