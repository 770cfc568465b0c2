"""Values that cross module boundaries: enums and frozen dataclasses, no behaviour."""

from __future__ import annotations

import enum
import math
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
    UNCERTAIN = "uncertain"  # "possible", "may be", "concern for": never suppressed by default


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


def unit_interval(name: str, value: float) -> float:
    """`value` as a float when it is a finite number in [0, 1]; a ValueError naming `name`."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise ValueError(f"{name} must be a finite number in [0, 1], got {value!r}")
    if not 0.0 <= value <= 1.0:
        raise ValueError(f"{name} must be in [0, 1], got {value!r}")
    return float(value)


@dataclass(frozen=True, slots=True)
class TextCue:
    """One cue found in free text: the signal it raises, its id, where, and its weight."""

    signal: str  # injection | urgency | sentiment
    cue: str
    match: str  # the matched words of the original text (cut to a few dozen characters)
    start: int
    end: int
    weight: float

    def to_dict(self) -> dict[str, Any]:
        return {
            "signal": self.signal,
            "cue": self.cue,
            "match": self.match,
            "start": self.start,
            "end": self.end,
            "weight": self.weight,
        }


@dataclass(frozen=True, slots=True)
class TextSignals:
    """What a free text says about an action, each in [0, 1]; any producer may build one.

    `injection`: the text tries to instruct whoever reads it; `urgency`: it presses for
    speed; `sentiment`: how negative it is (0 none, 1 hostile; positive words never lower
    it). Values are checked here, so a producer cannot hand the engine 1.7 or NaN.
    """

    injection: float = 0.0
    urgency: float = 0.0
    sentiment: float = 0.0
    cues: tuple[TextCue, ...] = ()
    source: str = "heuristic"

    def __post_init__(self) -> None:
        for name in ("injection", "urgency", "sentiment"):
            unit_interval(f"TextSignals.{name}", getattr(self, name))

    def to_dict(self) -> dict[str, Any]:
        return {
            "injection": self.injection,
            "urgency": self.urgency,
            "sentiment": self.sentiment,
            "source": self.source,
            "cues": [c.to_dict() for c in self.cues],
        }


@dataclass(frozen=True, slots=True)
class Signal:
    """One named input to an action's scores: which score it feeds, its weight and value."""

    name: str
    kind: str  # confidence | risk
    weight: float
    value: float
    detail: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "kind": self.kind, "weight": self.weight, "value": round(self.value, 4), "detail": self.detail}


@dataclass(frozen=True, slots=True)
class RuleCheck:
    """One hard rule of an action domain, as evaluated: it fired or not, and why."""

    id: str
    outcome: Outcome  # refuse | escalate
    fired: bool
    detail: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "outcome": self.outcome.value, "fired": self.fired, "detail": self.detail}


@dataclass(frozen=True, slots=True)
class Thresholds:
    """The bars an action must clear, before and after the reversibility adjustment."""

    base_confidence_min: float
    base_risk_max: float
    reversibility: float
    penalty: float  # 1 - reversibility
    confidence_min: float  # base_confidence_min + 0.25 * penalty
    risk_max: float  # base_risk_max - 0.20 * penalty

    def to_dict(self) -> dict[str, Any]:
        return {
            "base": {"confidence_min": self.base_confidence_min, "risk_max": self.base_risk_max},
            "reversibility": round(self.reversibility, 4),
            "penalty": round(self.penalty, 4),
            "adjusted": {"confidence_min": round(self.confidence_min, 4), "risk_max": round(self.risk_max, 4)},
        }


@dataclass(frozen=True, slots=True)
class ActionAssessment:
    """How an action was decided: every signal, the scores, the bars and the deciding test."""

    domain: str
    signals: tuple[Signal, ...]
    confidence: float
    risk: float
    evidence: float
    thresholds: Thresholds
    hard_rules: tuple[RuleCheck, ...]
    missing: tuple[str, ...]
    decided_by: str  # hard_rule:ID | missing_evidence | risk_ceiling | confidence_bar | all_tests_passed
    reversibility_detail: str = ""
    text: tuple[tuple[str, TextSignals], ...] = ()  # (field, signals) for each free-text field given

    @property
    def rules_fired(self) -> list[str]:
        return [f"{self.domain}:{r.id}" for r in self.hard_rules if r.fired]

    def to_dict(self) -> dict[str, Any]:
        return {
            "domain": self.domain,
            "decided_by": self.decided_by,
            "scores": {
                "confidence": round(self.confidence, 4),
                "risk": round(self.risk, 4),
                "evidence": round(self.evidence, 4),
                "reversibility": round(self.thresholds.reversibility, 4),
            },
            "reversibility": self.reversibility_detail,
            "thresholds": self.thresholds.to_dict(),
            "signals": [s.to_dict() for s in self.signals],
            "hard_rules": [r.to_dict() for r in self.hard_rules],
            "missing": list(self.missing),
            "text_signals": [{"field": name, **signals.to_dict()} for name, signals in self.text],
        }


