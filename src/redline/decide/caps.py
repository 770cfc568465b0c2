"""Bounds on what one decision carries, so that one text cannot make a huge answer or record.

"refund " repeated over a megabyte is 150,000 hits of one rule. Every hit is still
screened and still counts for the outcome (a negated hit cannot hide an affirmed one),
but a decision keeps only the first `MAX_PER_RULE` findings of each rule and at most
`MAX_PER_CHECK` in all, never dropping a rule's first finding (so `rules_fired` stays
complete), and says how many it left out. A finding's `text` is cut at
`MAX_FINDING_TEXT` characters (its `start` and `end` stay exact).
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from operator import attrgetter

from redline.types import Finding

MAX_PER_RULE = 20
MAX_PER_CHECK = 100
MAX_FINDING_TEXT = 500
_TEXT = attrgetter("text")


def _short(finding: Finding) -> Finding:
    if len(finding.text) <= MAX_FINDING_TEXT:
        return finding
    return dataclasses.replace(finding, text=finding.text[: MAX_FINDING_TEXT - 1] + "\u2026")


def cap_findings(findings: tuple[Finding, ...]) -> tuple[tuple[Finding, ...], int]:
    """The findings a decision keeps, in their order, and how many were left out."""
    if not findings or (len(findings) == 1 and len(findings[0].text) <= MAX_FINDING_TEXT):
        return findings, 0  # most checks: no generator to walk
    short = max(map(len, map(_TEXT, findings))) <= MAX_FINDING_TEXT
    if short and len(findings) <= MAX_PER_RULE:  # the common case: nothing to count
        return findings, 0
    if short and len(findings) <= MAX_PER_CHECK and max(Counter(f.rule for f in findings).values()) <= MAX_PER_RULE:
        return findings, 0
    seen: Counter[str] = Counter()
    within_rule: list[tuple[Finding, bool]] = []  # (finding, is the rule's first)
    for finding in findings:
        seen[finding.rule] += 1
        if seen[finding.rule] <= MAX_PER_RULE:
            within_rule.append((finding, seen[finding.rule] == 1))
    room = MAX_PER_CHECK - sum(first for _, first in within_rule)
    kept: list[Finding] = []
    for finding, first in within_rule:
        if first:
            kept.append(_short(finding))
        elif room > 0:
            kept.append(_short(finding))
            room -= 1
    return tuple(kept), len(findings) - len(kept)
