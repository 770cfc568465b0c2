"""The deterministic screen: policy → compiled rules → findings and suppressed hits.

Pure: no I/O, no clock, no randomness. `compile_screen` is cached by policy hash, so a
check never recompiles; `CompiledScreen.run` is the per-check work, over a `TextAnalysis`
(screen/analysis.py) that keeps the work that depends on the text alone for the next
policy that checks the same text.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from dataclasses import dataclass
from functools import lru_cache
from operator import attrgetter
from typing import Callable
from threading import Lock

from redline.policy.building import collector_paused
from redline.policy.schema import Policy
from redline.policy.topics import about_others, derive_topics, readable
from redline.policy.clauses import rule_clauses
from redline.screen.analysis import TextAnalysis
from redline.screen.context import Cues, TextContext, names_another_person, names_no_one, without_modifiers
from redline.screen.matcher import Matcher, RawHit, RuleSpec
from redline.screen.detectors.allow import AllowList
from redline.screen.detectors import shared_detector
from redline.screen.detectors.base import Detector, original_span
from redline.types import Finding, Severity, Status, build_finding, frozen_shell

_CACHE_SIZE = 32
# Once a rule has fired this often, its further hits cannot change the outcome: they
# are counted, not assessed one by one. A rule that has not fired yet has EVERY hit
# assessed, so a hundred denials cannot hide the promise that follows them ("There is
# no refund. " * 100 + "Your refund is approved."); what keeps that linear is the context
# layer's bounded cost per hit (TextContext: nearest phrases only, one assessment per
# sentence shape). Decisions keep fewer still (decide/caps.py).
MAX_FIRED_PER_RULE = 40
# Below one hit per this many characters the context reads each hit's sentence alone
# (TextContext, few), above it the whole text once: where the two cost the same.
_CHARS_PER_HIT = 200
MAX_SUPPRESSED_PER_RULE = 40  # suppressed hits kept as records; the rest are only counted
_DETECTOR_SEVERITY = {"refuse": Severity.REFUSE, "escalate": Severity.BLOCK, "flag": Severity.FLAG}
DETECTOR_NAMES = ("credentials", "pii", "technical_content")


def detector_rules(policy: Policy) -> list[tuple[str, str, Severity]]:
    """(detector name, rule id, severity) for each detector the policy turns on."""
    enabled = []
    for name in DETECTOR_NAMES:
        setting = policy.detectors.action(name)
        if setting != "off":
            enabled.append((name, f"detector:{name}", _DETECTOR_SEVERITY[setting]))
    return enabled


def _suppress(default: frozenset[Status], explicit: tuple[Status, ...] | None, others: bool) -> frozenset[Status]:
    """The statuses that set a rule's hits aside. A rule about other people's information
    ("another customer's", "whether someone has …") is not set aside by other-experiencer
    cues unless the operator says so for that rule."""
    if explicit is not None:
        return frozenset(explicit)
    return default - {Status.OTHER_EXPERIENCER} if others else default


def about_other_people(rule: str) -> bool:
    """Whether a rule guards another person's information or acts ("another customer's",
    "whether someone has …", "charges made by a child"): read in the clauses that state
    the rule, not in its rationale ("… their parents decide")."""
    rule = readable(rule)
    if about_others(rule):
        return True
    stated = rule_clauses(rule)[0]
    return names_another_person(" ".join(token for clause in stated for token in clause))


def rule_specs(policy: Policy) -> list[RuleSpec]:
    """Every rule of the policy that the screen runs, with its id as findings name it."""
    default = frozenset(policy.screen.suppress)
    specs: list[RuleSpec] = []
    for skill in policy.skills:
        for line in skill.red_lines:
            # the operator's own terms are matched as written; derived topics that name
            # what a detector finds (passwords, personal details) go to that detector
            derived = None if line.terms is not None else derive_topics(line.rule)
            specs.append(
                RuleSpec(
                    id=f"{skill.slug}:{line.id}",
                    severity=line.severity,
                    suppress=_suppress(default, line.suppress, about_other_people(line.rule)),
                    terms=line.terms or (),
                    patterns=line.patterns,
                    detectors=derived.detectors if derived else (),
                    topics=derived.topics if derived else (),
                )
            )
    for kind, severity in (("never", Severity.BLOCK), ("escalate", Severity.FLAG)):
        for index, text in enumerate(getattr(policy.soul.boundaries, kind)):
            derived = derive_topics(text)
            specs.append(
                RuleSpec(
                    id=f"soul:{kind}:{index}",
                    severity=severity,
                    suppress=_suppress(default, None, about_other_people(text)),
                    terms=(),
                    source="boundary",
                    detectors=derived.detectors,
                    topics=derived.topics,
                )
            )
    return specs


@dataclass(frozen=True, slots=True)
class ScreenResult:
    findings: tuple[Finding, ...]
    suppressed: tuple[Finding, ...]
    hits: int
    unassessed: int = 0  # hits of a rule that had fired MAX_FIRED_PER_RULE times: counted, not assessed
    unrecorded: int = 0  # suppressed hits past MAX_SUPPRESSED_PER_RULE: assessed, counted, not kept


_RESULT_SHELL = frozen_shell(ScreenResult)


def _result(
    findings: tuple[Finding, ...], suppressed: tuple[Finding, ...], hits: int, unassessed: int = 0, unrecorded: int = 0
) -> ScreenResult:
    """`ScreenResult(...)` at a fraction of a frozen dataclass's cost (types.build_finding)."""
    shell = _RESULT_SHELL()
    shell.findings, shell.suppressed, shell.hits, shell.unassessed, shell.unrecorded = (
        findings, suppressed, hits, unassessed, unrecorded
    )
    shell.__class__ = ScreenResult
    result: ScreenResult = shell
    return result