@dataclass(frozen=True, slots=True)
class Decision:
    """The gate's answer for one text or one action. `to_dict()` is the stable JSON form."""

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
    action: ActionAssessment | None = None  # for an action (`Gate.decide`): scores and tests
    # findings and suppressed hits left out by the caps of `decide/caps.py`
    omitted: dict[str, int] = field(default_factory=lambda: {"findings": 0, "suppressed": 0})
    # the review flags in force and what the caller acts on (redline.review.watch); set by the wiring
    review: dict[str, Any] | None = None

    @property
    def licensed_by_context(self) -> bool:
        return bool(self.context and self.context.get("licensed_by_context"))

    @property
    def rules_fired(self) -> list[str]:
        fired = {f.rule for f in self.findings}
        if self.action is not None:
            fired.update(self.action.rules_fired)
        return sorted(fired)

    @property
    def missing(self) -> tuple[str, ...]:
        """For an action: the evidence fields it needs and did not get (outcome `ask`)."""
        return self.action.missing if self.action is not None else ()

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
            "missing": list(self.missing),
            "action": self.action.to_dict() if self.action is not None else None,
            "omitted": dict(self.omitted),
            "review": self.review,
        }


# A check builds one Finding per hit and one Decision per text. A frozen dataclass's
# __init__ sets each field through object.__setattr__, about a quarter of a microsecond a
# field; the builders below fill a plain object that has the same slots with plain stores,
# then give it the frozen class (same slots, same layout, so Python allows the assignment).
# What they return IS the frozen dataclass: equal, hashed, pickled and frozen exactly like
# the constructor's value, at about a fifth of its cost (tests/unit/test_types_build.py).
def frozen_shell(cls: type) -> Any:
    """A plain class with the slots of the frozen slots dataclass `cls`, for such a builder
    (other modules build their own per-check values the same way)."""
    return type(f"_{cls.__name__}Shell", (), {"__slots__": cls.__slots__})  # type: ignore[attr-defined]


_FINDING_SHELL, _DECISION_SHELL = frozen_shell(Finding), frozen_shell(Decision)


def build_finding(
    rule: str, severity: Severity, start: int, end: int, text: str, status: Status, cue: str | None,
    layer: str = "screen", entity: str | None = None, term: str | None = None, pattern: bool = False,
    detail: str | None = None,
) -> Finding:
    """`Finding(...)`, the same arguments, for the per-hit path."""
    shell = _FINDING_SHELL()
    shell.rule, shell.severity, shell.start, shell.end, shell.text, shell.status = rule, severity, start, end, text, status
    shell.cue, shell.layer, shell.entity, shell.term, shell.pattern, shell.detail = cue, layer, entity, term, pattern, detail
    shell.__class__ = Finding
    finding: Finding = shell
    return finding


def build_decision(
    id: str, outcome: Outcome, reason: str, risk_level: RiskLevel, findings: tuple[Finding, ...],
    suppressed: tuple[Finding, ...], policy_name: str, policy_hash: str, timings_ms: dict[str, float],
    layers: dict[str, Any], error: str | None, context: dict[str, Any] | None, action: ActionAssessment | None,
    omitted: dict[str, int], review: dict[str, Any] | None = None,
) -> Decision:
    """`Decision(...)` with every field given but `review`, for the per-check path."""
    shell = _DECISION_SHELL()
    shell.id, shell.outcome, shell.reason, shell.risk_level, shell.findings = id, outcome, reason, risk_level, findings
    shell.suppressed, shell.policy_name, shell.policy_hash, shell.timings_ms = suppressed, policy_name, policy_hash, timings_ms
    shell.layers, shell.error, shell.context, shell.action, shell.omitted = layers, error, context, action, omitted
    shell.review = review
    shell.__class__ = Decision
    decision: Decision = shell
    return decision


def with_review(decision: Decision, review: dict[str, Any] | None) -> Decision:
    """`dataclasses.replace(decision, review=review)`, for the per-check path."""
    d = decision
    return build_decision(
        d.id, d.outcome, d.reason, d.risk_level, d.findings, d.suppressed, d.policy_name, d.policy_hash,
        d.timings_ms, d.layers, d.error, d.context, d.action, d.omitted, review,
    )
