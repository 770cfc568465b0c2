"""The judge layer's contract: one method, and frozen values for what crosses it.

A judge reads a text against the policy's rules and answers, per rule, `violates`,
`clear` or `uncertain`. Apart from the verdicts it reports how the call went (`ok`,
`error`, `timeout`, `unparseable`), how long it took, and which judge and model answered.
A call that failed carries no verdict of its own: every rule is `uncertain` (never
`clear`), so the gate holds what it cannot judge.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from redline.types import Severity


class Verdict(str, enum.Enum):
    VIOLATES = "violates"
    CLEAR = "clear"
    UNCERTAIN = "uncertain"


class CallStatus(str, enum.Enum):
    OK = "ok"
    ERROR = "error"
    TIMEOUT = "timeout"
    UNPARSEABLE = "unparseable"


@dataclass(frozen=True, slots=True)
class JudgeRule:
    """One rule as a judge sees it: trusted operator wording, never user text."""

    id: str  # as findings name it: `billing:no-refund-promise`, `soul:never:0`
    text: str
    severity: Severity
    examples: tuple[str, ...] = ()  # phrases that violate it, from the policy's `examples:`
    terms: tuple[str, ...] = ()  # the topics the screen matches for it
    detectors: tuple[str, ...] = ()  # detectors the screen hands the rule to ("credentials")


@dataclass(frozen=True, slots=True)
class Message:
    role: str
    text: str


@dataclass(frozen=True, slots=True)
class ScreenRuleState:
    """What the screen saw for one rule: fired, set aside (with the status), or nothing."""

    fired: bool = False
    suppressed: tuple[str, ...] = ()  # statuses of the hits it set aside


@dataclass(frozen=True, slots=True)
class JudgeContext:
    """What a judge may know besides the text: the conversation and the screen's view."""

    messages: tuple[Message, ...] = ()
    screen: dict[str, ScreenRuleState] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Evidence:
    """A span of the judged text that the judge pointed at (original offsets)."""

    start: int
    end: int
    text: str


@dataclass(frozen=True, slots=True)
class RuleVerdict:
    rule: str
    verdict: Verdict
    confidence: float  # 0..1, how sure the judge is of `verdict`
    rationale: str = ""
    evidence: tuple[Evidence, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "rule": self.rule,
            "verdict": self.verdict.value,
            "confidence": round(self.confidence, 4),
            "rationale": self.rationale,
            "evidence": [{"start": e.start, "end": e.end} for e in self.evidence],
        }


@dataclass(frozen=True, slots=True)
class JudgeVerdict:
    """One call's answer. `verdicts` has one entry per rule asked about, in that order."""

    judge: str
    model: str | None
    status: CallStatus
    verdicts: tuple[RuleVerdict, ...]
    latency_ms: float = 0.0
    attempts: int = 1
    cached: bool = False
    error: str | None = None  # what went wrong, for the log; never shown to a client

    def get(self, rule: str) -> RuleVerdict | None:
        return next((v for v in self.verdicts if v.rule == rule), None)

    def to_dict(self) -> dict[str, Any]:
        return {
            "judge": self.judge,
            "model": self.model,
            "status": self.status.value,
            "latency_ms": round(self.latency_ms, 4),
            "attempts": self.attempts,
            "cached": self.cached,
            "error": self.error,
            "rules": [v.to_dict() for v in self.verdicts],
        }


def failed(
    judge: str,
    model: str | None,
    rules: Sequence[JudgeRule],
    status: CallStatus,
    error: str,
    *,
    latency_ms: float = 0.0,
    attempts: int = 1,
) -> JudgeVerdict:
    """The answer of a call that gave none: every rule `uncertain`, never `clear`."""
    reason = f"judge call {status.value}"
    return JudgeVerdict(
        judge=judge,
        model=model,
        status=status,
        verdicts=tuple(RuleVerdict(r.id, Verdict.UNCERTAIN, 0.0, reason) for r in rules),
        latency_ms=latency_ms,
        attempts=attempts,
        error=error[:500],
    )


@runtime_checkable
class Judge(Protocol):
    """A semantic judge. `name` and `model` label its verdicts and key its cache.

    `reads_context` says whether the judge understands negation, attribution and the
    like. A judge that does not (an embedding model) may only raise rules the screen
    found nothing for: it can never overrule the screen setting a negated hit aside.
    """

    name: str
    model: str | None
    reads_context: bool

    def judge(
        self, text: str, rules: Sequence[JudgeRule], context: JudgeContext | None = None
    ) -> JudgeVerdict: ...