def _dedupe(findings: list[Finding]) -> list[Finding]:
    """One finding per place and rule: a finding inside a longer one of the same rule goes."""
    if len(findings) < 2:
        return findings
    if len({f.rule for f in findings}) == len(findings):  # one finding per rule: none to drop
        findings.sort(key=_PLACE)
        return findings
    findings.sort(key=_END, reverse=True)  # by rule and start, the longest first (stable sorts)
    findings.sort(key=_RULE_START)
    kept: list[Finding] = []
    for finding in findings:
        last = kept[-1] if kept else None
        if last is not None and last.rule == finding.rule and finding.end <= last.end:
            continue
        kept.append(finding)
    kept.sort(key=_PLACE)
    return kept


_PLACE, _RULE_START, _END = attrgetter("start", "rule"), attrgetter("rule", "start"), attrgetter("end")


class CompiledScreen:
    def __init__(self, policy: Policy) -> None:
        self.policy_hash = policy.hash
        self.rules = rule_specs(policy)
        self.matcher = Matcher(self.rules)
        # a topic the rule states in the negative ("say it can't LOSE MONEY") is not set
        # aside by a negation: in a draft, the negation is what the rule forbids saying
        self._negative = {
            (index, topic.label): rule.suppress - {Status.NEGATED}
            for index, rule in enumerate(self.rules) for topic in rule.topics if topic.negative
        }
        # a topic the rule guards in its absence ("sell vapes WITHOUT an ID"): a draft's
        # "without" or "-free" states it; other negations ("we can't") still set it aside
        self._privative = {
            (index, topic.label): topic.privative
            for index, rule in enumerate(self.rules) for topic in rule.topics if topic.privative
        }
        # each detector runs once per check, for the policy's own detector rule and for
        # the rules that delegate to it
        self._fire: dict[str, list[tuple[str, Severity, str | None]]] = {}
        for name, rule_id, severity in detector_rules(policy):
            self._fire.setdefault(name, []).append((rule_id, severity, None))
        for rule in self.rules:
            for name in rule.detectors:
                self._fire.setdefault(name, []).append((rule.id, rule.severity, f"{name} detector"))
        self.detectors = {name: shared_detector(name) for name in self._fire}
        # the organisation's own contact details are not a third party's PII
        self.allow = {"pii": AllowList(policy.detectors.pii_allow)}

    def run(self, analysis: TextAnalysis) -> ScreenResult:
        shadow = analysis.shadow
        hits = self.matcher.scan(shadow.text, analysis.keyed)
        hits.sort(key=_HIT_ORDER)
        findings, allowed = self._detect(analysis)
        detected = len(findings) + len(allowed)
        if not hits:
            return _result(tuple(findings), tuple(allowed), detected)
        # a pass over the whole text pays where hits are dense; a long text with a hit here
        # and there costs less one sentence at a time (a megabyte: 40 ms of passes)
        many = len(hits) > 3 and len(hits) * _CHARS_PER_HIT > len(shadow.text)
        cues = analysis.context(many=many).cues
        rules, negative = self.rules, self._negative
        span = None if shadow.identity else shadow.span
        original = shadow.original
        fired: list[Finding] = []
        suppressed: list[Finding] = []
        fired_by_rule: dict[int, int] = {}
        quiet_by_rule: dict[int, int] = {}
        unassessed = unrecorded = 0
        absent: dict[tuple[str, ...], Callable[..., Cues]] = {}
        for index, start, end, term, pattern, parts in hits:  # a RawHit's fields, unpacked at once
            count = fired_by_rule.get(index, 0)
            if count >= MAX_FIRED_PER_RULE:
                unassessed += 1
                continue
            rule = rules[index]
            suppress = negative.get((index, term), rule.suppress) if negative else rule.suppress
            privative = self._privative.get((index, term)) if self._privative else None
            look = cues
            if privative is not None:  # one reading with the words blanked per text, however many hits
                look = absent.get(privative) or absent.setdefault(privative, _absent(cues, shadow.text, privative))
            if parts:
                blocking, cue = _status(look, parts, suppress, shadow.text)
            else:
                found = look(start, end)
                blocking = cue = None
                if found:
                    cue = found[0]
                    for status, a, b in found:
                        if status in suppress:
                            if status is _OTHER and names_no_one(shadow.text, a, b):
                                found = without_modifiers(shadow.text, found)  # "the SIBLING discount"
                                cue = found[0] if found else None
                                continue
                            blocking = cue = (status, a, b)
                            break
            if blocking is None:
                fired_by_rule[index] = count + 1
                fired.append(_finding(original, span, start, end, term, pattern, rule, cue))
            elif quiet_by_rule.get(index, 0) < MAX_SUPPRESSED_PER_RULE:
                quiet_by_rule[index] = quiet_by_rule.get(index, 0) + 1
                suppressed.append(_finding(original, span, start, end, term, pattern, rule, blocking))
            else:
                unrecorded += 1
        # where a rule both fired and was set aside at one place, it fired
        fired = _dedupe(fired)
        if suppressed:
            spans: dict[str, list[tuple[int, int]]] = {}
            for f in fired:
                spans.setdefault(f.rule, []).append((f.start, f.end))
            suppressed = [f for f in _dedupe(suppressed) if not any(
                s < f.end and f.start < e for s, e in spans.get(f.rule, ()))]
        findings.extend(fired)
        return _result(tuple(findings), tuple(allowed) + tuple(suppressed), len(hits) + detected,
                            unassessed, unrecorded)

    def _detect(self, analysis: TextAnalysis) -> tuple[list[Finding], list[Finding]]:
        """Detector findings, and those set aside by the policy's allow list: a key is a
        key whatever the words around it say, so no context status applies.

        Detectors read the original (keys and formats are case-sensitive), less the
        invisible characters that would hide a key from them (`AKIA\u200bIOSF…`)."""
        if not self.detectors:
            return [], []
        original = analysis.text
        visible, offsets = analysis.visible
        findings: list[Finding] = []
        allowed: list[Finding] = []
        for name, detector in self.detectors.items():
            allow = self.allow.get(name)
            for found in analysis.detections(detector):
                if found.weak:
                    continue  # a weak span (`::1`, a 078-051121) is redacted in logs, never a finding
                start, end = original_span(found.start, found.end, offsets)
                entry = allow.exempting(found.entity, visible[found.start : found.end]) if allow else None
                for rule_id, severity, via in self._fire[name]:
                    detail = f"{via}: {found.explanation}" if via else found.explanation
                    if entry is not None:
                        detail = f"{detail}; the organisation's own, allowed by detectors.{name}.allow {entry!r}"
                    (findings if entry is None else allowed).append(
                        Finding(
                            rule=rule_id,
                            severity=severity,
                            start=start,
                            end=end,
                            text=original[start:end],
                            status=Status.AFFIRMED,
                            cue=entry,
                            entity=found.entity,
                            detail=detail,
                        )
                    )
        return findings, allowed


