"""The screen and the judge, combined by fixed precedence (docs/judges.md).

The more restrictive layer wins, rule by rule, and nothing a judge says lowers what the
screen found: a judge's `clear` never clears a screen finding. A judge `violates` fires
the rule as a finding of the `judge` layer; `uncertain` (which is also what a failed
call gives) holds the draft: `escalate` on a block or refuse rule, `defer` (human review,
no auto-send) on a flag rule. A judge that cannot read negation (`reads_context` false:
an embedding model) never overrules the screen setting a hit aside, nor raises a rule
the screen hands to a detector; such a `violates` is recorded under `set_aside`. The decision records both layers, which one
decided, and whether they agreed.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from redline.decide.resolve import Resolution, resolve
from redline.judges.base import CallStatus, Evidence, JudgeRule, JudgeVerdict, ScreenRuleState, Verdict
from redline.policy.schema import Policy
from redline.screen.context import assess
from redline.screen.engine import ScreenResult, rule_specs
from redline.screen.matcher import RuleSpec
from redline.screen.normalize import normalize
from redline.types import Finding, Outcome, RiskLevel, Severity, Status

REASON_JUDGE_UNCERTAIN = "judge_uncertain"
REASON_JUDGE_UNAVAILABLE = "judge_unavailable"
MAX_DETAIL_CHARS = 300
_SENTENCE_END = re.compile(r"[.!?](?=\W)|\n")
_CONTENT_WORD = re.compile(r"[a-z][a-z']{2,}")
# words that carry no topic: their status says nothing about what the judge matched
_FUNCTION_WORDS = frozenset(
    "the and you your our his her their its this that these those with for from into onto "
    "was were are has have had been being will would shall should can could may might must "
    "not don't can't won't isn't aren't wasn't didn't doesn't just also very all any some "
    "what which who when where why how there here then than them they she him".split()
)
MAX_EVIDENCE_CHARS = 1000


def judge_rules(policy: Policy, specs: Sequence[RuleSpec] | None = None) -> tuple[JudgeRule, ...]:
    """Red lines and boundaries as a judge sees them (detectors stay deterministic).

    `specs` are the policy's `rule_specs` where the caller has them already (the compiled
    screen's): reading every rule's text again costs as much as the screen's compile."""
    texts: dict[str, tuple[str, tuple[str, ...]]] = {}
    for skill in policy.skills:
        for line in skill.red_lines:
            texts[f"{skill.slug}:{line.id}"] = (line.rule, line.examples)
    for kind in ("never", "escalate"):
        for index, text in enumerate(getattr(policy.soul.boundaries, kind)):
            texts[f"soul:{kind}:{index}"] = (text, ())
    return tuple(
        JudgeRule(
            id=spec.id,
            text=texts[spec.id][0],
            severity=spec.severity,
            examples=texts[spec.id][1],
            # the operator's terms, else the topics derived from the rule's words
            terms=tuple(dict.fromkeys((*spec.terms, *(" ".join(t.words) for t in spec.topics)))),
            detectors=spec.detectors,
        )
        for spec in (rule_specs(policy) if specs is None else specs)
    )


def screen_states(result: ScreenResult) -> dict[str, ScreenRuleState]:
    fired = {f.rule for f in result.findings}
    suppressed: dict[str, list[str]] = {}
    for finding in result.suppressed:
        suppressed.setdefault(finding.rule, []).append(finding.status.value)
    return {
        rule: ScreenRuleState(fired=rule in fired, suppressed=tuple(suppressed.get(rule, ())))
        for rule in fired | set(suppressed)
    }


@dataclass(frozen=True, slots=True)
class Combined:
    resolution: Resolution
    judge_findings: tuple[Finding, ...]  # for rules the screen did not fire
    layers: dict[str, Any]
    hold: Resolution | None = None  # what the judge's `uncertain` holds, with no finding of its own


def _finding(rule: JudgeRule, verdict: JudgeVerdict, index: int) -> Finding:
    item = verdict.verdicts[index]
    span = item.evidence[0] if item.evidence else None
    detail = f"{verdict.judge} judge ({item.confidence:.2f}): {item.rationale or 'violates'}"
    return Finding(
        rule=rule.id,
        severity=rule.severity,
        start=span.start if span else 0,
        end=span.end if span else 0,
        text=span.text if span else "",
        status=Status.AFFIRMED,
        cue=None,
        layer="judge",
        detail=detail[:MAX_DETAIL_CHARS],
    )


def _hold(rules: Sequence[JudgeRule], verdict: JudgeVerdict, uncertain: list[int]) -> Resolution | None:
    if not uncertain:
        return None
    reason = REASON_JUDGE_UNCERTAIN if verdict.status is CallStatus.OK else REASON_JUDGE_UNAVAILABLE
    if any(rules[i].severity is not Severity.FLAG for i in uncertain):
        return Resolution(Outcome.ESCALATE, reason, RiskLevel.MEDIUM)
    return Resolution(Outcome.DEFER, reason, RiskLevel.MEDIUM)


