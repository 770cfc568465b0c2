"""The heuristic judge: no model, a lexicon of everyday wordings of guarded topics.

It reads what the screen cannot: a topic said without its own words ("the money back on
your card" for a refund). Each rule's terms are looked up in `data/paraphrases.tsv`; a
wording found in the text, with no negation word right before it, raises the rule with
its span as evidence. It does not read context as the screen does (`reads_context`
false), so it never overrules the screen setting a negated hit aside, and it answers
`clear` (confidence 0.5: nothing found, not proof of innocence) otherwise.
Hand-written because it is a lookup of a few hundred phrases with one guard; no
library does that smaller.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from redline.judges.base import (
    CallStatus,
    Evidence,
    JudgeContext,
    JudgeRule,
    JudgeVerdict,
    RuleVerdict,
    Verdict,
)

_NEGATION = re.compile(r"\b(?:no|not|never|without|can't|cannot|won't|don't|isn't|aren't|wasn't)\W+(?:\w+\W+){0,2}$", re.IGNORECASE)


@lru_cache(maxsize=1)
def lexicon() -> dict[str, tuple[str, ...]]:
    """TOPIC -> everyday wordings, from the packaged data file."""
    entries: dict[str, list[str]] = {}
    text = resources.files("redline.judges").joinpath("data/paraphrases.tsv").read_text("utf-8")
    for line in text.splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        topic, wording = line.split("\t")
        entries.setdefault(topic.strip().lower(), []).append(wording.strip().lower())
    return {topic: tuple(words) for topic, words in entries.items()}


def topic_wordings(rule: JudgeRule) -> tuple[str, ...]:
    """The everyday wordings the lexicon lists for the topics among the rule's terms."""
    words = " " + " ".join(t.lower() for t in rule.terms) + " "
    found: list[str] = []
    for topic, wordings in lexicon().items():
        if f" {topic} " in words or f" {topic}s " in words:
            found.extend(w for w in wordings if w not in found)
    return tuple(found)


class HeuristicJudge:
    name = "heuristic"
    model: str | None = "paraphrases/1"
    reads_context = False

    def __init__(self) -> None:
        self._patterns: dict[str, re.Pattern[str] | None] = {}

    @classmethod
    def from_settings(cls, settings: Mapping[str, Any], policy_dir: Path | None) -> HeuristicJudge:
        return cls()

    def _pattern(self, rule: JudgeRule) -> re.Pattern[str] | None:
        key = rule.id + "\x00" + "\x00".join(rule.terms)
        if key not in self._patterns:
            wordings = topic_wordings(rule)
            self._patterns[key] = (
                re.compile(r"\b(?:" + "|".join(re.escape(w) for w in wordings) + r")\b", re.IGNORECASE)
                if wordings else None
            )
        return self._patterns[key]

    def judge(
        self, text: str, rules: Sequence[JudgeRule], context: JudgeContext | None = None
    ) -> JudgeVerdict:
        folded = text.replace("\u2019", "'")
        verdicts: list[RuleVerdict] = []
        for rule in rules:
            pattern = self._pattern(rule)
            spans = [
                m for m in (pattern.finditer(folded) if pattern else ())
                if not _NEGATION.search(folded[max(0, m.start() - 40) : m.start()])
            ]
            if spans:
                first = spans[0]
                verdicts.append(RuleVerdict(
                    rule.id, Verdict.VIOLATES, 0.6, f"says {first.group(0)!r}, an everyday wording of the rule's topic",
                    tuple(Evidence(m.start(), m.end(), text[m.start() : m.end()]) for m in spans[:3]),
                ))
            else:
                verdicts.append(RuleVerdict(rule.id, Verdict.CLEAR, 0.5, "no wording of the topic found"))
        return JudgeVerdict(self.name, self.model, CallStatus.OK, tuple(verdicts))