_HIT_ORDER = attrgetter("start", "rule")
_Cue = tuple[Status, int, int]


def _status(
    cues: Callable[[int, int, tuple[tuple[int, int], ...]], Cues], parts: tuple[tuple[int, int], ...],
    suppress: frozenset[Status], text: str,
) -> tuple[_Cue | None, _Cue | None]:
    """(the cue that sets a two-word hit aside, or None; the first cue found, for the record).

    It is set aside when either of its words is: both stand in one clause, so a negation
    of one ("we have not WAIVED the fee") is a negation of both. The other word is never
    its cue ("DENIED your claim")."""
    first: _Cue | None = None
    for index, (start, end) in enumerate(parts):
        found = cues(start, end, parts[:index] + parts[index + 1 :])
        for cue in found:
            if cue[0] in suppress:
                if cue[0] is _OTHER and names_no_one(text, cue[1], cue[2]):
                    found = without_modifiers(text, found)  # "our PARTNER city"
                    continue
                return cue, cue
        if first is None and found:
            first = found[0]
    return None, first


def _absent(cues: Callable[..., Cues], text: str, words: tuple[str, ...]) -> Callable[..., Cues]:
    """`cues` for a topic the rule guards in its absence: where the nearest negation is
    one of `words` ("without", "free"), the text is read again with those words blanked
    (offsets kept), so a negation further out still counts ("we can't sell it WITHOUT an
    ID": "can't") and the word of absence does not. Rare: such rules, such drafts."""
    blanked: list[TextContext] = []

    def look(start: int, end: int, others: tuple[tuple[int, int], ...] = ()) -> Cues:
        found = cues(start, end, others)
        if not any(cue[0] is _NEGATED and _first_word(text, cue) in words for cue in found):
            return found
        if not blanked:
            blanked.append(TextContext(_absence_words(words).sub(_blank, text)))
        return blanked[0].cues(start, end, others)
    return look