def stricter(a: Resolution, b: Resolution | None) -> Resolution:
    return b if b is not None and b.outcome.rank > a.outcome.rank else a


def _within_suppressed(
    text: str, evidence: Sequence[Evidence], suppressed: Sequence[Finding], rule: str
) -> bool:
    """Whether a blind judge's evidence lies in a sentence where the screen set this rule's
    hit aside (or it gave none): there it may be reading that very negated mention. A
    wording in another sentence is new evidence, so a stray "no refund" elsewhere cannot
    shield it."""
    if not evidence:
        return True
    spans = [(f.start, f.end) for f in suppressed if f.rule == rule]
    for item in evidence:
        for start, end in spans:
            low, high = min(item.start, start), max(item.end, end)
            if not _SENTENCE_END.search(text, low, high) or low == high:
                return True
    return False


def _context_sets_aside(evidence: Sequence[Evidence], suppress: frozenset[Status]) -> bool:
    """Whether the screen's context layer, reading a blind judge's evidence, would set it
    aside: when a third or more of the content words of the evidence fall in the scope of
    a cue the rule suppresses ("I can't promise you the money back"), the judge matched a
    denied, quoted or past mention. A third, not any: "I can't help there, but the money
    goes back to your card" denies the help, not the money. (On the rules corpus a third
    kept all but one raised hit and set aside all but 3 of 80 negated drafts; a half
    let 12 through.)"""
    if not suppress:
        return False
    for item in evidence:
        shadow = normalize(item.text[:MAX_EVIDENCE_CHARS])
        words = [m.span() for m in _CONTENT_WORD.finditer(shadow.text) if m.group() not in _FUNCTION_WORDS]
        if words:
            blocked = sum(assess(shadow.text, start, end).first(suppress) is not None for start, end in words)
            if blocked * 3 >= len(words):
                return True
    return False


def combine(
    text: str,
    rules: Sequence[JudgeRule],
    result: ScreenResult,
    verdict: JudgeVerdict,
    *,
    reads_context: bool,
    suppress: Mapping[str, frozenset[Status]],
    confidence: float | None,
    min_confidence: int,
) -> Combined:
    states = screen_states(result)
    raised: list[Finding] = []
    agreed: list[Finding] = []  # every judge violation, also for rules the screen fired
    uncertain: list[int] = []
    set_aside: list[str] = []
    disagreements: list[dict[str, str]] = []
    for index, rule in enumerate(rules):
        item = verdict.verdicts[index]
        state = states.get(rule.id, ScreenRuleState())
        screen_says = Verdict.VIOLATES if state.fired else Verdict.CLEAR
        if item.verdict is not screen_says:
            disagreements.append({"rule": rule.id, "screen": screen_says.value, "judge": item.verdict.value})
        if item.verdict is Verdict.CLEAR:
            continue
        if (
            not state.fired and not reads_context and verdict.status is CallStatus.OK
            and item.verdict is Verdict.VIOLATES
            and (
                # whether a key or a person's details are really there is the detector's call:
                # a blind judge sees only the topic ("the server logged" ~ "login details")
                bool(rule.detectors)
                or (state.suppressed and _within_suppressed(text, item.evidence, result.suppressed, rule.id))
                or _context_sets_aside(item.evidence, suppress.get(rule.id, frozenset()))
            )
        ):
            set_aside.append(rule.id)  # blind to the negation the screen reads: it cannot overrule it
        elif item.verdict is Verdict.VIOLATES:
            finding = _finding(rule, verdict, index)
            agreed.append(finding)
            if not state.fired:  # the screen's own finding already says it, with its span
                raised.append(finding)
        elif not state.fired:
            uncertain.append(index)
    screen_alone = resolve(result.findings, confidence=confidence, min_confidence=min_confidence)
    hold = _hold(rules, verdict, uncertain)
    judge_alone = stricter(
        resolve(tuple(agreed), confidence=confidence, min_confidence=min_confidence), hold
    )
    final = stricter(
        resolve(result.findings + tuple(raised), confidence=confidence, min_confidence=min_confidence), hold
    )
    if judge_alone.outcome.rank > screen_alone.outcome.rank:
        decided_by = "judge"
    elif judge_alone.outcome.rank < screen_alone.outcome.rank:
        decided_by = "screen"
    else:
        decided_by = "both"
    judge_layer = {"called": True, **verdict.to_dict(), "set_aside": set_aside}
    return Combined(
        resolution=final,
        judge_findings=tuple(raised),
        hold=hold,
        layers={
            "judge": judge_layer,
            "agreement": not disagreements,
            "disagreements": disagreements,
            "decided_by": decided_by,
        },
    )
