"""Scores, reversibility-adjusted bars, and the fixed order of tests for an action.

Pure arithmetic on numbers a domain produced (docs/actions.md):

    confidence = sum(w * v) / sum(w)        over confidence signals (a weighted mean)
    risk       = min(1, sum(w * v))         over risk signals (risks add up; one is enough)
    evidence   = sum(w of fields present) / sum(w of evidence fields)
    penalty        = 1 - reversibility
    confidence_min = base_confidence_min + 0.25 * penalty
    risk_max       = base_risk_max       - 0.20 * penalty

and then, in this order, the first test that holds decides:
    a hard rule fired               -> its outcome (refuse before escalate)
    required evidence is missing    -> ask (naming what is missing)
    risk > risk_max                 -> escalate
    confidence < confidence_min     -> defer
    otherwise                       -> execute

Every input only moves the outcome one way: more risk, less confidence or less
reversibility can never make it less restrictive, which the property tests check.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from redline.types import Outcome, RiskLevel, RuleCheck, Signal, Thresholds, unit_interval

CONFIDENCE_SLOPE = 0.25  # how much the confidence bar rises as reversibility falls to 0
RISK_SLOPE = 0.20  # how much the risk ceiling drops as reversibility falls to 0

REASON_HARD_RULE = "hard_rule"
REASON_MISSING = "missing_evidence"
REASON_RISK = "risk_above_ceiling"
REASON_CONFIDENCE = "confidence_below_bar"
REASON_CLEAR = "clear"
TEST_ORDER = ("hard_rules", "missing_evidence", "risk_ceiling", "confidence_bar")


def confidence_score(signals: Iterable[Signal]) -> float:
    """The weighted mean of the confidence signals (0 when there are none: no confidence)."""
    pairs = [(s.weight, s.value) for s in signals if s.kind == "confidence"]
    total = sum(w for w, _ in pairs)
    return sum(w * v for w, v in pairs) / total if total > 0 else 0.0


def risk_score(signals: Iterable[Signal]) -> float:
    """The weighted sum of the risk signals, capped at 1."""
    return min(1.0, sum(s.weight * s.value for s in signals if s.kind == "risk"))


def evidence_score(weights: dict[str, float], present: Iterable[str]) -> float:
    """The share of the evidence weight whose fields were given (1 when none is asked for)."""
    total = sum(weights.values())
    if total <= 0:
        return 1.0
    given = set(present)
    return sum(w for name, w in weights.items() if name in given) / total


def adjust(base_confidence_min: float, base_risk_max: float, reversibility: float) -> Thresholds:
    """The bars for an action this reversible: the less it can be undone, the higher they are."""
    reversibility = unit_interval("reversibility", reversibility)
    penalty = 1.0 - reversibility
    return Thresholds(
        base_confidence_min=base_confidence_min,
        base_risk_max=base_risk_max,
        reversibility=reversibility,
        penalty=penalty,
        confidence_min=base_confidence_min + CONFIDENCE_SLOPE * penalty,
        risk_max=base_risk_max - RISK_SLOPE * penalty,
    )


@dataclass(frozen=True, slots=True)
class Verdict:
    outcome: Outcome
    reason: str
    decided_by: str
    risk_level: RiskLevel


def choose(
    hard_rules: Iterable[RuleCheck],
    missing: Iterable[str],
    confidence: float,
    risk: float,
    thresholds: Thresholds,
) -> Verdict:
    """The outcome by the fixed order of tests (module docstring)."""
    fired = [r for r in hard_rules if r.fired]
    if fired:
        top = max(fired, key=lambda r: r.outcome.rank)  # refuse before escalate
        return Verdict(top.outcome, REASON_HARD_RULE, f"hard_rule:{top.id}", RiskLevel.HIGH)
    level = _risk_level(risk, thresholds.risk_max)
    if tuple(missing):
        return Verdict(Outcome.ASK, REASON_MISSING, "missing_evidence", level)
    if risk > thresholds.risk_max:
        return Verdict(Outcome.ESCALATE, REASON_RISK, "risk_ceiling", RiskLevel.HIGH)
    if confidence < thresholds.confidence_min:
        return Verdict(Outcome.DEFER, REASON_CONFIDENCE, "confidence_bar", level)
    return Verdict(Outcome.EXECUTE, REASON_CLEAR, "all_tests_passed", level)


def _risk_level(risk: float, risk_max: float) -> RiskLevel:
    if risk > risk_max:
        return RiskLevel.HIGH
    return RiskLevel.MEDIUM if risk > risk_max / 2 else RiskLevel.LOW
