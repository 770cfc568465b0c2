"""Fixed precedence from findings to one outcome (docs/policy.md, outcomes and severities)."""

from __future__ import annotations

from dataclasses import dataclass

from typing import Any

from redline.types import Decision, Finding, Outcome, RiskLevel, Severity

_SEVERITY_OUTCOME = {
    Severity.REFUSE: Outcome.REFUSE,
    Severity.BLOCK: Outcome.ESCALATE,
    Severity.FLAG: Outcome.ESCALATE,
}
_SEVERITY_RISK = {
    Severity.REFUSE: RiskLevel.HIGH,
    Severity.BLOCK: RiskLevel.HIGH,
    Severity.FLAG: RiskLevel.MEDIUM,
}
_RISK_RANK = {RiskLevel.LOW: 0, RiskLevel.MEDIUM: 1, RiskLevel.HIGH: 2}
# what `resolve` maximises: the outcome a severity asks for, then its risk
_SEVERITY_KEY = {s: (_SEVERITY_OUTCOME[s].rank, _RISK_RANK[_SEVERITY_RISK[s]]) for s in _SEVERITY_OUTCOME}

REASON_CLEAN = "clean"
REASON_BELOW_BAR = "below_auto_send_threshold"
REASON_RED_LINE = "red_line_violation"
REASON_ERROR = "check_error"

# The risk level of a decision that failed inside, by the on_error outcome it yields.
ERROR_RISK = {
    Outcome.REFUSE: RiskLevel.HIGH,
    Outcome.ESCALATE: RiskLevel.HIGH,
    Outcome.DEFER: RiskLevel.MEDIUM,
    Outcome.ASK: RiskLevel.MEDIUM,
    Outcome.EXECUTE: RiskLevel.LOW,
}


@dataclass(frozen=True, slots=True)
class Resolution:
    outcome: Outcome
    reason: str
    risk_level: RiskLevel


def finding_reason(finding: Finding) -> str:
    """`detector:pii` for a detector, `red_line_violation` for red lines and boundaries."""
    return finding.rule if finding.rule.startswith("detector:") else REASON_RED_LINE


def resolve(
    findings: tuple[Finding, ...], *, confidence: float | None, min_confidence: int
) -> Resolution:
    """The most restrictive outcome any finding asks for; a clean text meets the auto-send bar.

    A caller that gives no confidence gives none: only a bar of 0 lets its draft execute.
    """
    if not findings:
        if (confidence if confidence is not None else 0) >= min_confidence:
            return _CLEAN
        return _BELOW_BAR
    if len(findings) == 1:  # the common case
        only = findings[0]
        return _resolution(only.severity, finding_reason(only), _SEVERITY_RISK[only.severity])
    # the first finding of the most restrictive severity; found over the severities present,
    # since a dense text has tens of findings and only three severities
    severities = {f.severity for f in findings}
    worst = max(_SEVERITY_KEY[s] for s in severities)
    top = next(f for f in findings if _SEVERITY_KEY[f.severity] == worst)
    risk = max((_SEVERITY_RISK[s] for s in severities), key=_RISK_RANK.__getitem__)
    return _resolution(top.severity, finding_reason(top), risk)


_CLEAN = Resolution(Outcome.EXECUTE, REASON_CLEAN, RiskLevel.LOW)
_BELOW_BAR = Resolution(Outcome.DEFER, REASON_BELOW_BAR, RiskLevel.LOW)
# A check's resolution is one of a few values (a severity, a reason, a risk): each is built
# once, not once per check (a frozen dataclass costs a microsecond or two). The reasons are
# `red_line_violation` and the detector rules' ids, so this stays a handful of entries.
_RESOLUTIONS: dict[tuple[Severity, str, RiskLevel], Resolution] = {}


def _resolution(severity: Severity, reason: str, risk: RiskLevel) -> Resolution:
    key = (severity, reason, risk)
    found = _RESOLUTIONS.get(key)
    if found is None:
        found = _RESOLUTIONS[key] = Resolution(_SEVERITY_OUTCOME[severity], reason, risk)
    return found


def error_decision(
    decision_id: str,
    outcome: Outcome,
    *,
    policy_name: str,
    policy_hash: str,
    elapsed_s: float,
    exc: BaseException,
    layers: dict[str, Any],
) -> Decision:
    """The answer when a step failed inside the gate: `outcome` (the on_error setting), reason check_error."""
    return Decision(
        id=decision_id,
        outcome=outcome,
        reason=REASON_ERROR,
        risk_level=ERROR_RISK[outcome],
        findings=(),
        suppressed=(),
        policy_name=policy_name,
        policy_hash=policy_hash,
        timings_ms={"total": elapsed_s * 1e3},
        layers=layers,
        error=f"{type(exc).__name__}: {exc}",
    )