@lru_cache(maxsize=8)
def _absence_words(words: tuple[str, ...]) -> re.Pattern[str]:
    return re.compile(r"\b(?:%s)\b" % "|".join(map(re.escape, words)), re.IGNORECASE)


def _blank(match: re.Match[str]) -> str:
    return " " * len(match.group())


def _first_word(text: str, cue: _Cue) -> str:
    phrase = text[cue[1]:cue[2]].lower().split(None, 1)
    return phrase[0] if phrase else ""


_NEGATED = Status.NEGATED
_OTHER = Status.OTHER_EXPERIENCER


def _finding(
    original: str, span: Callable[[int, int], tuple[int, int]] | None, start: int, end: int, term: str, pattern: bool,
    rule: RuleSpec, cue: _Cue | None,
) -> Finding:
    """A hit (shadow offsets) as a finding in the original's offsets (`span` maps them; None: the same)."""
    if span is not None:
        start, end = span(start, end)
    if cue is None:
        return build_finding(rule.id, rule.severity, start, end, original[start:end], _AFFIRMED, None, "screen", None,
                             term, pattern)
    cue_start, cue_end = span(cue[1], cue[2]) if span is not None else (cue[1], cue[2])
    return build_finding(rule.id, rule.severity, start, end, original[start:end], cue[0], original[cue_start:cue_end],
                         "screen", None, term, pattern)


_AFFIRMED = Status.AFFIRMED


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
    with collector_paused():
        screen = CompiledScreen(policy)
    with _lock:
        _cache[key] = screen
        while len(_cache) > _CACHE_SIZE:
            _cache.popitem(last=False)
    return screen
