"""The one-way context license (docs/policy.md): only after resolution, only to relax.

An explicit ask in the conversation may turn an `escalate` whose findings ALL come from
the policy's licensable classes, and ALL are of the kinds the ask named or that its
object holds ("the file and line" licenses a file path, not a log excerpt), into what a
clean draft would get. It never creates or
raises a finding, never touches credentials, PII, red lines or boundaries, and never
applies to a third-party recipient or a `weak` window.
"""

from __future__ import annotations

from typing import Protocol

from redline.decide.resolve import Resolution, resolve
from redline.review.principal import PrincipalFacts
from redline.types import Finding, Outcome

# Whatever a policy says, these classes are never licensable by an ask.
NEVER_LICENSABLE = frozenset({"credentials", "pii"})


class License(Protocol):
    """The shape of `licensed_outcome`: a gate takes another only for tests of the review
    pipeline (`redline.service.testing.minting_license` breaks the one-way rule on purpose)."""

    def __call__(
        self,
        resolution: Resolution,
        findings: tuple[Finding, ...],
        facts: PrincipalFacts,
        *,
        licensable: frozenset[str],
        confidence: float | None,
        min_confidence: int,
    ) -> Resolution | None: ...


def licensed_outcome(
    resolution: Resolution,
    findings: tuple[Finding, ...],
    facts: PrincipalFacts,
    *,
    licensable: frozenset[str],
    confidence: float | None,
    min_confidence: int,
) -> Resolution | None:
    """The relaxed resolution when the license applies, else None."""
    if resolution.outcome is not Outcome.ESCALATE or not findings:
        return None
    if facts.mode == "weak" or facts.recipient != "primary" or facts.ask is None:
        return None
    allowed = (licensable - NEVER_LICENSABLE) & facts.ask.classes
    for finding in findings:
        kind, _, name = finding.rule.partition(":")
        if kind != "detector" or name not in allowed:
            return None
        if finding.entity is not None and finding.entity not in facts.ask.entities:
            return None  # asked for the file and line, not for the whole log
    relaxed = resolve((), confidence=confidence, min_confidence=min_confidence)
    return relaxed if relaxed.outcome.rank < resolution.outcome.rank else None
