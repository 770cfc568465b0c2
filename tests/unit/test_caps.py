"""One text cannot make a huge decision: findings are capped per rule and per check,
the rest counted, and every rule that fired keeps its first finding."""

from __future__ import annotations

import json

from redline import Gate, Outcome, Severity, Status, parse_policy
from redline.decide.caps import MAX_FINDING_TEXT, MAX_PER_CHECK, MAX_PER_RULE, cap_findings
from redline.types import Finding

GATE = Gate(parse_policy("""
version: 1
name: caps
auto_send: {min_confidence: 0}
skills:
  - slug: billing
    red_lines:
      - id: no-refund
        rule: Never promise a refund.
        severity: block
      - id: no-long
        rule: Never quote a long line.
        severity: flag
        patterns: ['quote:[a-z ]+']
detectors: {credentials: off, pii: off}
"""))


def finding(rule: str, start: int, text: str = "x") -> Finding:
    return Finding(rule=rule, severity=Severity.BLOCK, start=start, end=start + len(text), text=text,
                   status=Status.AFFIRMED, cue=None)


def test_a_megabyte_of_one_term_keeps_the_first_findings_and_counts_the_rest() -> None:
    decision = GATE.check("refund " * 150_000)
    assert decision.outcome is Outcome.ESCALATE
    assert len(decision.findings) == MAX_PER_RULE
    assert [f.start for f in decision.findings] == [7 * i for i in range(MAX_PER_RULE)]
    assert decision.omitted == {"findings": 150_000 - MAX_PER_RULE, "suppressed": 0}
    assert decision.layers["screen"]["hits"] == 150_000
    assert len(json.dumps(decision.to_dict())) < 20_000


def test_suppressed_hits_are_capped_too_and_an_affirmed_one_after_them_still_fires() -> None:
    decision = GATE.check("There is no refund. " * 5_000 + "Your refund is approved.")
    assert decision.outcome is Outcome.ESCALATE, "the affirmed hit after 5,000 negated ones counts"
    assert len(decision.suppressed) == MAX_PER_RULE
    assert decision.omitted["suppressed"] == 5_000 - MAX_PER_RULE
    assert [f.text for f in decision.findings] == ["refund"]


def test_the_check_cap_never_drops_a_rule_that_fired() -> None:
    many = tuple(finding(f"r{i % 300}", i) for i in range(3_000))
    kept, left_out = cap_findings(many)
    assert {f.rule for f in kept} == {f"r{i}" for i in range(300)}
    assert len(kept) == 300 and left_out == 2_700
    few_rules = tuple(finding(f"r{i % 10}", i) for i in range(1_000))
    kept, left_out = cap_findings(few_rules)
    assert len(kept) == MAX_PER_CHECK and left_out == 900
    assert [f.start for f in kept] == sorted(f.start for f in kept), "text order is kept"


def test_a_long_match_keeps_its_exact_span_and_a_cut_text() -> None:
    text = "quote:" + "a" * 5_000
    [hit] = GATE.check(text).findings
    assert (hit.start, hit.end) == (0, len(text))
    assert len(hit.text) == MAX_FINDING_TEXT and hit.text.endswith("\u2026")


def test_a_small_decision_is_returned_as_it_is() -> None:
    few = (finding("a", 0), finding("b", 5))
    assert cap_findings(few) == (few, 0)
    assert GATE.check("Your refund is approved.").omitted == {"findings": 0, "suppressed": 0}
