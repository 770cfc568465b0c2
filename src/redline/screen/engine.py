"""The deterministic screen: policy → compiled rules → findings and suppressed hits.

Pure: no I/O, no clock, no randomness. `compile_screen` is cached by policy hash, so a
check never recompiles; `CompiledScreen.run` is the per-check work.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from threading import Lock

from redline.policy.schema import Policy
from redline.policy.terms import derive_terms, split_detector_topics
from redline.screen.context import assess
from redline.screen.matcher import Matcher, RawHit, RuleSpec
from redline.screen.normalize import Shadow, strip_invisible
from redline.screen.detectors.base import Detector
from redline.types import ContextAssessment, Finding, Severity, Status

_CACHE_SIZE = 32
_DETECTOR_SEVERITY = {"refuse": Severity.REFUSE, "escalate": Severity.BLOCK, "flag": Severity.FLAG}
DETECTOR_NAMES = ("credentials", "pii", "technical_content")


def _detector(name: str) -> Detector:
    # imported on first use so a policy with every detector off loads none of them
    if name == "credentials":
        from redline.screen.detectors.credentials import CredentialsDetector

        return CredentialsDetector()
    if name == "pii":
        from redline.screen.detectors.pii import PiiDetector

        return PiiDetector()
    from redline.screen.detectors.technical import TechnicalContentDetector

    return TechnicalContentDetector()


def detector_rules(policy: Policy) -> list[tuple[str, str, Severity]]:
    """(detector name, rule id, severity) for each detector the policy turns on."""
    enabled = []
    for name in DETECTOR_NAMES:
        setting = getattr(policy.detectors, name)
        if setting != "off":
            enabled.append((name, f"detector:{name}", _DETECTOR_SEVERITY[setting]))
    return enabled


def _topic_rule(text: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Terms and delegated detectors of a rule written in words only."""
    return split_detector_topics(derive_terms(text))


def rule_specs(policy: Policy) -> list[RuleSpec]:
    """Every rule of the policy that the screen runs, with its id as findings name it."""
    default = frozenset(policy.screen.suppress)
    specs: list[RuleSpec] = []
    for skill in policy.skills:
        for line in skill.red_lines:
            # the operator's own terms are matched as written; derived topics that name
            # what a detector finds (passwords, personal details) go to that detector
            terms, detectors = (line.terms, ()) if line.terms is not None else _topic_rule(line.rule)
            specs.append(
                RuleSpec(
                    id=f"{skill.slug}:{line.id}",
                    severity=line.severity,
                    suppress=default if line.suppress is None else frozenset(line.suppress),
                    terms=terms,
                    patterns=line.patterns,
                    detectors=detectors,
                )
            )
    for kind, severity in (("never", Severity.BLOCK), ("escalate", Severity.FLAG)):
        for index, text in enumerate(getattr(policy.soul.boundaries, kind)):
            terms, detectors = _topic_rule(text)
            specs.append(
                RuleSpec(
                    id=f"soul:{kind}:{index}",
                    severity=severity,
                    suppress=default,
                    terms=terms,
                    source="boundary",
                    detectors=detectors,
                )
            )
    return specs


@dataclass(frozen=True, slots=True)
class ScreenResult:
    findings: tuple[Finding, ...]
    suppressed: tuple[Finding, ...]
    hits: int


def _dedupe(hits: list[RawHit]) -> list[RawHit]:
    """One hit per place and rule: a hit inside a longer hit of the same rule goes."""
    if len(hits) < 2:
        return hits
    hits.sort(key=lambda h: (h.rule, h.start, -h.end))
    kept: list[RawHit] = []
    for hit in hits:
        last = kept[-1] if kept else None
        if last is not None and last.rule == hit.rule and hit.end <= last.end:
            continue
        kept.append(hit)
    kept.sort(key=lambda h: (h.start, h.rule))
    return kept


class CompiledScreen:
    def __init__(self, policy: Policy) -> None:
        self.policy_hash = policy.hash
        self.rules = rule_specs(policy)
        self.matcher = Matcher(self.rules)
        # each detector runs once per check, for the policy's own detector rule and for
        # the rules that delegate to it
        self._fire: dict[str, list[tuple[str, Severity, str | None]]] = {}
        for name, rule_id, severity in detector_rules(policy):
            self._fire.setdefault(name, []).append((rule_id, severity, None))
        for rule in self.rules:
            for name in rule.detectors:
                self._fire.setdefault(name, []).append((rule.id, rule.severity, f"{name} detector"))
        self.detectors = {name: _detector(name) for name in self._fire}

    def run(self, shadow: Shadow) -> ScreenResult:
        hits = _dedupe(self.matcher.scan(shadow.text))
        findings: list[Finding] = self._detect(shadow.original)
        detected = len(findings)
        if not hits:
            return ScreenResult(tuple(findings), (), detected)
        suppressed: list[Finding] = []
        contexts: dict[tuple[int, int], ContextAssessment] = {}
        original = shadow.original
        for hit in hits:
            span = (hit.start, hit.end)
            context = contexts.get(span)
            if context is None:
                context = contexts[span] = assess(shadow.text, hit.start, hit.end)
            rule = self.rules[hit.rule]
            start, end = shadow.span(hit.start, hit.end)
            blocking = context.first(rule.suppress) if rule.suppress else None
            cue = blocking or (context.cues[0] if context.cues else None)
            cue_text = None
            if cue is not None:
                cue_start, cue_end = shadow.span(cue.start, cue.end)
                cue_text = original[cue_start:cue_end]
            finding = Finding(
                rule=rule.id,
                severity=rule.severity,
                start=start,
                end=end,
                text=original[start:end],
                status=cue.status if cue is not None else Status.AFFIRMED,
                cue=cue_text,
                term=hit.term,
                pattern=hit.pattern,
            )
            (suppressed if blocking is not None else findings).append(finding)
        return ScreenResult(tuple(findings), tuple(suppressed), len(hits) + detected)

    def _detect(self, original: str) -> list[Finding]:
        """Detector findings: a key is a key whatever the words around it say, so no
        context status applies and nothing is suppressed.

        Detectors read the original (keys and formats are case-sensitive), less the
        invisible characters that would hide a key from them (`AKIA\u200bIOSF…`)."""
        if not self.detectors:
            return []
        visible, offsets = strip_invisible(original)
        findings: list[Finding] = []
        for name, detector in self.detectors.items():
            for found in detector.detect(visible):
                start, end = found.start, found.end
                if offsets is not None:
                    start, end = offsets[start], offsets[end - 1] + 1
                for rule_id, severity, via in self._fire[name]:
                    findings.append(
                        Finding(
                            rule=rule_id,
                            severity=severity,
                            start=start,
                            end=end,
                            text=original[start:end],
                            status=Status.AFFIRMED,
                            cue=None,
                            entity=found.entity,
                            detail=f"{via}: {found.explanation}" if via else found.explanation,
                        )
                    )
        return findings


_cache: OrderedDict[str, CompiledScreen] = OrderedDict()
_lock = Lock()


def compile_screen(policy: Policy) -> CompiledScreen:
    """The compiled screen of `policy`, built once per policy hash (LRU of 32)."""
    key = policy.hash
    with _lock:
        screen = _cache.get(key)
        if screen is not None:
            _cache.move_to_end(key)
            return screen
    screen = CompiledScreen(policy)
    with _lock:
        _cache[key] = screen
        while len(_cache) > _CACHE_SIZE:
            _cache.popitem(last=False)
    return screen
