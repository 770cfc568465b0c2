"""Values that cross module boundaries: enums and frozen dataclasses, no behaviour."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any


class Outcome(str, enum.Enum):
    EXECUTE = "execute"
    ASK = "ask"
    DEFER = "defer"
    ESCALATE = "escalate"
    REFUSE = "refuse"

    @property
    def rank(self) -> int:
        """Precedence: the higher rank is the more restrictive outcome."""
        return _OUTCOME_RANK[self]


_OUTCOME_RANK = {
    Outcome.EXECUTE: 0,
    Outcome.ASK: 1,
    Outcome.DEFER: 2,
    Outcome.ESCALATE: 3,
    Outcome.REFUSE: 4,
}


class Severity(str, enum.Enum):
    BLOCK = "block"
    FLAG = "flag"
    REFUSE = "refuse"


class Status(str, enum.Enum):
    AFFIRMED = "affirmed"
    NEGATED = "negated"
    ATTRIBUTED = "attributed"
    HISTORICAL = "historical"
    HYPOTHETICAL = "hypothetical"
    OTHER_EXPERIENCER = "other_experiencer"


class RiskLevel(str, enum.Enum):
    LOW = "low"
    MEDIUM = "medium"
    HIGH = "high"


@dataclass(frozen=True, slots=True)
class Cue:
    """One context cue that applies to a hit: the status it sets and the words that set it."""

    status: Status
    text: str
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class ContextAssessment:
    """What the words around a hit say about it. `cues` holds every status found."""

    cues: tuple[Cue, ...] = ()

    def has(self, status: Status) -> bool:
        return any(c.status is status for c in self.cues)

    def first(self, statuses: frozenset[Status] | set[Status]) -> Cue | None:
        """The first cue (in status priority order) whose status is in `statuses`."""
        for cue in self.cues:
            if cue.status in statuses:
                return cue
        return None


@dataclass(frozen=True, slots=True)
class Hit:
    """A place in the text where one rule's term or pattern matched (original offsets)."""

    rule: str
    start: int
    end: int
    text: str
    term: str


@dataclass(frozen=True, slots=True)
class Finding:
    """A hit that fired a rule, or one that was suppressed: the reason is data."""

    rule: str
    severity: Severity
    start: int
    end: int
    text: str
    status: Status
    cue: str | None
    layer: str = "screen"
    entity: str | None = None
    term: str | None = None
    pattern: bool = False
    detail: str | None = None  # a detector's reason, e.g. "luhn checksum valid"

    @property
    def explanation(self) -> str:
        """Why this hit counted, in words (built on demand: it is off the hot path)."""
        if self.detail is not None:
            return self.detail
        what = f"matched {'pattern' if self.pattern else 'term'} {self.term!r}"
        if self.cue is not None:
            return f"{what}; {self.status.value}, cue {self.cue!r}"
        return what

    def to_dict(self) -> dict[str, Any]:
        return {
            "rule": self.rule,
            "severity": self.severity.value,
            "layer": self.layer,
            "start": self.start,
            "end": self.end,
            "text": self.text,
            "status": self.status.value,
            "cue": self.cue,
            "entity": self.entity,
            "explanation": self.explanation,
        }


@dataclass(frozen=True, slots=True)
class Decision:
    """The gate's answer for one text. `to_dict()` is the stable JSON form."""

    id: str
    outcome: Outcome
    reason: str
    risk_level: RiskLevel
    findings: tuple[Finding, ...]
    suppressed: tuple[Finding, ...]
    policy_name: str
    policy_hash: str
    timings_ms: dict[str, float] = field(default_factory=dict)
    layers: dict[str, Any] = field(default_factory=dict)
    error: str | None = None
    context: dict[str, Any] | None = None  # principal facts and license, never message bodies

    @property
    def licensed_by_context(self) -> bool:
        return bool(self.context and self.context.get("licensed_by_context"))

    @property
    def rules_fired(self) -> list[str]:
        return sorted({f.rule for f in self.findings})

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "outcome": self.outcome.value,
            "reason": self.reason,
            "risk_level": self.risk_level.value,
            "policy": {"name": self.policy_name, "hash": self.policy_hash},
            "findings": [f.to_dict() for f in self.findings],
            "suppressed": [f.to_dict() for f in self.suppressed],
            "layers": self.layers,
            "timings_ms": {k: round(v, 4) for k, v in self.timings_ms.items()},
            "error": self.error,
            "licensed_by_context": self.licensed_by_context,
            "context": self.context,
        }
